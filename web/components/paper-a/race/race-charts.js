// The race figure's canvases: the data set (with the point editor's cursor), the loss and
// accuracy curves with a band over seeds, and one decision-boundary panel per model (the
// model's raw output through the colormap, its zero contour and the data). Pure drawing from a
// RaceSession (race-session.js) and a few settings, apart from the element, so what is drawn
// can be read without the training and event plumbing of gatelab-race.js. Each function takes
// the figure for its canvas sizing, font size and theme.
import { formatNumber } from '../../base/format.js';
import { layerLabel } from '../../base/labels.js';
import { extent, logTicks } from '../../plot/axes.js';
import { drawChart } from '../../plot/chart.js';
import { drawContours } from '../../plot/contour.js';
import { drawGridImage, gridPosition } from '../../plot/heatmap.js';
import { classColor, drawPoints } from '../../plot/marks.js';
import { coordOf, pointArrays } from './user-points.js';
import { EXTENT, GRID } from './race-schema.js';

/**
 * Train (dashed) and test (solid) loss on a log axis, with the test loss's min–max band.
 * @param {{ session: object|null, colors: string[], steps: number, loss: string, notice: string }} spec
 *   session: the race once it has runs (null before); notice: why nothing trains, shown instead
 */
export function drawLossChart(figure, canvas, { session: s, colors, steps, loss, notice }) {
  const theme = figure.theme;
  const { ctx, width, height } = figure.beginCanvas(canvas);
  const fontSize = figure.fontSizeFor(width);
  const curves = s ? s.models.map((_, i) => s.curves(i)) : [];
  // A diverged run's last records can be astronomically large: the range stops at a few times
  // the largest starting loss, and such curves leave the top of the plot (marked by a dot).
  const ceiling = 4 * Math.max(1, ...curves.map((c) => c.testLoss.max[0]).filter(Number.isFinite));
  const all = curves.flatMap((c) => [c.testLoss.max, c.trainLoss.mean, c.testLoss.min])
    .map((a) => Float32Array.from(a, (v) => Math.min(v, ceiling)));
  const [lo, hi] = extent(all, { log: true, include: [1] });
  drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
    xDomain: [0, steps], yDomain: [lo, hi], yLog: true,
    yTicks: logTicks(lo, hi, 4).length >= 2 ? logTicks(lo, hi, 4) : fineLogTicks(lo, hi),
    theme, fontSize, xLabel: 'step', title: loss === 'mse' ? 'Loss (mean squared, log)' : 'Loss (cross-entropy, log)',
    bands: curves.map((c, i) => ({ x: c.step, lo: c.testLoss.min, hi: c.testLoss.max, color: colors[i], alpha: 0.14 })),
    series: curves.flatMap((c, i) => [
      { x: c.step, y: c.trainLoss.mean, color: colors[i], width: 1.2, dash: [4, 3] },
      { x: c.step, y: c.testLoss.mean, color: colors[i], width: 2.2 }]),
    dots: divergenceDots(s, 'testLoss', colors),
    legend: s ? [...s.models.map((m, i) => ({ label: layerLabel(m, figure.lab), color: colors[i], width: 3 })),
      { label: 'test', color: theme.muted }, { label: 'train', color: theme.muted, dash: [4, 3], width: 1.2 }] : [],
  });
  if (!s) drawNotice(ctx, theme, notice, width, height, fontSize);
}

/** Test accuracy (mean over seeds, min–max band). */
export function drawAccuracyChart(figure, canvas, { session: s, colors, steps }) {
  const { ctx, width, height } = figure.beginCanvas(canvas);
  const fontSize = figure.fontSizeFor(width);
  const curves = s ? s.models.map((_, i) => s.curves(i)) : [];
  const lo = Math.min(0.45, ...curves.map((c) => Math.min(...c.testAccuracy.min)));
  drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
    xDomain: [0, steps], yDomain: [Math.max(0, lo - 0.03), 1.02], theme: figure.theme, fontSize,
    xLabel: 'step', title: 'Test accuracy (band: min–max)',
    bands: curves.map((c, i) => ({ x: c.step, lo: c.testAccuracy.min, hi: c.testAccuracy.max, color: colors[i],
      alpha: 0.14 })),
    series: curves.map((c, i) => ({ x: c.step, y: c.testAccuracy.mean, color: colors[i], width: 2.2 })),
    dots: divergenceDots(s, 'testAccuracy', colors),
  });
}

/** A dot where each diverged model's first diverged run stopped. */
function divergenceDots(s, metric, colors) {
  if (!s) return [];
  const dots = [];
  s.runs.forEach((row, i) => {
    const run = row.find((r) => r.divergence);
    if (!run) return;
    const last = run.records.step.length - 1;
    if (last < 0) return;
    dots.push({ x: run.records.step[last], y: run.records[metric][last], color: colors[i], r: 5 });
  });
  return dots;
}

/** The notice, word-wrapped and centred in the accent colour. */
function drawNotice(ctx, theme, notice, width, height, fontSize) {
  if (!notice) return;
  ctx.save();
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.fillStyle = theme.accent;
  ctx.textAlign = 'center';
  const words = notice.split(' ');
  let line = '';
  let y = height / 2 - fontSize;
  for (const word of words) {
    if (ctx.measureText(`${line} ${word}`).width > width - 40 && line) {
      ctx.fillText(line, width / 2, y);
      line = word;
      y += 1.4 * fontSize;
    } else line = line ? `${line} ${word}` : word;
  }
  ctx.fillText(line, width / 2, y);
  ctx.restore();
}

/**
 * The data set: the session's seed-0 data, or the user's points while they are not yet the ones
 * trained on, and the keyboard cursor of the point editor. Returns the plot rectangle (the point
 * editor maps pointer positions with it).
 * @param {{ session: object|null, user: boolean, seed: number, userPoints: object[],
 *   cursor: { i: number, j: number }|null, drawLabel: number }} spec
 */
export function drawDataPanel(figure, canvas, { session: s, user, seed, userPoints, cursor, drawLabel }) {
  const { ctx, width, height } = figure.beginCanvas(canvas);
  const theme = figure.theme;
  const fontSize = figure.fontSizeFor(width);
  const title = user ? 'Your points (● train, ○ test)' : `Data, seed ${seed} (● train, ○ test)`;
  const side = Math.min(width - 8, height - 2.8 * fontSize);
  const plot = { x: (width - side) / 2, y: 1.6 * fontSize, w: side, h: side };
  ctx.font = `600 ${fontSize}px ${theme.font}`;
  ctx.fillStyle = theme.fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(title, plot.x, 2, plot.w);
  ctx.strokeStyle = theme.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let v = -1; v <= 1; v++) {
    const px = plot.x + ((v + EXTENT) / (2 * EXTENT)) * plot.w;
    const py = plot.y + ((EXTENT - v) / (2 * EXTENT)) * plot.h;
    ctx.moveTo(px, plot.y);
    ctx.lineTo(px, plot.y + plot.h);
    ctx.moveTo(plot.x, py);
    ctx.lineTo(plot.x + plot.w, py);
  }
  ctx.stroke();
  ctx.strokeStyle = theme.muted;
  ctx.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);
  let data = s?.data ?? null;
  if (user && (!s || s.request.data.task !== 'user' || s.request.data.points.y.length !== userPoints.length)) {
    data = pointArrays(userPoints);
    data = { xTrain: data.x, yTrain: data.y };
  }
  drawPoints(ctx, plot, { data, extent: EXTENT, theme, radius: Math.max(2.5, side / 90) });
  if (user && cursor) {
    const px = plot.x + ((coordOf(cursor.i) + EXTENT) / (2 * EXTENT)) * plot.w;
    const py = plot.y + ((EXTENT - coordOf(cursor.j)) / (2 * EXTENT)) * plot.h;
    ctx.strokeStyle = classColor(theme, drawLabel);
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(px - 9, py);
    ctx.lineTo(px + 9, py);
    ctx.moveTo(px, py - 9);
    ctx.lineTo(px, py + 9);
    ctx.stroke();
  }
  ctx.font = `${fontSize - 1}px ${theme.font}`;
  ctx.fillStyle = theme.muted;
  ctx.fillText(`[−${EXTENT}, ${EXTENT}]²`, plot.x, plot.y + plot.h + 4);
  return plot;
}

/**
 * One decision-boundary panel per model (seed 0's grid), in as many columns as fit. The canvas's
 * aspect ratio follows the number of rows; `aspect` is the ratio last set (a string), and the one
 * now set is returned so the caller can skip restyling when it has not changed.
 * @param {{ session: object|null, colors: string[], loss: string, aspect: string }} spec
 */
export function drawBoundaryPanels(figure, canvas, { session: s, colors, loss, aspect }) {
  const models = s?.models ?? [];
  const box = canvas.getBoundingClientRect();
  const columns = Math.max(2, Math.min(Math.max(1, models.length), Math.floor(box.width / 135) || 2));
  const rows = Math.max(1, Math.ceil(Math.max(1, models.length) / columns));
  const panelW = box.width / columns;
  const fontSize = figure.fontSizeFor(box.width);
  const ratio = (columns * panelW) / (rows * (panelW + 2.9 * fontSize));
  const wanted = ratio.toFixed(2);
  if (aspect !== wanted) canvas.style.aspectRatio = wanted;
  const { ctx, height } = figure.beginCanvas(canvas);
  const cellH = height / rows;
  const scale = loss === 'mse' ? 1.2 : 4;
  models.forEach((m, i) => {
    const [c, r] = [i % columns, Math.floor(i / columns)];
    const diverged = s.runs[i].filter((run) => run.divergence);
    const last = s.runs[i][0].records;
    const acc = last.testAccuracy.at(-1);
    const note = diverged.length
      ? `diverged: ${diverged.length}/${s.runs[i].length} runs (step ${diverged[0].divergence.step})`
      : `${m.hidden} units · ${m.parameters} params · test acc ${formatNumber(acc)}`;
    drawBoundaryPanel(ctx, { x: c * panelW + 4, y: r * cellH + 2, w: panelW - 8, h: cellH - 4 }, {
      grid: s.grids[i], size: GRID, extent: EXTENT, scale, theme: figure.theme, fontSize: fontSize - 1,
      data: s.data, title: layerLabel(m, figure.lab), note,
      noteColor: diverged.length ? figure.theme.accent : undefined,
    });
    ctx.fillStyle = colors[i];
    ctx.fillRect(c * panelW + 4, r * cellH + 2 + 1.35 * (fontSize - 1) - 3, panelW - 8, 2);
  });
  return wanted;
}

/**
 * One model's panel: its output grid (lab trainer.grid: row 0 at y = +e) softened so the data on
 * top stays readable, the zero contour that is its decision boundary, the data, a title and a
 * note line. `grid` is null before the first chunk: then only the frame and the data.
 * @returns {{ x, y, w, h }} the square plot
 */
function drawBoundaryPanel(ctx, rect, { grid, size, extent: e, scale, theme, fontSize, data, title, note, noteColor }) {
  const titleH = 1.35 * fontSize;
  const noteH = note === undefined ? 0 : 1.35 * fontSize;
  const side = Math.max(10, Math.min(rect.w, rect.h - titleH - noteH - 4));
  const plot = { x: rect.x + (rect.w - side) / 2, y: rect.y + titleH, w: side, h: side };
  ctx.save();
  if (grid) {
    drawGridImage(ctx, plot, { grid, rows: size, cols: size, domain: [-scale, scale], theme, alpha: 0.62 });
    drawContours(ctx, { grid, rows: size, cols: size, levels: [0], toPlot: gridPosition(plot, size, size),
      color: theme.fg, width: 1.5 });
  } else {
    ctx.fillStyle = theme.grid;
    ctx.globalAlpha = 0.35;
    ctx.fillRect(plot.x, plot.y, plot.w, plot.h);
    ctx.globalAlpha = 1;
  }
  ctx.strokeStyle = theme.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);
  drawPoints(ctx, plot, { data, extent: e, theme, radius: Math.max(2, side / 75) });
  ctx.font = `600 ${fontSize}px ${theme.font}`;
  ctx.fillStyle = theme.fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(title, plot.x, rect.y + 1, plot.w);
  if (note !== undefined) {
    ctx.font = `${fontSize - 1}px ${theme.font}`;
    ctx.fillStyle = noteColor ?? theme.muted;
    ctx.fillText(note, plot.x, plot.y + plot.h + 4, plot.w);
  }
  ctx.restore();
  return plot;
}

/** Log ticks for a range narrower than a decade: a few round values, labelled plainly. */
function fineLogTicks(lo, hi) {
  const out = [];
  for (let k = 0; k < 4; k++) {
    const t = lo + ((hi - lo) * (k + 0.5)) / 4;
    const v = Number((10 ** t).toPrecision(2));
    out.push({ value: Math.log10(v), label: formatNumber(v) });
  }
  return out;
}
