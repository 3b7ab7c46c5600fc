// `npm run experiment -- mlp-lm-verdict --run FILE [--run FILE] [--reference-rate FILE] [--out FILE]`
//   The pre-registered verdict of issue #23's study (docs/PAPER_A_LM_PROTOCOL.md), written before
//   any reported run: the same-σ preconditions, H1 H2 H1′ H3 H4 with Holm across the family, the
//   O'Brien–Fleming look at 12 seeds (two-sided α 0.0054) and the end at 24 (α 0.0492), the margin
//   δ = 0.0075 nats/char, the verdict words for / against / not resolved at this scale, and the
//   retained fraction ρ with a seeded paired-bootstrap interval. FILE is a merged mlp-lm run
//   (its `main` jobs: variant, seed, loss); --reference-rate is the run of symgated SiLU at
//   SwiGLU's rate (H1′). Every t statistic, quantile and Holm step comes from lab.stats (the C++
//   core); this file holds the rules only. It reads files and prints; it writes only --out.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { loadGateLab } from '../../web/lib/gatelab.js';

/** The design, fixed before any reported run (docs/PAPER_A_LM_PROTOCOL.md). */
export const DESIGN = Object.freeze({
  d: 64,
  steps: 8000,
  sweepSeeds: 2,
  stages: Object.freeze([Object.freeze({ name: 'look', seeds: 12, alpha: 0.0054 }),
    Object.freeze({ name: 'final', seeds: 24, alpha: 0.0492 })]),
  delta: 0.0075,
  preconditions: Object.freeze([
    Object.freeze({ id: 'P-SiLU', ffn: 'ffn-silu', gated: 'swiglu' }),
    Object.freeze({ id: 'P-ReLU', ffn: 'ffn-relu', gated: 'reglu' }),
  ]),
  // sym − gated per seed (lower loss is better); ffn is the same-σ FFN of ρ and of the contrast.
  hypotheses: Object.freeze([
    Object.freeze({ id: 'H1', sym: 'symgated-silu', gated: 'swiglu', ffn: 'ffn-silu', precondition: 'P-SiLU' }),
    Object.freeze({ id: 'H2', sym: 'symgated-relu', gated: 'reglu', ffn: 'ffn-relu', precondition: 'P-ReLU' }),
    Object.freeze({ id: 'H1′', sym: 'symgated-silu', gated: 'swiglu', ffn: 'ffn-silu', precondition: 'P-SiLU',
      source: 'referenceRate' }),
    Object.freeze({ id: 'H3', sym: 'silu-silu', gated: 'swiglu', ffn: 'ffn-silu', precondition: 'P-SiLU' }),
    Object.freeze({ id: 'H4', sym: 'ffn-relu2', gated: 'reglu', ffn: 'ffn-relu', precondition: 'P-ReLU' }),
  ]),
  bootstrap: Object.freeze({ resamples: 10000, seed: 20260523, level: 0.95 }),
});

export const WORDS = Object.freeze({ for: 'for', against: 'against', open: 'not resolved at this scale' });

/** seed → validation loss of a variant's main jobs (diverged or non-finite runs are left out). */
export function lossesOf(run, variant) {
  const out = new Map();
  for (const j of run?.main ?? []) {
    if (j.phase === 'main' && j.variant === variant && !j.diverged && Number.isFinite(j.loss)) out.set(j.seed, j.loss);
  }
  return out;
}

/** Per-seed losses of several variants over seeds 1…n, or null when one of them misses a seed. */
function aligned(maps, n) {
  const seeds = Array.from({ length: n }, (_, i) => i + 1);
  if (!maps.every((m) => seeds.every((s) => m.has(s)))) return null;
  return maps.map((m) => seeds.map((s) => m.get(s)));
}

/** { n, mean, sd, se, p, lo, hi } of values with the two-sided (1 − α) t-interval, from lab.stats. */
export function interval(stats, values, alpha) {
  const s = stats.summary(values);
  const half = stats.tQuantile(1 - alpha / 2, values.length - 1) * s.se;
  return { n: s.n, mean: s.mean, sd: s.sd, se: s.se, p: s.p, lo: s.mean - half, hi: s.mean + half };
}

/** One-sided p of "mean < bound" (H0: mean ≥ bound) through the two-sided p of the shifted values. */
function pBelow(stats, values, bound) {
  const s = stats.summary(values.map((v) => v - bound));
  return s.t < 0 ? s.p / 2 : 1 - s.p / 2;
}

/** A seeded generator of uniforms in [0, 1) (mulberry32): the bootstrap is the same on every run. */
export function uniforms(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;

/**
 * The retained fraction ρ = (L_FFN − L_sym)/(L_FFN − L_gated) of the mean losses, and its paired
 * bootstrap percentile interval: seeds are resampled with replacement (the three losses of a seed
 * stay together). A resample whose gain L_FFN − L_gated is ≤ 0 has no ρ; it is counted, and when
 * more than (1 − level)/2 of the resamples have none the interval is unbounded.
 */
export function retainedFraction(ffn, gated, sym, { resamples, seed, level } = DESIGN.bootstrap) {
  const rho = (f, g, s) => {
    const gain = mean(f) - mean(g);
    return gain > 0 ? (mean(f) - mean(s)) / gain : NaN;
  };
  const n = ffn.length;
  const next = uniforms(seed);
  const values = [];
  let undefinedCount = 0;
  const pick = new Array(n);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) pick[i] = Math.floor(next() * n);
    const r = rho(pick.map((i) => ffn[i]), pick.map((i) => gated[i]), pick.map((i) => sym[i]));
    if (Number.isNaN(r)) undefinedCount++;
    else values.push(r);
  }
  values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  const unbounded = undefinedCount > tail * resamples;
  const at = (q) => values[Math.min(values.length - 1, Math.max(0, Math.floor(q * values.length)))];
  return { rho: rho(ffn, gated, sym), lo: unbounded ? -Infinity : at(tail), hi: unbounded ? Infinity : at(1 - tail),
    resamples, undefinedResamples: undefinedCount };
}

/**
 * One analysis of the first n seeds at two-sided level α: the preconditions (FFN − gated resolved
 * above 0, each at α), then every hypothesis's difference D = sym − gated, Holm-adjusted across
 * the five for "resolved worse/better" (two-sided, at α) and for "below +δ" (one-sided, at α/2,
 * which is "the (1 − α) interval lies below +δ"), the contrast E = sym − (gated + FFN)/2 (its
 * (1 − α) interval above 0 is "loses more than half the gain") and the words.
 */
export function analyse(runs, stats, { seeds, alpha }, design = DESIGN) {
  const loss = (name, source = 'main') => lossesOf(runs[source], name);
  const preconditions = design.preconditions.map((p) => {
    const x = aligned([loss(p.ffn), loss(p.gated)], seeds);
    if (!x) return { ...p, complete: false, met: false };
    const gain = interval(stats, x[0].map((v, i) => v - x[1][i]), alpha);
    return { ...p, complete: true, gain, met: gain.p <= alpha && gain.mean > 0 };
  });
  const rows = design.hypotheses.map((h) => {
    const x = aligned([loss(h.ffn), loss(h.gated), loss(h.sym, h.source)], seeds);
    if (!x) return { ...h, complete: false };
    const [ffn, gated, sym] = x;
    const diff = sym.map((v, i) => v - gated[i]);
    return { ...h, complete: true, diff: interval(stats, diff, alpha), pBelowDelta: pBelow(stats, diff, design.delta),
      contrast: interval(stats, sym.map((v, i) => v - (gated[i] + ffn[i]) / 2), alpha),
      rho: retainedFraction(ffn, gated, sym, design.bootstrap) };
  });
  // Holm over the whole family; a hypothesis without its runs enters with p = 1 (conservative).
  const holmD = stats.holm(rows.map((r) => (r.complete ? r.diff.p : 1)));
  const holmB = stats.holm(rows.map((r) => (r.complete ? r.pBelowDelta : 1)));
  for (const [i, r] of rows.entries()) {
    const pre = preconditions.find((p) => p.id === r.precondition);
    Object.assign(r, { holmDiff: holmD[i], holmBelowDelta: holmB[i] });
    if (!r.complete) Object.assign(r, { verdict: WORDS.open, why: `runs missing for seeds 1–${seeds}` });
    else if (!pre.met) Object.assign(r, { verdict: WORDS.open, why: `precondition ${pre.id} not met` });
    else {
      const worse = holmD[i] <= alpha && r.diff.mean > 0;
      const better = holmD[i] <= alpha && r.diff.mean < 0;
      const belowDelta = holmB[i] <= alpha / 2;
      const losesHalf = r.contrast.lo > 0;
      // "for" with an interval also below +δ is possible only when the gain G < 2δ: the word
      // stands, and the reader is told.
      const within = belowDelta ? '; its interval also lies below +δ' : '';
      let word = [WORDS.open, worse ? 'worse, but not by > ½ the gain' : 'interval spans +δ'];
      if (worse && losesHalf) word = [WORDS.for, `resolved worse, loses > ½ the gain${within}`];
      else if (better) word = [WORDS.against, 'resolved better'];
      else if (belowDelta) word = [WORDS.against, 'interval below +δ'];
      Object.assign(r, { verdict: word[0], why: word[1] });
    }
  }
  return { seeds, alpha, preconditions, hypotheses: rows };
}

const resolved = (r) => r.verdict === WORDS.for || r.verdict === WORDS.against;

/**
 * The sequential design: the look on seeds 1–12 at α 0.0054; a hypothesis resolved there keeps its
 * word. Stage 2 (seeds 1–24, α 0.0492) is needed unless every hypothesis whose runs exist and every
 * precondition they rest on is resolved at the look. With 24 seeds the final analysis decides the
 * rest. Returns { look, final (or null), stage2Needed, verdicts: [{ id, verdict, stage }] }.
 */
export function sequentialVerdicts(runs, stats, design = DESIGN) {
  const [first, second] = design.stages;
  const look = analyse(runs, stats, first, design);
  const present = look.hypotheses.filter((h) => h.complete);
  const stage2Needed = present.length === 0 || present.some((h) => !resolved(h));
  const hasFinal = design.hypotheses.some((h) => aligned([lossesOf(runs[h.source ?? 'main'], h.sym)], second.seeds));
  const final = hasFinal ? analyse(runs, stats, second, design) : null;
  const verdicts = look.hypotheses.map((h, i) => {
    if (resolved(h)) return { id: h.id, verdict: h.verdict, stage: first.name, why: h.why };
    if (!final) return { id: h.id, verdict: WORDS.open, stage: first.name, why: `${h.why}; stage 2 not run yet` };
    const f = final.hypotheses[i];
    return { id: h.id, verdict: f.verdict, stage: second.name, why: f.why };
  });
  return { look, final, stage2Needed, verdicts };
}

const f4 = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}` : String(v));
const f3 = (v) => (Number.isFinite(v) ? v.toFixed(3) : v > 0 ? '∞' : v < 0 ? '−∞' : 'n/a');

/** The analysis as markdown: one table per stage analysed, then the verdicts. */
export function verdictReport(out) {
  const lines = [];
  for (const a of [out.look, out.final].filter(Boolean)) {
    lines.push(`### Seeds 1–${a.seeds}, two-sided α ${a.alpha}`, '',
      '| precondition | FFN − gated | interval | p | met |', '|---|---|---|---|---|');
    for (const p of a.preconditions) {
      const gain = p.complete && `[${f4(p.gain.lo)}, ${f4(p.gain.hi)}]`;
      lines.push(p.complete ? `| ${p.id} ${p.ffn} − ${p.gated} | ${f4(p.gain.mean)} | ${gain} `
        + `| ${f3(p.gain.p)} | ${p.met ? 'yes' : 'no'} |` : `| ${p.id} | runs missing | | | no |`);
    }
    lines.push('', '| id | sym − gated | interval | Holm p | Holm p (< +δ) | ρ [bootstrap 95 %] | word |',
      '|---|---|---|---|---|---|---|');
    for (const h of a.hypotheses) {
      const diff = h.complete && `[${f4(h.diff.lo)}, ${f4(h.diff.hi)}]`;
      lines.push(h.complete ? `| ${h.id} ${h.sym} − ${h.gated} | ${f4(h.diff.mean)} | ${diff} `
        + `| ${f3(h.holmDiff)} | ${f3(h.holmBelowDelta)} | ${f3(h.rho.rho)} [${f3(h.rho.lo)}, ${f3(h.rho.hi)}] `
        + `| ${h.verdict} (${h.why}) |` : `| ${h.id} | runs missing | | | | | ${h.verdict} |`);
    }
    lines.push('');
  }
  lines.push(`Stage 2 ${out.stage2Needed ? 'needed' : 'not needed'} after the look.`, '', '| id | verdict | at | why |',
    '|---|---|---|---|', ...out.verdicts.map((v) => `| ${v.id} | **${v.verdict}** | ${v.stage} | ${v.why} |`));
  return lines.join('\n');
}

/** The command line; resolves with the exit code. */
export async function main(argv) {
  const { values } = parseArgs({ args: argv, options: { run: { type: 'string', multiple: true },
    'reference-rate': { type: 'string' }, out: { type: 'string' } } });
  if (!values.run?.length) {
    console.error('usage: mlp-lm-verdict --run MERGED.json [--run …] [--reference-rate MERGED.json] '
      + '[--out VERDICT.json]');
    return 2;
  }
  const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
  // One family per merged run (SiLU first, then ReLU): their main jobs together.
  const main = { main: values.run.flatMap((file) => read(file).main) };
  const runs = { main, referenceRate: values['reference-rate'] ? read(values['reference-rate']) : null };
  const lab = await loadGateLab();
  const out = sequentialVerdicts(runs, lab.stats);
  console.log(verdictReport(out));
  if (values.out) writeFileSync(values.out, `${JSON.stringify({ design: DESIGN, ...out }, null, 1)}\n`);
  return 0;
}
