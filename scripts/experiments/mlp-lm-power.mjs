// `npm run experiment -- mlp-lm-power [--json]`
//   The power calculation of issue #23's pre-registered study (docs/PAPER_A_LM_PROTOCOL.md), from the
//   committed run's observed paired SDs (docs/experiments/mlp-lm.json): what gap 12 and 24 seeds
//   resolve at the O'Brien–Fleming levels (two-sided α 0.0054 at the look, 0.0492 at the end), the
//   chance that the sequential design resolves a gap, and the chance of "interval below +δ" when
//   the truth is 0. Critical values from lab.stats (the C++ core); the single-stage power by the
//   noncentral t of mlp-lm-stats.mjs; the two-stage chances by a seeded simulation (normal paired
//   differences, the same numbers on every run). Reads the committed JSON; writes nothing.
import { readFileSync } from 'node:fs';

import { loadGateLab } from '../../web/lib/gatelab.js';
import { pairedPower } from './mlp-lm-stats.mjs';
import { DESIGN, uniforms } from './mlp-lm-verdict.mjs';

const COMMITTED = new URL('../../docs/experiments/mlp-lm.json', import.meta.url);

/** The paired SD of a − b over the seeds of one phase of a merged run. */
export function pairedSd(run, a, b, phase = 'main') {
  const loss = (v) => new Map(run.main.filter((j) => j.variant === v && j.phase === phase)
    .map((j) => [j.seed, j.loss]));
  const x = loss(a);
  const y = loss(b);
  const d = [...x.keys()].filter((s) => y.has(s)).map((s) => x.get(s) - y.get(s));
  const m = d.reduce((p, q) => p + q, 0) / d.length;
  return { a, b, phase, n: d.length, sd: Math.sqrt(d.reduce((p, q) => p + (q - m) ** 2, 0) / (d.length - 1)) };
}

/** The smallest gap (to 0.0001) whose single-stage power reaches `power` at n seeds and level α. */
export function detectableGap(stats, n, sd, alpha, power = 0.8) {
  const tc = stats.tQuantile(1 - alpha / 2, n - 1);
  let gap = 0;
  while (pairedPower(n, gap, sd, tc).above < power) gap += 0.0001;
  return gap;
}

/**
 * The two-stage design by simulation: paired differences ~ N(gap, sd²), seeds 1–12 tested at the
 * look's α, then 1–24 at the end's. Returns the chances that the interval excludes 0 on the gap's
 * side (resolved), at the look or by the end, and that the end's interval lies below +δ
 * ("against" by the margin, for a truth below δ), each over `runs` simulated studies.
 */
export function sequentialChances(stats, gap, sd, { runs = 20000, seed = 7 } = {}, design = DESIGN) {
  const [look, end] = design.stages;
  const tLook = stats.tQuantile(1 - look.alpha / 2, look.seeds - 1);
  const tEnd = stats.tQuantile(1 - end.alpha / 2, end.seeds - 1);
  const next = uniforms(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const moments = (d, n) => {
    let m = 0;
    for (let i = 0; i < n; i++) m += d[i];
    m /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (d[i] - m) ** 2;
    return { m, se: Math.sqrt(ss / (n - 1) / n) };
  };
  let atLook = 0;
  let byEnd = 0;
  let belowDelta = 0;
  const d = new Float64Array(end.seeds);
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < end.seeds; i++) d[i] = gap + sd * normal();
    const a = moments(d, look.seeds);
    const lookResolved = Math.abs(a.m) > tLook * a.se;
    const b = moments(d, end.seeds);
    if (lookResolved) atLook++;
    if (lookResolved || Math.abs(b.m) > tEnd * b.se) byEnd++;
    if (a.m + tLook * a.se < design.delta || b.m + tEnd * b.se < design.delta) belowDelta++;
  }
  return { gap, sd, atLook: atLook / runs, byEnd: byEnd / runs, belowDelta: belowDelta / runs, runs };
}

/** The whole calculation: SDs of the committed run, detectable gaps, sequential chances. */
export function powerTable(stats, run) {
  const sds = [pairedSd(run, 'ffn-gelu', 'swiglu'), pairedSd(run, 'ffn-relu', 'reglu'),
    pairedSd(run, 'symgated-silu', 'swiglu'), pairedSd(run, 'symgated-relu', 'reglu'),
    pairedSd(run, 'symgated-silu', 'swiglu', 'long')];
  const [look, end] = DESIGN.stages;
  const detectable = sds.map((s) => ({ ...s, look: detectableGap(stats, look.seeds, s.sd, look.alpha),
    end: detectableGap(stats, end.seeds, s.sd, end.alpha) }));
  // The FFN − gated pairs (the preconditions) and the symmetric − gated pairs (the hypotheses)
  // differ in spread: each kind at its largest SD.
  const gaps = [0, 0.005, 0.0075, 0.01, 0.015, 0.02];
  const designs = [['preconditions (FFN − gated)', sds.slice(0, 2)], ['hypotheses (symmetric − gated)', sds.slice(2)]]
    .map(([what, list]) => {
      const sd = Math.max(...list.map((s) => s.sd));
      return { what, sd, chances: gaps.map((g) => sequentialChances(stats, g, sd)) };
    });
  return { detectable, designs };
}

const f4 = (v) => v.toFixed(4);

/** Markdown for the protocol. */
export function powerReport({ detectable, designs }) {
  const lines = ['| pair (committed run) | phase | seeds | paired SD | 80 % power at 12 seeds, α 0.0054 '
    + '| 80 % power at 24 seeds, α 0.0492 |', '|---|---|---|---|---|---|',
  ...detectable.map((s) => `| ${s.a} − ${s.b} | ${s.phase} | ${s.n} | ${f4(s.sd)} | ${f4(s.look)} | ${f4(s.end)} |`)];
  for (const { what, sd, chances } of designs) {
    lines.push('', `Two-stage design, ${what}, at SD ${f4(sd)}, ${chances[0].runs} simulated studies each:`, '',
      '| true gap | resolved at the look | resolved by the end | interval below +δ (look or end) |',
      '|---|---|---|---|',
      ...chances.map((c) => `| ${f4(c.gap)} | ${c.atLook.toFixed(3)} | ${c.byEnd.toFixed(3)} `
        + `| ${c.belowDelta.toFixed(3)} |`));
  }
  return lines.join('\n');
}

export async function main(argv) {
  const lab = await loadGateLab();
  const table = powerTable(lab.stats, JSON.parse(readFileSync(COMMITTED, 'utf8')));
  console.log(argv.includes('--json') ? JSON.stringify(table, null, 1) : powerReport(table));
  return 0;
}
