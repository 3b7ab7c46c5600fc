// What <gatelab-lm> hands out: `results` (every run's curve points, diagnostics and sample, the
// settings, the standings and the throughput), the same as JSON, and the CSV behind the picture
// (one row per run and curve point). Every run can be reproduced by the native runner:
// `gatelab_experiment lm-job --experiment lm-figure --variant <name> --seed <seed> --lr <lr>`.
import { SETTINGS } from './lm-schema.js';
import { standings } from './lm-report.js';

const CSV_COLUMNS = ['model', 'label', 'seed', 'step', 'val_loss', 'train_loss', 'antisymmetric_share_block1',
  'antisymmetric_share_block2', 'exchange_gap_block1', 'exchange_gap_block2'];

/** Everything the figure computed, structured-cloneable; null before the first session started. */
export function lmResults(training, state, lab) {
  if (!training) return null;
  const s = standings(training, lab);
  return {
    settings: { ...SETTINGS }, state: { ...state }, steps: training.steps, stepsDone: training.commonStep,
    finished: training.finished, resumedAt: training.resumedAt, corpus: training.corpus, workers: training.workers,
    modes: training.modes,
    throughput: training.throughput,
    standings: s && { step: s.step, seeds: s.seeds, leader: s.leader.label,
      models: s.models.map((m) => ({ label: m.label, mean: m.mean, values: m.values })), gaps: s.gaps },
    runs: training.runs.map((r) => ({ model: r.variant.name, label: r.variant.label, seed: r.seed,
      learningRate: r.variant.learningRate,
      parameters: r.parameters, initRms: r.initRms, stepsDone: r.stepsDone, diverged: r.diverged,
      curveSteps: r.points.map((p) => p.step), curveValLoss: r.points.map((p) => p.valLoss),
      curveTrainLoss: r.points.map((p) => p.trainLoss), diagnostics: r.points.map((p) => p.blocks), sample: r.sample,
      options: r.options })),
  };
}

/** The CSV: a row per run and curve point. */
export function lmCsv(training) {
  const rows = [];
  for (const r of training?.runs ?? []) {
    for (const p of r.points) {
      const block = (b, key) => p.blocks[b]?.[key];
      rows.push([r.variant.name, r.variant.label, r.seed, p.step, p.valLoss, p.trainLoss,
        block(0, 'antisymmetricShare'), block(1, 'antisymmetricShare'), block(0, 'exchangeGap'),
        block(1, 'exchangeGap')]);
    }
  }
  return { columns: CSV_COLUMNS, rows };
}
