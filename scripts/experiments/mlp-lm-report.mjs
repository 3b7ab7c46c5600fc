// The mlp-lm experiment's report (docs/PAPER_A_LM.md): from the merged jobs (lm-jobs.mjs) to
// the tables, the pre-registered comparisons with paired 95 % t-intervals and Holm's
// correction, the verdict by the rules written before the run, the Shazeer anchor and the
// diagnostics. Every statistic comes from lab.stats (the C++ core's base/stats); this file only
// pairs runs by seed and formats.

import { spearman } from './mlp-lm-stats.mjs';

// Shazeer (2020), GLU Variants Improve Transformer, Table 1, log-perplexity at 65,536 steps.
export const SHAZEER = { geglu: 1.942, swiglu: 1.944, reglu: 1.953, bilinear: 1.960, glu: 1.982, 'ffn-gelu': 1.983,
  'ffn-relu': 1.997 };

// The family of primary comparisons, fixed before the run (difference = first − second, in
// nats per character; > 0 means the second is better).
export const PRIMARY = [
  { id: 'H1', a: 'symgated-silu', b: 'swiglu',
    says: 'symgated SiLU against SwiGLU (same σ; only the exchange asymmetry removed)' },
  { id: 'H2', a: 'symgated-relu', b: 'reglu',
    says: 'symgated ReLU against ReGLU (same σ; only the exchange asymmetry removed)' },
  { id: 'H3', a: 'symmetric-silu', b: 'swiglu',
    says: 'σ(ab) with SiLU against SwiGLU (σ on the product instead of one factor)' },
  { id: 'H4', a: 'symmetric-relu', b: 'reglu', says: 'σ(ab) with ReLU against ReGLU' },
];
export const DIAL = [['swiglu', 0], ['dial-silu-0.25', 0.25], ['dial-silu-0.5', 0.5], ['dial-silu-0.75', 0.75],
  ['symgated-silu', 1]];
export const SECONDARY = [
  ['reglu-gauge', 'reglu', 'gauge-fixed ReGLU against ReGLU (the q → αq, k → k/α valley removed)'],
  ['symmetric-relu-gauge', 'symmetric-relu', 'gauge-fixed σ(ab) ReLU against σ(ab) ReLU'],
  ['symmetric-relu-r2', 'symmetric-relu', 'symmetric rank 2 against rank 1 (same budget)'],
  ['symmetric-relu-r4', 'symmetric-relu', 'symmetric rank 4 against rank 1 (same budget)'],
  ['symgated-silu-momentum', 'swiglu-momentum', 'symgated SiLU against SwiGLU, both with SGD-momentum'],
  ['symmetric-relu-momentum', 'reglu-momentum', 'σ(ab) ReLU against ReGLU, both with SGD-momentum'],
];

const ALPHA = 0.05;

/** Final validation loss of every (variant, phase) by seed: Map variant → Map seed → loss. */
function lossesBySeed(results, phase) {
  const out = new Map();
  for (const j of results.main.filter((x) => x.phase === phase)) {
    if (!out.has(j.variant)) out.set(j.variant, new Map());
    out.get(j.variant).set(j.seed, j.diverged ? NaN : j.loss);
  }
  return out;
}

function pairedOn(stats, byVariant, a, b) {
  const la = byVariant.get(a);
  const lb = byVariant.get(b);
  if (!la || !lb) return null;
  const seeds = [...la.keys()].filter((s) => lb.has(s) && Number.isFinite(la.get(s)) && Number.isFinite(lb.get(s)));
  if (seeds.length < 2) return null;
  const s = stats.paired(seeds.map((x) => la.get(x)), seeds.map((x) => lb.get(x)));
  return { ...s, seeds: seeds.length, wins: seeds.filter((x) => la.get(x) > lb.get(x)).length };
}

// Least-squares slope of loss against λ, seed by seed; then the slopes' summary.
function dialSlopes(stats, byVariant) {
  if (!DIAL.every(([name]) => byVariant.has(name))) return null;
  const seeds = [...byVariant.get('swiglu').keys()]
    .filter((s) => DIAL.every(([n]) => Number.isFinite(byVariant.get(n).get(s))));
  if (seeds.length < 2) return null;
  const xs = DIAL.map(([, x]) => x);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const slopes = seeds.map((s) => {
    const ys = DIAL.map(([n]) => byVariant.get(n).get(s));
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    return xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / sxx;
  });
  return { ...stats.summary(slopes), seeds: seeds.length };
}

const excludesZero = (s) => s && (s.ci95[0] > 0 || s.ci95[1] < 0);
const within = (s, margin) => s && s.ci95[0] > -margin && s.ci95[1] < margin;

/** Everything the tables and the verdict need, computed once. */
export function analyse(results, stats) {
  const main = lossesBySeed(results, 'main');
  const long = lossesBySeed(results, 'long');
  const perVariant = results.variants.map((v) => {
    const losses = [...(main.get(v.name)?.values() ?? [])].filter(Number.isFinite);
    return { ...v, lr: results.rates[v.name]?.lr, atEdge: results.rates[v.name]?.atEdge,
      loss: losses.length ? stats.summary(losses) : null,
      diverged: [...(main.get(v.name)?.values() ?? [])].filter((x) => !Number.isFinite(x)).length,
      vsSwiglu: v.name === 'swiglu' ? null : pairedOn(stats, main, v.name, 'swiglu') };
  });
  const precondition = pairedOn(stats, main, 'ffn-gelu', 'swiglu');
  const margin = precondition ? Math.abs(precondition.mean) / 4 : NaN;
  const primary = PRIMARY.map((c) => ({ ...c, diff: pairedOn(stats, main, c.a, c.b) }));
  const slope = dialSlopes(stats, main);
  const family = [...primary.map((c) => c.diff), slope];
  const present = family.filter(Boolean);
  const adjusted = present.length ? stats.holm(present.map((s) => s.p)) : [];
  let k = 0;
  for (const s of family) if (s) s.holm = adjusted[k++];
  const secondary = SECONDARY.map(([a, b, says]) => ({ a, b, says, diff: pairedOn(stats, main, a, b) }))
    .filter((c) => c.diff);
  const longPair = pairedOn(stats, long, 'symgated-silu', 'swiglu');
  const anchorNames = Object.keys(SHAZEER).filter((n) => perVariant.find((v) => v.name === n)?.loss);
  const anchor = anchorNames.length >= 3 ? {
    names: anchorNames,
    rho: spearman(anchorNames.map((n) => SHAZEER[n]),
      anchorNames.map((n) => perVariant.find((v) => v.name === n).loss.mean)),
  } : null;
  return { perVariant, precondition, margin, primary, slope, secondary, longPair, anchor,
    verdict: verdict({ precondition, margin, primary, slope }) };
}

/** The verdict by the rules of docs/PAPER_A_LM.md, fixed before the run. */
export function verdict({ precondition, margin, primary, slope }) {
  if (!excludesZero(precondition) || !(precondition.mean > 0)) {
    return { outcome: 'harness not resolving', words: 'The harness does not resolve gated against FFN '
      + '(the interval of FFN-GELU − SwiGLU includes 0 or favours FFN), so no comparison below can be read; '
      + 'scale width or steps first.' };
  }
  const [h1, h2, h3, h4] = primary.map((c) => c.diff);
  const significantPositive = (s) => s && s.ci95[0] > 0 && s.holm <= ALPHA;
  const equivalent = (s) => within(s, margin);
  if (significantPositive(h1) && slope && slope.ci95[0] > 0 && slope.holm <= ALPHA) {
    return { outcome: 'supports', words: 'For the suggestion: removing only the exchange asymmetry (symgated) '
      + 'loses to the gated layer with the same σ, and the loss rises with λ.' };
  }
  const symmetryIrrelevant = (equivalent(h1) && equivalent(h2)) || within(slope, margin);
  if ((significantPositive(h3) || significantPositive(h4)) && equivalent(h1) && equivalent(h2)) {
    return { outcome: 'where σ acts', words: 'Where σ acts, not the symmetry: σ(ab) loses to the gated layer, '
      + 'but symgated, which keeps σ on one factor and removes only the exchange asymmetry, is equivalent to it.' };
  }
  if (symmetryIrrelevant) {
    return { outcome: 'against', words: 'Against the suggestion: symgated is equivalent to the gated layer '
      + 'within the margin (or the λ dial is flat), so the broken exchange symmetry does not explain '
      + 'the gated layer\'s advantage here.' };
  }
  return { outcome: 'not reproduced at this scale', words: 'Not resolved at this scale: the intervals neither '
    + 'show the predicted loss of symgated nor exclude a difference larger than the margin.' };
}

const n4 = (v) => (Number.isFinite(v) ? v.toFixed(4) : 'n/a');
const signed = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(4)}` : 'n/a');
const interval = (s) => (s ? `${signed(s.mean)} [${signed(s.ci95[0])}, ${signed(s.ci95[1])}]` : 'n/a');
const p3 = (v) => (Number.isFinite(v) ? (v < 0.001 ? '< 0.001' : v.toFixed(3)) : 'n/a');

/** Markdown tables, in the order of docs/PAPER_A_LM.md. */
export function tables(a, results) {
  const s = results.settings;
  const headline = ['| variant | group | MLP params/block | m or d_ff | lr (from dev) '
    + '| validation loss (nats/char), mean [95 % CI] | − SwiGLU, paired [95 % CI] | diverged |',
    '|---|---|---:|---:|---:|---:|---:|---:|'];
  for (const v of a.perVariant) {
    const lr = `${v.lr}${v.atEdge ? ' (edge)' : ''}`;
    headline.push(`| ${v.label} | ${v.group} | ${v.mlpParameters} | ${v.hidden} | ${lr} | `
      + `${v.loss ? `${n4(v.loss.mean)} [${n4(v.loss.ci95[0])}, ${n4(v.loss.ci95[1])}]` : 'n/a'} | `
      + `${v.name === 'swiglu' ? '—' : interval(v.vsSwiglu)} | ${v.diverged}/${s.seeds} |`);
  }
  // As many rate columns as the longest grid (a study may give variants grids of other lengths).
  const longest = Math.max(0, ...results.variants.map((v) => v.learningRates.length));
  const columns = Array.from({ length: longest }, (_, i) => i);
  const rates = ['| variant | ' + columns.map((i) => `rate ${i + 1}: dev loss`).join(' | ') + ' | chosen |',
    '|---|' + columns.map(() => '---:|').join('') + '---:|'];
  for (const v of results.variants) {
    const r = results.rates[v.name];
    const cells = columns.map((i) => (r.tried[i] ? `${r.tried[i].lr}: ${n4(r.tried[i].devLoss)}` : ''));
    rates.push(`| ${v.label} | ${cells.join(' | ')} | ${r.lr} |`);
  }
  const family = ['| id | comparison (first − second) | difference [95 % CI] | seeds first worse | p | Holm p |',
    '|---|---|---:|---:|---:|---:|'];
  for (const c of a.primary) {
    family.push(`| ${c.id} | ${c.says} | ${interval(c.diff)} | ${c.diff ? `${c.diff.wins}/${c.diff.seeds}` : 'n/a'} `
      + `| ${p3(c.diff?.p)} | ${p3(c.diff?.holm)} |`);
  }
  family.push(`| H5 | slope of loss over λ (SiLU dial, 0 → 1) | ${interval(a.slope)} | — | ${p3(a.slope?.p)} `
    + `| ${p3(a.slope?.holm)} |`);
  const secondary = ['| comparison (first − second) | difference [95 % CI] | seeds first worse |', '|---|---:|---:|'];
  for (const c of a.secondary) secondary.push(`| ${c.says} | ${interval(c.diff)} | ${c.diff.wins}/${c.diff.seeds} |`);
  if (a.longPair) {
    secondary.push(`| symgated SiLU against SwiGLU at ${s.longSteps} steps | ${interval(a.longPair)} `
      + `| ${a.longPair.wins}/${a.longPair.seeds} |`);
  }
  return { headline, rates, family, secondary, diagnostics: diagnosticsTable(results) };
}

const sweepSeedsText = (s) => ((s.sweepSeeds ?? 1) > 1
  ? `mean over sweep seeds ${s.sweepSeed}–${s.sweepSeed + s.sweepSeeds - 1}` : `sweep seed ${s.sweepSeed}`);

/**
 * The markdown report (docs/experiments/mlp-lm.md): every table and the verdict. It only formats
 * the analysis and the results, so the committed report can be checked against the committed
 * JSON without the wasm build (tests/js/experiments/mlp-lm-review.test.mjs).
 */
export function report(a, results) {
  const t = tables(a, results);
  const s = results.settings;
  const p = a.precondition;
  const fixed = (v) => (Number.isFinite(v) ? v.toFixed(4) : 'n/a');
  const lines = [`## mlp-lm: d = ${s.d}, ${s.layers} blocks, ${s.heads} heads, context ${s.context}, batch ${s.batch}, `
    + `${s.steps} steps, ${s.seeds} seeds, MLP budget ${s.budget} per block`, '',
  `Precondition (FFN-GELU − SwiGLU): ${p ? `${fixed(p.mean)} [${fixed(p.ci95[0])}, ${fixed(p.ci95[1])}]` : 'n/a'}; `
    + `equivalence margin δ = ${fixed(a.margin)} nats/char.`, '',
  `**Verdict: ${a.verdict.outcome}.** ${a.verdict.words}`, '',
  '### Validation loss', '', ...t.headline, '',
  `### Learning rates (dev split, ${sweepSeedsText(s)}, ${s.sweepSteps} steps)`, '', ...t.rates, '',
  '### Pre-registered comparisons (Holm over H1–H5)', '', ...t.family, '',
  '### Other comparisons', '', ...t.secondary, '',
  '### Diagnostics at the end of training (validation tokens, mean over seeds)', '', ...t.diagnostics, ''];
  if (a.anchor) {
    lines.push(`Shazeer (2020) anchor: Spearman ρ = ${a.anchor.rho.toFixed(3)} over ${a.anchor.names.join(', ')}.`, '');
  }
  return lines.join('\n');
}

// The last diagnostics point of each main run, averaged over seeds, per block.
function diagnosticsTable(results) {
  const rows = ['| variant | block | antisymmetric share | exchange gap | ‖q‖² − ‖k‖² drift '
    + '| σ-argument 5 % · 50 % · 95 % |', '|---|---:|---:|---:|---:|---|'];
  for (const v of results.variants) {
    const runs = results.main.filter((j) => j.phase === 'main' && j.variant === v.name && j.diagnostics?.length);
    if (!runs.length) continue;
    const blocks = runs[0].diagnostics.at(-1).length;
    for (let b = 0; b < blocks; b++) {
      const mean = (f) => runs.reduce((sum, r) => sum + (r.diagnostics.at(-1)[b][f] ?? NaN), 0) / runs.length;
      const q = (i) => runs.reduce((sum, r) => sum + r.diagnostics.at(-1)[b].preactivationQuantiles[i], 0)
        / runs.length;
      const f3 = (x) => (Number.isFinite(x) ? x.toPrecision(3) : '—');
      rows.push(`| ${v.label} | ${b} | ${f3(mean('antisymmetricShare'))} | ${f3(mean('exchangeGap'))} `
        + `| ${f3(mean('qkDrift'))} | ${f3(q(0))} · ${f3(q(2))} · ${f3(q(4))} |`);
    }
  }
  return rows;
}
