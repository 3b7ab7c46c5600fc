// `npm run experiment -- gp-recursion [--quick] [--seeds N] [--threads K] [--out DIR] [--steps N]`
// In-context GP regression against recursion depth (docs/MATH.md §B7): runs the native
// runner, prints markdown tables (held-out RMSE, mean ± std over seeds, beside the exact GP
// posterior mean and the context-mean baseline; RMSE by context length; paired differences
// for the paper's claims) and writes gp-recursion.json and gp-recursion.svg (quick runs:
// gp-recursion-quick.*) to build/experiments/ (git-ignored) or --out.
// Runner pass-through options: --dx --length --length-scale --noise --d --layers --heads
// --hidden --eta --batch --lr --warmup --eval --models (indices, comma-separated).
import { mkdirSync, writeFileSync } from 'node:fs';

import { loadGateLab } from '../../web/lib/gatelab.js';
import { commonOptions, pm, runNative, stat, statEach } from './native.mjs';
import { legend, PALETTE, panel, svgDocument } from './svg-plot.mjs';

const EXTRA = ['dx', 'length', 'length-scale', 'noise', 'd', 'layers', 'heads', 'hidden', 'eta', 'batch', 'lr',
  'warmup', 'eval'];

/** Per model: { label, spec, parameters, rmse, byPosition, curve, leakZ, diverged, seconds }. */
export function gpSummary(json) {
  return json.models.map((spec, index) => {
    const runs = json.runs.filter((r) => r.model === index);
    return {
      label: spec.label, spec, parameters: runs[0]?.parameters ?? 0,
      rmse: stat(runs.map((r) => (r.diverged || r.error ? NaN : r.rmse))),
      byPosition: statEach(runs.map((r) => r.rmseByPosition)),
      curve: { steps: runs[0]?.curveSteps ?? [], rmse: statEach(runs.map((r) => r.curveRmse)) },
      leakZ: Math.min(...runs.map((r) => r.leak.z)),
      diverged: runs.filter((r) => r.diverged).length,
      errors: runs.filter((r) => r.error).map((r) => r.error),
      seeds: runs.length,
      seconds: runs.reduce((a, r) => a + r.seconds, 0),
    };
  });
}

// Paired (same seed, same data) differences that test the paper's claims, when both models ran.
const CLAIMS = [
  ['cem T=2', 'cem T=1', 'recursion: T = 2 against T = 1'],
  ['cem T=4', 'cem T=2', 'deeper recursion: T = 4 against T = 2'],
  ['cem T=8', 'cem T=4', 'deeper recursion: T = 8 against T = 4'],
  ['cem T=4', 'cem T=1', 'deeper recursion: T = 4 against T = 1'],
  ['cem T=8', 'cem T=1', 'deeper recursion: T = 8 against T = 1'],
  ['cem T=2 no diag', 'cem T=2', 'no diagonal against a shared diagonal (T = 2)'],
  ['cem T=4 no diag', 'cem T=4', 'no diagonal against a shared diagonal (T = 4)'],
  ['cem T=2 per-head diag', 'cem T=2', 'per-head against shared diagonal (T = 2)'],
  ['cem T=2 precond', 'cem T=2', 'preconditioner (paper form) against none (T = 2)'],
  ['cem T=2 precond psd', 'cem T=2', 'preconditioner (positive definite) against none (T = 2)'],
  ['cem T=1', 'standard', 'tied CEM (T = 1) against the untied standard transformer'],
  ['cem T=2', 'standard', 'tied CEM (T = 2) against the untied standard transformer'],
];

/**
 * [{ claim, a, b, diff: stat of rmse(a) − rmse(b) per seed, wins: seeds where a < b, paired }]:
 * with lab.stats, paired is its summary of the differences (mean, 95 % t-interval ci95, p).
 */
export function gpClaims(json, stats) {
  const bySeed = (label) => {
    const index = json.models.findIndex((m) => m.label === label);
    return new Map(json.runs.filter((r) => r.model === index && !r.error).map((r) => [r.seed, r.rmse]));
  };
  const out = [];
  for (const [a, b, claim] of CLAIMS) {
    const [ra, rb] = [bySeed(a), bySeed(b)];
    const seeds = [...ra.keys()].filter((s) => rb.has(s));
    if (!seeds.length) continue;
    const diffs = seeds.map((s) => ra.get(s) - rb.get(s));
    const paired = stats && seeds.length >= 2
      ? stats.paired(seeds.map((x) => ra.get(x)), seeds.map((x) => rb.get(x))) : null;
    out.push({ claim, a, b, diff: stat(diffs), wins: diffs.filter((d) => d < 0).length, seeds: seeds.length, paired });
  }
  return out;
}

const signed = (v) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}`;
// A paired comparison's 95 % interval and verdict (the words of docs/EXPERIMENTS.md).
function intervalCells(c) {
  if (!c.paired) return '– | –';
  const [lo, hi] = c.paired.ci95;
  const resolved = lo > 0 || hi < 0;
  const better = c.paired.mean < 0 ? 'a better' : 'b better';
  return `[${signed(lo)}, ${signed(hi)}] | ${resolved ? better : 'not reproduced at this scale'}`;
}

/** Markdown tables: { main, byPosition, claims } (claims with 95 % intervals when stats is lab.stats). */
export function gpTables(json, stats) {
  const b = json.baselines;
  const models = gpSummary(json);
  const main = ['| model | parameters | held-out RMSE | − GP posterior | diverged | leak z (min) |',
    '|---|---:|---:|---:|---:|---:|'];
  for (const m of models) {
    main.push(`| ${m.label} | ${m.parameters} | ${pm(m.rmse)} | ${(m.rmse.mean - b.posterior).toFixed(4)} | `
      + `${m.diverged}/${m.seeds} | ${m.leakZ.toFixed(1)} |`);
  }
  main.push(`| *GP posterior mean (optimal)* | – | ${b.posterior.toFixed(4)} | 0 | – | – |`);
  main.push(`| *context mean* | – | ${b.contextMean.toFixed(4)} | ${(b.contextMean - b.posterior).toFixed(4)} `
    + '| – | – |');
  main.push(`| *prior mean 0* | – | ${b.zero.toFixed(4)} | ${(b.zero - b.posterior).toFixed(4)} | – | – |`);
  const n = b.posteriorByPosition.length;
  const positions = [...new Set([0, 1, 2, 4, 8, 16, n - 1].filter((t) => t < n))];
  const byPosition = [`| model | ${positions.map((t) => `t = ${t}`).join(' | ')} |`,
    `|---|${positions.map(() => '---:').join('|')}|`];
  for (const m of models) {
    byPosition.push(`| ${m.label} | ${positions.map((t) => m.byPosition[t].mean.toFixed(3)).join(' | ')} |`);
  }
  byPosition.push(`| *GP posterior* | ${positions.map((t) => b.posteriorByPosition[t].toFixed(3)).join(' | ')} |`);
  byPosition.push(`| *context mean* | ${positions.map((t) => b.contextMeanByPosition[t].toFixed(3)).join(' | ')} |`);
  const claims = ['| comparison (paired by seed) | ΔRMSE (a − b) ± sd | 95 % interval | verdict | a better in |',
    '|---|---:|---:|---|---:|'];
  for (const c of gpClaims(json, stats)) {
    claims.push(`| ${c.claim} | ${pm(c.diff)} | ${intervalCells(c)} | ${c.wins}/${c.seeds} seeds |`);
  }
  return { main: main.join('\n'), byPosition: byPosition.join('\n'), claims: claims.join('\n') };
}

/** RMSE by context length, held-out RMSE during training, and final RMSE against T. */
export function gpSvg(json, title) {
  const b = json.baselines;
  const models = gpSummary(json);
  const color = (i) => PALETTE[i % PALETTE.length];
  const position = models.map((m, i) => ({ label: m.label, color: color(i),
    points: m.byPosition.map((s, t) => ({ x: t, y: s.mean })) }));
  const refs = [{ label: 'GP posterior (optimal)', color: '#000', dash: '5 3',
    points: b.posteriorByPosition.map((y, t) => ({ x: t, y })) },
  { label: 'context mean', color: '#888', dash: '2 3', points: b.contextMeanByPosition.map((y, t) => ({ x: t, y })) }];
  const curves = models.map((m, i) => ({ label: m.label, color: color(i), band: true,
    points: m.curve.steps.map((s, k) => ({ x: s, y: m.curve.rmse[k].mean,
      lo: m.curve.rmse[k].mean - m.curve.rmse[k].std,
      hi: m.curve.rmse[k].mean + m.curve.rmse[k].std })) }));
  const ladder = (filter, label, c) => ({ label, color: c, marker: true, bars: true,
    points: models.filter(filter).map((m) => ({ x: m.spec.steps, y: m.rmse.mean, lo: m.rmse.mean - m.rmse.std,
      hi: m.rmse.mean + m.rmse.std })) });
  const isPlain = (diagonal) => (m) => m.spec.family === 'cem' && m.spec.diagonal === diagonal
    && m.spec.precond === 'none';
  const vsT = [ladder(isPlain('shared'), 'shared diagonal', PALETTE[0]),
    ladder(isPlain('none'), 'no diagonal', PALETTE[1]),
    ladder((m) => m.spec.family === 'cem' && m.spec.precond !== 'none', 'with preconditioner', PALETTE[2]),
    { label: 'GP posterior', color: '#000', dash: '5 3', points: [1, 8].map((x) => ({ x, y: b.posterior })) }];
  const w = 330, h = 230, top = 60;
  const body = [
    panel({ x0: 60, y0: top, width: w, height: h, title: 'RMSE by context length', xLabel: 'position t (pairs seen)',
      yLabel: 'RMSE', series: [...refs, ...position] }),
    panel({ x0: 60 + w + 70, y0: top, width: w, height: h, title: 'held-out RMSE while training (±1 sd)',
      xLabel: 'step',
      series: curves }),
    panel({ x0: 60 + 2 * (w + 70), y0: top, width: w * 0.8, height: h, title: 'final RMSE against T (±1 sd)',
      xLabel: 'T',
      xLog: true, xRange: [0, Math.log10(8)], xTicks: [1, 2, 4, 8], series: vsT }),
    legend(60, top + h + 55, [...refs, ...position], { rows: 6, columnWidth: 200 }),
    legend(60 + 2 * (w + 70), top + h + 55, vsT),
  ].join('\n');
  return svgDocument(60 + 2 * (w + 70) + w * 0.8 + 30, top + h + 55 + 17 * 6, title, body);
}

/** Runs the experiment; returns { json, tables, files }. */
export async function runGpRecursion(argv = [], { quiet = false, write = true } = {}) {
  const options = commonOptions(argv, EXTRA);
  const json = await runNative('gp-recursion', options.args, { quiet });
  const tables = gpTables(json, (await loadGateLab()).stats);
  const files = [];
  if (write) {
    const s = json.settings;
    const name = `gp-recursion${options.quick ? '-quick' : ''}`;
    mkdirSync(options.outDir, { recursive: true });
    writeFileSync(`${options.outDir}${name}.json`, `${JSON.stringify(json, null, 1)}\n`);
    const title = `In-context GP regression (dx = ${s.dx}, n = ${s.length}, ℓ = ${s.lengthScale}, σ = ${s.noiseStd}): `
      + `d = ${s.d}, ${s.layers} layers, ${s.trainSteps} steps × ${s.batch} sequences, ${s.seeds} seeds`;
    writeFileSync(`${options.outDir}${name}.svg`, gpSvg(json, title));
    files.push(`${options.outDir}${name}.json`, `${options.outDir}${name}.svg`);
  }
  return { json, tables, files };
}

/** CLI entry (scripts/experiment.mjs dispatches here); returns the exit code. */
export async function main(argv) {
  const { json, tables, files } = await runGpRecursion(argv);
  const s = json.settings;
  console.log(`\n## gp-recursion: dx = ${s.dx}, n = ${s.length}, ℓ = ${s.lengthScale}, σ = ${s.noiseStd}; d = ${s.d}, `
    + `${s.layers} layers, ${s.heads} heads, M = ${s.hidden}, η = ${s.eta}; ${s.trainSteps} steps × ${s.batch}, `
    + `lr ${Number(s.lr.toPrecision(6))}; ${s.seeds} seeds; ${s.evalSequences} held-out sequences\n`);
  console.log(`${tables.main}\n\n### RMSE by context length t (mean over seeds)\n\n${tables.byPosition}\n`);
  console.log(`### The paper's claims, paired by seed\n\n${tables.claims}\n`);
  console.log(`${json.seconds.toFixed(1)} s on ${json.threads} threads; wrote ${files.join(', ')}`);
  return 0;
}
