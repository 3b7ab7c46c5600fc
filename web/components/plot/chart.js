// The kit's one chart: a title, a legend that wraps above the plot, the frame of axes.js, and
// either line series (with min–max bands, vertical markers and point markers, on linear or log
// y axes, ticks the caller may choose) or grouped bars (with marks beside them, a highlighted
// category, x labels that tilt when they do not fit). Every line and bar plot of every figure is
// drawn here. Coordinates are CSS pixels.
import { axisMargins, drawFrame, linearScale, linearTicks, logTicks } from './axes.js';

const LEGEND_ROW = 1.45;   // legend row height, in font sizes
const SWATCH = 1.6;        // legend swatch width, in font sizes

/** Legend entries laid out in rows of at most `width`; returns the rows and the height they take. */
export function legendLayout(ctx, entries, width, fontSize) {
  const rows = [];
  let row = [];
  let x = 0;
  for (const entry of entries) {
    const w = SWATCH * fontSize + 6 + ctx.measureText(entry.label).width + 14;
    if (row.length && x + w > width) {
      rows.push(row);
      row = [];
      x = 0;
    }
    row.push({ entry, x });
    x += w;
  }
  if (row.length) rows.push(row);
  return { rows, height: rows.length * LEGEND_ROW * fontSize };
}

/** Draws a legend laid out by legendLayout at (left, top): a line (or a filled swatch) and a label each. */
export function drawLegend(ctx, layout, left, top, theme, fontSize) {
  ctx.save();
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  layout.rows.forEach((row, r) => {
    const y = top + (r + 0.5) * LEGEND_ROW * fontSize;
    for (const { entry, x } of row) {
      const sx = left + x;
      if (entry.fill) {
        ctx.fillStyle = entry.color;
        ctx.fillRect(sx, y - 0.35 * fontSize, SWATCH * fontSize, 0.7 * fontSize);
      } else {
        ctx.strokeStyle = entry.color;
        ctx.lineWidth = entry.width ?? 2;
        ctx.setLineDash(entry.dash ?? []);
        ctx.beginPath();
        ctx.moveTo(sx, y);
        ctx.lineTo(sx + SWATCH * fontSize, y);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.fillStyle = theme.fg;
      ctx.fillText(entry.label, sx + SWATCH * fontSize + 6, y);
    }
  });
  ctx.restore();
}

/**
 * Where a chart goes inside `rect`: the title's and the legend's rows on top, then the plot
 * with the given margins (right, and the room under the plot for ticks and labels).
 */
function chartLayout(ctx, rect, { title, legend = [], theme, fontSize }, { right, bottom }) {
  const margin = axisMargins(fontSize);
  const width = Math.max(10, rect.w - margin.left - right);
  ctx.save();
  ctx.font = `${fontSize}px ${theme.font}`;
  const legendRows = legendLayout(ctx, legend, width, fontSize);
  ctx.restore();
  const titleHeight = title ? 1.5 * fontSize : 0;
  const top = rect.y + titleHeight + legendRows.height + 0.6 * fontSize;
  const plot = { x: rect.x + margin.left, y: top, w: width, h: Math.max(10, rect.y + rect.h - bottom - top) };
  return { plot, legendRows, titleHeight };
}

/** The chart's title at the top left of `rect` and its legend under it. */
function drawHeading(ctx, rect, plot, { legendRows, titleHeight }, { title, theme, fontSize }) {
  if (title) {
    ctx.save();
    ctx.font = `600 ${fontSize}px ${theme.font}`;
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(title, rect.x + 2, rect.y + 2);
    ctx.restore();
  }
  drawLegend(ctx, legendRows, plot.x, rect.y + titleHeight, theme, fontSize);
}

/**
 * Line series, bands and markers.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{x,y,w,h}} rect
 * @param {{ xDomain: number[], yDomain: number[], yLog?: boolean, xTicks?: {value,label}[],
 *   yTicks?: {value,label}[], xLabel?: string, yLabel?: string, title?: string, theme: object,
 *   fontSize: number,
 *   series?: { x: ArrayLike<number>, y: ArrayLike<number>, color: string, width?: number,
 *     dash?: number[], dots?: boolean, alpha?: number }[],
 *   bands?: { x: ArrayLike<number>, lo: ArrayLike<number>, hi: ArrayLike<number>, color: string, alpha?: number }[],
 *   vlines?: { x: number, color: string, dash?: number[], width?: number }[],
 *   dots?: { x: number, y: number, color: string, r?: number }[],
 *   legend?: { label: string, color: string, dash?: number[], width?: number, fill?: boolean }[] }} spec
 * y values are data values; with yLog they are drawn at log10(y) (y ≤ 0 breaks the line), and
 * yDomain and yTicks are in log10 units. A line also breaks where it jumps by more than the
 * plot's height between two samples: a pole (σ(z)/z at z = 0 when σ(0) ≠ 0), not a slope.
 * @returns {{ plot, xScale, yScale }} for overlays (yScale takes data values)
 */
export function drawChart(ctx, rect, spec) {
  const { theme, fontSize } = spec;
  const layout = chartLayout(ctx, rect, spec,
    { right: Math.round(1.6 * fontSize), bottom: axisMargins(fontSize).bottom });
  const { plot } = layout;
  const ty = (v) => (spec.yLog ? (v > 0 ? Math.log10(v) : NaN) : v);
  const xScale = linearScale(spec.xDomain[0], spec.xDomain[1], plot.x, plot.x + plot.w);
  const yLinear = linearScale(spec.yDomain[0], spec.yDomain[1], plot.y + plot.h, plot.y);
  const yScale = spec.yLog ? (v) => yLinear(ty(v)) : yLinear;
  const xTicks = spec.xTicks ?? linearTicks(spec.xDomain[0], spec.xDomain[1], plot.w < 220 ? 3 : 5);
  const yTicks = spec.yTicks ?? (spec.yLog ? logTicks(spec.yDomain[0], spec.yDomain[1], 5)
    : linearTicks(spec.yDomain[0], spec.yDomain[1], 4));
  drawFrame(ctx, plot,
    { xTicks, yTicks, xScale, yScale: yLinear, xLabel: spec.xLabel, yLabel: spec.yLabel, theme, fontSize });

  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y - 2, plot.w + 2, plot.h + 4);
  ctx.clip();
  // Far outside the plot: clamped, so a line leaves the frame instead of vanishing.
  const clampY = (py) => Math.max(plot.y - plot.h, Math.min(plot.y + 2 * plot.h, py));
  for (const band of spec.bands ?? []) drawBand(ctx, band, { xScale, yLinear, ty, clampY });
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
  ctx.setLineDash([]);
  ctx.lineJoin = 'round';
  for (const s of spec.series ?? []) drawSeries(ctx, s, { xScale, yLinear, ty, clampY, plot, fontSize });
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
  drawHeading(ctx, rect, plot, layout, spec);
  return { plot, xScale, yScale };
}

function drawBand(ctx, band, { xScale, yLinear, ty, clampY }) {
  ctx.fillStyle = band.color;
  ctx.globalAlpha = band.alpha ?? 0.18;
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
  };
  for (let i = 0; i < band.x.length; i++) {
    const [lo, hi] = [ty(band.lo[i]), ty(band.hi[i])];
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
      flush();
      continue;
    }
    const px = xScale(band.x[i]);
    upper.push([px, clampY(yLinear(hi))]);
    lower.push([px, clampY(yLinear(lo))]);
  }
  flush();
  ctx.globalAlpha = 1;
}

function drawSeries(ctx, s, { xScale, yLinear, ty, clampY, plot, fontSize }) {
  ctx.strokeStyle = s.color;
  ctx.fillStyle = s.color;
  ctx.globalAlpha = s.alpha ?? 1;
  ctx.lineWidth = s.width ?? 2;
  ctx.setLineDash(s.dash ?? []);
  ctx.beginPath();
  let pen = false;
  let previous = 0;
  for (let i = 0; i < s.x.length; i++) {
    const v = ty(s.y[i]);
    if (!Number.isFinite(v) || !Number.isFinite(s.x[i])) {
      pen = false;
      continue;
    }
    const raw = yLinear(v);
    if (pen && Math.abs(raw - previous) > plot.h) pen = false;
    previous = raw;
    const [px, py] = [xScale(s.x[i]), clampY(raw)];
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

/**
 * Grouped bars: categories along x, one bar per group in each.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{x,y,w,h}} rect
 * @param {{ categories: string[], groups: { label: string, color: string, values: ArrayLike<number> }[],
 *   marks?: { label: string, color: string, values: ArrayLike<number>, group?: number }[],
 *   yDomain: number[], yLog?: boolean, yTicks?: {value,label}[], yLabel?: string, xLabel?: string,
 *   title?: string, highlight?: number, theme: object, fontSize: number,
 *   valueText?: (v: number, group: number) => string }} spec
 *   marks: a short bar-wide line per category (e.g. a predicted value beside the measured bar);
 *   the legend lists the groups (when more than one) and the labelled marks.
 * @returns {{ plot, slotOf: (index: number) => {x: number, w: number}, categoryAt: (x: number) => number }}
 */
export function drawBars(ctx, rect, spec) {
  const { categories, groups, theme, fontSize } = spec;
  const margin = axisMargins(fontSize);
  ctx.save();
  ctx.font = `${fontSize}px ${theme.font}`;
  const slot = Math.max(10, rect.w - margin.left - margin.right) / Math.max(1, categories.length);
  const widest = Math.max(0, ...categories.map((c) => ctx.measureText(c).width));
  ctx.restore();
  const tilt = widest > slot - 4;
  const angle = Math.PI / 4;
  const labelHeight = tilt ? widest * Math.sin(angle) + fontSize : 1.4 * fontSize;
  const entries = [...groups.map((g) => ({ label: g.label, color: g.color, fill: true })),
    ...(spec.marks ?? []).filter((m) => m.label).map((m) => ({ label: m.label, color: m.color, width: 2 }))];
  const heading = { ...spec, legend: entries.length > 1 ? entries : [] };
  const layout = chartLayout(ctx, rect, heading,
    { right: margin.right, bottom: labelHeight + 8 + (spec.xLabel ? 1.4 * fontSize : 0) });
  const { plot } = layout;
  const [y0, y1] = spec.yDomain;
  const yLinear = linearScale(y0, y1, plot.y + plot.h, plot.y);
  const toY = (v) => yLinear(Math.max(y0, Math.min(y1, spec.yLog ? (v > 0 ? Math.log10(v) : y0) : v)));
  const yTicks = spec.yTicks ?? (spec.yLog ? logTicks(y0, y1, 5) : linearTicks(y0, y1, 4));
  drawFrame(ctx, plot, { xTicks: [], yTicks, xScale: () => 0, yScale: yLinear, yLabel: spec.yLabel, theme, fontSize });

  const slotOf = (i) => ({ x: plot.x + i * slot, w: slot });
  ctx.save();
  if (spec.highlight !== undefined && spec.highlight >= 0) {
    const s = slotOf(spec.highlight);
    ctx.fillStyle = theme.grid;
    ctx.globalAlpha = 0.7;
    ctx.fillRect(s.x + 1, plot.y, s.w - 2, plot.h);
    ctx.globalAlpha = 1;
  }
  const inner = slot * 0.78;
  const barW = inner / Math.max(1, groups.length);
  const base = toY(spec.yLog ? 10 ** y0 : 0);
  categories.forEach((_, i) => {
    const x0 = slotOf(i).x + (slot - inner) / 2;
    groups.forEach((g, k) => {
      const v = g.values[i];
      if (!Number.isFinite(v)) return;
      const y = toY(v);
      ctx.fillStyle = g.color;
      ctx.fillRect(x0 + k * barW + 0.5, Math.min(y, base), Math.max(1, barW - 1), Math.max(1, Math.abs(base - y)));
      if (spec.valueText && barW >= 2.2 * fontSize) {
        ctx.font = `${fontSize - 1}px ${theme.font}`;
        ctx.fillStyle = theme.fg;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'bottom';
        ctx.fillText(spec.valueText(v, k), x0 + (k + 0.5) * barW, Math.min(y, base) - 2);
      }
    });
    for (const mark of spec.marks ?? []) {
      const v = mark.values[i];
      if (!Number.isFinite(v)) continue;
      const k = mark.group ?? 0;
      const y = Math.round(toY(v)) + 0.5;
      ctx.strokeStyle = theme.bg;
      ctx.lineWidth = 4;
      ctx.beginPath();
      ctx.moveTo(x0 + k * barW - 1, y);
      ctx.lineTo(x0 + (k + 1) * barW + 1, y);
      ctx.stroke();
      ctx.strokeStyle = mark.color;
      ctx.lineWidth = 2;
      ctx.stroke();
    }
  });
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.fillStyle = theme.fg;
  categories.forEach((label, i) => {
    const s = slotOf(i);
    const cx = s.x + s.w / 2;
    if (tilt) {
      ctx.save();
      ctx.translate(cx + fontSize * 0.3, plot.y + plot.h + 6);
      ctx.rotate(-angle);
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      ctx.fillText(label, 0, 0);
      ctx.restore();
    } else {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'top';
      ctx.fillText(label, cx, plot.y + plot.h + 6);
    }
  });
  if (spec.xLabel) {
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText(spec.xLabel, plot.x + plot.w / 2, rect.y + rect.h - 2);
  }
  ctx.restore();
  drawHeading(ctx, rect, plot, layout, heading);
  return { plot, slotOf, categoryAt: (px) => Math.floor((px - plot.x) / slot) };
}
