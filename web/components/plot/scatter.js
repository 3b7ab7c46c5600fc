// Decision-boundary panels: a trained model's raw output over [−e, e]² (lab trainer.grid: row
// 0 at y = +e) through the diverging colormap, its zero contour (marching squares), and the
// data on top (train points filled, test points hollow), with a title and a note line.
import { gridToImageData } from './heatmap.js';
import { colormapTable } from '../base/theme.js';

const tables = new WeakMap();
/** The theme's colormap lookup table, built once per theme. */
export function tableFor(theme) {
  let table = tables.get(theme.colormap);
  if (!table) tables.set(theme.colormap, (table = colormapTable(theme.colormap)));
  return table;
}

/** The colour of a class (+1 → positive end of the colormap, −1 → negative end) as CSS. */
export function classColor(theme, label) {
  const table = tableFor(theme);
  const i = label > 0 ? 242 : 13;
  return `rgb(${table[4 * i]}, ${table[4 * i + 1]}, ${table[4 * i + 2]})`;
}

const scratch = new Map();
function imageCanvas(image) {
  const key = `${image.width}x${image.height}`;
  let canvas = scratch.get(key);
  if (!canvas) scratch.set(key, (canvas = new OffscreenCanvas(image.width, image.height)));
  canvas.getContext('2d').putImageData(image, 0, 0);
  return canvas;
}

/** Segments of the zero level set of a size × size grid, in cell units (x right, y down). */
function zeroContour(grid, size) {
  const segments = [];
  const at = (r, c) => grid[r * size + c];
  const cross = (a, b) => a / (a - b);
  for (let r = 0; r + 1 < size; r++) {
    for (let c = 0; c + 1 < size; c++) {
      const v = [at(r, c), at(r, c + 1), at(r + 1, c + 1), at(r + 1, c)];
      if (!v.every(Number.isFinite)) continue;
      const points = [];
      if ((v[0] > 0) !== (v[1] > 0)) points.push([c + cross(v[0], v[1]), r]);
      if ((v[1] > 0) !== (v[2] > 0)) points.push([c + 1, r + cross(v[1], v[2])]);
      if ((v[2] > 0) !== (v[3] > 0)) points.push([c + 1 - cross(v[2], v[3]), r + 1]);
      if ((v[3] > 0) !== (v[0] > 0)) points.push([c, r + 1 - cross(v[3], v[0])]);
      if (points.length === 2) segments.push(points);
      else if (points.length === 4) segments.push([points[0], points[1]], [points[2], points[3]]);
    }
  }
  return segments;
}

/** The zero contour of a size × size grid (row 0 at the top) drawn over `plot`. */
export function drawZeroContour(ctx, plot, grid, size, theme) {
  // The grid's samples are the cell centres of the drawn image.
  const cell = plot.w / size;
  ctx.save();
  ctx.strokeStyle = theme.fg;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (const [[x0, y0], [x1, y1]] of zeroContour(grid, size)) {
    ctx.moveTo(plot.x + (x0 + 0.5) * cell, plot.y + (y0 + 0.5) * cell);
    ctx.lineTo(plot.x + (x1 + 0.5) * cell, plot.y + (y1 + 0.5) * cell);
  }
  ctx.stroke();
  ctx.restore();
}

/** Draws the data points of a 2-D set onto a square plot of [−e, e]². */
export function drawPoints(ctx, plot, { data, extent, theme, radius = 3 }) {
  const sx = (x) => plot.x + ((x + extent) / (2 * extent)) * plot.w;
  const sy = (y) => plot.y + ((extent - y) / (2 * extent)) * plot.h;
  const pos = classColor(theme, 1);
  const neg = classColor(theme, -1);
  const draw = (x, y, filled) => {
    for (let i = 0; i < y.length; i++) {
      const [px, py] = [sx(x[2 * i]), sy(x[2 * i + 1])];
      ctx.beginPath();
      ctx.arc(px, py, radius, 0, 2 * Math.PI);
      ctx.lineWidth = 1.2;
      if (filled) {
        ctx.fillStyle = y[i] > 0 ? pos : neg;
        ctx.strokeStyle = theme.fg;
        ctx.fill();
        ctx.stroke();
      } else {
        ctx.fillStyle = theme.bg;
        ctx.strokeStyle = y[i] > 0 ? pos : neg;
        ctx.lineWidth = 1.8;
        ctx.fill();
        ctx.stroke();
      }
    }
  };
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y, plot.w, plot.h);
  ctx.clip();
  if (data?.xTest) draw(data.xTest, data.yTest, false);
  if (data?.xTrain) draw(data.xTrain, data.yTrain, true);
  ctx.restore();
}

/**
 * One panel. `grid` may be null (not trained yet): then only the frame and the data.
 * @param {{ grid: Float32Array|null, size: number, extent: number, scale: number, theme: object,
 *   fontSize: number, data?: object, title: string, note?: string, noteColor?: string }} spec
 * @returns {{ x, y, w, h }} the square plot
 */
export function drawBoundaryPanel(ctx, rect, spec) {
  const { theme, fontSize } = spec;
  const titleH = 1.35 * fontSize;
  const noteH = spec.note === undefined ? 0 : 1.35 * fontSize;
  const side = Math.max(10, Math.min(rect.w, rect.h - titleH - noteH - 4));
  const plot = { x: rect.x + (rect.w - side) / 2, y: rect.y + titleH, w: side, h: side };
  ctx.save();
  if (spec.grid) {
    const image = gridToImageData(spec.grid, spec.size, spec.size, { scale: spec.scale, table: tableFor(theme) });
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    // Softened so the data points on top stay readable; the zero contour marks the boundary.
    ctx.globalAlpha = spec.alpha ?? 0.62;
    ctx.drawImage(imageCanvas(image), plot.x, plot.y, plot.w, plot.h);
    ctx.globalAlpha = 1;
    drawZeroContour(ctx, plot, spec.grid, spec.size, theme);
  } else {
    ctx.fillStyle = theme.grid;
    ctx.globalAlpha = 0.35;
    ctx.fillRect(plot.x, plot.y, plot.w, plot.h);
    ctx.globalAlpha = 1;
  }
  ctx.strokeStyle = theme.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);
  drawPoints(ctx, plot, { data: spec.data, extent: spec.extent, theme, radius: Math.max(2, side / 75) });
  ctx.font = `600 ${fontSize}px ${theme.font}`;
  ctx.fillStyle = theme.fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(spec.title, plot.x, rect.y + 1, plot.w);
  if (spec.note !== undefined) {
    ctx.font = `${fontSize - 1}px ${theme.font}`;
    ctx.fillStyle = spec.noteColor ?? theme.muted;
    ctx.fillText(spec.note, plot.x, plot.y + plot.h + 4, plot.w);
  }
  ctx.restore();
  return plot;
}
