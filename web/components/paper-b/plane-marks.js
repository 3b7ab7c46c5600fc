// Canvas drawers of the paper-B figures: an energy landscape (a heatmap through the theme's
// colormap, low energy at its negative end, with contour lines by marching squares, axes and a
// colour bar), arrows, token markers, and small matrices drawn cell by cell. CSS pixels.
import { colormapTable } from '../base/theme.js';
import { drawAxes, formatTick, linearScale, niceTicks } from '../plot/axes.js';
import { sub } from './cem-kit.js';
import { drawColorStrip, scratchCanvas, squarePlotWithBar } from '../plot/heatmap.js';

/** [min, max] of the finite values of a grid. */
export function gridRange(grid) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of grid) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : [0, 1];
}

/**
 * Contour segments of a G × G grid (value[r·G + c] at column c, row r) at `level`, by marching
 * squares with linear interpolation. Calls segment(c0, r0, c1, r1) in grid coordinates.
 */
export function contourSegments(grid, G, level, segment) {
  const at = (r, c) => grid[r * G + c];
  const cross = (a, b) => (level - a) / (b - a);
  for (let r = 0; r + 1 < G; r++) {
    for (let c = 0; c + 1 < G; c++) {
      const v0 = at(r, c);          // (c, r)
      const v1 = at(r, c + 1);      // (c+1, r)
      const v2 = at(r + 1, c + 1);  // (c+1, r+1)
      const v3 = at(r + 1, c);      // (c, r+1)
      const code = (v0 > level ? 1 : 0) | (v1 > level ? 2 : 0) | (v2 > level ? 4 : 0) | (v3 > level ? 8 : 0);
      if (code === 0 || code === 15) continue;
      const edges = [];
      if ((code & 1) !== (code >> 1 & 1)) edges.push([c + cross(v0, v1), r]);
      if ((code >> 1 & 1) !== (code >> 2 & 1)) edges.push([c + 1, r + cross(v1, v2)]);
      if ((code >> 2 & 1) !== (code >> 3 & 1)) edges.push([c + 1 - cross(v2, v3), r + 1]);
      if ((code >> 3 & 1) !== (code & 1)) edges.push([c, r + 1 - cross(v3, v0)]);
      if (edges.length === 2) segment(edges[0][0], edges[0][1], edges[1][0], edges[1][1]);
      else if (edges.length === 4) {
        // Saddle: pair by the value at the centre.
        const centre = (v0 + v1 + v2 + v3) / 4 > level;
        const [a, b, c2, d] = edges;
        if (centre === (code === 5)) {
          segment(a[0], a[1], b[0], b[1]);
          segment(c2[0], c2[1], d[0], d[1]);
        } else {
          segment(a[0], a[1], d[0], d[1]);
          segment(b[0], b[1], c2[0], c2[1]);
        }
      }
    }
  }
}


/** The colour of t ∈ [0, 1] on the theme's colormap, as CSS. */
export function colormapColor(theme, t) {
  const table = colormapTable(theme.colormap);
  const k = 4 * Math.max(0, Math.min(255, Math.round(t * 255)));
  return `rgb(${table[k]}, ${table[k + 1]}, ${table[k + 2]})`;
}

/** The colour with an alpha, for fills (theme.js's withAlpha). */
export { withAlpha as alpha } from '../base/theme.js';

/**
 * Draws an energy landscape into `rect`: the G × G grid over [lo, hi]² (row r at v_r, bottom to
 * top; column c at u_c), contour lines at round levels, axes and a colour bar.
 * @returns {{ plot, xScale, yScale, levels, range }}
 */
export function drawLandscape(ctx, rect, { grid, G, lo, hi, theme, fontSize, xLabel, yLabel, barLabel, range }) {
  const [emin, emax] = range ?? gridRange(grid);
  const span = emax > emin ? emax - emin : 1;
  const { plot, bar } = squarePlotWithBar(rect, fontSize, 3.4);
  const side = plot.w;
  const xScale = linearScale(lo, hi, plot.x, plot.x + plot.w);
  const yScale = linearScale(lo, hi, plot.y + plot.h, plot.y);

  // The heatmap: one pixel per grid point, top row = largest v; smoothing blends the cells.
  const table = colormapTable(theme.colormap);
  const image = new ImageData(G, G);
  for (let r = 0; r < G; r++) {
    for (let c = 0; c < G; c++) {
      const v = grid[r * G + c];
      const o = 4 * ((G - 1 - r) * G + c);
      if (!Number.isFinite(v)) continue;
      const t = Math.max(0, Math.min(255, Math.round(((v - emin) / span) * 255)));
      image.data[o] = table[4 * t];
      image.data[o + 1] = table[4 * t + 1];
      image.data[o + 2] = table[4 * t + 2];
      image.data[o + 3] = table[4 * t + 3];
    }
  }
  const canvas = scratchCanvas(ctx, G, G);
  canvas.getContext('2d').putImageData(image, 0, 0);
  const cell = plot.w / (G - 1);
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y, plot.w, plot.h);
  ctx.clip();
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(canvas, plot.x - cell / 2, plot.y - cell / 2, plot.w + cell, plot.h + cell);

  // Contours.
  const levels = niceTicks(emin, emax, 9).filter((l) => l > emin && l < emax);
  const px = (c) => plot.x + (c / (G - 1)) * plot.w;
  const py = (r) => plot.y + plot.h - (r / (G - 1)) * plot.h;
  ctx.lineWidth = 1;
  ctx.strokeStyle = theme.fg;
  ctx.globalAlpha = 0.42;
  ctx.beginPath();
  for (const level of levels) {
    contourSegments(grid, G, level, (c0, r0, c1, r1) => {
      ctx.moveTo(px(c0), py(r0));
      ctx.lineTo(px(c1), py(r1));
    });
  }
  ctx.stroke();
  ctx.restore();

  const ticks = niceTicks(lo, hi, side < 220 ? 3 : 5);
  drawAxes(ctx, plot, { x: ticks, y: ticks, xScale, yScale, xLabel, yLabel, theme, fontSize });
  drawEnergyBar(ctx, bar, table, { emin, emax, levels, theme, fontSize, barLabel });
  return { plot, xScale, yScale, levels, range: [emin, emax] };
}

function drawEnergyBar(ctx, bar, table, { emin, emax, levels, theme, fontSize, barLabel }) {
  ctx.save();
  ctx.imageSmoothingEnabled = true;
  drawColorStrip(ctx, bar, table, theme);
  const y = linearScale(emin, emax, bar.y + bar.h, bar.y);
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.fillStyle = theme.muted;
  ctx.strokeStyle = theme.fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  // Label every other level when they crowd.
  const stride = Math.max(1, Math.ceil((levels.length * fontSize * 1.3) / bar.h));
  ctx.beginPath();
  levels.forEach((level, k) => {
    const py = Math.round(y(level)) + 0.5;
    ctx.moveTo(bar.x, py);
    ctx.lineTo(bar.x + bar.w, py);
    if (k % stride === 0) ctx.fillText(formatTick(Number(level.toPrecision(3))), bar.x + bar.w + 4, py);
  });
  ctx.globalAlpha = 0.6;
  ctx.stroke();
  if (barLabel) {
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText(barLabel, bar.x + bar.w / 2, bar.y - 4);
  }
  ctx.restore();
}

/** An arrow from (x0, y0) to (x1, y1) with a filled head, drawn over a halo of `halo`. */
export function drawArrow(ctx, x0, y0, x1, y1, { color, width = 2.5, head = 9, halo = null, dash = [] }) {
  const length = Math.hypot(x1 - x0, y1 - y0);
  if (!(length > 0.5)) return;
  const [ux, uy] = [(x1 - x0) / length, (y1 - y0) / length];
  const h = Math.min(head, length * 0.6);
  const [bx, by] = [x1 - ux * h, y1 - uy * h];
  const path = () => {
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(bx, by);
  };
  const tip = () => {
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(bx - uy * h * 0.5, by + ux * h * 0.5);
    ctx.lineTo(bx + uy * h * 0.5, by - ux * h * 0.5);
    ctx.closePath();
  };
  ctx.save();
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  if (halo) {
    ctx.strokeStyle = halo;
    ctx.lineWidth = width + 3;
    ctx.setLineDash(dash);
    path();
    ctx.stroke();
    ctx.setLineDash([]);
    tip();
    ctx.lineWidth = 3;
    ctx.stroke();
  }
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  path();
  ctx.stroke();
  ctx.setLineDash([]);
  tip();
  ctx.fill();
  ctx.restore();
}

/**
 * A token marker with a label: 'context' is a filled disc, 'query' a thick ring; `selected`
 * adds a dashed focus ring.
 */
export function drawToken(ctx, x, y, { kind = 'context', label, theme, fontSize, selected = false, color }) {
  const r = Math.max(5, fontSize * 0.5);
  ctx.save();
  ctx.lineWidth = 2;
  if (kind === 'query') {
    ctx.strokeStyle = theme.bg;
    ctx.lineWidth = 5;
    ctx.beginPath();
    ctx.arc(x, y, r + 1, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = color ?? theme.accent;
    ctx.lineWidth = 2.6;
    ctx.stroke();
  } else {
    ctx.fillStyle = color ?? theme.fg;
    ctx.strokeStyle = theme.bg;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }
  if (selected) {
    ctx.strokeStyle = theme.fg;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.arc(x, y, r + 6, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  if (label) {
    ctx.font = `600 ${fontSize}px ${theme.font}`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    ctx.lineWidth = 3;
    ctx.strokeStyle = theme.bg;
    ctx.lineJoin = 'round';
    ctx.strokeText(label, x + r + 3, y - r + 2);
    ctx.fillStyle = theme.fg;
    ctx.fillText(label, x + r + 3, y - r + 2);
  }
  ctx.restore();
}

/**
 * The tokens h (n·2) of a token-plane figure at (xScale(x), yScale(y)): context discs h₀ …, the
 * last one the query's ring, labelled as y⁰; the token at index `selected` gets the focus ring.
 */
export function drawTokens(ctx, h, n, xScale, yScale, { theme, fontSize, selected = -1 }) {
  for (let i = 0; i < n; i++) {
    const query = i === n - 1;
    drawToken(ctx, xScale(h[2 * i]), yScale(h[2 * i + 1]), { kind: query ? 'query' : 'context',
      label: query ? `h${sub(i)} = y⁰` : `h${sub(i)}`, theme, fontSize, selected: i === selected });
  }
}

/**
 * A matrix drawn cell by cell (no smoothing) through the diverging colormap on [−scale, scale],
 * with a title above and an outline. rows × cols, row-major. Returns the box used.
 */
export function drawMatrix(ctx, { x, y, cell, values, rows, cols, scale, theme, title, fontSize, outline, note }) {
  const table = colormapTable(theme.colormap);
  const k = scale > 0 ? 127.5 / scale : 0;
  ctx.save();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const t = Math.max(0, Math.min(255, Math.round(127.5 + values[r * cols + c] * k)));
      ctx.fillStyle = `rgb(${table[4 * t]}, ${table[4 * t + 1]}, ${table[4 * t + 2]})`;
      ctx.fillRect(x + c * cell, y + r * cell, Math.ceil(cell), Math.ceil(cell));
    }
  }
  const w = cols * cell;
  const h = rows * cell;
  ctx.lineWidth = outline ? 2.5 : 1;
  ctx.strokeStyle = outline ?? theme.muted;
  ctx.strokeRect(x - 0.5, y - 0.5, w + 1, h + 1);
  if (title) richText(ctx, title, x + w / 2, y - 4, { theme, fontSize, align: 'center', baseline: 'bottom', weight: '600' });
  if (note) {
    richText(ctx, note, x + w / 2, y + h + 4, { theme, fontSize, align: 'center', baseline: 'top', color: outline ?? theme.muted });
  }
  ctx.restore();
  return { x, y, w, h };
}

/**
 * Text with subscripts written as _X (letters or digits after an underscore, e.g. "W_Q", "W_down"),
 * drawn smaller and lowered. align: 'left' | 'center' | 'right'; baseline: 'top' | 'bottom' | 'middle' | 'alphabetic';
 * halo: outlined in the background colour so it reads over lines.
 */
export function richText(ctx, text, x, y, { theme, fontSize, color, align = 'left', baseline = 'alphabetic', weight = '', halo = false }) {
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

/** Text at (x, y) in the theme's font. */
export function label(ctx, text, x, y, options) {
  return richText(ctx, text, x, y, options);
}
