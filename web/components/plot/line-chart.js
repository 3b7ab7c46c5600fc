// Line-chart drawer: one or more (x, y) series on shared axes. Non-finite points and poles break the line;
// the y range can be given or is taken from the data, clipped to `yClip` so a pole (σ(z)/z near
// z = 0 for sigmoid or softplus) does not flatten the rest of the curve.
import { axisMargins, drawAxes, linearScale, niceTicks } from './axes.js';

/** [min, max] of the finite values of several arrays, widened to include `include`. */
export function dataRange(arrays, { include = [], clip = [-Infinity, Infinity] } = {}) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const values of arrays) {
    for (const v of values) {
      if (!Number.isFinite(v)) continue;
      const c = Math.min(clip[1], Math.max(clip[0], v));
      if (c < lo) lo = c;
      if (c > hi) hi = c;
    }
  }
  for (const v of include) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  if (!(hi > lo)) [lo, hi] = [Number.isFinite(lo) ? lo - 1 : -1, Number.isFinite(hi) ? hi + 1 : 1];
  const pad = 0.06 * (hi - lo);
  return [lo - pad, hi + pad];
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {{x,y,w,h}} rect CSS pixels
 * @param {{ series: { x: ArrayLike<number>, y: ArrayLike<number>, color: string, width?: number,
 *   dash?: number[], label?: string }[], xRange: number[], yRange: number[], theme: object,
 *   fontSize: number, xLabel?: string, yLabel?: string, title?: string }} spec
 */
export function drawLineChart(ctx, rect, spec) {
  const { series, xRange, yRange, theme, fontSize } = spec;
  const margin = axisMargins(fontSize);
  const plot = { x: rect.x + margin.left, y: rect.y + margin.top,
    w: Math.max(10, rect.w - margin.left - margin.right), h: Math.max(10, rect.h - margin.top - margin.bottom) };
  const xScale = linearScale(xRange[0], xRange[1], plot.x, plot.x + plot.w);
  const yScale = linearScale(yRange[0], yRange[1], plot.y + plot.h, plot.y);
  const tickCount = plot.w < 200 ? 3 : 5;
  drawAxes(ctx, plot, {
    x: niceTicks(xRange[0], xRange[1], tickCount), y: niceTicks(yRange[0], yRange[1], 4),
    xScale, yScale, xLabel: spec.xLabel, yLabel: spec.yLabel, theme, fontSize, gridLines: true,
  });

  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y, plot.w, plot.h);
  ctx.clip();
  ctx.lineJoin = 'round';
  for (const s of series) {
    ctx.strokeStyle = s.color;
    ctx.lineWidth = s.width ?? 2;
    ctx.setLineDash(s.dash ?? []);
    ctx.beginPath();
    let penDown = false;
    let previous = 0;
    for (let i = 0; i < s.x.length; i++) {
      const [xv, yv] = [s.x[i], s.y[i]];
      if (!Number.isFinite(xv) || !Number.isFinite(yv)) {
        penDown = false;
        continue;
      }
      const raw = yScale(yv);
      // A jump of more than the plot's height between neighbouring samples is a pole (σ(z)/z
      // at z = 0 when σ(0) ≠ 0): lift the pen instead of drawing a vertical line through it.
      if (penDown && Math.abs(raw - previous) > plot.h) penDown = false;
      previous = raw;
      // Far outside the plot: clamp so the line leaves the frame instead of vanishing.
      const py = Math.max(plot.y - plot.h, Math.min(plot.y + 2 * plot.h, raw));
      if (penDown) ctx.lineTo(xScale(xv), py);
      else ctx.moveTo(xScale(xv), py);
      penDown = true;
    }
    ctx.stroke();
  }
  ctx.restore();

  drawLegend(ctx, plot, series.filter((s) => s.label), theme, fontSize);
  if (spec.title) {
    ctx.save();
    ctx.font = `${fontSize}px ${theme.font}`;
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    ctx.fillText(spec.title, plot.x, plot.y - 6);
    ctx.restore();
  }
  return { plot, xScale, yScale };
}

function drawLegend(ctx, plot, series, theme, fontSize) {
  if (!series.length) return;
  ctx.save();
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  let y = plot.y + fontSize;
  for (const s of series) {
    const x = plot.x + 8;
    ctx.strokeStyle = s.color;
    ctx.lineWidth = s.width ?? 2;
    ctx.setLineDash(s.dash ?? []);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 1.6 * fontSize, y);
    ctx.stroke();
    ctx.fillStyle = theme.fg;
    ctx.fillText(s.label, x + 2 * fontSize, y);
    y += 1.4 * fontSize;
  }
  ctx.restore();
}
