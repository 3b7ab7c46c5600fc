// The race's data in and out: the `results` and JSON-weights objects a page or the JSON button
// gets, the CSV behind the picture (every run's records, then mean/std/min/max over seeds), and
// the reader's pasted CSV points turned into a note on what was kept. Kept apart from the element
// so the exported shapes (which tests and pages rely on) are defined in one place.
import { formatNumber } from '../../base/format.js';
import { MAX_POINTS } from './user-points.js';
import { EXTENT } from './race-schema.js';

/** What the race has computed: models, per-run options and records, and the curves over seeds. */
export function raceResults(s) {
  if (!s?.runs) return null;
  return {
    stepsDone: s.stepsDone, finished: s.finished,
    models: s.models.map((m, i) => ({ ...m, curves: s.curves(i),
      runs: s.runs[i].map((r) => ({ records: r.records, divergence: r.divergence })), options: s.options[i] })),
  };
}

/** The weights of every model and seed (from the worker), with the race's settings. */
export async function raceWeights(s, state) {
  if (!s?.runs) return null;
  const weights = await s.weights();
  return { figure: 'gatelab-race', state: { ...state }, stepsDone: s.stepsDone,
    models: s.models.map((m, i) => ({ ...m, runs: weights[i] })) };
}

/** { columns, rows }: one row per record of every run (seed k), then the curves over seeds. */
export function raceCsv(s) {
  const columns = ['model', 'seed', 'step', 'train_loss', 'test_loss', 'train_accuracy', 'test_accuracy'];
  const rows = [];
  if (!s?.runs) return { columns, rows };
  s.models.forEach((m, i) => {
    s.runs[i].forEach((run, k) => {
      const r = run.records;
      for (let j = 0; j < r.step.length; j++) {
        rows.push([m.label, k, r.step[j], r.trainLoss[j], r.testLoss[j], r.trainAccuracy[j], r.testAccuracy[j]]);
      }
    });
    const c = s.curves(i);
    for (const stat of ['mean', 'std', 'min', 'max']) {
      for (let j = 0; j < c.step.length; j++) {
        rows.push([m.label, stat, c.step[j], c.trainLoss[stat][j], c.testLoss[stat][j], c.trainAccuracy[stat][j],
          c.testAccuracy[stat][j]]);
      }
    }
  });
  return { columns, rows };
}

/**
 * What to say about pasted CSV (parsed by user-points.js parsePointsCsv): `error` when no point
 * was found, else `note` on how many were used and what was skipped, scaled or cut.
 * @returns {{ error: string } | { note: string }}
 */
export function pastedPointsNote(parsed) {
  if (!parsed.points.length) {
    return { error: `No points found in the pasted text (${parsed.skipped} rows skipped): `
      + 'use rows like “0.5, -0.2, 1”.' };
  }
  const notes = [];
  if (parsed.skipped) notes.push(`${parsed.skipped} rows skipped`);
  if (parsed.scaled !== 1) notes.push(`scaled by ${formatNumber(parsed.scaled)} to fit ±${EXTENT}`);
  if (parsed.truncated) notes.push(`only the first ${MAX_POINTS} kept`);
  return { note: `Using ${parsed.points.length} pasted points${notes.length ? ` (${notes.join('; ')})` : ''}.` };
}
