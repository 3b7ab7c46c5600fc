#!/usr/bin/env node
// The review of the committed mlp-lm run (docs/PAPER_A_LM.md, "Review (2026-12-04)"): every
// number the rewritten Results quote that the JSON does not carry directly, recomputed from the
// per-seed data in docs/experiments/mlp-lm.json — equal-rate comparisons, the λ dial at one
// common rate, the validation curves, the same-σ FFN-to-gated gaps, the antisymmetric shares,
// the power of five seeds, the seeds an equivalence verdict needs, Spearman's exact p, the cost
// per step. Read-only: it never writes a file.
//   node scripts/experiments/mlp-lm-review.mjs [docs/experiments/mlp-lm.json]
// prints the review as markdown. tests/js/experiments/mlp-lm-review.test.mjs checks that every
// number the prose quotes is this module's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { SHAZEER } from './mlp-lm-report.mjs';
import { equivalenceChance, paired, pairedPower, seedsForEquivalence, spearmanExact, summary, t975 }
  from './mlp-lm-stats.mjs';

export const DEFAULT_JSON = fileURLToPath(new URL('../../docs/experiments/mlp-lm.json', import.meta.url));

// The gap the precondition was powered for (the pilot's +0.011, this run's +0.0103), the next
// study's margin and seed counts (issue "Paper A, answered"), and the chance an equivalence
// claim is asked to reach.
export const PLANNED = { gap: 0.010, nextMargin: 0.0075, nextSeeds: [12, 24], chance: 0.8 };
// The λ dial at the rate every λ > 0 chose (0.008): λ = 0.25 … 1, SwiGLU (λ = 0) left out.
const COMMON_DIAL = [['dial-silu-0.25', 0.25], ['dial-silu-0.5', 0.5], ['dial-silu-0.75', 0.75], ['symgated-silu', 1]];
const GATED_WITH_A = ['swiglu', 'geglu', 'reglu'];
const SYMGATED = ['symgated-silu', 'symgated-relu'];
const sameRate = (a, b) => Math.fround(a) === Math.fround(b);

/** Final validation losses of a variant in one phase, in seed order: { seeds, losses, runs }. */
function finals(json, variant, phase = 'main') {
  const runs = json.main.filter((j) => j.variant === variant && j.phase === phase && !j.diverged)
    .sort((a, b) => a.seed - b.seed);
  return { seeds: runs.map((j) => j.seed), losses: runs.map((j) => j.loss), runs };
}

/** a − b paired by seed (both must have run the same seeds). */
export function pairOf(json, a, b, phase = 'main') {
  const x = finals(json, a, phase);
  const y = finals(json, b, phase);
  if (x.seeds.join() !== y.seeds.join()) throw new Error(`${a} and ${b} ran different seeds`);
  return { ...paired(x.losses, y.losses), wins: x.losses.filter((v, i) => v > y.losses[i]).length };
}

/** Least-squares slope of the loss over λ, seed by seed, then summarised over seeds. */
function dialSlope(json, dial) {
  const series = dial.map(([name]) => finals(json, name).losses);
  const xs = dial.map(([, x]) => x);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const slopes = series[0].map((_, s) => {
    const ys = series.map((l) => l[s]);
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    return xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / sxx;
  });
  return summary(slopes);
}

/** a − b at every validation-curve point of a phase, paired by seed. */
function curveGap(json, a, b, phase) {
  const x = finals(json, a, phase).runs;
  const y = finals(json, b, phase).runs;
  const at = (runs, k) => runs.map((r) => r.curveValLoss[k]);
  return x[0].curveSteps.map((step, k) => ({ step, ...paired(at(x, k), at(y, k)) }));
}

/** The dev-split sweep (one seed) at equal rates: a − b at each rate of the grid. */
function sweepGap(json, a, b) {
  const ra = json.rates[a].tried;
  const rb = json.rates[b].tried;
  return ra.map((t) => ({ lr: t.lr, diff: t.devLoss - rb.find((u) => sameRate(u.lr, t.lr)).devLoss }));
}

/** Per block, the antisymmetric share at the last diagnostics point, mean over the seeds. */
function shares(json, variant) {
  const runs = finals(json, variant).runs;
  const blocks = runs[0].diagnostics.at(-1).length;
  const share = (r, b) => r.diagnostics.at(-1)[b].antisymmetricShare;
  return Array.from({ length: blocks }, (_, b) => runs.reduce((sum, r) => sum + share(r, b), 0) / runs.length);
}

/** Everything the review quotes, from the committed JSON (`json` as parsed, analysis included). */
export function review(json) {
  const a = json.analysis;
  const s = json.settings;
  const precondition = pairOf(json, 'ffn-gelu', 'swiglu');
  const h1 = pairOf(json, 'symgated-silu', 'swiglu');
  const h2 = pairOf(json, 'symgated-relu', 'reglu');
  const slope = dialSlope(json, [['swiglu', 0], ...COMMON_DIAL]);
  const commonLr = COMMON_DIAL.map(([name]) => json.rates[name].lr);
  const edges = Object.entries(json.rates).filter(([, r]) => r.atEdge)
    .map(([name, r]) => ({ name, lr: r.lr, top: sameRate(r.lr, r.tried.at(-1).lr) }));
  const names = Object.keys(SHAZEER);
  const ours = names.map((n) => summary(finals(json, n).losses).mean);
  const spearman = spearmanExact(names.map((n) => SHAZEER[n]), ours);
  const main = curveGap(json, 'symgated-silu', 'swiglu', 'main');
  const long = curveGap(json, 'symgated-silu', 'swiglu', 'long');
  // The first half of a curve (points up to half the run's steps), the midpoint, and the first
  // point where symgated leads.
  const shape = (curve) => {
    const half = curve.filter((p) => p.step <= curve.at(-1).step / 2);
    const means = half.map((p) => p.mean);
    return { halfUntil: half.at(-1).step, min: Math.min(...means), max: Math.max(...means), mid: half.at(-1),
      firstLead: curve.find((p) => p.mean < 0) };
  };
  const steps = json.sweep.reduce((t, j) => t + j.steps, 0) + json.main.reduce((t, j) => t + j.steps, 0);
  const withA = GATED_WITH_A.map((name) => ({ name, blocks: shares(json, name) }));
  const allShares = withA.flatMap((v) => v.blocks);
  const zeroEverywhere = (r) => r.diagnostics.every((point) => point.every((b) => b.antisymmetricShare === 0));
  const symgatedZero = SYMGATED.every((name) => finals(json, name).runs.every(zeroEverywhere));
  const halfWidth = t975(s.seeds - 1) / Math.sqrt(s.seeds);  // a 95 % interval is ± halfWidth · SD
  return {
    settings: { steps: s.steps, sweepSteps: s.sweepSteps, longSteps: s.longSteps, seeds: s.seeds },
    precondition, margin: Math.abs(precondition.mean) / 4, h1, h2, h5: slope,
    power: { gap: PLANNED.gap, sd: precondition.sd, seeds: s.seeds,
      ...pairedPower(s.seeds, PLANNED.gap, precondition.sd) },
    sameSigma: {
      relu: { ...pairOf(json, 'ffn-relu', 'reglu'), shazeer: SHAZEER['ffn-relu'] - SHAZEER.reglu },
      gelu: { ...pairOf(json, 'ffn-gelu', 'geglu'), shazeer: SHAZEER['ffn-gelu'] - SHAZEER.geglu },
    },
    equivalence: {
      margin: a.margin, halfWidth, sdNeeded: a.margin / halfWidth,
      h1: { sd: h1.sd, chanceAtSeeds: equivalenceChance(s.seeds, h1.sd, a.margin),
        seeds: seedsForEquivalence(h1.sd, a.margin, PLANNED.chance) },
      h2: { sd: h2.sd, seeds: seedsForEquivalence(h2.sd, a.margin, PLANNED.chance) },
      slope: { sd: slope.sd, seeds: seedsForEquivalence(slope.sd, a.margin, PLANNED.chance) },
    },
    next: {
      margin: PLANNED.nextMargin,
      precondition: PLANNED.nextSeeds.map((n) => ({ n, power: pairedPower(n, PLANNED.gap, precondition.sd).above })),
      h1: PLANNED.nextSeeds.map((n) => ({ n, chance: equivalenceChance(n, h1.sd, PLANNED.nextMargin) })),
    },
    rates: {
      edges, sweepVariants: Object.keys(json.rates).length, commonLr: commonLr[0],
      commonDial: commonLr.every((lr) => sameRate(lr, commonLr[0])),
      sweepSilu: sweepGap(json, 'symgated-silu', 'swiglu'), sweepRelu: sweepGap(json, 'symgated-relu', 'reglu'),
    },
    dial: { common: dialSlope(json, COMMON_DIAL), firstStep: pairOf(json, 'dial-silu-0.25', 'swiglu') },
    curves: { main, long, shapeMain: shape(main), shapeLong: shape(long) },
    longPair: pairOf(json, 'symgated-silu', 'swiglu', 'long'),
    shares: { withA, min: Math.min(...allShares), max: Math.max(...allShares), symgatedZero },
    // Discordant: a variant two or more places from its rank in Shazeer's table.
    spearman: { ...spearman, names,
      discordant: names.filter((_, i) => Math.abs(spearman.rx[i] - spearman.ry[i]) >= 2) },
    cost: { jobs: json.timing.jobs, jobSeconds: json.timing.jobSeconds, steps,
      msPerStep: (1000 * json.timing.jobSeconds) / steps },
  };
}

const signed = (v, d = 4) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(d)}`;
export const intervalText = (p, d = 4) => `${signed(p.mean, d)} [${signed(p.ci95[0], d)}, ${signed(p.ci95[1], d)}]`;
const pct = (v) => `${Math.round(100 * v)} %`;
const list = (items, f) => items.map(f).join(', ');

/** The review as markdown (the CLI's output). */
export function reviewMarkdown(r) {
  const e = r.equivalence;
  const atRates = (gaps) => list(gaps, (x) => `${x.lr}: ${signed(x.diff)}`);
  const along = (curve) => list(curve, (p) => `${p.step}: ${signed(p.mean, 3)}`);
  return ['## mlp-lm review (from the committed JSON)', '',
    `- precondition FFN-GELU − SwiGLU: ${intervalText(r.precondition)}, paired SD ${r.precondition.sd.toFixed(4)}`,
    `- power of ${r.power.seeds} seeds for a ${r.power.gap.toFixed(3)} gap at that SD: ${r.power.above.toFixed(2)}`,
    `- FFN-ReLU − ReGLU: ${intervalText(r.sameSigma.relu)} (Shazeer ${r.sameSigma.relu.shazeer.toFixed(3)})`,
    `- FFN-GELU − GEGLU: ${intervalText(r.sameSigma.gelu)} (Shazeer ${r.sameSigma.gelu.shazeer.toFixed(3)})`,
    `- seeds for an ${pct(PLANNED.chance)} chance of equivalence within ${e.margin.toFixed(4)}: `
      + `H1 ${e.h1.seeds}, H2 ${e.h2.seeds}, dial slope ${e.slope.seeds}`,
    `- edge choices: ${r.rates.edges.length} of ${r.rates.sweepVariants} (${list(r.rates.edges, (x) => x.name)})`,
    `- dev sweep, symgated SiLU − SwiGLU at equal rates: ${atRates(r.rates.sweepSilu)}`,
    `- dev sweep, symgated ReLU − ReGLU at equal rates: ${atRates(r.rates.sweepRelu)}`,
    `- dial slope over λ = 0.25 … 1 at ${r.rates.commonLr}: ${intervalText(r.dial.common)}`,
    `- symgated SiLU − SwiGLU along the curves (main): ${along(r.curves.main)}`,
    `- the same (long): ${along(r.curves.long)}`,
    `- antisymmetric share of SwiGLU, GEGLU, ReGLU: ${pct(r.shares.min)}–${pct(r.shares.max)}; `
      + `symgated exactly 0: ${r.shares.symgatedZero}`,
    `- Spearman ρ ${r.spearman.rho.toFixed(3)}, exact two-sided p ${r.spearman.pTwoSided.toFixed(3)}, `
      + `discordant ${r.spearman.discordant.join(', ')}`,
    `- ${r.cost.jobs} jobs, ${r.cost.steps} steps, ${r.cost.msPerStep.toFixed(2)} ms per step`, ''].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const json = JSON.parse(readFileSync(process.argv[2] ?? DEFAULT_JSON, 'utf8'));
  console.log(reviewMarkdown(review(json)));
}
