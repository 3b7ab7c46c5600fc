#!/usr/bin/env node
// Headless paper-A experiments on the wasm module (the same C++ code as the figures):
//   node scripts/experiment.mjs race --task spiral --seeds 5 [--steps N] [--quick] [--out dir]
//   node scripts/experiment.mjs all-tasks [--seeds 5] [--steps N] [--quick] [--out dir]
//   node scripts/experiment.mjs gp-recursion|gp-descent|tiny-lm|mlp-lm [--quick] [--threads K] [--out dir] …
//     (paper B, native runner: scripts/experiments/gp-recursion.mjs, tiny-lm.mjs)
//   node scripts/experiment.mjs mlp-lm-verdict|mlp-lm-power|mlp-lm-mechanism|mlp-lm-width|mlp-lm-dial|tiny-lm-eta …
//     (issue #23's pre-registered verdict, power, mechanism readout, width pilot and tiny-lm's η rerun)
// More options: --count --noise --lr (or --lrs 0.003,0.01,0.03: each model keeps the rate
//   with the lowest train loss) --optimizer --loss --batch --seed --budget
//   --width-rule budget|shazeer --mlp-hidden --eval-every --models mlp:relu,gated:silu,…
// Prints markdown tables (final test loss and accuracy, mean ± std over seeds) and writes
// race-<task>.json and race-<task>.svg to build/experiments/ (git-ignored), or to --out
// (`--out docs/experiments` replaces the committed results).
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { loadGateLab } from '../web/lib/gatelab.js';
import { runRace } from './experiments/race.mjs';

// Paper B's experiments and mlp-lm run the native runner; each module parses its own options.
const PAPER_B = { 'gp-recursion': './experiments/gp-recursion.mjs', 'tiny-lm': './experiments/tiny-lm.mjs',
  'mlp-lm': './experiments/mlp-lm.mjs', 'gp-descent': './experiments/gp-descent.mjs',
  'mlp-lm-verdict': './experiments/mlp-lm-verdict.mjs', 'mlp-lm-power': './experiments/mlp-lm-power.mjs',
  'mlp-lm-mechanism': './experiments/mlp-lm-mechanism.mjs', 'mlp-lm-width': './experiments/mlp-lm-width.mjs',
  'mlp-lm-dial': './experiments/mlp-lm-dial.mjs',
  'tiny-lm-eta': './experiments/tiny-lm-eta.mjs' };
if (Object.hasOwn(PAPER_B, process.argv[2])) {
  const { main } = await import(PAPER_B[process.argv[2]]);
  // A command-line mistake (e.exitCode 2, e.g. a bad flag of mlp-lm) exits with 2, anything else with 1.
  const code = await main(process.argv.slice(3))
    .catch((e) => (console.error(`experiment: ${e.message}`), e.exitCode ?? 1));
  process.exit(code);
}

const BUILTIN = ['circle', 'xor', 'gaussians', 'spiral', 'checkerboard', 'teacher'];

function usage(message) {
  if (message) console.error(`experiment: ${message}`);
  console.error('usage: node scripts/experiment.mjs race --task <name> [--seeds 5] [--steps 2000] [--quick] '
    + '[--out dir]\n'
    + '       node scripts/experiment.mjs all-tasks [same options]');
  process.exit(2);
}

function settingsFrom(values) {
  const num = (name, fallback) => {
    if (values[name] === undefined) return fallback;
    const v = Number(values[name]);
    if (!Number.isFinite(v)) usage(`--${name} must be a number (got '${values[name]}')`);
    return v;
  };
  const quick = values.quick ?? false;
  const steps = num('steps', quick ? 300 : 2000);
  const s = {
    steps, seeds: num('seeds', quick ? 2 : 5), count: num('count', quick ? 200 : 400), noise: num('noise', 0.05),
    lrs: values.lrs ? values.lrs.split(',').map(Number) : [num('lr', 0.01)], batch: num('batch', 32),
    seed: num('seed', 1), budget: num('budget', 128),
    mlpHidden: num('mlp-hidden', 32), evalEvery: num('eval-every', Math.max(1, Math.ceil(steps / 100))),
    optimizer: values.optimizer ?? 'adam', loss: values.loss ?? 'cross_entropy',
    widthRule: values['width-rule'] ?? 'budget',
  };
  if (!s.lrs.every((v) => v > 0 && Number.isFinite(v))) usage('--lrs must list positive numbers');
  if (values.models) {
    s.models = values.models.split(',').map((m) => {
      if (m === 'bilinear') return m;
      const [kind, activation] = m.split(':');
      return activation ? { kind, activation } : { kind };
    });
  }
  return s;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: Object.fromEntries(['task', 'seeds', 'steps', 'out', 'count', 'noise', 'lr', 'optimizer', 'loss', 'batch',
    'seed', 'budget', 'lrs', 'width-rule', 'mlp-hidden', 'eval-every', 'models'].map((k) => [k, { type: 'string' }])
    .concat([['quick', { type: 'boolean' }], ['help', { type: 'boolean' }]])),
});
if (values.help) usage();
const command = positionals[0];
if (command !== 'race' && command !== 'all-tasks') usage(command ? `unknown command '${command}'` : 'no command');
const tasks = command === 'race' ? [values.task ?? usage('race needs --task')] : BUILTIN;
const settings = settingsFrom(values);
// A git-ignored folder unless --out says otherwise (docs/experiments holds the committed runs).
const outDir = values.out ?? fileURLToPath(new URL('../build/experiments/', import.meta.url));

const pa = await loadGateLab();
console.log(`# race: ${settings.seeds} seeds × ${settings.steps} steps, ${settings.optimizer} `
  + `lr ${settings.lrs.join('/')}, `
  + `batch ${settings.batch}, ${settings.loss}, ${settings.count} points (noise ${settings.noise}), `
  + `${settings.widthRule === 'budget'
    ? `budget ${settings.budget} parameters` : `Shazeer 2/3 of mlp ${settings.mlpHidden}`}\n`);
for (const task of tasks) {
  try {
    const { table, seconds } = runRace(pa, settings, task, outDir);
    console.log(`## ${task} (${seconds.toFixed(1)} s)\n\n${table}\n`);
  } catch (e) {
    console.error(`experiment: ${e.message}`);
    process.exit(1);
  }
}
console.log(`wrote race-<task>.json and race-<task>.svg to ${outDir}`);
