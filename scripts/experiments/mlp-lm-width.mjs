// `npm run experiment -- mlp-lm-width --run NARROW.json --run WIDE.json [--out FILE]`
//   The width pilot of issue #23 (deliverable 6, docs/PAPER_A_LM_PROTOCOL.md addendum 3): each
//   --run is a merged mlp-lm run (`mlp-lm … --merge DIR --out DIR`) of FFN-SiLU and SwiGLU at one
//   width. Per width the same-σ gating gain G = L(FFN-SiLU) − L(SwiGLU) paired by seed; the growth
//   ΔG = G(wide) − G(narrow) per seed; the cost per step; and how many seeds a study would need to
//   resolve the observed ΔG. A PILOT: it describes, it has no verdict. Statistics from lab.stats.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { loadGateLab } from '../../web/lib/gatelab.js';
import { detectableGap } from './mlp-lm-power.mjs';
import { lossesOf } from './mlp-lm-verdict.mjs';

export const PILOT = Object.freeze({ ffn: 'ffn-silu', gated: 'swiglu', level: 0.95, power: 0.8, alpha: 0.05,
  maxSeeds: 400 });

/** { n, mean, sd, lo, hi, p } of values at the pilot's level, from lab.stats. */
function interval(stats, values, level) {
  const s = stats.summary(values);
  const half = stats.tQuantile(1 - (1 - level) / 2, values.length - 1) * s.se;
  return { n: s.n, mean: s.mean, sd: s.sd, lo: s.mean - half, hi: s.mean + half, p: s.p };
}

/** seed → G of one run, over the seeds both variants finished. */
function gaps(run, pilot) {
  const ffn = lossesOf(run, pilot.ffn);
  const gated = lossesOf(run, pilot.gated);
  return new Map([...ffn.keys()].filter((s) => gated.has(s)).sort((a, b) => a - b)
    .map((s) => [s, ffn.get(s) - gated.get(s)]));
}

/** Wall-clock ms per training step over every job of the run (sweep and main; evaluations included). */
function msPerStep(run) {
  const steps = run.settings.steps * run.timing.jobs;
  return steps > 0 ? (1000 * run.timing.jobSeconds) / steps : NaN;
}

const describe = (iv) => (!iv ? 'missing' : iv.lo > 0 ? 'grows' : iv.hi < 0 ? 'shrinks' : 'not resolved at this scale');

/** Seeds a paired study needs to resolve a gap at α with the pilot's power, or null beyond maxSeeds. */
function seedsFor(stats, gap, sd, pilot) {
  if (!(Math.abs(gap) > 0) || !(sd > 0)) return null;
  for (let n = 3; n <= pilot.maxSeeds; n++) {
    if (detectableGap(stats, n, sd, pilot.alpha, pilot.power) <= Math.abs(gap)) return n;
  }
  return null;
}

/** The readout of merged runs, one per width (sorted narrow to wide). */
export function widthReadout(runs, stats, pilot = PILOT) {
  const widths = runs.map((run) => {
    const g = gaps(run, pilot);
    const rate = (v) => ({ lr: run.rates[v]?.lr ?? null, atEdge: !!run.rates[v]?.atEdge });
    const loss = (v) => { const l = [...lossesOf(run, v).values()]; return l.reduce((a, b) => a + b, 0) / l.length; };
    return { d: run.settings.d, steps: run.settings.steps, seeds: [...g.keys()], gapBySeed: [...g.values()],
      gap: g.size >= 2 ? interval(stats, [...g.values()], pilot.level) : null, msPerStep: msPerStep(run),
      rates: { [pilot.ffn]: rate(pilot.ffn), [pilot.gated]: rate(pilot.gated) },
      loss: { [pilot.ffn]: loss(pilot.ffn), [pilot.gated]: loss(pilot.gated) } };
  }).sort((a, b) => a.d - b.d);
  const [narrow, wide] = [widths[0], widths.at(-1)];
  const byNarrow = new Map(narrow.seeds.map((s, i) => [s, narrow.gapBySeed[i]]));
  const shared = wide.seeds.filter((s) => byNarrow.has(s));
  const growth = shared.map((s) => wide.gapBySeed[wide.seeds.indexOf(s)] - byNarrow.get(s));
  const delta = widths.length >= 2 && growth.length >= 2 ? interval(stats, growth, pilot.level) : null;
  return { pilot, widths, growth: { seeds: shared, bySeed: growth, interval: delta, reads: describe(delta),
    seedsToResolve: delta ? seedsFor(stats, delta.mean, delta.sd, pilot) : null,
    costRatio: wide.msPerStep / narrow.msPerStep } };
}

const signed = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}` : 'n/a');
const ci = (iv) => (iv ? `${signed(iv.mean)} [${signed(iv.lo)}, ${signed(iv.hi)}]` : 'missing');

/** The readout as Markdown. */
export function widthReport(out) {
  const { ffn, gated } = out.pilot;
  const lines = [`PILOT (no verdict). G = L(${ffn}) − L(${gated}), validation nats/char, paired by seed.`, '',
    `| d | steps | lr ${ffn} | lr ${gated} | L ${ffn} | L ${gated} | seeds | G [95 % CI] | seed SD of G | ms/step |`,
    '|---|---|---|---|---|---|---|---|---|---|'];
  const lr = (r) => `${r.lr}${r.atEdge ? ' (edge)' : ''}`;
  for (const w of out.widths) {
    lines.push(`| ${w.d} | ${w.steps} | ${lr(w.rates[ffn])} | ${lr(w.rates[gated])} | ${w.loss[ffn].toFixed(4)} | `
      + `${w.loss[gated].toFixed(4)} | ${w.seeds.length} | ${ci(w.gap)} | ${w.gap ? w.gap.sd.toFixed(4) : 'n/a'} | `
      + `${w.msPerStep.toFixed(1)} |`);
  }
  const g = out.growth;
  lines.push('', `ΔG = G(wide) − G(narrow) per seed: ${ci(g.interval)}, ${g.reads}; seed SD `
    + `${g.interval ? g.interval.sd.toFixed(4) : 'n/a'}; seeds to resolve it with ${out.pilot.power * 100} % power `
    + `at α ${out.pilot.alpha}: ${g.seedsToResolve ?? `more than ${out.pilot.maxSeeds}`}; cost per step wide/narrow `
    + `${g.costRatio.toFixed(2)}×.`);
  return lines.join('\n');
}

/** The command line; resolves with the exit code. */
export async function main(argv) {
  const { values } = parseArgs({ args: argv, options: { run: { type: 'string', multiple: true },
    out: { type: 'string' } } });
  if (!values.run || values.run.length < 2) {
    console.error('usage: mlp-lm-width --run NARROW.json --run WIDE.json [--out FILE]');
    return 2;
  }
  const lab = await loadGateLab();
  const out = widthReadout(values.run.map((f) => JSON.parse(readFileSync(f, 'utf8'))), lab.stats);
  console.log(widthReport(out));
  if (values.out) writeFileSync(values.out, `${JSON.stringify(out, null, 1)}\n`);
  return 0;
}
