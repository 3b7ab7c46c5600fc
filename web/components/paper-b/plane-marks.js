// What the token-plane figures (<gatelab-energy>, <gatelab-precond>) draw on the kit's plots:
// the energy landscape (plot/heatmap.js with contour lines at round levels, low energy at the
// colormap's negative end), the tokens (context discs, the query's ring), the query's path of
// gradient steps, and the dots of the energy-per-step chart (a rise in the second accent).
// CSS pixels.
import { subscript, superscript } from '../base/format.js';
import { withAlpha } from '../base/theme.js';
import { extent, formatTick, niceTicks } from '../plot/axes.js';
import { drawHeatmap } from '../plot/heatmap.js';

/**
 * The energy landscape: a G × G grid over [lo, hi]² (row r at v_r, bottom to top; column c at
 * u_c, both from lo to hi), contour lines at round levels and a colour bar marking them.
 * @returns {{ plot, xScale, yScale, levels, range }}
 */
export function drawLandscape(ctx, rect, { grid, G, lo, hi, theme, fontSize, xLabel, yLabel, barLabel }) {
  const range = extent([grid], { pad: 0 });
  const levels = niceTicks(range[0], range[1], 9).filter((l) => l > range[0] && l < range[1]);
  const area = drawHeatmap(ctx, rect, {
    grid, rows: G, cols: G, xRange: [lo, hi], yRange: [lo, hi], domain: range, samples: 'points', yUp: true,
    theme, fontSize, xLabel, yLabel, barLabel, contours: { levels, alpha: 0.42 },
    barTicks: levels.map((level) => ({ value: level, label: formatTick(Number(level.toPrecision(3))), line: true })),
  });
  return { ...area, levels, range };
}

/**
 * A token marker with a label: 'context' is a filled disc, 'query' a thick ring; `selected`
 * adds a dashed focus ring.
 */
export function drawToken(ctx, x, y, { kind = 'context', label, theme, fontSize, selected = false, color }) {
  const r = Math.max(5, fontSize * 0.5);
  ctx.save();
  ctx.lineWidth = 2;
  if (kind === 'query') {
    ctx.strokeStyle = theme.bg;
    ctx.lineWidth = 5;
    ctx.beginPath();
    ctx.arc(x, y, r + 1, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = color ?? theme.accent;
    ctx.lineWidth = 2.6;
    ctx.stroke();
  } else {
    ctx.fillStyle = color ?? theme.fg;
    ctx.strokeStyle = theme.bg;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }
  if (selected) {
    ctx.strokeStyle = theme.fg;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.arc(x, y, r + 6, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  if (label) haloText(ctx, label, x + r + 3, y - r + 2, { theme, fontSize, baseline: 'bottom' });
  ctx.restore();
}

/** Bold text over a halo of the background colour. */
function haloText(ctx, text, x, y, { theme, fontSize, baseline }) {
  ctx.save();
  ctx.font = `600 ${fontSize}px ${theme.font}`;
  ctx.textAlign = 'left';
  ctx.textBaseline = baseline;
  ctx.lineWidth = 3;
  ctx.strokeStyle = theme.bg;
  ctx.lineJoin = 'round';
  ctx.strokeText(text, x, y);
  ctx.fillStyle = theme.fg;
  ctx.fillText(text, x, y);
  ctx.restore();
}

/**
 * The tokens h (n·2) of a token-plane figure at (xScale(x), yScale(y)): context discs h₀ …, the
 * last one the query's ring, labelled as y⁰; the token at index `selected` gets the focus ring.
 */
export function drawTokens(ctx, h, n, xScale, yScale, { theme, fontSize, selected = -1 }) {
  for (let i = 0; i < n; i++) {
    const query = i === n - 1;
    drawToken(ctx, xScale(h[2 * i]), yScale(h[2 * i + 1]), { kind: query ? 'query' : 'context',
      label: query ? `h${subscript(i)} = y⁰` : `h${subscript(i)}`, theme, fontSize, selected: i === selected });
  }
}

/**
 * The query's path y⁰ … y^T ([x0, y0, x1, y1, …]) as a line over a halo with a dot at every step
 * (the last one larger when `end` is set, and labelled y^T).
 * @returns {[number, number][]} the points in CSS pixels
 */
export function drawPath(ctx, path, xScale, yScale, { theme, fontSize, color, width = 2, dash = [], end = false }) {
  const points = [];
  for (let t = 0; t < path.length / 2; t++) points.push([xScale(path[2 * t]), yScale(path[2 * t + 1])]);
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.strokeStyle = withAlpha(theme.bg, 0.85);
  ctx.lineWidth = width + 3;
  ctx.beginPath();
  points.forEach(([x, y], k) => (k ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.stroke();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.stroke();
  ctx.setLineDash([]);
  for (let t = 1; t < points.length; t++) {
    ctx.fillStyle = color;
    ctx.strokeStyle = theme.bg;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(points[t][0], points[t][1], end && t === points.length - 1 ? 4.5 : 3, 0, 2 * Math.PI);
    ctx.fill();
    if (end) ctx.stroke();
  }
  ctx.restore();
  if (end && points.length) {
    const [xe, ye] = points.at(-1);
    haloText(ctx, `y${superscript(points.length - 1)}`, xe + 6, ye + 3, { theme, fontSize, baseline: 'top' });
  }
  return points;
}

/** The dots of an energy-per-step chart: a step whose energy rose is larger, in the second accent. */
export function drawStepDots(ctx, energies, xScale, yScale, { theme, radius = 3.5 }) {
  ctx.save();
  for (let t = 0; t < energies.length; t++) {
    const up = t > 0 && energies[t] > energies[t - 1];
    ctx.fillStyle = up ? theme.accent2 : theme.accent;
    ctx.strokeStyle = theme.bg;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(xScale(t), yScale(energies[t]), up ? Math.max(5, radius) : radius, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fill();
  }
  ctx.restore();
}
