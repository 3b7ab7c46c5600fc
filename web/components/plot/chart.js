// Chart drawer for the paper-A figures: line series with bands and point markers on linear or
// log axes, with tick labels the caller may choose (the scaling figure's signed-log α axis),
// a vertical marker, and a legend that wraps above the plot. Coordinates are CSS pixels.
import { axisMargins, drawFrame, formatTick, linearScale, niceTicks } from './axes.js';

// The frame is axes.js's; re-exported for the drawers that import it from here.
export { drawFrame };

/** Ticks at the powers of ten inside [lo, hi] (log10 values), thinned to about `count`. */
export function logTicks(lo, hi, count = 5) {
  const first = Math.ceil(lo - 1e-9);
  const last = Math.floor(hi + 1e-9);
  const stride = Math.max(1, Math.ceil((last - first + 1) / count));
  const ticks = [];
  for (let p = first; p <= last; p += stride) ticks.push({ value: p, label: p === 0 ? '1' : `10${superscript(p)}` });
  return ticks;
}

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
export function superscript(n) {
  return String(n).replace(/./g, (c) => SUPERSCRIPT[c] ?? c);
}

/** Linear ticks as { value, label }. */
export function linearTicks(lo, hi, count = 5) {
  return niceTicks(lo, hi, count).map((value) => ({ value, label: formatTick(value) }));
}

/** Legend entries laid out in rows above the plot; returns the height they take. */
export function legendLayout(ctx, entries, width, fontSize) {
  const swatch = 1.6 * fontSize;
  const rows = [];
  let row = [];
  let x = 0;
  for (const entry of entries) {
    const w = swatch + 6 + ctx.measureText(entry.label).width + 14;
    if (row.length && x + w > width) {
      rows.push(row);
      row = [];
      x = 0;
    }
    row.push({ entry, x });
    x += w;
  }
  if (row.length) rows.push(row);
  return { rows, height: rows.length * 1.45 * fontSize };
}

export function drawLegend(ctx, layout, left, top, theme, fontSize) {
  ctx.save();
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  layout.rows.forEach((row, r) => {
    const y = top + (r + 0.5) * 1.45 * fontSize;
    for (const { entry, x } of row) {
      const sx = left + x;
      if (entry.fill) {
        ctx.fillStyle = entry.color;
        ctx.fillRect(sx, y - 0.35 * fontSize, 1.6 * fontSize, 0.7 * fontSize);
      } else {
        ctx.strokeStyle = entry.color;
        ctx.lineWidth = entry.width ?? 2;
        ctx.setLineDash(entry.dash ?? []);
        ctx.beginPath();
        ctx.moveTo(sx, y);
        ctx.lineTo(sx + 1.6 * fontSize, y);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.fillStyle = theme.fg;
      ctx.fillText(entry.label, sx + 1.6 * fontSize + 6, y);
    }
  });
  ctx.restore();
}

/** A chart's title at the top left of its `rect`, above the legend. */
export function drawTitle(ctx, rect, title, theme, fontSize) {
  ctx.save();
  ctx.font = `600 ${fontSize}px ${theme.font}`;
  ctx.fillStyle = theme.fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(title, rect.x + 2, rect.y + 2);
  ctx.restore();
}

/**
 * A chart of line series, bands and markers.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{x,y,w,h}} rect
 * @param {{ xDomain: number[], yDomain: number[], yLog?: boolean, xTicks?: {value,label}[],
 *   yTicks?: {value,label}[], xLabel?: string, yLabel?: string, title?: string, theme: object,
 *   fontSize: number,
 *   series?: { x: ArrayLike<number>, y: ArrayLike<number>, color: string, width?: number,
 *     dash?: number[], label?: string, dots?: boolean, alpha?: number }[],
 *   bands?: { x: ArrayLike<number>, lo: ArrayLike<number>, hi: ArrayLike<number>, color: string }[],
 *   vlines?: { x: number, color: string, dash?: number[] }[],
 *   dots?: { x: number, y: number, color: string, r?: number }[],
 *   legend?: { label: string, color: string, dash?: number[], width?: number, fill?: boolean }[] }} spec
 * y values are data values; with yLog they are drawn at log10(y) (y ≤ 0 breaks the line).
 */
export function drawChart(ctx, rect, spec) {
  const { theme, fontSize } = spec;
  const margin = { ...axisMargins(fontSize), right: Math.round(1.6 * fontSize) };
  ctx.save();
  ctx.font = `${fontSize}px ${theme.font}`;
  const legendWidth = rect.w - margin.left - margin.right;
  const legend = legendLayout(ctx, spec.legend ?? [], legendWidth, fontSize);
  ctx.restore();
  const titleHeight = spec.title ? 1.5 * fontSize : 0;
  const top = rect.y + titleHeight + legend.height + margin.top * 0.5;
  const plot = { x: rect.x + margin.left, y: top,
    w: Math.max(10, rect.w - margin.left - margin.right), h: Math.max(10, rect.y + rect.h - margin.bottom - top) };
  const ty = (v) => (spec.yLog ? (v > 0 ? Math.log10(v) : NaN) : v);
  const xScale = linearScale(spec.xDomain[0], spec.xDomain[1], plot.x, plot.x + plot.w);
  const yLinear = linearScale(spec.yDomain[0], spec.yDomain[1], plot.y + plot.h, plot.y);
  const yScale = (v) => yLinear(ty(v));
  const xTicks = spec.xTicks ?? linearTicks(spec.xDomain[0], spec.xDomain[1], plot.w < 220 ? 3 : 5);
  const yTicks = spec.yTicks ?? (spec.yLog ? logTicks(spec.yDomain[0], spec.yDomain[1], 5)
    : linearTicks(spec.yDomain[0], spec.yDomain[1], 4));
  drawFrame(ctx, plot, { xTicks, yTicks, xScale, yScale: yLinear, xLabel: spec.xLabel, yLabel: spec.yLabel, theme, fontSize });

  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y - 2, plot.w + 2, plot.h + 4);
  ctx.clip();
  const clampY = (py) => Math.max(plot.y - plot.h, Math.min(plot.y + 2 * plot.h, py));
  for (const band of spec.bands ?? []) {
    ctx.fillStyle = band.color;
    ctx.globalAlpha = band.alpha ?? 0.18;
    let open = false;
    const upper = [];
    const lower = [];
    const flush = () => {
      if (upper.length > 1) {
        ctx.beginPath();
        upper.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
        for (let i = lower.length - 1; i >= 0; i--) ctx.lineTo(lower[i][0], lower[i][1]);
        ctx.closePath();
        ctx.fill();
      }
      upper.length = lower.length = 0;
      open = false;
    };
    for (let i = 0; i < band.x.length; i++) {
      const [lo, hi] = [ty(band.lo[i]), ty(band.hi[i])];
      if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
        if (open) flush();
        continue;
      }
      open = true;
      const px = xScale(band.x[i]);
      upper.push([px, clampY(yLinear(hi))]);
      lower.push([px, clampY(yLinear(lo))]);
    }
    flush();
    ctx.globalAlpha = 1;
  }
  for (const line of spec.vlines ?? []) {
    ctx.strokeStyle = line.color;
    ctx.lineWidth = line.width ?? 1.5;
    ctx.setLineDash(line.dash ?? [4, 4]);
    const px = Math.round(xScale(line.x)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(px, plot.y);
    ctx.lineTo(px, plot.y + plot.h);
    ctx.stroke();
  }
  ctx.lineJoin = 'round';
  for (const s of spec.series ?? []) {
    ctx.strokeStyle = s.color;
    ctx.fillStyle = s.color;
    ctx.globalAlpha = s.alpha ?? 1;
    ctx.lineWidth = s.width ?? 2;
    ctx.setLineDash(s.dash ?? []);
    ctx.beginPath();
    let pen = false;
    for (let i = 0; i < s.x.length; i++) {
      const v = ty(s.y[i]);
      if (!Number.isFinite(v) || !Number.isFinite(s.x[i])) {
        pen = false;
        continue;
      }
      const [px, py] = [xScale(s.x[i]), clampY(yLinear(v))];
      if (pen) ctx.lineTo(px, py);
      else ctx.moveTo(px, py);
      pen = true;
    }
    ctx.stroke();
    ctx.setLineDash([]);
    if (s.dots) {
      for (let i = 0; i < s.x.length; i++) {
        const v = ty(s.y[i]);
        if (!Number.isFinite(v)) continue;
        ctx.beginPath();
        ctx.arc(xScale(s.x[i]), clampY(yLinear(v)), Math.max(2.5, fontSize * 0.25), 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    ctx.globalAlpha = 1;
  }
  for (const d of spec.dots ?? []) {
    const v = ty(d.y);
    if (!Number.isFinite(v)) continue;
    ctx.fillStyle = d.color;
    ctx.strokeStyle = theme.bg;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(xScale(d.x), clampY(yLinear(v)), d.r ?? Math.max(4, fontSize * 0.38), 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fill();
  }
  ctx.restore();

  if (spec.title) drawTitle(ctx, rect, spec.title, theme, fontSize);
  drawLegend(ctx, legend, plot.x, rect.y + titleHeight, theme, fontSize);
  return { plot, xScale, yScale };
}

/** [lo, hi] of the finite values of several arrays, padded; for log, of log10 of positive values. */
export function extent(arrays, { log = false, include = [], floor = -Infinity, pad = 0.06 } = {}) {
  let lo = Infinity;
  let hi = -Infinity;
  const take = (v) => {
    const t = log ? (v > 0 ? Math.log10(v) : NaN) : v;
    if (!Number.isFinite(t)) return;
    const c = Math.max(floor, t);
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  };
  for (const values of arrays) for (const v of values) take(v);
  for (const v of include) take(v);
  if (!(hi > lo)) [lo, hi] = Number.isFinite(lo) ? [lo - 1, hi + 1] : [0, 1];
  const p = pad * (hi - lo);
  return [lo - p, hi + p];
}
