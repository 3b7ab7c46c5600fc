// The command line of the language-model experiments (mlp-lm.mjs, tiny-lm.mjs): run on this
// machine, or plan one command per job and merge their files, then analyse, report and write.
//   [--quick] [--threads K] [--out DIR] [--text FILE]
//   --plan sweep --jobs-dir DIR    one command per sweep job, each writing its JSON into DIR
//   --plan main --jobs-dir DIR     after the sweep jobs ran: one command per main and long job
//   --merge DIR                    analyse the job files in DIR
//   --resume DIR                   keep every job's JSON in DIR and skip the ones already there
//                                  (full runs do so in build/experiments/<experiment>-jobs/)
// Files go to build/experiments/ (git-ignored) unless --out names a folder.
import { mkdirSync, writeFileSync } from 'node:fs';

import { loadGateLab } from '../../web/lib/gatelab.js';
import { chooseRates, DEFAULT_TEXT, jobCommands, mainJobs, mergeResults, readJobs, runExperiment, sweepJobs,
  variantTable } from './lm-jobs.mjs';
import { DEFAULT_OUT } from './native.mjs';

export function parseLmOptions(argv) {
  const o = { quick: false, threads: 2, outDir: DEFAULT_OUT, text: DEFAULT_TEXT, plan: null, jobsDir: null, merge: null,
    resume: null };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--quick') {
      o.quick = true;
      continue;
    }
    const [flag, inline] = token.split(/=(.*)/s, 2);
    const known = { '--threads': 'threads', '--out': 'outDir', '--text': 'text', '--plan': 'plan', '--jobs-dir': 'jobsDir',
      '--merge': 'merge', '--resume': 'resume' };
    if (!known[flag]) throw new Error(`unknown option '${token}'`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    o[known[flag]] = flag === '--threads' ? Number(value) : value;
  }
  if (!o.outDir.endsWith('/')) o.outDir += '/';
  if (!(Number.isInteger(o.threads) && o.threads >= 1)) throw new Error('--threads must be a positive integer');
  if (o.plan && !['sweep', 'main'].includes(o.plan)) throw new Error("--plan must be 'sweep' or 'main'");
  if (o.plan && !o.jobsDir) throw new Error('--plan needs --jobs-dir DIR (where the jobs write their JSON)');
  return o;
}

/**
 * Runs, plans or merges `experiment`; `kit` is { analyse(results, stats), report(analysis,
 * results), svg(results, analysis) }. Resolves with { commands } for a plan, else with
 * { results, analysis, markdown, files }.
 */
export async function runLmExperiment(experiment, argv, kit, { quiet = false, writeFiles = true } = {}) {
  const o = parseLmOptions(argv);
  const table = await variantTable(experiment, { quick: o.quick });
  if (o.plan) {
    const jobs = o.plan === 'sweep' ? sweepJobs(table)
      : mainJobs(table, chooseRates(table, readJobs(o.jobsDir, experiment).filter((j) => j.phase === 'sweep')));
    return { commands: jobCommands(experiment, jobs, { quick: o.quick, text: o.text, dir: o.jobsDir }) };
  }
  const results = o.merge ? mergeResults(table, readJobs(o.merge, experiment))
    : await runExperiment(experiment, { quick: o.quick, text: o.text, threads: o.threads, quiet,
      jobsDir: o.resume ?? (o.quick ? undefined : `${DEFAULT_OUT}${experiment}-jobs/`) });
  const lab = await loadGateLab();
  const analysis = kit.analyse(results, lab.stats);
  const markdown = kit.report(analysis, results);
  const files = [];
  if (writeFiles) {
    const name = `${o.outDir}${experiment}${o.quick ? '-quick' : ''}`;
    mkdirSync(o.outDir, { recursive: true });
    writeFileSync(`${name}.json`, `${JSON.stringify({ ...results, analysis }, null, 1)}\n`);
    writeFileSync(`${name}.svg`, kit.svg(results, analysis));
    writeFileSync(`${name}.md`, `${markdown}\n`);
    files.push(`${name}.json`, `${name}.svg`, `${name}.md`);
  }
  return { results, analysis, markdown, files };
}

/** The CLI: prints the plan's commands, or the report and the files written. */
export async function lmMain(experiment, argv, kit) {
  const out = await runLmExperiment(experiment, argv, kit);
  console.log(out.commands ? out.commands.join('\n') : `${out.markdown}\nwrote ${out.files.join(', ')}`);
  return 0;
}
