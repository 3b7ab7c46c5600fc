// `npm run experiment -- tiny-lm [--quick] [--threads K] [--out DIR] [--text FILE] [--eta X] [study flags]`
//   Paper B's weight tying on text (docs/EXPERIMENTS.md): Llama-style blocks against tied CEM
//   blocks at T = 1 and 2, at equal width and at about equal parameters, on the State of the
//   Union corpus of data/lm/. A learning rate per model from the sweep on the dev split, then
//   4 seeds scored on validation; every comparison paired by seed with a 95 % t-interval from
//   lab.stats, and Holm's adjusted p-values over the family of comparisons the run makes.
//   --eta sets the CEM step size η (default 1/4), --variants a subset (e.g. cem-t1-d64,cem-t2-d64;
//   every study flag: lm-study.mjs). Writes tiny-lm.json, .svg, .md (quick runs tiny-lm-quick.*)
//   to build/experiments/ or --out; `--plan sweep|main --jobs-dir DIR` and `--merge DIR` spread
//   the jobs, `--from FILE` re-analyses a written run and writes its report (lm-cli.mjs).
import { lmMain, runLmExperiment } from './lm-cli.mjs';
import { legend, PALETTE, panel, svgDocument } from './svg-plot.mjs';

// Paired comparisons fixed before the run: [first, second, claim]; difference = first − second.
// The ones a run has (both variants present) form the family Holm's correction runs over.
export const CLAIMS = [
  ['cem-t2-d64', 'cem-t1-d64', 'recursion: CEM T = 2 against T = 1 (d = 64)'],
  ['cem-t1-d64', 'llama-d64', 'tied CEM T = 1 against Llama at equal width (d = 64)'],
  ['cem-t2-d64', 'llama-d64', 'tied CEM T = 2 against Llama at equal width (d = 64)'],
  ['cem-t2-d80', 'llama-d64', 'tied CEM T = 2 (d = 80) against Llama (d = 64), about equal parameters'],
  ['cem-t1-d64', 'llama-d48', 'tied CEM T = 1 (d = 64) against Llama (d = 48), about equal parameters'],
  // quick runs
  ['cem-t2-d16', 'cem-t1-d16', 'recursion: CEM T = 2 against T = 1 (d = 16)'],
  ['cem-t1-d16', 'llama-d16', 'tied CEM T = 1 against Llama at equal width (d = 16)'],
];

function lossesBySeed(results) {
  const out = new Map();
  for (const j of results.main.filter((x) => x.phase === 'main')) {
    if (!out.has(j.variant)) out.set(j.variant, new Map());
    out.get(j.variant).set(j.seed, j.diverged ? NaN : j.loss);
  }
  return out;
}

export function analyse(results, stats) {
  const byVariant = lossesBySeed(results);
  const models = results.variants.map((v) => {
    const runs = results.main.filter((j) => j.phase === 'main' && j.variant === v.name);
    const losses = runs.filter((r) => !r.diverged).map((r) => r.loss);
    return { ...v, lr: results.rates[v.name]?.lr, atEdge: results.rates[v.name]?.atEdge,
      parameters: runs[0]?.parameters ?? 0, loss: losses.length ? stats.summary(losses) : null,
      diverged: runs.filter((r) => r.diverged).length, seeds: runs.length, samples: runs.map((r) => r.sample) };
  });
  const claims = CLAIMS.filter(([a, b]) => byVariant.has(a) && byVariant.has(b)).map(([a, b, claim]) => {
    const la = byVariant.get(a);
    const lb = byVariant.get(b);
    const seeds = [...la.keys()].filter((s) => Number.isFinite(la.get(s)) && Number.isFinite(lb.get(s)));
    const diff = seeds.length >= 2 ? stats.paired(seeds.map((s) => la.get(s)), seeds.map((s) => lb.get(s))) : null;
    const resolved = diff && (diff.ci95[0] > 0 || diff.ci95[1] < 0);
    const verdict = !diff ? 'n/a' : !resolved ? 'not reproduced at this scale (the interval includes 0)'
      : diff.mean < 0 ? 'the first is better' : 'the second is better';
    return { a, b, claim, diff, seeds: seeds.length, wins: seeds.filter((s) => la.get(s) < lb.get(s)).length, verdict };
  });
  // Holm over the family (docs/MATH.md §C4); a claim without a difference counts as p = 1.
  const adjusted = claims.length ? stats.holm(claims.map((c) => (Number.isFinite(c.diff?.p) ? c.diff.p : 1))) : [];
  claims.forEach((c, i) => Object.assign(c, { holm: adjusted[i], survivesHolm: adjusted[i] <= ALPHA }));
  const corpus = results.main.find((j) => j.corpus)?.corpus ?? null;
  return { models, claims, corpus };
}

export const ALPHA = 0.05;

const f4 = (v) => (Number.isFinite(v) ? v.toFixed(4) : 'n/a');
const p3 = (v) => (Number.isFinite(v) ? (v < 0.001 ? '< 0.001' : v.toFixed(3)) : 'n/a');
const sweepText = (s) => ((s.sweepSeeds ?? 1) > 1
  ? `mean over sweep seeds ${s.sweepSeed}–${s.sweepSeed + s.sweepSeeds - 1}` : 'sweep seed');
const signed = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}` : 'n/a');

export function report(a, results) {
  const s = results.settings;
  const c = a.corpus;
  const main = ['| model | d | M | parameters | lr (from dev) | validation loss (nats/char) [95 % CI] '
    + '| perplexity | bits/char | diverged |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const m of a.models) {
    const l = m.loss;
    main.push(`| ${m.label} | ${m.d} | ${m.hidden} | ${m.parameters} | ${m.lr}${m.atEdge ? ' (edge)' : ''} | `
      + `${l ? `${f4(l.mean)} [${f4(l.ci95[0])}, ${f4(l.ci95[1])}]` : 'n/a'} `
      + `| ${l ? Math.exp(l.mean).toFixed(3) : 'n/a'} | `
      + `${l ? (l.mean / Math.LN2).toFixed(3) : 'n/a'} | ${m.diverged}/${m.seeds} |`);
  }
  if (c) {
    main.push(`| uniform (log V) | | | | | ${f4(c.uniform)} | | | |`,
      `| unigram (train frequencies) | | | | | ${f4(c.unigram)} | | | |`);
  }
  const rates = ['| model | rates tried: dev loss | chosen |', '|---|---|---:|'];
  for (const v of results.variants) {
    const r = results.rates[v.name];
    rates.push(`| ${v.label} | ${r.tried.map((t) => `${t.lr}: ${f4(t.devLoss)}`).join(' · ')} | ${r.lr} |`);
  }
  const claims = ['| comparison (first − second) | difference [95 % CI] | p | Holm p | seeds first better '
    + `| verdict (95 % interval) | after Holm (α = ${ALPHA}) |`, '|---|---:|---:|---:|---:|---|---|'];
  for (const k of a.claims) {
    const diff = k.diff ? `${signed(k.diff.mean)} [${signed(k.diff.ci95[0])}, ${signed(k.diff.ci95[1])}]` : 'n/a';
    claims.push(`| ${k.claim} | ${diff} | `
      + `${p3(k.diff?.p)} | ${p3(k.holm)} | ${k.wins}/${k.seeds} | ${k.verdict} | `
      + `${k.survivesHolm ? 'holds' : 'not a finding'} |`);
  }
  const cem = a.models.filter((m) => m.family === 'cem');
  const notes = [`Holm's correction runs over the ${a.claims.length} comparisons above (docs/MATH.md §C4); a `
    + 'difference whose interval excludes 0 but whose Holm p exceeds α is not a finding.',
  ...(cem.length ? [`Every CEM model runs at one step size, η = ${s.eta}, not tuned per T: a T = 2 − T = 1 `
    + 'difference mixes the depth with the step size (docs/EXPERIMENTS.md).'] : [])];
  const samples = a.models.map((m) => `- **${m.label}**: ${JSON.stringify((m.samples[0] ?? '').slice(0, 120))}`);
  const corpus = c ? `${c.trainChars} train / ${c.devChars} dev / ${c.validationChars} validation characters, `
    + `vocabulary ${c.vocabulary}; ` : '';
  return [`## tiny-lm: ${corpus}`
    + `context ${s.context}, ${s.layers} blocks, ${s.heads} heads, η = ${s.eta}; `
    + `${s.steps} steps × ${s.batch} windows; ${s.seeds} seeds`, '',
  ...main, '', `### Learning rates (dev split, ${sweepText(s)})`, '', ...rates, '', '### Paired by seed', '',
  ...claims, '',
  ...notes.flatMap((n) => [n, '']),
  '### Samples (seed 1, temperature 0.8)', '', ...samples, ''].join('\n');
}

export function svg(results, a) {
  const dots = (test, label, color) => ({ label, color, marker: true, bars: true, noLine: true,
    points: a.models.filter((m) => test(m) && m.loss)
      .map((m) => ({ x: m.parameters, y: m.loss.mean, lo: m.loss.ci95[0], hi: m.loss.ci95[1] })) });
  const byT = [...new Set(a.models.filter((m) => m.family === 'cem').map((m) => m.steps))].sort();
  const scatter = [dots((m) => m.family === 'standard', 'Llama-style (untied)', PALETTE[0]),
    ...byT.map((t, i) => dots((m) => m.family === 'cem' && m.steps === t, `CEM tied, T = ${t}`, PALETTE[1 + i]))];
  const curves = a.models.map((m, i) => {
    const runs = results.main.filter((j) => j.phase === 'main' && j.variant === m.name && !j.diverged);
    return { label: m.label, color: PALETTE[i % PALETTE.length],
      points: (runs[0]?.curveSteps ?? [])
        .map((step, k) => ({ x: step, y: runs.reduce((sum, r) => sum + r.curveValLoss[k], 0) / runs.length })) };
  });
  const w = 380, h = 240, top = 60;
  const body = [panel({ x0: 60, y0: top, width: w, height: h, title: 'validation loss against parameters (95 % CI)',
    xLabel: 'parameters', yLabel: 'nats per character', series: scatter }),
  panel({ x0: 60 + w + 80, y0: top, width: w, height: h, title: 'validation loss while training (mean over seeds)',
    xLabel: 'step', series: curves }),
  legend(60, top + h + 55, scatter), legend(60 + w + 80, top + h + 55, curves)].join('\n');
  const s = results.settings;
  return svgDocument(60 + 2 * w + 80 + 30, top + h + 55 + 17 * Math.max(scatter.length, curves.length) + 10,
    `tiny-lm: context ${s.context}, ${s.layers} blocks, ${s.steps} steps × ${s.batch} windows, ${s.seeds} seeds`, body);
}

export const KIT = { analyse, report, svg };

export function runTinyLm(argv = [], options = {}) {
  return runLmExperiment('tiny-lm', argv, KIT, options);
}

export function main(argv) {
  return lmMain('tiny-lm', argv, KIT);
}
