// The race experiment: run lab.race on one task (the same C++ code as the page, on the wasm
// module in Node), print a table of final test loss and accuracy (mean ± std over seeds)
// per model, and write the result as JSON and an SVG plot. With several learning rates
// (--lrs) each model runs at every rate and keeps the one with the lowest mean final
// *train* loss, so the test columns are not tuned on the test set.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { raceSvg } from './svg.mjs';

const pm = (stat, digits) => `${stat.mean.toFixed(digits)} ± ${stat.std.toFixed(digits)}`;

/** Markdown table rows for one task's race, best test accuracy first. */
export function raceTable(result) {
  const rows = [...result.models].sort((a, b) => b.final.testAccuracy.mean - a.final.testAccuracy.mean
    || a.final.testLoss.mean - b.final.testLoss.mean);
  const lines = ['| model | hidden | params | lr | test accuracy | test loss | train accuracy | train loss | '
    + 'train loss, run mean | diverged |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const m of rows) {
    // The mean of the mean train-loss curve: an area under the curve, lower = learns faster.
    const area = m.curves.trainLoss.mean.reduce((a, v) => a + v, 0) / m.curves.trainLoss.mean.length;
    // Accuracies are multiples of 1/(points · seeds): 4 decimals show their means exactly.
    lines.push(`| ${m.label} | ${m.hidden} | ${m.parameters} | ${m.learningRate} | ${pm(m.final.testAccuracy, 4)} | `
      + `${pm(m.final.testLoss, 3)} | ${pm(m.final.trainAccuracy, 4)} | ${pm(m.final.trainLoss, 3)} `
      + `| ${area.toFixed(3)} | `
      + `${m.diverged}/${m.final.trainLoss.values.length} |`);
  }
  return lines.join('\n');
}

/**
 * The JSON written for a race: curves and finals of the selected run per model, and per
 * learning rate only the finals; curves become lists of 6 significant digits and other
 * numbers keep 9 (as many as a float has), so a file stays around 120 KB.
 */
export function compactRace({ task, settings, selected, sweep }) {
  const round = (_, v) => {
    if (v instanceof Float32Array) return Array.from(v, (x) => Number(x.toPrecision(6)));
    return typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(9)) : v;
  };
  const finalsOnly = sweep.map(({ lr, models }) => ({ lr,
    models: models.map(({ curves: _curves, ...rest }) => rest) }));
  return JSON.parse(JSON.stringify({ task, settings, selected, sweep: finalsOnly }, round));
}

function raceOptions(settings, task, lr) {
  const options = {
    data: { task, count: settings.count, noise: settings.noise, trainFraction: 0.5, seed: settings.seed },
    steps: settings.steps, seeds: settings.seeds, learningRate: lr, optimizer: settings.optimizer,
    loss: settings.loss, batchSize: settings.batch, seed: settings.seed, widthRule: settings.widthRule,
    budget: settings.budget, mlpHidden: settings.mlpHidden, evalEvery: settings.evalEvery,
  };
  if (settings.models) options.models = settings.models;
  return options;
}

// Per model, the run (over learning rates) with the lowest mean final train loss; a run
// with diverged seeds only wins if every rate diverged somewhere.
function bestPerModel(runs) {
  return runs[0].result.models.map((_, i) => {
    const candidates = runs.map(({ lr, result }) => ({ ...result.models[i], learningRate: lr }));
    const score = (m) => (m.diverged > 0 ? 1e9 : 0)
      + (Number.isFinite(m.final.trainLoss.mean) ? m.final.trainLoss.mean : 1e10);
    return candidates.reduce((best, m) => (score(m) < score(best) ? m : best));
  });
}

/** Runs one race (one per learning rate); returns { task, result, table, seconds }. */
export function runRace(pa, settings, task, outDir) {
  const started = performance.now();
  const runs = settings.lrs.map((lr) => ({ lr, result: pa.race(raceOptions(settings, task, lr)) }));
  const result = { models: bestPerModel(runs) };
  const seconds = (performance.now() - started) / 1000;
  const table = raceTable(result);
  if (outDir) {
    mkdirSync(outDir, { recursive: true });
    const sweep = runs.map(({ lr, result: r }) => ({ lr, models: r.models }));
    writeFileSync(join(outDir, `race-${task}.json`),
      `${JSON.stringify(compactRace({ task, settings, selected: result.models, sweep }))}\n`);
    const lrText = settings.lrs.length > 1
      ? `lr best of ${settings.lrs.join('/')} by train loss` : `lr ${settings.lrs[0]}`;
    const title = `${task}: ${settings.seeds} seeds, ${settings.steps} steps, ${settings.optimizer} ${lrText}, `
      + `${settings.widthRule === 'budget' ? `${settings.budget} params` : `Shazeer 2/3 of mlp ${settings.mlpHidden}`}`;
    writeFileSync(join(outDir, `race-${task}.svg`), raceSvg(result, title));
  }
  return { task, result, table, seconds };
}
