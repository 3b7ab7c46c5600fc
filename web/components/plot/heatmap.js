// Heatmap drawer: a Float32Array grid of values -> ImageData through a diverging colormap
// centred on zero, drawn scaled into a rectangle of a canvas, with axes and a colour bar. Its
// layout and colour strip also serve the energy landscape of cem-plots.js.
import { colormapTable } from '../base/theme.js';
import { axisMargins, drawAxes, formatTick, linearScale, niceTicks } from './axes.js';

/**
 * Colours a grid. `grid` is row-major rows x cols; by default row r becomes image row r (top
 * first). With `xIsRow`, grid row i is drawn as image column i (the first index runs along x),
 * and with `yUp` the last column/row is drawn at the top, as in a mathematical plot.
 * Values are mapped from [-scale, scale] onto the table; NaN is transparent.
 */
export function gridToImageData(grid, rows, cols, { scale, table, xIsRow = false, yUp = false }) {
  const width = xIsRow ? rows : cols;
  const height = xIsRow ? cols : rows;
  const image = new ImageData(width, height);
  const data = image.data;
  const k = scale > 0 ? 127.5 / scale : 0;
  for (let py = 0; py < height; py++) {
    const yIndex = yUp ? height - 1 - py : py;
    for (let px = 0; px < width; px++) {
      const value = xIsRow ? grid[px * cols + yIndex] : grid[yIndex * cols + px];
      const o = 4 * (py * width + px);
      if (Number.isNaN(value)) continue;
      const t = Math.max(0, Math.min(255, Math.round(127.5 + value * k)));
      data[o] = table[4 * t];
      data[o + 1] = table[4 * t + 1];
      data[o + 2] = table[4 * t + 2];
      data[o + 3] = table[4 * t + 3];
    }
  }
  return image;
}

/** Largest |value| of a grid (finite values only); 0 for an all-zero grid. */
export function maxAbs(grid) {
  let m = 0;
  for (const v of grid) if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m;
}

const scratch = new WeakMap();
/** An offscreen canvas of width × height kept per context, for a grid's image before scaling. */
export function scratchCanvas(ctx, width, height) {
  let canvas = scratch.get(ctx);
  if (!canvas) scratch.set(ctx, (canvas = new OffscreenCanvas(width, height)));
  if (canvas.width !== width || canvas.height !== height) [canvas.width, canvas.height] = [width, height];
  return canvas;
}

/**
 * The square plot of a heatmap in `rect` with a colour bar to its right, `barText` font sizes
 * kept for the bar's labels. The energy landscape of the paper-B figures is laid out alike.
 */
export function squarePlotWithBar(rect, fontSize, barText) {
  const margin = axisMargins(fontSize);
  const barWidth = Math.max(8, Math.round(fontSize * 0.9));
  const barGap = Math.round(fontSize * 0.8);
  const textWidth = Math.round(fontSize * barText);
  const room = Math.min(rect.w - margin.left - barGap - barWidth - textWidth, rect.h - margin.top - margin.bottom);
  const side = Math.max(10, Math.floor(room));
  const plot = { x: rect.x + margin.left, y: rect.y + margin.top, w: side, h: side };
  return { plot, bar: { x: plot.x + plot.w + barGap, y: plot.y, w: barWidth, h: plot.h } };
}

/** The colormap `table` as a vertical strip in `bar`, its high end at the top, outlined. */
export function drawColorStrip(ctx, bar, table, theme) {
  const image = new ImageData(1, 256);
  for (let i = 0; i < 256; i++) image.data.set(table.subarray(4 * (255 - i), 4 * (255 - i) + 4), 4 * i);
  const canvas = new OffscreenCanvas(1, 256);
  canvas.getContext('2d').putImageData(image, 0, 0);
  ctx.drawImage(canvas, bar.x, bar.y, bar.w, bar.h);
  ctx.strokeStyle = theme.muted;
  ctx.strokeRect(bar.x + 0.5, bar.y + 0.5, bar.w - 1, bar.h - 1);
}

/**
 * Draws a square-cell heatmap with axes and a colour bar into `rect` (CSS pixels).
 * @param {CanvasRenderingContext2D} ctx
 * @param {{ grid: Float32Array, rows: number, cols: number, xRange: number[], yRange: number[],
 *   scale: number, theme: object, fontSize: number, xLabel?: string, yLabel?: string,
 *   barLabel?: string, xIsRow?: boolean, yUp?: boolean }} spec
 * @returns {{ plot: {x,y,w,h}, xScale: Function, yScale: Function }} for overlays
 */
export function drawHeatmap(ctx, rect, spec) {
  const { grid, rows, cols, xRange, yRange, theme, fontSize } = spec;
  // An all-zero grid (a linear σ) is drawn on a ±1 scale: the neutral colour everywhere.
  const scale = spec.scale > 0 ? spec.scale : 1;
  const { plot, bar } = squarePlotWithBar(rect, fontSize, 3.2);
  const side = plot.w;

  const table = colormapTable(theme.colormap);
  const image = gridToImageData(grid, rows, cols, { scale, table, xIsRow: spec.xIsRow, yUp: spec.yUp });
  const canvas = scratchCanvas(ctx, image.width, image.height);
  canvas.getContext('2d').putImageData(image, 0, 0);
  ctx.save();
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(canvas, plot.x, plot.y, plot.w, plot.h);
  ctx.restore();

  const xScale = linearScale(xRange[0], xRange[1], plot.x, plot.x + plot.w);
  const yScale = linearScale(yRange[0], yRange[1], plot.y + plot.h, plot.y);
  const tickCount = side < 200 ? 3 : 5;
  drawAxes(ctx, plot, {
    x: niceTicks(xRange[0], xRange[1], tickCount), y: niceTicks(yRange[0], yRange[1], tickCount),
    xScale, yScale, xLabel: spec.xLabel, yLabel: spec.yLabel, theme, fontSize,
  });
  drawColorBar(ctx, bar, table, scale, spec);
  return { plot, xScale, yScale };
}

function drawColorBar(ctx, bar, table, scale, { theme, fontSize, barLabel }) {
  ctx.save();
  drawColorStrip(ctx, bar, table, theme);
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.fillStyle = theme.muted;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const rounded = Number(scale.toPrecision(2));
  ctx.fillText(formatTick(rounded), bar.x + bar.w + 4, bar.y + 0.5 * fontSize);
  ctx.fillText('0', bar.x + bar.w + 4, bar.y + bar.h / 2);
  ctx.fillText(formatTick(-rounded), bar.x + bar.w + 4, bar.y + bar.h - 0.5 * fontSize);
  if (barLabel) {
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText(barLabel, bar.x + bar.w / 2, bar.y - 4);
  }
  ctx.restore();
}
