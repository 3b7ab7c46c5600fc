// `npm run experiment -- mlp-lm [--quick] [--threads K] [--out DIR] [--text FILE]`
//   Paper A's question in a language model (docs/PAPER_A_LM.md): the learning-rate sweep on the
//   dev split, the main and mechanism runs, the 2× horizon for the headline pair, then the
//   tables, the pre-registered comparisons, the verdict and the plots (mlp-lm.json, .svg, .md;
//   quick runs mlp-lm-quick.*). `--plan sweep|main --jobs-dir DIR` and `--merge DIR` spread the
//   jobs over machines (lm-cli.mjs).
import { lmMain, runLmExperiment } from './lm-cli.mjs';
import { analyse, tables } from './mlp-lm-report.mjs';
import { mlpLmSvg } from './mlp-lm-svg.mjs';

/** The markdown report: every table and the verdict. */
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
  '### Validation loss', '', ...t.headline, '', '### Learning rates (dev split, sweep seed)', '', ...t.rates, '',
  '### Pre-registered comparisons (Holm over H1–H5)', '', ...t.family, '', '### Other comparisons', '', ...t.secondary, '',
  '### Diagnostics at the end of training (validation tokens, mean over seeds)', '', ...t.diagnostics, ''];
  if (a.anchor) lines.push(`Shazeer (2020) anchor: Spearman ρ = ${a.anchor.rho.toFixed(3)} over ${a.anchor.names.join(', ')}.`, '');
  return lines.join('\n');
}

export const KIT = { analyse, report, svg: mlpLmSvg };

export function runMlpLm(argv = [], options = {}) {
  return runLmExperiment('mlp-lm', argv, KIT, options);
}

export function main(argv) {
  return lmMain('mlp-lm', argv, KIT);
}
