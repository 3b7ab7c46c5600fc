// Marks drawn over a plot: the points of a 2-D data set coloured by class (train filled, test
// hollow), the ring that marks a probed or pinned point, and arrows (a gradient step, a
// direction). Coordinates are CSS pixels.
import { colormapColor } from '../base/theme.js';

/** The colour of a class (+1 → near the positive end of the colormap, −1 → near the negative end). */
export function classColor(theme, label) {
  return colormapColor(theme, label > 0 ? 242 / 255 : 13 / 255);
}

/** Draws the points of a 2-D data set ({ xTrain, yTrain, xTest, yTest }) onto a square plot of [−e, e]². */
export function drawPoints(ctx, plot, { data, extent, theme, radius = 3 }) {
  const sx = (x) => plot.x + ((x + extent) / (2 * extent)) * plot.w;
  const sy = (y) => plot.y + ((extent - y) / (2 * extent)) * plot.h;
  const pos = classColor(theme, 1);
  const neg = classColor(theme, -1);
  const draw = (x, y, filled) => {
    for (let i = 0; i < y.length; i++) {
      ctx.beginPath();
      ctx.arc(sx(x[2 * i]), sy(x[2 * i + 1]), radius, 0, 2 * Math.PI);
      ctx.lineWidth = filled ? 1.2 : 1.8;
      ctx.fillStyle = filled ? (y[i] > 0 ? pos : neg) : theme.bg;
      ctx.strokeStyle = filled ? theme.fg : (y[i] > 0 ? pos : neg);
      ctx.fill();
      ctx.stroke();
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

/** A ring of radius r at (x, y) in `color` over a halo of the background, for a probed point. */
export function drawRing(ctx, x, y, r, { theme, color = theme.fg }) {
  ctx.save();
  ctx.lineWidth = 2;
  ctx.strokeStyle = theme.bg;
  ctx.beginPath();
  ctx.arc(x, y, r + 1.5, 0, 2 * Math.PI);
  ctx.stroke();
  ctx.strokeStyle = color;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.stroke();
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
