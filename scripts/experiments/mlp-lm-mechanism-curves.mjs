// The mechanism readout's curves (issue #23, deliverable 5): per variant, the mean over seeds of
// log10 κ of the MLP slot's NTK (start and every curve point, mean over the blocks), of the
// validation and train loss, and the gating gap L(FFN) − L(variant) on both splits (FFN-SiLU or FFN-ReLU), so the
// loss-crossing (does a gated form start behind and overtake?) reads off one axis. Only replays
// that match their job bit for bit enter (the readout's rule). Deterministic: the same files give
// the same numbers and the same SVG text.
import { legend, PALETTE, panel, svgDocument } from './svg-plot.mjs';

const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
const sameCurve = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

/** Mean curves per variant over the matching replays of seeds ≤ `seeds`. */
export function mechanismCurves(jobs, replays, { seeds = Infinity, baseline = 'ffn-silu' } = {}) {
  const key = (j) => `${j.variant}|${j.seed}|${j.lr}`;
  const byKey = new Map(jobs.map((j) => [key(j), j]));
  const groups = new Map();
  for (const r of replays) {
    const job = byKey.get(key(r));
    if (r.seed > seeds || !job || !r.ntk || !sameCurve(job.curveValLoss, r.curveValLoss)) continue;
    if (!groups.has(r.variant)) groups.set(r.variant, []);
    groups.get(r.variant).push(job === r ? r : { ...job, ntk: r.ntk });
  }
  const out = {};
  for (const [variant, runs] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const steps = runs[0].curveSteps;
    const at = (field) => steps.map((_, k) => mean(runs.map((r) => r[field][k])));
    out[variant] = { seeds: runs.map((r) => r.seed).sort((a, b) => a - b), steps: [0, ...steps],
      logKappa: runs[0].ntk.conditionNumber.map((_, k) => mean(runs.map((r) => mean(r.ntk.conditionNumber[k]
        .map((c) => Math.log10(c)))))),
      validation: at('curveValLoss'), train: at('curveTrainLoss') };
  }
  const base = out[baseline];
  for (const [variant, c] of Object.entries(out)) {
    if (!base || variant === baseline) continue;
    c.gapValidation = c.validation.map((v, k) => base.validation[k] - v);
    c.gapTrain = c.train.map((v, k) => base.train[k] - v);
    // The first curve point from which the gap stays above 0 (null: it never settles ahead).
    const from = (gap) => { const k = gap.findIndex((_, i) => gap.slice(i).every((g) => g > 0)); return k < 0 ? null
      : c.steps[k + 1]; };
    c.aheadFrom = { validation: from(c.gapValidation), train: from(c.gapTrain) };
  }
  return out;
}

/** The three panels: log10 κ, validation loss, and the gap to the baseline FFN (validation solid, train dashed). */
export function mechanismSvg(curves, labels = {}, { baselineTitle = 'FFN-SiLU' } = {}) {
  const variants = Object.keys(curves);
  const color = (v) => PALETTE[variants.indexOf(v) % PALETTE.length];
  const label = (v) => labels[v] ?? v;
  const kappa = variants.map((v) => ({ label: label(v), color: color(v),
    points: curves[v].steps.map((x, k) => ({ x, y: curves[v].logKappa[k] })) }));
  const loss = variants.map((v) => ({ label: label(v), color: color(v),
    points: curves[v].steps.slice(1).map((x, k) => ({ x, y: curves[v].validation[k] })) }));
  const gaps = variants.filter((v) => curves[v].gapValidation).flatMap((v) => [
    { label: `${label(v)} (validation)`, color: color(v),
      points: curves[v].steps.slice(1).map((x, k) => ({ x, y: curves[v].gapValidation[k] })) },
    { label: `${label(v)} (train)`, color: color(v), dash: '4 3',
      points: curves[v].steps.slice(1).map((x, k) => ({ x, y: curves[v].gapTrain[k] })) }]);
  const w = 300, h = 220, top = 60;
  const body = [
    panel({ x0: 60, y0: top, width: w, height: h, title: 'log10 κ of the MLP slot’s NTK (mean)',
      xLabel: 'step', yLabel: 'log10 κ', series: kappa }),
    panel({ x0: 60 + (w + 70), y0: top, width: w, height: h, title: 'validation loss (mean over seeds)',
      xLabel: 'step', yLabel: 'nats per character', series: loss }),
    panel({ x0: 60 + 2 * (w + 70), y0: top, width: w, height: h, title: `L(${baselineTitle}) − L(variant)`,
      xLabel: 'step', yLabel: 'nats per character', series: gaps }),
    legend(60, top + h + 60, [...kappa, { label: 'validation', color: '#555' },
      { label: 'train', color: '#555', dash: '4 3' }], { rows: 1, columnWidth: 180 }),
  ].join('\n');
  return svgDocument(60 + 3 * (w + 70), top + h + 110, 'The mechanism readout: conditioning beside the losses', body);
}
