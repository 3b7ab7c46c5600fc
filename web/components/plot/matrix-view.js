// Small square matrices drawn as coloured cells through the diverging colormap, with row and
// column labels, a title, and the values printed in the cells when they fit.
import { formatTick } from './axes.js';
import { tableFor } from './scatter.js';

function cellColor(table, value, scale) {
  const t = Math.max(0, Math.min(255, Math.round(127.5 + (scale > 0 ? (value / scale) * 127.5 : 0))));
  return [table[4 * t], table[4 * t + 1], table[4 * t + 2]];
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {{x,y,w,h}} rect
 * @param {{ values: ArrayLike<number>, d: number, scale: number, labels: string[], title: string,
 *   subtitle?: string, theme: object, fontSize: number, highlight?: boolean }} spec
 */
export function drawMatrix(ctx, rect, spec) {
  const { values, d, scale, labels, theme, fontSize } = spec;
  const titleH = 1.4 * fontSize;
  const subH = spec.subtitle ? 1.3 * fontSize : 0;
  const labelW = Math.max(...labels.map((l) => l.length)) * fontSize * 0.6 + 6;
  const side = Math.max(10, Math.min(rect.w - labelW, rect.h - titleH - subH - labelW * 0.2 - fontSize * 1.2));
  const cell = side / d;
  const x0 = rect.x + labelW + (rect.w - labelW - side) / 2;
  const y0 = rect.y + titleH + fontSize * 1.2;
  const table = tableFor(theme);
  ctx.save();
  for (let i = 0; i < d; i++) {
    for (let j = 0; j < d; j++) {
      const v = values[i * d + j];
      const [r, g, b] = cellColor(table, v, scale);
      ctx.fillStyle = `rgb(${r}, ${g}, ${b})`;
      ctx.fillRect(x0 + j * cell, y0 + i * cell, cell - 1, cell - 1);
      if (cell >= 2.5 * fontSize) {
        const light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 140;
        ctx.fillStyle = light ? '#111' : '#f4f4f4';
        ctx.font = `${fontSize - 1}px ${theme.font}`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(formatTick(Number(v.toPrecision(2))), x0 + (j + 0.5) * cell, y0 + (i + 0.5) * cell);
      }
    }
  }
  ctx.strokeStyle = spec.highlight ? theme.accent : theme.muted;
  ctx.lineWidth = spec.highlight ? 2 : 1;
  ctx.strokeRect(x0 - 0.5, y0 - 0.5, side, side);
  ctx.font = `${fontSize - 1}px ${theme.font}`;
  ctx.fillStyle = theme.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  labels.forEach((label, i) => ctx.fillText(label, x0 - 4, y0 + (i + 0.5) * cell));
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  labels.forEach((label, j) => ctx.fillText(label, x0 + (j + 0.5) * cell, y0 - 2));
  ctx.font = `600 ${fontSize}px ${theme.font}`;
  ctx.fillStyle = spec.highlight ? theme.accent : theme.fg;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.fillText(spec.title, rect.x + rect.w / 2, rect.y + 1, rect.w);
  if (spec.subtitle) {
    ctx.font = `${fontSize - 1}px ${theme.font}`;
    ctx.fillStyle = theme.muted;
    ctx.fillText(spec.subtitle, rect.x + rect.w / 2, y0 + side + 4, rect.w);
  }
  ctx.restore();
}
