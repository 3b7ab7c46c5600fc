// The kit's one matrix view: a rows × cols matrix drawn cell by cell (no smoothing: every
// entry is one block of colour) through the theme's diverging colormap on [−scale, scale], with
// an outline, a title above, a note below, and optionally the row and column labels and the
// values printed in the cells when they fit. The interaction matrices B_u, the tied and
// standard weights and the tokens through both layers are all drawn by it.
import { colormapFor } from '../base/theme.js';
import { formatTick } from './axes.js';
import { richText } from './text.js';

/**
 * Where a square matrix with labels fits inside `rect`: the largest cell that leaves room for
 * the title and the column labels above, the row labels to the left and the note below.
 * @returns {{ x: number, y: number, cell: number }}
 */
export function fitMatrix(rect, { rows, cols, labels = null, note = false, fontSize }) {
  const labelW = labels ? Math.max(...labels.map((l) => l.length)) * fontSize * 0.6 + 6 : 0;
  const above = 1.4 * fontSize + (labels ? 1.2 * fontSize : 0);
  const below = note ? 1.3 * fontSize : 0;
  const room = Math.max(10, Math.min(rect.w - labelW, rect.h - above - below - labelW * 0.2));
  const cell = room / Math.max(rows, cols);
  return { x: rect.x + labelW + (rect.w - labelW - cell * cols) / 2, y: rect.y + above, cell };
}

/**
 * Draws the matrix with its top-left cell at (x, y); returns the box it took.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{ x: number, y: number, cell: number, values: ArrayLike<number>, rows: number, cols: number,
 *   scale: number, theme: object, fontSize: number, title?: string, note?: string,
 *   outline?: string|null, outlineWidth?: number, titleColor?: string, noteColor?: string,
 *   labels?: string[], showValues?: boolean, gap?: number }} spec
 *   title and note may hold subscripts as _X (text.js). outline: the outline's colour (the
 *   muted colour, thin, when null); labels: the same names for rows and columns; gap: pixels
 *   left between cells.
 * @returns {{ x, y, w, h }}
 */
export function drawMatrix(ctx, spec) {
  const { x, y, cell, values, rows, cols, scale, theme, fontSize, labels, gap = 0 } = spec;
  const table = colormapFor(theme);
  const k = scale > 0 ? 127.5 / scale : 0;
  const w = cols * cell;
  const h = rows * cell;
  ctx.save();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = values[r * cols + c];
      const t = 4 * Math.max(0, Math.min(255, Math.round(127.5 + v * k)));
      const [red, green, blue] = [table[t], table[t + 1], table[t + 2]];
      ctx.fillStyle = `rgb(${red}, ${green}, ${blue})`;
      const size = gap ? cell - gap : Math.ceil(cell);
      ctx.fillRect(x + c * cell, y + r * cell, size, size);
      if (spec.showValues && cell >= 2.5 * fontSize) {
        const light = 0.2126 * red + 0.7152 * green + 0.0722 * blue > 140;
        ctx.fillStyle = light ? '#111' : '#f4f4f4';
        ctx.font = `${fontSize - 1}px ${theme.font}`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(formatTick(Number(v.toPrecision(2))), x + (c + 0.5) * cell, y + (r + 0.5) * cell);
      }
    }
  }
  const outline = spec.outline ?? null;
  ctx.lineWidth = spec.outlineWidth ?? (outline ? 2.5 : 1);
  ctx.strokeStyle = outline ?? theme.muted;
  ctx.strokeRect(x - 0.5, y - 0.5, w + 1 - gap, h + 1 - gap);
  let top = y;
  if (labels) {
    ctx.font = `${fontSize - 1}px ${theme.font}`;
    ctx.fillStyle = theme.muted;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    labels.slice(0, rows).forEach((text, i) => ctx.fillText(text, x - 4, y + (i + 0.5) * cell));
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    labels.slice(0, cols).forEach((text, j) => ctx.fillText(text, x + (j + 0.5) * cell, y - 2));
    top -= 1.2 * fontSize;
  }
  if (spec.title) {
    richText(ctx, spec.title, x + w / 2, top - 4, { theme, fontSize, align: 'center', baseline: 'bottom', weight: '600',
      color: spec.titleColor });
  }
  if (spec.note) {
    richText(ctx, spec.note, x + w / 2, y + h + 4, { theme, fontSize: fontSize - 1, align: 'center',
      baseline: 'top', color: spec.noteColor ?? outline ?? theme.muted });
  }
  ctx.restore();
  return { x, y, w, h };
}
