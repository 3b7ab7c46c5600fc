// Canvas text of the plotting kit: labels with subscripts written as _X ("W_Q", "B_u",
// "W_down"), drawn smaller and lowered, optionally on a halo of the background colour so they
// read over lines and heatmaps. Matrix titles, the token plane's notes and direct line labels
// all go through here.

/**
 * Draws `text` at (x, y) in the theme's font; returns its width.
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} text subscripts as _X: letters or digits after an underscore
 * @param {{ theme: object, fontSize: number, color?: string, align?: 'left'|'center'|'right',
 *   baseline?: 'top'|'bottom'|'middle'|'alphabetic', weight?: string, halo?: boolean }} options
 */
export function richText(ctx, text, x, y,
  { theme, fontSize, color, align = 'left', baseline = 'alphabetic', weight = '', halo = false }) {
  const parts = String(text).split(/_([A-Za-z0-9]+)/);
  const bold = weight ? `${weight} ` : '';
  const small = Math.round(fontSize * 0.74);
  ctx.save();
  ctx.textAlign = 'left';
  ctx.textBaseline = baseline;
  const widths = parts.map((part, k) => {
    ctx.font = `${bold}${k % 2 ? small : fontSize}px ${theme.font}`;
    return ctx.measureText(part).width;
  });
  const total = widths.reduce((a, b) => a + b, 0);
  let px = align === 'center' ? x - total / 2 : align === 'right' ? x - total : x;
  ctx.fillStyle = color ?? theme.fg;
  ctx.strokeStyle = theme.bg;
  ctx.lineWidth = 3.5;
  ctx.lineJoin = 'round';
  parts.forEach((part, k) => {
    ctx.font = `${bold}${k % 2 ? small : fontSize}px ${theme.font}`;
    if (halo) ctx.strokeText(part, px, k % 2 ? y + fontSize * 0.28 : y);
    ctx.fillText(part, px, k % 2 ? y + fontSize * 0.28 : y);
    px += widths[k];
  });
  ctx.restore();
  return total;
}

/** The width `text` takes when drawn by richText (underscores of subscripts not counted). */
export function richTextWidth(ctx, text, { theme, fontSize, weight = '' }) {
  ctx.save();
  ctx.font = `${weight ? `${weight} ` : ''}${fontSize}px ${theme.font}`;
  const width = ctx.measureText(String(text).replace(/_/g, '')).width;
  ctx.restore();
  return width;
}
