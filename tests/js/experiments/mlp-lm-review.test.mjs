// The review of the committed mlp-lm run (docs/PAPER_A_LM.md, Results, rewritten 2026-12-04):
// the plain-JS statistics of scripts/experiments/mlp-lm-stats.mjs agree with the C++ core's
// numbers stored in the JSON and with Monte Carlo; the committed report is the generator's output
// from the committed JSON; and every number the rewritten Results quote is recomputed here from
// the JSON (scripts/experiments/mlp-lm-review.mjs) and found in the text. No wasm build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { report, verdict } from '../../../scripts/experiments/mlp-lm-report.mjs';
import { intervalText, pairOf, review } from '../../../scripts/experiments/mlp-lm-review.mjs';
import { equivalenceChance, pairedPower, spearmanExact, summary, t975 }
  from '../../../scripts/experiments/mlp-lm-stats.mjs';

const root = new URL('../../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const json = JSON.parse(read('docs/experiments/mlp-lm.json'));
const doc = read('docs/PAPER_A_LM.md');
const results = doc.slice(doc.indexOf('\n## Results'));
const flat = results.replace(/\s+/g, ' ');  // the prose wraps anywhere
const r = review(json);
const a = json.analysis;

const signed = (v, d = 4) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(d)}`;
const pct = (v) => `${Math.round(100 * v)} %`;
const thousands = (v) => Math.round(v).toLocaleString('en-US');
const quoted = (text) => assert.ok(flat.includes(text), `docs/PAPER_A_LM.md Results quote: ${text}`);

test('the JS t statistics give the C++ core\'s numbers stored in the JSON', () => {
  const close = (x, y, what) => assert.ok(Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y)), `${what}: ${x} vs ${y}`);
  const same = (mine, stored, what) => {
    close(mine.mean, stored.mean, `${what} mean`);
    close(mine.sd, stored.sd, `${what} sd`);
    close(mine.ci95[0], stored.ci95[0], `${what} lo`);
    close(mine.ci95[1], stored.ci95[1], `${what} hi`);
    close(mine.p, stored.p, `${what} p`);
  };
  same(r.precondition, a.precondition, 'precondition');
  same(r.h1, a.primary[0].diff, 'H1');
  same(r.h2, a.primary[1].diff, 'H2');
  same(r.h5, a.slope, 'H5');
  same(r.longPair, a.longPair, 'long pair');
  for (const v of a.perVariant) {
    if (v.vsSwiglu) same(pairOf(json, v.name, 'swiglu'), v.vsSwiglu, `${v.name} − SwiGLU`);
  }
  close(r.margin, a.margin, 'margin');
  // docs/MATH.md §C2's table of t quantiles.
  for (const [nu, t] of [[1, 12.7062], [4, 2.7764], [9, 2.2622], [30, 2.0423]]) {
    assert.equal(t975(nu).toFixed(4), t.toFixed(4));
  }
});

test('power, equivalence chance and Spearman\'s exact p agree with simulation and known cases', () => {
  let state = 20261204;
  const uniform = () => {  // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  const simulate = (n, truth, sd, trials, hit) => {
    let hits = 0;
    for (let i = 0; i < trials; i++) if (hit(summary(Array.from({ length: n }, () => truth + sd * normal())))) hits++;
    return hits / trials;
  };
  const power = pairedPower(5, 0.010, 0.0147).above;
  assert.ok(Math.abs(power - simulate(5, 0.010, 0.0147, 40000, (s) => s.ci95[0] > 0)) < 0.01, `power ${power}`);
  const chance = equivalenceChance(40, 0.01, 0.005);
  const inside = (s) => s.ci95[0] > -0.005 && s.ci95[1] < 0.005;
  assert.ok(Math.abs(chance - simulate(40, 0, 0.01, 20000, inside)) < 0.015, `equivalence ${chance}`);
  assert.ok(pairedPower(5, 0, 0.0147).above < 0.026, 'no gap: the one-sided rate of a 95 % interval');
  const same = spearmanExact([1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(same.rho, 1);
  assert.equal(same.pTwoSided, 2 / 5040);
  assert.equal(r.spearman.orderings, 5040);
  assert.equal(r.spearman.rho.toFixed(3), a.anchor.rho.toFixed(3), 'the report\'s ρ');
});

test('the committed report is the generator\'s output from the committed JSON, and reads no comparison', () => {
  const { analysis, ...rest } = json;
  assert.equal(`${report(analysis, rest)}\n`, read('docs/experiments/mlp-lm.md'));
  assert.equal(analysis.verdict.outcome, 'harness not resolving');
  assert.doesNotMatch(read('docs/experiments/mlp-lm.md'), /helped|speed of early/);
});

test('the verdict rules could not reach "against": symgated significantly better reads "not resolved"', () => {
  const outcome = (gap) => verdict({ precondition: { mean: gap, ci95: [gap / 2, 1.5 * gap] }, margin: gap / 4,
    primary: a.primary, slope: a.slope }).outcome;
  for (let gap = 0.011; gap <= 0.1; gap += 0.001) {
    assert.equal(outcome(gap), 'not reproduced at this scale', `gap ${gap}`);
  }
  // Only a margin wider than the dial's whole interval (a gap above 0.112) gets past rule 4.
  assert.equal(outcome(0.12), 'against', 'the rules do say "against" once the margin is wide enough');
  assert.equal(outcome(0.2), 'where σ acts');
  quoted('with a gap up to 0.1, they fall through to rule 4, "not resolved at this scale"');
});

test('the rewritten Results quote the JSON: verdict, headline table and every variant row', () => {
  assert.ok(results.includes('### Verdict: not resolved at this scale'));
  quoted(`FFN-GELU − SwiGLU is ${intervalText(a.precondition)} and does not exclude 0`);
  quoted(`| precondition FFN-GELU − SwiGLU (different σ) | ${intervalText(a.precondition)} |`);
  quoted(`| chance that ${r.power.seeds} seeds resolve a ${r.power.gap.toFixed(3)} gap (paired SD `
    + `${r.power.sd.toFixed(4)}) | ${r.power.above.toFixed(2)} |`);
  quoted(`| same σ, ReLU: FFN-ReLU − ReGLU | ${intervalText(r.sameSigma.relu)} | gating helps here; Shazeer: `
    + `${r.sameSigma.relu.shazeer.toFixed(3)} |`);
  quoted(`| same σ, GELU: FFN-GELU − GEGLU | ${intervalText(r.sameSigma.gelu)} | not resolved; Shazeer: `
    + `${r.sameSigma.gelu.shazeer.toFixed(3)} |`);
  quoted(`| H1 symgated SiLU (rate ${json.rates['symgated-silu'].lr}) − SwiGLU (${json.rates.swiglu.lr}), `
    + `${thousands(json.settings.steps)} steps | ${intervalText(a.primary[0].diff)} |`);
  quoted(`| H1 at ${thousands(json.settings.longSteps)} steps (rates as above) | ${intervalText(a.longPair)} |`);
  quoted(`| λ dial from 0.25 to 1, all at ${r.rates.commonLr} (slope per unit λ) | ${intervalText(r.dial.common)} |`);
  quoted(`| dev sweep, symgated SiLU − SwiGLU at rates ${r.rates.sweepSilu.map((x) => x.lr).join(' · ')} | `
    + `${r.rates.sweepSilu.map((x) => signed(x.diff)).join(' · ')} |`);
  quoted(`| antisymmetric share of trained SwiGLU, GEGLU, ReGLU | ${pct(r.shares.min)}–${pct(r.shares.max)} |`);
  quoted(`| seeds for an 80 % chance of "equivalent" within δ = ${a.margin.toFixed(4)} | `
    + `${r.equivalence.slope.seeds} (dial), ${r.equivalence.h1.seeds} (H1) |`);
  quoted(`| Spearman ρ with Shazeer's Table 1, 7 variants | ${a.anchor.rho.toFixed(3)} (exact p = `
    + `${r.spearman.pTwoSided.toFixed(3)}) |`);
  const label = { swiglu: 'SwiGLU', 'symgated-silu': 'symgated SiLU', geglu: 'GEGLU', reglu: 'ReGLU',
    'symgated-relu': 'symgated ReLU', 'symmetric-silu': 'symmetric σ(ab), SiLU',
    'symmetric-relu': 'symmetric σ(ab), ReLU', bilinear: 'Bilinear', 'ffn-gelu': 'FFN-GELU', 'ffn-relu': 'FFN-ReLU' };
  for (const v of a.perVariant.filter((x) => label[x.name])) {
    const loss = `${v.loss.mean.toFixed(4)} [${v.loss.ci95[0].toFixed(4)}, ${v.loss.ci95[1].toFixed(4)}]`;
    const diff = v.vsSwiglu ? intervalText(v.vsSwiglu) : '—';
    quoted(`| ${label[v.name]} | ${v.lr}${v.atEdge ? ' (edge)' : ''} | ${loss} | ${diff} |`);
  }
});

test('the rewritten Results quote the JSON: the withdrawn reading and what replaced it', () => {
  const [h1, h2, h3, h4] = a.primary.map((c) => c.diff);
  assert.ok(h3.ci95[0] < 0 && h3.ci95[1] > 0, 'H3 unresolved, as the text implies');
  quoted(`symgated SiLU − SwiGLU ${intervalText(h1)}, symgated ReLU − ReGLU ${intervalText(h2)}, `
    + `Holm p ${h1.holm.toFixed(3)} and ${h2.holm.toFixed(3)}; dial slope ${intervalText(a.slope)} per unit λ`);
  const edges = r.rates.edges;
  assert.ok(edges.every((e) => e.top), 'every edge choice is the top of its grid');
  for (const n of ['symgated-silu', 'symgated-relu', 'dial-silu-0.25', 'dial-silu-0.5', 'dial-silu-0.75']) {
    assert.ok(edges.some((e) => e.name === n && e.lr === 0.008), n);
  }
  assert.ok(r.rates.commonDial, 'every λ > 0 at one rate');
  assert.equal(json.rates.swiglu.lr, 0.004);
  assert.equal(json.rates.reglu.lr, 0.004);
  const [s2, s4, s8] = r.rates.sweepSilu.map((x) => signed(x.diff));
  quoted(`symgated SiLU − SwiGLU is ${s2} at 0.002, ${s4} at 0.004 and ${s8} at 0.008`);
  const [t2, t4, t8] = r.rates.sweepRelu.map((x) => signed(x.diff));
  quoted(`symgated ReLU − ReGLU is ${t2}, ${t4} and ${t8}`);
  quoted(`(seed ${json.settings.sweepSeed}, ${thousands(json.settings.sweepSteps)} steps, one run per rate)`);
  quoted(`to λ = 0.25 (rate 0.008): ${intervalText(r.dial.firstStep)}`);
  quoted(`the slope is ${intervalText(r.dial.common)} per unit λ`);
  const m = r.curves.shapeMain;
  const l = r.curves.shapeLong;
  quoted(`trails SwiGLU by ${m.min.toFixed(3)} to ${m.max.toFixed(3)} over the first ${thousands(m.halfUntil)} steps `
    + `(${intervalText(m.mid)} at step ${thousands(m.mid.step)}), draws level only at step `
    + `${thousands(m.firstLead.step)}`);
  assert.ok(Math.abs(m.firstLead.mean) < 0.002, 'level, not ahead, at the first lead');
  const ahead = r.curves.main.findIndex((p) => p.mean < -0.002);
  assert.equal(ahead, r.curves.main.length - 1, 'ahead at the last point alone');
  quoted(`trails by ${l.min.toFixed(3)} to ${l.max.toFixed(3)} over the first ${thousands(l.halfUntil)} steps `
    + `(${intervalText(l.mid)} at step ${thousands(l.mid.step)}) and leads first at step `
    + `${thousands(l.firstLead.step)}`);
  quoted(`H1 ${intervalText(a.longPair)}, with symgated worse on ${a.longPair.wins} of ${a.longPair.n} seeds`);
  quoted(`σ(ab) ReLU − ReGLU ${intervalText(h4)} (Holm p ${h4.holm.toFixed(3)})`);
  const secondary = new Map(a.secondary.map((c) => [c.a, c.diff]));
  const lr = (name) => json.rates[name].lr;
  const other = (name) => intervalText(secondary.get(name));
  assert.equal(lr('reglu-gauge'), lr('reglu'));
  quoted(`gauge-fixed ReGLU − ReGLU (both at ${lr('reglu-gauge')}) ${other('reglu-gauge')}`);
  assert.equal(lr('swiglu-momentum'), lr('symgated-silu-momentum'));
  quoted(`(both at ${lr('swiglu-momentum')}) symgated SiLU − SwiGLU is ${other('symgated-silu-momentum')}`);
  assert.equal(lr('symmetric-relu-r2'), lr('symmetric-relu'));
  quoted(`(both at ${lr('symmetric-relu-r2')}) is ${other('symmetric-relu-r2')}`);
});

test('the rewritten Results quote the JSON: what the run shows, why it could not answer, the next study', () => {
  assert.equal(r.sameSigma.relu.wins, r.sameSigma.relu.n, 'FFN-ReLU worse on every seed');
  quoted(`FFN-ReLU − ReGLU is ${intervalText(r.sameSigma.relu)}, every seed the same way`);
  quoted(`FFN-GELU − GEGLU ${intervalText(r.sameSigma.gelu)} (Shazeer: ${r.sameSigma.gelu.shazeer.toFixed(3)})`);
  const [sw, ge, re] = r.shares.withA.map((v) => v.blocks.map((x) => x.toFixed(2)).join(' and '));
  quoted(`is ${sw} in SwiGLU's two blocks, ${ge} in GEGLU's, ${re} in ReGLU's: `
    + `${pct(r.shares.min)}–${pct(r.shares.max)}`);
  assert.ok(r.shares.symgatedZero, 'symgated\'s share is exactly 0 everywhere');
  quoted(`of up to ${a.longPair.ci95[1].toFixed(4)} at ${thousands(json.settings.longSteps)} steps is not excluded`);
  const e = r.equivalence;
  quoted(`With the paired SD of this run, ${r.power.sd.toFixed(4)}, the chance that five seeds give a 95 % interval `
    + `above 0 for a true gap of ${r.power.gap.toFixed(3)} is ${r.power.above.toFixed(2)}`);
  quoted(`came out at ${e.margin.toFixed(4)}. With 5 seeds a 95 % interval is ±${e.halfWidth.toFixed(2)} SD wide, so `
    + `"equivalent" needed a paired SD below ${e.sdNeeded.toFixed(4)}; H1's was ${e.h1.sd.toFixed(4)} (chance of `
    + `equivalence at 5 seeds if the true difference is 0: ${e.h1.chanceAtSeeds.toFixed(4)})`);
  quoted(`the dial's slope (SD ${e.slope.sd.toFixed(4)}) needs ${e.slope.seeds} seeds, H1 ${e.h1.seeds} and H2 `
    + `(SD ${e.h2.sd.toFixed(4)}) ${e.h2.seeds}`);
  const { sweepSteps, steps } = json.settings;
  quoted(`Rates were chosen at ${thousands(sweepSteps)} steps for ${thousands(steps)}-step runs`);
  const adamw = r.rates.edges.filter((x) => x.lr === 0.008).length;
  assert.equal(adamw, 8);
  quoted(`${r.rates.edges.length} of ${r.rates.sweepVariants} variants chose an edge of their grid — all the top edge `
    + `(eight at 0.008, ReGLU with SGD-momentum at ${json.rates['reglu-momentum'].lr})`);
  const sp = r.spearman;
  quoted(`Table 1 is ${a.anchor.rho.toFixed(3)}; its exact permutation p-value (all ${thousands(sp.orderings)} `
    + `orderings, two-sided) is ${sp.pTwoSided.toFixed(3)} (one-sided ${sp.pOneSided.toFixed(3)})`);
  assert.deepEqual(sp.discordant, ['bilinear', 'ffn-gelu']);
  const rank = (name) => [sp.ry[sp.names.indexOf(name)], sp.rx[sp.names.indexOf(name)]];
  const nth = (k) => `${k}${['th', 'st', 'nd', 'rd'][k] ?? 'th'}`;
  const [gHere, gThere] = rank('ffn-gelu').map(nth);
  const [bHere, bThere] = rank('bilinear').map(nth);
  quoted(`FFN-GELU is ${gHere} here and ${gThere} there, Bilinear ${bHere} here and ${bThere} there`);
  quoted(`${thousands(json.timing.jobs)} jobs`);
  quoted(`${thousands(json.timing.jobSeconds)} job-seconds for ${thousands(r.cost.steps)} training steps, `
    + `${r.cost.msPerStep.toFixed(2)} ms per step`);
  const [p12, p24] = r.next.precondition.map((x) => x.power.toFixed(2));
  const [e12, e24] = r.next.h1.map((x) => x.chance.toFixed(2));
  quoted(`24 seeds resolve a 0.010 gap with probability ${p24} (12: ${p12}), and show H1 equivalent within `
    + `${r.next.margin} with probability ${e24} when the true difference is 0 (12: ${e12})`);
});
