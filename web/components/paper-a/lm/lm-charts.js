// <gatelab-lm>'s canvases: the validation loss of every model against steps (the mean over seeds,
// the min–max band when several run, the unigram baseline dashed), and the antisymmetric share
// ‖(1 − λ)A‖ / ‖S + (1 − λ)A‖ of each gated model's MLP (docs/MATH.md §A12), mean over blocks and
// seeds. Pure drawing from an LmTraining (lm-training.js) through lm-report.js's curves.
import { extent } from '../../plot/axes.js';
import { drawChart } from '../../plot/chart.js';
import { modelCurve, modelsOf } from './lm-report.js';

// The models' curves often lie on top of each other (they differ by a few hundredths of a nat):
// each model also has its own dash, so one drawn over another still shows through its gaps.
const DASHES = [[], [9, 4], [2, 3], [9, 3, 2, 3]];
const dashOf = (i) => DASHES[i % DASHES.length];

/** Model i's antisymmetric share at the steps every seed has reached, mean over blocks and seeds. */
function shareCurve(training, i, lab) {
  const runs = training.runs.filter((r) => r.model === i);
  const length = Math.min(...runs.map((r) => r.points.filter((p) => !p.diverged).length));
  const x = [];
  const y = [];
  for (let k = 0; k < length; k++) {
    const values = runs.flatMap((r) => r.points[k].blocks.map((b) => b.antisymmetricShare));
    if (!values.length || !values.every(Number.isFinite)) return null;
    x.push(runs[0].points[k].step);
    y.push(lab.stats.summary(values).mean);
  }
  return { x, y };
}

function drawWaiting(ctx, theme, text, width, height, fontSize) {
  ctx.save();
  ctx.fillStyle = theme.muted;
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.textAlign = 'center';
  ctx.fillText(text, width / 2, height / 2);
  ctx.restore();
}

/** Validation loss against steps, every model. */
export function drawLossChart(figure, canvas, { training, colors, steps, notice = '' }) {
  const { theme, lab } = figure;
  const { ctx, width, height } = figure.beginCanvas(canvas);
  const fontSize = figure.fontSizeFor(width);
  const models = training ? modelsOf(training) : [];
  const curves = models.map((_, i) => modelCurve(training, i, lab));
  const unigram = training?.corpus?.baselines.unigram;
  const seeds = models[0]?.runs.length ?? 1;
  const yDomain = extent(curves.flatMap((c) => [c.lo, c.hi]), { include: Number.isFinite(unigram) ? [unigram] : [] });
  drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
    xDomain: [0, steps], yDomain, theme, fontSize, xLabel: 'step', yLabel: 'nats per character',
    title: `Validation loss${seeds > 1 ? ` (mean of ${seeds} seeds, band: min–max)` : ''}`,
    bands: seeds > 1 ? curves.map((c, i) => ({ x: c.steps, lo: c.lo, hi: c.hi, color: colors[i], alpha: 0.16 })) : [],
    series: [
      ...(Number.isFinite(unigram)
        ? [{ x: [0, steps], y: [unigram, unigram], color: theme.muted, width: 1.2, dash: [5, 4] }] : []),
      ...curves.map((c, i) => ({ x: c.steps, y: c.mean, color: colors[i], width: 2.2, dash: dashOf(i),
        dots: c.steps.length === 1 }))],
    legend: [...models.map((m, i) => ({ label: m.variant.label, color: colors[i], width: 3, dash: dashOf(i) })),
      ...(Number.isFinite(unigram) ? [{ label: 'unigram', color: theme.muted, dash: [5, 4], width: 1.2 }] : [])],
  });
  if (!curves.some((c) => c.steps.length)) drawWaiting(ctx, theme, notice || 'Training…', width, height, fontSize);
}

/** The antisymmetric share of each gated model against steps (FFN and symmetric forms have none). */
export function drawShareChart(figure, canvas, { training, colors, steps }) {
  const { theme, lab } = figure;
  const { ctx, width, height } = figure.beginCanvas(canvas);
  const fontSize = figure.fontSizeFor(width);
  const models = training ? modelsOf(training) : [];
  const curves = models.map((_, i) => shareCurve(training, i, lab));
  const shown = models.map((m, i) => ({ m, i, c: curves[i] })).filter((e) => e.c);
  drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
    xDomain: [0, steps], yDomain: extent(shown.map((e) => e.c.y), { include: [0, 0.5] }), theme, fontSize,
    xLabel: 'step', title: 'Antisymmetric share of the gated MLPs',
    series: shown.map(({ i, c }) => ({ x: c.x, y: c.y, color: colors[i], width: 2, dash: dashOf(i),
      dots: c.x.length === 1 })),
    legend: shown.map(({ m, i }) => ({ label: m.variant.label, color: colors[i], width: 3, dash: dashOf(i) })),
  });
  if (!shown.some((e) => e.c.x.length)) {
    const waiting = models.length && !shown.length ? 'No gated model: nothing to show' : 'Training…';
    drawWaiting(ctx, theme, waiting, width, height, fontSize);
  }
}
