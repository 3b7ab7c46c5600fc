// `npm run experiment -- mlp-lm-dial --run FILE [--run FILE …] [--out FILE]`, `… -- mlp-lm-dial --power`
//   H5 of issue #23's study, the λ dial at one common rate (docs/PAPER_A_LM_PROTOCOL.md addendum 4),
//   written before any dial run. Each --run is a merged mlp-lm run; their main jobs are pooled and a
//   job counts only at the dial's rate: SwiGLU is λ = 0, dial-silu-0.25/0.5/0.75 the middle, and
//   symgated SiLU at SwiGLU's rate (H1′'s runs) is λ = 1. Per seed the least-squares slope b of the
//   validation loss over λ (the fitted change from λ = 0 to 1); paired over seeds, the same
//   O'Brien–Fleming stages and margin δ as H1–H4, and the same words: *for* when b resolves above 0
//   and the dial loses more than half the same-σ gain (E = b − G/2 resolved above 0), *against* when
//   the interval of b lies below +δ (b resolved below 0 included), else *not resolved at this scale*.
//   Statistics from lab.stats (the C++ core); it reads files and prints; it writes only --out.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { loadGateLab } from '../../web/lib/gatelab.js';
import { DESIGN, WORDS, interval, uniforms } from './mlp-lm-verdict.mjs';

export const DIAL = Object.freeze({
  rate: 0.00566,
  points: Object.freeze([
    Object.freeze({ lambda: 0, variant: 'swiglu' }),
    Object.freeze({ lambda: 0.25, variant: 'dial-silu-0.25' }),
    Object.freeze({ lambda: 0.5, variant: 'dial-silu-0.5' }),
    Object.freeze({ lambda: 0.75, variant: 'dial-silu-0.75' }),
    Object.freeze({ lambda: 1, variant: 'symgated-silu' }),
  ]),
  ffn: 'ffn-silu',
  stages: DESIGN.stages,
  delta: DESIGN.delta,
  level: 0.95,
});

/**
 * The power calculation's inputs, from the committed SiLU family (final-silu/, seeds 1–24, rate 0.00566):
 * the paired SD of symgated SiLU − SwiGLU is 0.0119; with independent noise per point that is
 * 0.0119/√2 per loss, so the slope over five λs has SD 0.0119/√2/√0.625 = 0.0107 per seed;
 * G = FFN-SiLU − SwiGLU has mean 0.0394 and SD 0.0134.
 */
export const POWER = Object.freeze({ sdSlope: 0.0107, gain: 0.0394, sdGain: 0.0134,
  slopes: Object.freeze([0, 0.0075, 0.015, 0.0197, 0.03, 0.0394]) });

/** Rates are stored as float32 (0.00565999979): equal within a part in 10⁶. */
const atRate = (lr, rate) => Math.abs(lr - rate) <= 1e-6 * rate;

/** seed → { loss, share } of a variant's main jobs at the rate (diverged or non-finite jobs left out). */
export function jobsAt(jobs, variant, rate) {
  const out = new Map();
  for (const j of jobs) {
    if (j.phase !== 'main' || j.variant !== variant || !atRate(j.lr, rate) || j.diverged) continue;
    if (!Number.isFinite(j.loss)) continue;
    const last = j.diagnostics?.at(-1) ?? [];
    const shares = last.map((b) => b.antisymmetricShare).filter(Number.isFinite);
    out.set(j.seed, { loss: j.loss, share: shares.length ? shares.reduce((a, b) => a + b, 0) / shares.length : NaN });
  }
  return out;
}

/** The per-seed least-squares slope of values over the λs. */
export function slope(lambdas, values) {
  const mid = lambdas.reduce((a, b) => a + b, 0) / lambdas.length;
  let num = 0;
  let den = 0;
  for (const [i, l] of lambdas.entries()) {
    num += (l - mid) * values[i];
    den += (l - mid) ** 2;
  }
  return num / den;
}

/** Seeds 1…n with every point of the dial and the FFN, or null when one is missing. */
function table(jobs, n, dial) {
  const maps = dial.points.map((p) => jobsAt(jobs, p.variant, dial.rate));
  const ffn = jobsAt(jobs, dial.ffn, dial.rate);
  const seeds = Array.from({ length: n }, (_, i) => i + 1);
  if (!seeds.every((s) => ffn.has(s) && maps.every((m) => m.has(s)))) return null;
  return { seeds, points: maps.map((m) => seeds.map((s) => m.get(s))), ffn: seeds.map((s) => ffn.get(s).loss) };
}

/** One analysis of seeds 1…n at two-sided α: the slope, its contrast with half the gain, the word. */
export function analyseDial(jobs, stats, { seeds, alpha }, dial = DIAL) {
  const t = table(jobs, seeds, dial);
  if (!t) return { seeds, alpha, complete: false, verdict: WORDS.open, why: `runs missing for seeds 1–${seeds}` };
  const lambdas = dial.points.map((p) => p.lambda);
  const b = t.seeds.map((_, i) => slope(lambdas, t.points.map((col) => col[i].loss)));
  const gain = t.ffn.map((f, i) => f - t.points[0][i].loss);
  const s = interval(stats, b, alpha);
  const contrast = interval(stats, b.map((v, i) => v - gain[i] / 2), alpha);
  const worse = s.p <= alpha && s.mean > 0;
  const better = s.p <= alpha && s.mean < 0;
  const belowDelta = s.hi < dial.delta;
  let word = [WORDS.open, worse ? 'worse, but not by > ½ the gain' : 'interval spans +δ'];
  if (worse && contrast.lo > 0) word = [WORDS.for, 'resolved worse, loses > ½ the gain'];
  else if (better) word = [WORDS.against, 'resolved better'];
  else if (belowDelta) word = [WORDS.against, 'interval below +δ'];
  return { seeds, alpha, complete: true, slope: s, contrast, gain: interval(stats, gain, alpha),
    verdict: word[0], why: word[1] };
}

/** What each λ gives (a description, no word): mean loss, the paired 95 % difference to λ = 0, the share. */
export function describeDial(jobs, stats, seeds, dial = DIAL) {
  const t = table(jobs, seeds, dial);
  if (!t) return null;
  const alpha = 1 - dial.level;
  const mean = (v) => v.reduce((a, c) => a + c, 0) / v.length;
  return dial.points.map((p, k) => ({ lambda: p.lambda, variant: p.variant,
    loss: mean(t.points[k].map((x) => x.loss)), share: mean(t.points[k].map((x) => x.share)),
    versusZero: k === 0 ? null : interval(stats, t.points[k].map((x, i) => x.loss - t.points[0][i].loss), alpha) }));
}

/** The look at 12 seeds; a word reached there stands; else the end at 24 when its runs exist. */
export function dialVerdict(jobs, stats, dial = DIAL) {
  const [first, second] = dial.stages;
  const look = analyseDial(jobs, stats, first, dial);
  const resolved = look.verdict !== WORDS.open;
  const final = resolved ? null : analyseDial(jobs, stats, second, dial);
  const decided = resolved ? look : final.complete ? final : look;
  const why = !resolved && !final.complete && look.complete ? `${look.why}; stage 2 not run yet` : decided.why;
  const seeds = final?.complete ? second.seeds : first.seeds;
  return { rate: dial.rate, look, final: final?.complete ? final : null, stage2Needed: !resolved,
    verdict: decided.verdict, stage: decided === final ? second.name : first.name, why,
    points: describeDial(jobs, stats, seeds, dial) };
}

const f4 = (v) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}`;

/** The analysis as markdown. */
export function dialReport(out) {
  const lines = [`### H5, the λ dial at rate ${out.rate}`, ''];
  for (const a of [out.look, out.final].filter((x) => x?.complete)) {
    lines.push(`Seeds 1–${a.seeds}, two-sided α ${a.alpha}: slope b ${f4(a.slope.mean)} [${f4(a.slope.lo)}, `
      + `${f4(a.slope.hi)}] (p ${a.slope.p.toFixed(4)}), b − G/2 [${f4(a.contrast.lo)}, ${f4(a.contrast.hi)}], `
      + `G ${f4(a.gain.mean)}: ${a.verdict} (${a.why}).`, '');
  }
  if (out.points) {
    lines.push('| λ | variant | validation loss | − λ = 0 [95 %] | antisymmetric share |', '|---|---|---|---|---|');
    for (const p of out.points) {
      const d = p.versusZero ? `${f4(p.versusZero.mean)} [${f4(p.versusZero.lo)}, ${f4(p.versusZero.hi)}]` : '';
      lines.push(`| ${p.lambda} | ${p.variant} | ${p.loss.toFixed(4)} | ${d} | ${p.share.toFixed(3)} |`);
    }
    lines.push('');
  }
  lines.push(`**H5: ${out.verdict}** (${out.stage}: ${out.why}).`);
  return lines.join('\n');
}

/**
 * The power of the two-stage dial by a seeded simulation: per seed b ~ N(slope, sdSlope) and
 * G ~ N(gain, sdGain), independent; the words' frequencies over `reps` studies (addendum 4).
 */
export function dialPower(stats, { slope: b, sdSlope, gain, sdGain, reps = 2000, seed = 20261206 }, dial = DIAL) {
  const next = uniforms(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const lambdas = dial.points.map((p) => p.lambda);
  const counts = { for: 0, against: 0, open: 0, atLook: 0 };
  for (let r = 0; r < reps; r++) {
    const jobs = [];
    for (let s = 1; s <= dial.stages.at(-1).seeds; s++) {
      const slopeHere = b + sdSlope * normal();
      const g = gain + sdGain * normal();
      // Losses on the line of that slope (their least-squares slope is it exactly).
      for (const [k, p] of dial.points.entries()) {
        jobs.push({ variant: p.variant, phase: 'main', seed: s, lr: dial.rate, loss: 1.5 + slopeHere * lambdas[k] });
      }
      jobs.push({ variant: dial.ffn, phase: 'main', seed: s, lr: dial.rate, loss: 1.5 + g });
    }
    const out = dialVerdict(jobs, stats, dial);
    counts[out.verdict === WORDS.open ? 'open' : out.verdict]++;
    if (out.stage === dial.stages[0].name && out.verdict !== WORDS.open) counts.atLook++;
  }
  const share = (c) => c / reps;
  return { reps, for: share(counts.for), against: share(counts.against), open: share(counts.open),
    atLook: share(counts.atLook) };
}

/** The command line; resolves with the exit code. */
export async function main(argv) {
  const { values } = parseArgs({ args: argv, options: { run: { type: 'string', multiple: true },
    out: { type: 'string' }, power: { type: 'boolean' } } });
  if (values.power) {
    const lab = await loadGateLab();
    console.log('| true slope b | P(for) | P(against) | P(not resolved) | decided at the look |');
    console.log('|---|---|---|---|---|');
    for (const b of POWER.slopes) {
      const p = dialPower(lab.stats, { ...POWER, slope: b });
      const cells = [p.for, p.against, p.open, p.atLook].map((v) => v.toFixed(3));
      console.log(`| ${f4(b)} | ${cells.join(' | ')} |`);
    }
    return 0;
  }
  if (!values.run?.length) {
    console.error('usage: mlp-lm-dial --run MERGED.json [--run …] [--out DIAL.json]');
    return 2;
  }
  const jobs = values.run.flatMap((file) => JSON.parse(readFileSync(file, 'utf8')).main);
  const lab = await loadGateLab();
  const out = dialVerdict(jobs, lab.stats);
  console.log(dialReport(out));
  if (values.out) writeFileSync(values.out, `${JSON.stringify({ dial: DIAL, ...out }, null, 1)}\n`);
  return 0;
}
