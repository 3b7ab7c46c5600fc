// `npm run experiment -- mlp-lm [--quick] [--threads K] [--out DIR] [--text FILE]`
//   Paper A's question in a language model (docs/PAPER_A_LM.md): the learning-rate sweep on the
//   dev split, the main and mechanism runs, the 2× horizon for the headline pair, then the
//   tables, the pre-registered comparisons, the verdict and the plots (mlp-lm.json, .svg, .md;
//   quick runs mlp-lm-quick.*). `--plan sweep|main --jobs-dir DIR` and `--merge DIR` spread the
//   jobs over machines (lm-cli.mjs).
import { lmMain, runLmExperiment } from './lm-cli.mjs';
import { analyse, report } from './mlp-lm-report.mjs';
import { mlpLmSvg } from './mlp-lm-svg.mjs';

export { report };

export const KIT = { analyse, report, svg: mlpLmSvg };

export function runMlpLm(argv = [], options = {}) {
  return runLmExperiment('mlp-lm', argv, KIT, options);
}

export function main(argv) {
  return lmMain('mlp-lm', argv, KIT);
}
