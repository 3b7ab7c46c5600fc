// Grouped bar chart drawer: categories along x, one bar per group in each, optional marks (a
// short bar-wide line, e.g. a predicted value beside the measured bar), a highlighted
// category, and x labels that tilt when they do not fit. Coordinates are CSS pixels.
import { axisMargins } from './axes.js';
import { drawFrame, drawLegend, drawTitle, legendLayout, linearTicks, logTicks } from './chart.js';

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {{x,y,w,h}} rect
 * @param {{ categories: string[], groups: { label: string, color: string, values: ArrayLike<number> }[],
 *   marks?: { label: string, color: string, values: ArrayLike<number>, group?: number }[],
 *   yDomain: number[], yLog?: boolean, yTicks?: {value,label}[], yLabel?: string, title?: string,
 *   highlight?: number, theme: object, fontSize: number, valueText?: (v: number, group: number) => string }} spec
 * @returns {{ plot, slotOf: (index: number) => {x: number, w: number}, categoryAt: (x: number) => number }}
 */
export function drawBars(ctx, rect, spec) {
  const { categories, groups, theme, fontSize } = spec;
  const margin = axisMargins(fontSize);
  ctx.save();
  ctx.font = `${fontSize}px ${theme.font}`;
  const plotW = Math.max(10, rect.w - margin.left - margin.right);
  const slot = plotW / Math.max(1, categories.length);
  const widest = Math.max(0, ...categories.map((c) => ctx.measureText(c).width));
  const tilt = widest > slot - 4;
  const angle = Math.PI / 4;
  const labelHeight = tilt ? widest * Math.sin(angle) + fontSize : 1.4 * fontSize;
  ctx.restore();
  const titleHeight = spec.title ? 1.5 * fontSize : 0;
  const entries = [...groups.map((g) => ({ label: g.label, color: g.color, fill: true })),
    ...(spec.marks ?? []).filter((m) => m.label).map((m) => ({ label: m.label, color: m.color, width: 2 }))];
  ctx.save();
  ctx.font = `${fontSize}px ${theme.font}`;
  const legend = entries.length > 1 ? legendLayout(ctx, entries, plotW, fontSize) : { rows: [], height: 0 };
  ctx.restore();
  const legendHeight = legend.height;
  const top = rect.y + titleHeight + legendHeight + 0.6 * fontSize;
  const plot = { x: rect.x + margin.left, y: top, w: plotW,
    h: Math.max(10, rect.y + rect.h - top - labelHeight - 8 - (spec.xLabel ? 1.4 * fontSize : 0)) };
  const [y0, y1] = spec.yDomain;
  const toY = (v) => {
    const t = spec.yLog ? (v > 0 ? Math.log10(v) : y0) : v;
    const clamped = Math.max(y0, Math.min(y1, t));
    return plot.y + plot.h - ((clamped - y0) / (y1 - y0)) * plot.h;
  };
  const yTicks = spec.yTicks ?? (spec.yLog ? logTicks(y0, y1, 5) : linearTicks(y0, y1, 4));
  const yLinear = (t) => plot.y + plot.h - ((t - y0) / (y1 - y0)) * plot.h;
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
  const base = toY(spec.yLog ? 10 ** y0 : Math.max(y0, Math.min(y1, 0)));
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

  // Title and legend.
  if (spec.title) drawTitle(ctx, rect, spec.title, theme, fontSize);
  drawLegend(ctx, legend, plot.x, rect.y + titleHeight, theme, fontSize);
  return { plot, slotOf, categoryAt: (px) => Math.floor((px - plot.x) / slot) };
}
