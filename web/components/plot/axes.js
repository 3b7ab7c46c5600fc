// Axes for every canvas drawer of the plotting kit: linear scales, "nice" and logarithmic tick
// values with their labels, the data range a plot shows, margins that leave room for the
// labels, and the left/bottom frame with ticks and axis labels. Coordinates are CSS pixels (the
// context is already scaled by devicePixelRatio).
import { superscript } from '../base/format.js';

/** A linear map from [d0, d1] to [r0, r1]; `scale.invert(r)` maps back. */
export function linearScale(d0, d1, r0, r1) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const scale = (v) => r0 + (v - d0) * k;
  scale.invert = (r) => (k === 0 ? d0 : d0 + (r - r0) / k);
  return scale;
}

/** About `count` round tick values covering [min, max]. */
export function niceTicks(min, max, count = 5) {
  if (!(max > min)) return [min];
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  }
  return ticks;
}

/** Short tick text: 0.5, 2, −1.5 (with a real minus sign), 1e-3. */
export function formatTick(v) {
  const text = Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(0)
    : String(Number(v.toPrecision(4)));
  return text.replace('-', '\u2212');
}

/** Linear ticks as { value, label }. */
export function linearTicks(lo, hi, count = 5) {
  return niceTicks(lo, hi, count).map((value) => ({ value, label: formatTick(value) }));
}

/** Ticks at the powers of ten inside [lo, hi] (log10 values), thinned to about `count`. */
export function logTicks(lo, hi, count = 5) {
  const first = Math.ceil(lo - 1e-9);
  const last = Math.floor(hi + 1e-9);
  const stride = Math.max(1, Math.ceil((last - first + 1) / count));
  const ticks = [];
  for (let p = first; p <= last; p += stride) ticks.push({ value: p, label: p === 0 ? '1' : `10${superscript(p)}` });
  return ticks;
}

/**
 * [lo, hi] of the finite values of several arrays and of `include`, each first clamped to
 * `clip` (so a pole, e.g. σ(z)/z near z = 0 for sigmoid, does not flatten the rest), then
 * padded by `pad` of the span. With `log` the range is of log10 of the positive values.
 */
export function extent(arrays, { log = false, include = [], clip = [-Infinity, Infinity], pad = 0.06 } = {}) {
  let lo = Infinity;
  let hi = -Infinity;
  const take = (v) => {
    const t = log ? (v > 0 ? Math.log10(v) : NaN) : v;
    if (!Number.isFinite(t)) return;
    const c = Math.min(clip[1], Math.max(clip[0], t));
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  };
  for (const values of arrays) for (const v of values) take(v);
  for (const v of include) take(v);
  if (!(hi > lo)) [lo, hi] = Number.isFinite(lo) ? [lo - 1, hi + 1] : [0, 1];
  const p = pad * (hi - lo);
  return [lo - p, hi + p];
}

/** The largest |value| of the finite values of one or more arrays; 0 when there is none. */
export function maxAbs(...arrays) {
  let m = 0;
  for (const values of arrays) for (const v of values) if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m;
}

/** Plot-area margins that leave room for tick labels and axis labels at this font size. */
export function axisMargins(fontSize) {
  return { left: Math.round(4.6 * fontSize), right: Math.round(0.8 * fontSize),
    top: Math.round(1.8 * fontSize), bottom: Math.round(3.2 * fontSize) };
}

/**
 * The left/bottom frame of `plot` ({x, y, w, h}) with ticks at given positions and labels
 * ({ value, label }), optional grid lines, and axis labels. Every axis of the kit is drawn here.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{ xTicks: {value,label}[], yTicks: {value,label}[], xScale: Function, yScale: Function,
 *   xLabel?: string, yLabel?: string, theme: object, fontSize: number, gridLines?: boolean }} options
 */
export function drawFrame(ctx, plot,
  { xTicks, yTicks, xScale, yScale, xLabel, yLabel, theme, fontSize, gridLines = true }) {
  ctx.save();
  ctx.lineWidth = 1;
  ctx.font = `${fontSize}px ${theme.font}`;
  if (gridLines) {
    ctx.strokeStyle = theme.grid;
    ctx.beginPath();
    for (const t of xTicks) {
      const px = Math.round(xScale(t.value)) + 0.5;
      ctx.moveTo(px, plot.y);
      ctx.lineTo(px, plot.y + plot.h);
    }
    for (const t of yTicks) {
      const py = Math.round(yScale(t.value)) + 0.5;
      ctx.moveTo(plot.x, py);
      ctx.lineTo(plot.x + plot.w, py);
    }
    ctx.stroke();
  }
  ctx.strokeStyle = theme.muted;
  ctx.beginPath();
  ctx.moveTo(plot.x - 0.5, plot.y);
  ctx.lineTo(plot.x - 0.5, plot.y + plot.h + 0.5);
  ctx.lineTo(plot.x + plot.w, plot.y + plot.h + 0.5);
  ctx.stroke();
  ctx.fillStyle = theme.muted;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.beginPath();
  for (const t of xTicks) {
    const px = Math.round(xScale(t.value)) + 0.5;
    ctx.moveTo(px, plot.y + plot.h);
    ctx.lineTo(px, plot.y + plot.h + 4);
    ctx.fillText(t.label, px, plot.y + plot.h + 6);
  }
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of yTicks) {
    const py = Math.round(yScale(t.value)) + 0.5;
    ctx.moveTo(plot.x, py);
    ctx.lineTo(plot.x - 4, py);
    ctx.fillText(t.label, plot.x - 6, py);
  }
  ctx.stroke();
  ctx.fillStyle = theme.fg;
  if (xLabel) {
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(xLabel, plot.x + plot.w / 2, plot.y + plot.h + 8 + fontSize);
  }
  if (yLabel) {
    // Rotated, at the left edge of the margin reserved by axisMargins().
    ctx.translate(plot.x - axisMargins(fontSize).left + 2, plot.y + plot.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(yLabel, 0, 0);
  }
  ctx.restore();
}
