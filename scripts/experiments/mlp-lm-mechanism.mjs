// `npm run experiment -- mlp-lm-mechanism --jobs DIR --replays DIR [--family silu|relu] [--seeds N] [--out FILE]
//   [--svg FILE]`
//   The mechanism readout of issue #23 (docs/PAPER_A_LM_PROTOCOL.md, addenda 1 and 5): conditioning
//   measured beside the symmetry on the same runs. DIR --jobs holds a family's main jobs,
//   --replays the same jobs re-run with --ntk-tokens (docs/MATH.md §A24). A replay counts only when
//   its validation curve equals its job's bit for bit. Per (variant, seed), averaged over the blocks:
//   K̄ (mean log10 κ over the curve points, primary), K0 (start), Kend (end), the antisymmetric
//   share and |qk drift| at the end; each variant minus FFN-SiLU paired over seeds, 95 % t
//   intervals, Holm across the three; the reading rules of the addendum. Statistics come from
//   lab.stats (the C++ core); this file holds the rules. It reads files and writes only --out.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { loadGateLab } from '../../web/lib/gatelab.js';
import { mechanismCurves, mechanismSvg } from './mlp-lm-mechanism-curves.mjs';

export const READOUT = Object.freeze({
  baseline: 'ffn-silu',
  gated: 'swiglu',
  compared: Object.freeze(['swiglu', 'symgated-silu', 'silu-silu']),
  symmetric: Object.freeze(['symgated-silu', 'silu-silu']),
  quantities: Object.freeze(['kBar', 'k0', 'kEnd', 'loss', 'share', 'drift']),
  level: 0.95,
});

/** Addendum 5: the same readout for the ReLU family (FFN-ReLU the baseline, ReGLU the gated form). */
export const READOUT_RELU = Object.freeze({
  ...READOUT,
  baseline: 'ffn-relu',
  gated: 'reglu',
  compared: Object.freeze(['reglu', 'symgated-relu', 'ffn-relu2']),
  symmetric: Object.freeze(['symgated-relu', 'ffn-relu2']),
});

export const READOUTS = Object.freeze({ silu: READOUT, relu: READOUT_RELU });
// The baselines as the write-ups and the figure's gap panel name them (kept out of the readout so
// that the committed readout files stay what the command writes).
const BASELINE_TITLES = Object.freeze({ 'ffn-silu': 'FFN-SiLU', 'ffn-relu': 'FFN-ReLU' });

export const READINGS = Object.freeze({ favoured: 'favoured', disfavoured: 'disfavoured',
  open: 'not resolved at this scale' });

const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
const log10Mean = (blocks) => mean(blocks.map((k) => Math.log10(k)));
const sameCurve = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

/** Main-phase job objects of a folder (every *.json whose phase is main). */
export function readJobs(dir) {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
    .filter((j) => j.phase === 'main');
}

/** Per (variant, seed) quantities of the replays that match their job; mismatches listed apart. */
export function measurements(jobs, replays) {
  const key = (j) => `${j.variant}|${j.seed}|${j.lr}`;
  const byKey = new Map(jobs.map((j) => [key(j), j]));
  const rows = [];
  const mismatches = [];
  for (const r of replays) {
    const job = byKey.get(key(r));
    if (!job || !r.ntk || !sameCurve(job.curveValLoss, r.curveValLoss) || !Object.is(job.loss, r.loss)) {
      mismatches.push({ variant: r.variant, seed: r.seed, lr: r.lr, reason: job ? 'curve differs' : 'no job' });
      continue;
    }
    const kappa = r.ntk.conditionNumber;  // [start, curve points…] × blocks
    const curve = kappa.slice(1);
    const last = job.diagnostics.at(-1);
    const shares = last.map((b) => b.antisymmetricShare).filter((v) => v !== null && Number.isFinite(v));
    rows.push({ variant: r.variant, seed: r.seed, lr: r.lr, loss: job.loss,
      k0: log10Mean(kappa[0]), kBar: mean(curve.map(log10Mean)), kEnd: log10Mean(curve.at(-1)),
      share: shares.length ? mean(shares) : NaN, drift: mean(last.map((b) => Math.abs(b.qkDrift))) });
  }
  return { rows, mismatches };
}

/** { n, mean, lo, hi, p } of paired differences at the readout's level, from lab.stats. */
function interval(stats, values, level) {
  const s = stats.summary(values);
  const half = stats.tQuantile(1 - (1 - level) / 2, values.length - 1) * s.se;
  return { n: s.n, mean: s.mean, lo: s.mean - half, hi: s.mean + half, p: s.p };
}

/** Every quantity's paired differences variant − baseline over the seeds both have, Holm across the family. */
export function compare(rows, stats, readout = READOUT) {
  const of = (variant) => new Map(rows.filter((r) => r.variant === variant).map((r) => [r.seed, r]));
  const base = of(readout.baseline);
  const out = {};
  for (const q of readout.quantities) {
    const family = readout.compared.map((variant) => {
      const other = of(variant);
      const seeds = [...base.keys()].filter((s) => other.has(s) && Number.isFinite(other.get(s)[q])
        && Number.isFinite(base.get(s)[q])).sort((a, b) => a - b);
      const diff = seeds.map((s) => other.get(s)[q] - base.get(s)[q]);
      return { variant, seeds, diff: seeds.length >= 2 ? interval(stats, diff, readout.level) : null };
    });
    const holm = stats.holm(family.map((f) => (f.diff && Number.isFinite(f.diff.p) ? f.diff.p : 1)));
    const alpha = 1 - readout.level;
    const resolved = (f, i) => !!f.diff && holm[i] <= alpha;
    out[q] = family.map((f, i) => ({ ...f, holmP: holm[i],
      below: resolved(f, i) && f.diff.mean < 0, above: resolved(f, i) && f.diff.mean > 0 }));
  }
  return out;
}

/** The addendum's conditioning reading from the comparisons. */
export function conditioningReading(comparisons, readout = READOUT) {
  const row = (q, v) => comparisons[q].find((r) => r.variant === v);
  const gating = row('kBar', readout.gated);
  const gains = readout.symmetric.filter((v) => row('loss', v).below);
  if (gating.above || gains.some((v) => row('kBar', v).above)) return READINGS.disfavoured;
  if (gating.below && gains.every((v) => row('kBar', v).below)) return READINGS.favoured;
  return READINGS.open;
}

const fmt = (x, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

/** The readout as a Markdown table and the reading. */
export function mechanismReport({ readout: design = READOUT, comparisons, reading, mismatches, perVariant }) {
  const lines = [`| variant − ${BASELINE_TITLES[design.baseline]} | seeds | K̄ (log10 κ) | K0 | Kend | loss |`,
    '|---|---|---|---|---|---|'];
  const cell = (r) => (r.diff ? `${fmt(r.diff.mean)} [${fmt(r.diff.lo)}, ${fmt(r.diff.hi)}] (Holm p ${fmt(r.holmP)})`
    : 'missing');
  for (const v of design.compared) {
    const at = (q) => comparisons[q].find((r) => r.variant === v);
    lines.push(`| ${v} | ${at('kBar').seeds.length} | ${['kBar', 'k0', 'kEnd', 'loss'].map((q) => cell(at(q)))
      .join(' | ')} |`);
  }
  lines.push('', '| variant | K̄ | K0 | Kend | antisymmetric share (end) | abs qk drift (end) |',
    '|---|---|---|---|---|---|');
  for (const [v, m] of Object.entries(perVariant)) {
    lines.push(`| ${v} | ${fmt(m.kBar)} | ${fmt(m.k0)} | ${fmt(m.kEnd)} | ${fmt(m.share)} | ${fmt(m.drift, 4)} |`);
  }
  lines.push('', `Conditioning: ${reading}.`);
  if (mismatches.length) lines.push(`Left out (not bit for bit): ${mismatches.map((m) => `${m.variant} s${m.seed}`)}`);
  return lines.join('\n');
}

/** The whole readout of job objects. */
export function readout(jobs, replays, stats, { seeds = Infinity, design = READOUT } = {}) {
  const { rows: all, mismatches } = measurements(jobs, replays);
  const rows = all.filter((r) => r.seed <= seeds);
  const comparisons = compare(rows, stats, design);
  const perVariant = {};
  for (const v of [design.baseline, ...design.compared]) {
    const mine = rows.filter((r) => r.variant === v);
    if (!mine.length) continue;
    const avg = (q) => mean(mine.map((r) => r[q]));
    perVariant[v] = { seeds: mine.length, kBar: avg('kBar'), k0: avg('k0'), kEnd: avg('kEnd'), share: avg('share'),
      drift: avg('drift'), loss: avg('loss') };
  }
  return { readout: design, rows, mismatches, comparisons, perVariant,
    reading: conditioningReading(comparisons, design) };
}

/** The command line; resolves with the exit code. */
export async function main(argv) {
  const { values } = parseArgs({ args: argv, options: { jobs: { type: 'string' }, replays: { type: 'string' },
    seeds: { type: 'string' }, out: { type: 'string' }, svg: { type: 'string' },
    family: { type: 'string', default: 'silu' } } });
  const design = Object.hasOwn(READOUTS, values.family) ? READOUTS[values.family] : null;
  if (!values.jobs || !values.replays || !design) {
    console.error('usage: mlp-lm-mechanism --jobs DIR --replays DIR [--family silu|relu] [--seeds N] [--out FILE]'
      + ' [--svg FILE]');
    return 2;
  }
  const lab = await loadGateLab();
  const [jobs, replays] = [readJobs(values.jobs), readJobs(values.replays)];
  const seeds = values.seeds ? Number(values.seeds) : Infinity;
  const out = { ...readout(jobs, replays, lab.stats, { seeds, design }),
    curves: mechanismCurves(jobs, replays, { seeds, baseline: design.baseline }) };
  console.log(mechanismReport(out));
  if (values.out) writeFileSync(values.out, `${JSON.stringify(out, null, 1)}\n`);
  const baselineTitle = BASELINE_TITLES[design.baseline];
  if (values.svg) writeFileSync(values.svg, mechanismSvg(out.curves, {}, { baselineTitle }));
  return 0;
}
