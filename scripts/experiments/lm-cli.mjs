// The command line of the language-model experiments (mlp-lm.mjs, tiny-lm.mjs): run on this
// machine, or plan one command per job and merge their files, then analyse, report and write.
//   [--quick] [--threads K] [--out DIR] [--text FILE] [study flags: lm-study.mjs]
//   --plan sweep --jobs-dir DIR    one command per sweep job, each writing its JSON into DIR
//   --plan main --jobs-dir DIR     after the sweep jobs ran: one command per main and long job
//   --merge DIR                    analyse the job files in DIR (with the study flags they
//                                  record, unless flags are given, which they must match)
//   --resume DIR                   keep every job's JSON in DIR and skip the ones already there
//                                  (full runs do so in build/experiments/<experiment>-jobs/, or
//                                  <experiment>-<hash of the study flags>-jobs/ for a study)
//   --from FILE                    re-analyse a written run (its stored analysis is recomputed)
//                                  and write the report (.md, .svg) only: FILE is never rewritten
// Files go to build/experiments/ (git-ignored) unless --out names a folder.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

import { loadGateLab } from '../../web/lib/gatelab.js';
import { checkJobs, chooseRates, defaultJobsDir, jobCommands, mainJobs, mergeResults, readJobs, runExperiment,
  studyOfJobs, sweepJobs, variantTable } from './lm-jobs.mjs';
import { parseLmOptions } from './lm-study.mjs';

export { parseLmOptions };

async function plan(experiment, o) {
  const table = await variantTable(experiment, { quick: o.quick, study: o.study });
  const sweep = () => checkJobs(table, readJobs(o.jobsDir, experiment).filter((j) => j.phase === 'sweep'));
  const jobs = o.plan === 'sweep' ? sweepJobs(table) : mainJobs(table, chooseRates(table, sweep()));
  return { commands: jobCommands(experiment, jobs, { quick: o.quick, text: o.text, dir: o.jobsDir, study: o.study }) };
}

/** The results to analyse: merged job files, a written run (--from), or a run on this machine. */
async function results(experiment, o, quiet) {
  if (o.from) {
    const { analysis: _analysis, ...run } = JSON.parse(readFileSync(o.from, 'utf8'));
    return run;
  }
  if (o.merge) {
    const jobs = readJobs(o.merge, experiment);
    const study = o.study.length ? o.study : studyOfJobs(jobs, o.merge);
    const table = await variantTable(experiment, { quick: o.quick, study });
    return mergeResults(table, checkJobs(table, jobs));
  }
  return runExperiment(experiment, { quick: o.quick, text: o.text, threads: o.threads, quiet, study: o.study,
    jobsDir: o.resume ?? (o.quick ? undefined : defaultJobsDir(experiment, o.study)) });
}

/**
 * Runs, plans or merges `experiment`; `kit` is { analyse(results, stats), report(analysis,
 * results), svg(results, analysis) }. Resolves with { commands } for a plan, else with
 * { results, analysis, markdown, files }. A command-line mistake rejects with exitCode 2.
 */
export async function runLmExperiment(experiment, argv, kit, { quiet = false, writeFiles = true } = {}) {
  const o = parseLmOptions(argv);
  if (o.plan) return plan(experiment, o);
  const run = await results(experiment, o, quiet);
  const lab = await loadGateLab();
  const analysis = kit.analyse(run, lab.stats);
  const markdown = kit.report(analysis, run);
  const files = [];
  if (writeFiles) {
    const name = `${o.outDir}${o.from ? basename(o.from, '.json') : `${experiment}${o.quick ? '-quick' : ''}`}`;
    mkdirSync(o.outDir, { recursive: true });
    if (!o.from) writeFileSync(`${name}.json`, `${JSON.stringify({ ...run, analysis }, null, 1)}\n`);
    writeFileSync(`${name}.svg`, kit.svg(run, analysis));
    writeFileSync(`${name}.md`, `${markdown}\n`);
    files.push(...(o.from ? [] : [`${name}.json`]), `${name}.svg`, `${name}.md`);
  }
  return { results: run, analysis, markdown, files };
}

/** The CLI: prints the plan's commands, or the report and the files written. */
export async function lmMain(experiment, argv, kit) {
  const out = await runLmExperiment(experiment, argv, kit);
  console.log(out.commands ? out.commands.join('\n') : `${out.markdown}\nwrote ${out.files.join(', ')}`);
  return 0;
}
