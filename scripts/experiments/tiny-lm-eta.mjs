// `npm run experiment -- tiny-lm-eta --run A.json --run B.json [--out FILE]`
//   Paper B's recursion on text at the right step size (issue #23, deliverable 7, protocol
//   docs/TINY_LM_ETA.md): each --run is a merged tiny-lm run (`tiny-lm … --merge DIR --out DIR`) at
//   one CEM step η. Per η, D = L(T = 2) − L(T = 1) paired by seed with its 95 % t-interval and p;
//   Holm across the runs given; the protocol's word per η and its summary for "recursion helps".
//   Statistics come from lab.stats (the C++ core); this file holds the rules. It reads files and
//   writes only --out.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { loadGateLab } from '../../web/lib/gatelab.js';

export const RULES = Object.freeze({ deeper: 'cem-t2-d64', shallower: 'cem-t1-d64', alpha: 0.05, negligible: 0.0075 });

export const WORDS = Object.freeze({ better: 'T = 2 better', worse: 'T = 2 worse',
  open: 'not resolved at this scale' });
export const SUMMARY = Object.freeze({ for: 'for', against: 'against', depends: 'depends on η',
  open: 'not resolved at this scale' });

/** seed → validation loss of a variant's finished main jobs. */
function losses(run, variant) {
  return new Map(run.main.filter((j) => j.phase === 'main' && j.variant === variant && !j.diverged
    && Number.isFinite(j.loss)).map((j) => [j.seed, j.loss]));
}

/** One η's comparison: D per seed, its paired summary (lab.stats) and the chosen rates. */
function comparison(run, stats, rules) {
  const deep = losses(run, rules.deeper);
  const flat = losses(run, rules.shallower);
  const seeds = [...deep.keys()].filter((s) => flat.has(s)).sort((a, b) => a - b);
  const diff = seeds.length >= 2 ? stats.paired(seeds.map((s) => deep.get(s)), seeds.map((s) => flat.get(s))) : null;
  const rate = (v) => ({ lr: run.rates[v]?.lr ?? null, atEdge: !!run.rates[v]?.atEdge });
  return { eta: run.settings.eta, seeds, diff, deeperWins: seeds.filter((s) => deep.get(s) < flat.get(s)).length,
    rates: { [rules.deeper]: rate(rules.deeper), [rules.shallower]: rate(rules.shallower) } };
}

/** The protocol's word for one comparison after Holm. */
function word(c, rules) {
  if (!c.diff || !(c.holm < rules.alpha)) return WORDS.open;
  if (c.diff.ci95[1] < 0) return WORDS.better;
  if (c.diff.ci95[0] > 0) return WORDS.worse;
  return WORDS.open;
}

/** The summary for "recursion helps" from the words per η. */
export function summaryWord(words) {
  const better = words.filter((w) => w === WORDS.better).length;
  const worse = words.filter((w) => w === WORDS.worse).length;
  if (better && worse) return SUMMARY.depends;
  if (better) return SUMMARY.for;
  if (worse && worse === words.length) return SUMMARY.against;
  return SUMMARY.open;
}

/** The readout of merged runs (one per η). */
export function etaReadout(runs, stats, rules = RULES) {
  const comparisons = runs.map((run) => comparison(run, stats, rules)).sort((a, b) => a.eta - b.eta);
  const holm = stats.holm(comparisons.map((c) => (Number.isFinite(c.diff?.p) ? c.diff.p : 1)));
  comparisons.forEach((c, i) => {
    c.holm = holm[i];
    c.word = word(c, rules);
    c.negligible = c.word !== WORDS.open && Math.abs(c.diff.mean) < rules.negligible;
  });
  return { rules, comparisons, summary: summaryWord(comparisons.map((c) => c.word)) };
}

const signed = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}` : 'n/a');
const p3 = (v) => (Number.isFinite(v) ? (v < 0.001 ? '< 0.001' : v.toFixed(3)) : 'n/a');
const rateText = (r) => `${r.lr}${r.atEdge ? ' (edge)' : ''}`;

/** The readout as a Markdown table and the summary line. */
export function etaReport(out) {
  const { deeper, shallower } = out.rules;
  const lines = ['| η | lr T = 1 | lr T = 2 | seeds | D = T2 − T1 [95 % CI] | p | Holm p | T = 2 better in | word |',
    '|---|---|---|---|---|---|---|---|---|'];
  for (const c of out.comparisons) {
    const d = c.diff;
    const ci = d ? `${signed(d.mean)} [${signed(d.ci95[0])}, ${signed(d.ci95[1])}]` : 'missing';
    const w = c.negligible ? `${c.word} (statistically resolved, practically negligible)` : c.word;
    lines.push(`| ${c.eta} | ${rateText(c.rates[shallower])} | ${rateText(c.rates[deeper])} | ${c.seeds.length} | `
      + `${ci} | ${p3(d?.p)} | ${p3(c.holm)} | ${c.deeperWins}/${c.seeds.length} | ${w} |`);
  }
  lines.push('', `Recursion helps on text (paper B): ${out.summary}.`);
  return lines.join('\n');
}

/** The command line; resolves with the exit code. */
export async function main(argv) {
  const { values } = parseArgs({ args: argv, options: { run: { type: 'string', multiple: true },
    out: { type: 'string' } } });
  if (!values.run?.length) {
    console.error('usage: tiny-lm-eta --run MERGED.json [--run MERGED.json …] [--out FILE]');
    return 2;
  }
  const lab = await loadGateLab();
  const out = etaReadout(values.run.map((f) => JSON.parse(readFileSync(f, 'utf8'))), lab.stats);
  console.log(etaReport(out));
  if (values.out) writeFileSync(values.out, `${JSON.stringify(out, null, 1)}\n`);
  return 0;
}
