// The kit's one heatmap: a grid of values through the theme's colormap (a domain [lo, hi] onto
// its negative … positive end; a diverging plot centres the domain on zero), drawn smoothed into
// a square plot with axes, optional contour lines (contour.js) and a colour bar with ticks. The
// exchange planes, the interaction plane, the decision boundaries and the energy landscapes are
// all drawn by it. Coordinates are CSS pixels.
import { colormapFor } from '../base/theme.js';
import { axisMargins, drawFrame, formatTick, linearScale, linearTicks } from './axes.js';
import { drawContours } from './contour.js';

/** The colormap entry (0 … 255) of a finite `value`: (value − lo)·k, rounded and clamped. */
function colorIndex(value, lo, k) {
  return Math.max(0, Math.min(255, Math.round((value - lo) * k)));
}

/**
 * Colours a row-major rows × cols grid. By default grid row r becomes image row r (top first);
 * with `xIsRow` grid row i is drawn as image column i (the first index runs along x), and with
 * `yUp` the last row (column) is drawn at the top, as in a mathematical plot. Values map from
 * `domain` onto the table; NaN is transparent.
 */
export function gridToImageData(grid, rows, cols, { domain, table, xIsRow = false, yUp = false }) {
  const width = xIsRow ? rows : cols;
  const height = xIsRow ? cols : rows;
  const image = new ImageData(width, height);
  const data = image.data;
  const [lo, hi] = domain;
  const k = hi > lo ? 255 / (hi - lo) : 0;
  for (let py = 0; py < height; py++) {
    const yIndex = yUp ? height - 1 - py : py;
    for (let px = 0; px < width; px++) {
      const value = xIsRow ? grid[px * cols + yIndex] : grid[yIndex * cols + px];
      if (Number.isNaN(value)) continue;
      const t = 4 * colorIndex(value, lo, k);
      data.set(table.subarray(t, t + 4), 4 * (py * width + px));
    }
  }
  return image;
}

const scratch = new WeakMap();
/** An offscreen canvas kept per context, for a grid's image before it is scaled onto the plot. */
function scratchCanvas(ctx, width, height) {
  let canvas = scratch.get(ctx);
  if (!canvas) scratch.set(ctx, (canvas = new OffscreenCanvas(width, height)));
  if (canvas.width !== width || canvas.height !== height) [canvas.width, canvas.height] = [width, height];
  return canvas;
}

/**
 * Draws a grid's colours smoothed into `box` ({x, y, w, h}, CSS pixels), at `alpha`.
 * @param {{ grid, rows, cols, domain: number[], theme: object, xIsRow?: boolean, yUp?: boolean, alpha?: number }} spec
 */
export function drawGridImage(ctx, box, { grid, rows, cols, domain, theme, xIsRow, yUp, alpha = 1 }) {
  const image = gridToImageData(grid, rows, cols, { domain, table: colormapFor(theme), xIsRow, yUp });
  const canvas = scratchCanvas(ctx, image.width, image.height);
  canvas.getContext('2d').putImageData(image, 0, 0);
  ctx.save();
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.globalAlpha = alpha;
  ctx.drawImage(canvas, box.x, box.y, box.w, box.h);
  ctx.restore();
}

/**
 * The canvas position of grid coordinates (c, r) of a grid drawn into `plot`. samples 'cells':
 * the grid's cells fill the plot, a sample at its cell's centre; 'points': the first and last
 * samples sit on the plot's edges. xIsRow and yUp as in gridToImageData.
 */
export function gridPosition(plot, rows, cols, { samples = 'cells', xIsRow = false, yUp = false } = {}) {
  const [nx, ny] = xIsRow ? [rows, cols] : [cols, rows];
  const along = (i, n, length) => (samples === 'points' ? (i / (n - 1)) * length : ((i + 0.5) / n) * length);
  return (c, r) => {
    const [i, j] = xIsRow ? [r, c] : [c, r];
    const y = along(j, ny, plot.h);
    return [plot.x + along(i, nx, plot.w), yUp ? plot.y + plot.h - y : plot.y + y];
  };
}

/**
 * The square plot of a heatmap in `rect` with a colour bar to its right; `barText` font sizes are
 * kept for the bar's labels.
 */
export function squarePlotWithBar(rect, fontSize, barText = 3.4) {
  const margin = axisMargins(fontSize);
  const barWidth = Math.max(8, Math.round(fontSize * 0.9));
  const barGap = Math.round(fontSize * 0.8);
  const textWidth = Math.round(fontSize * barText);
  const room = Math.min(rect.w - margin.left - barGap - barWidth - textWidth, rect.h - margin.top - margin.bottom);
  const side = Math.max(10, Math.floor(room));
  const plot = { x: rect.x + margin.left, y: rect.y + margin.top, w: side, h: side };
  return { plot, bar: { x: plot.x + plot.w + barGap, y: plot.y, w: barWidth, h: plot.h } };
}

/**
 * The colormap as a vertical bar over `domain` (high end at the top), outlined, with `ticks`
 * ({ value, label }) beside it: a tick with `line` also crosses the bar, and when the labels
 * would crowd only every other one (or fewer) is written.
 */
export function drawColorBar(ctx, bar, { domain, ticks, label, theme, fontSize }) {
  const table = colormapFor(theme);
  const image = new ImageData(1, 256);
  for (let i = 0; i < 256; i++) image.data.set(table.subarray(4 * (255 - i), 4 * (255 - i) + 4), 4 * i);
  const strip = new OffscreenCanvas(1, 256);
  strip.getContext('2d').putImageData(image, 0, 0);
  ctx.save();
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(strip, bar.x, bar.y, bar.w, bar.h);
  ctx.strokeStyle = theme.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(bar.x + 0.5, bar.y + 0.5, bar.w - 1, bar.h - 1);
  const y = linearScale(domain[0], domain[1], bar.y + bar.h, bar.y);
  const half = 0.5 * fontSize;
  const stride = Math.max(1, Math.ceil((ticks.length * fontSize * 1.3) / bar.h));
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.fillStyle = theme.muted;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.beginPath();
  ticks.forEach((tick, k) => {
    const py = Math.round(y(tick.value)) + 0.5;
    if (tick.line) {
      ctx.moveTo(bar.x, py);
      ctx.lineTo(bar.x + bar.w, py);
    }
    // Labels at the very ends are moved in by half a line so they stay beside the bar.
    if (k % stride === 0) {
      ctx.fillText(tick.label, bar.x + bar.w + 4, Math.max(bar.y + half, Math.min(bar.y + bar.h - half, py)));
    }
  });
  ctx.strokeStyle = theme.fg;
  ctx.globalAlpha = 0.6;
  ctx.stroke();
  if (label) {
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText(label, bar.x + bar.w / 2, bar.y - 4);
  }
  ctx.restore();
}

/** Ticks of a diverging bar on [−scale, scale]: its ends and zero. */
function divergingTicks(scale) {
  const rounded = Number(scale.toPrecision(2));
  return [{ value: scale, label: formatTick(rounded) }, { value: 0, label: '0' },
    { value: -scale, label: formatTick(-rounded) }];
}

/**
 * Draws a heatmap with axes and a colour bar into `rect` (CSS pixels).
 * @param {CanvasRenderingContext2D} ctx
 * @param {{ grid: ArrayLike<number>, rows: number, cols: number, xRange: number[], yRange: number[],
 *   scale?: number, domain?: number[], samples?: 'cells'|'points', xIsRow?: boolean, yUp?: boolean,
 *   theme: object, fontSize: number, xLabel?: string, yLabel?: string, barLabel?: string,
 *   barTicks?: { value: number, label: string, line?: boolean }[],
 *   contours?: { levels: number[], color?: string, width?: number, alpha?: number } }} spec
 *   Colours: `domain`, or else the diverging [−scale, scale] (an all-zero grid, a linear σ, is
 *   drawn on ±1: the neutral colour everywhere). Axes: xRange × yRange; with samples 'cells'
 *   (default) the cells fill them, with 'points' the outer samples sit on them and the image
 *   reaches half a cell beyond, clipped.
 * @returns {{ plot: {x,y,w,h}, xScale: Function, yScale: Function }} for overlays
 */
export function drawHeatmap(ctx, rect, spec) {
  const { grid, rows, cols, xRange, yRange, theme, fontSize, samples = 'cells' } = spec;
  const scale = spec.scale > 0 ? spec.scale : 1;
  const domain = spec.domain ?? [-scale, scale];
  const { plot, bar } = squarePlotWithBar(rect, fontSize);
  const xScale = linearScale(xRange[0], xRange[1], plot.x, plot.x + plot.w);
  const yScale = linearScale(yRange[0], yRange[1], plot.y + plot.h, plot.y);
  const [nx, ny] = spec.xIsRow ? [rows, cols] : [cols, rows];
  const [hx, hy] = samples === 'points' ? [plot.w / (2 * (nx - 1)), plot.h / (2 * (ny - 1))] : [0, 0];
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y, plot.w, plot.h);
  ctx.clip();
  drawGridImage(ctx, { x: plot.x - hx, y: plot.y - hy, w: plot.w + 2 * hx, h: plot.h + 2 * hy },
    { grid, rows, cols, domain, theme, xIsRow: spec.xIsRow, yUp: spec.yUp });
  if (spec.contours) {
    drawContours(ctx, { grid, rows, cols, levels: spec.contours.levels, color: spec.contours.color ?? theme.fg,
      width: spec.contours.width, alpha: spec.contours.alpha,
      toPlot: gridPosition(plot, rows, cols, { samples, xIsRow: spec.xIsRow, yUp: spec.yUp }) });
  }
  ctx.restore();
  const count = plot.w < 220 ? 3 : 5;
  drawFrame(ctx, plot, { xTicks: linearTicks(xRange[0], xRange[1], count),
    yTicks: linearTicks(yRange[0], yRange[1], count),
    xScale, yScale, xLabel: spec.xLabel, yLabel: spec.yLabel, theme, fontSize, gridLines: false });
  drawColorBar(ctx, bar,
    { domain, ticks: spec.barTicks ?? divergingTicks(scale), label: spec.barLabel, theme, fontSize });
  return { plot, xScale, yScale };
}
