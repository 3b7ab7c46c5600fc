// Plans, runs and merges the jobs of the language-model experiments (mlp-lm, tiny-lm) on the
// native runner (cpp/experiments/lm_commands.cpp). A job is (variant, phase, seed, learning
// rate) and is deterministic, so the same results come out of one machine running them on its
// cores or of many machines running one command each:
//   sweep  every variant × every rate of its grid × every sweep seed, scored on the dev split;
//   main   every variant × seeds 1…N at the rate the sweep chose (lowest mean dev loss), validation;
//   long   the headline variants at 2× the steps, seeds 1…N, validation.
// The rate is chosen from the sweep's jobs only, never from the reported split. A study's flags
// (lm-study.mjs; `study`, canonical) go to every native call and every job command; each job's
// JSON records its settings and those flags, and a merge checks them.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createHash } from 'node:crypto';

import { DEFAULT_OUT, ROOT, runNative, runnerPath } from './native.mjs';

export const DEFAULT_TEXT = `${ROOT}data/lm/sotu-1790-1880.txt`;

/** A mistake on the command line (a flag, or jobs that do not fit it): the CLI prints it and exits with 2. */
export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
    this.exitCode = 2;
  }
}

const flags = (quick, study) => [...(quick ? ['--quick'] : []), ...study];

/**
 * The experiment's settings and variant table from the runner (one source: the C++ tables). A
 * study the runner refuses (an unknown variant, heads not dividing d, …) rejects with an error
 * whose exitCode is 2, the runner's message as its message.
 */
export async function variantTable(experiment, { quick = false, study = [] } = {}) {
  const table = await runNative('lm-variants', ['--experiment', experiment, ...flags(quick, study)], { quiet: true })
    .catch((e) => {
      if (e.status !== 2) throw e;
      throw new UsageError(e.stderr.at(-1)?.replace(/^gatelab_experiment: /, '') ?? e.message);
    });
  // The grid is float in C++; the JSON shows 9 digits (0.00400000019): read back the rate as written.
  for (const v of table.variants) v.learningRates = v.learningRates.map((lr) => Number(Math.fround(lr).toPrecision(6)));
  return table;
}

/** The sweep's seeds: sweepSeed … sweepSeed + sweepSeeds − 1 (a table without sweepSeeds has one). */
export const sweepSeeds = ({ sweepSeed, sweepSeeds: count = 1 }) =>
  Array.from({ length: count }, (_, i) => sweepSeed + i);

export function sweepJobs(table) {
  const seeds = sweepSeeds(table.settings);
  return table.variants.flatMap((v) => v.learningRates.flatMap((lr) => seeds.map((seed) => ({ variant: v.name,
    phase: 'sweep', seed, lr }))));
}

const sameRate = (a, b) => Math.fround(a) === Math.fround(b);

/**
 * Per variant, the rate with the lowest final dev loss, the mean over the sweep seeds (ties and
 * NaN: the smaller rate wins; a rate with a missing or diverged seed is NaN), with every rate's
 * dev loss (and, with several sweep seeds, each seed's) and whether the choice sits at an edge
 * of the grid.
 */
export function chooseRates(table, sweep) {
  const chosen = new Map();
  const seeds = sweepSeeds(table.settings);
  for (const v of table.variants) {
    const tried = v.learningRates.map((lr) => {
      const losses = seeds.map((seed) => {
        const job = sweep.find((j) => j.variant === v.name && j.phase === 'sweep' && j.seed === seed
          && sameRate(j.lr, lr));
        return job && !job.diverged && Number.isFinite(job.loss) ? job.loss : NaN;
      });
      const devLoss = losses.reduce((a, b) => a + b, 0) / losses.length;  // one seed: its loss, bit for bit
      return seeds.length > 1 ? { lr, devLoss, devLosses: losses } : { lr, devLoss };
    });
    const best = tried.reduce((a, b) => (Number.isFinite(b.devLoss) && !(b.devLoss >= a.devLoss) ? b : a),
      { lr: tried[0].lr, devLoss: Infinity });
    const index = tried.findIndex((t) => sameRate(t.lr, best.lr));
    chosen.set(v.name, { lr: best.lr, tried, atEdge: index === 0 || index === tried.length - 1 });
  }
  return chosen;
}

export function mainJobs(table, rates) {
  const seeds = Array.from({ length: table.settings.seeds }, (_, i) => i + 1);
  const jobs = table.variants.flatMap((v) => seeds.map((seed) => ({ variant: v.name, phase: 'main', seed,
    lr: rates.get(v.name).lr })));
  for (const name of table.settings.longVariants) {
    for (const seed of seeds) jobs.push({ variant: name, phase: 'long', seed, lr: rates.get(name).lr });
  }
  return jobs;
}

const jobFile = (experiment, job) => `${experiment}-${job.phase}-${job.variant}-s${job.seed}-lr${job.lr}.json`;

/** One self-contained shell command per job, with the study's flags, writing its JSON into dir. */
export function jobCommands(experiment, jobs, { quick = false, text = DEFAULT_TEXT, dir, study = [] }) {
  return jobs.map((job) => [runnerPath(), 'lm-job', '--experiment', experiment, ...flags(quick, study),
    '--text', text, '--variant', job.variant, '--phase', job.phase, '--seed', String(job.seed), '--lr', String(job.lr),
    '--out', join(dir, jobFile(experiment, job))].join(' '));
}

/**
 * Runs jobs on this machine's threads; resolves with their results in the jobs' order. With
 * jobsDir every job's JSON is kept there as it finishes, and a job whose file is already there
 * is read instead of run: an interrupted experiment resumes where it stopped.
 */
export async function runJobs(experiment, jobs, { quick = false, text = DEFAULT_TEXT, threads = 2, quiet = false,
  jobsDir, study = [] } = {}) {
  if (!jobs.length) return [];
  const dir = jobsDir ?? join(tmpdir(), `gatelab-${experiment}-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const list = join(dir, `jobs-${process.pid}-${Date.now()}.txt`);
  const file = (j) => (jobsDir ? ` ${join(jobsDir, jobFile(experiment, j))}` : '');
  writeFileSync(list, jobs.map((j) => `${j.variant} ${j.phase} ${j.seed} ${j.lr}${file(j)}`).join('\n') + '\n');
  return runNative('lm-jobs', ['--experiment', experiment, ...flags(quick, study), '--text', text,
    '--jobs', list, '--threads', String(threads)], { quiet });
}

/** Every job result in dir (the files jobCommands' commands wrote); `file` names each, not enumerable. */
export function readJobs(dir, experiment) {
  return readdirSync(dir).filter((f) => f.startsWith(`${experiment}-`) && f.endsWith('.json') && f !== 'table.json')
    .map((f) => Object.defineProperty(JSON.parse(readFileSync(join(dir, f), 'utf8')), 'file', { value: f }));
}

/** The study flags the jobs record (all the same, else an error; jobs from before they did: none). */
export function studyOfJobs(jobs, dir) {
  const studies = new Set(jobs.map((j) => JSON.stringify(j.args ?? [])));
  if (studies.size > 1) {
    throw new UsageError(`${dir} holds jobs of different studies (${[...studies].join(' and ')}): merge them apart`);
  }
  return studies.size ? JSON.parse([...studies][0]) : [];
}

/** Refuses jobs whose recorded settings are not the table's (other flags, or --quick missing). */
export function checkJobs(table, jobs) {
  for (const j of jobs.filter((x) => x.settings)) {
    const keys = Object.keys({ ...table.settings, ...j.settings })
      .filter((k) => JSON.stringify(j.settings[k]) !== JSON.stringify(table.settings[k]));
    if (keys.length) {
      const show = (v) => JSON.stringify(v);
      const differences = keys.map((k) => `${k} ${show(j.settings[k])}, not ${show(table.settings[k])}`);
      throw new UsageError(`${j.file ?? `${j.variant} ${j.phase} seed ${j.seed}`} ran with other settings `
        + `(${differences.join('; ')}): give the flags it was planned with`);
    }
  }
  return jobs;
}

/** Where a full run keeps its jobs: one folder per experiment, and per study when flags change it. */
export function defaultJobsDir(experiment, study = []) {
  const tag = study.length ? `-${createHash('sha256').update(study.join(' ')).digest('hex').slice(0, 8)}` : '';
  return `${DEFAULT_OUT}${experiment}${tag}-jobs/`;
}

/**
 * The merged results the reports read: the table, the sweep, the chosen rates and the main and
 * long jobs, each list in a canonical order so the same jobs give the same merge however they
 * were run. Timings are kept apart: they differ from run to run.
 */
export function mergeResults(table, jobs) {
  const order = (a, b) => a.phase.localeCompare(b.phase) || a.variant.localeCompare(b.variant) || a.seed - b.seed
    || a.lr - b.lr;
  const strip = ({ timing: _timing, settings: _settings, args: _args, ...rest }) => rest;  // the table has them
  const sorted = [...jobs].sort(order);
  const sweep = sorted.filter((j) => j.phase === 'sweep').map(strip);
  const rates = chooseRates(table, sweep);
  const main = sorted.filter((j) => j.phase !== 'sweep').map(strip)
    .filter((j) => sameRate(j.lr, rates.get(j.variant)?.lr ?? NaN));
  const seconds = jobs.reduce((sum, j) => sum + (j.timing?.seconds ?? 0), 0);
  return { settings: table.settings, variants: table.variants, rates: Object.fromEntries(rates), sweep, main,
    timing: { jobSeconds: seconds, jobs: jobs.length } };
}

/**
 * The job folder of a resumable run: it holds the variant table it was started with, and a run
 * with another table (changed code or settings) refuses it rather than mixing results.
 */
export function claimJobsDir(dir, table, text) {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'table.json');
  const wanted = `${JSON.stringify({ ...table, text: { path: text, bytes: statSync(text).size } }, null, 1)}\n`;
  if (existsSync(path) && readFileSync(path, 'utf8') !== wanted) {
    throw new Error(`${dir} holds jobs of another variant table (other code or settings): remove it to start over`);
  }
  writeFileSync(path, wanted);
}

/**
 * The whole experiment on this machine: sweep, choice of rates, main and long jobs, merge. With
 * jobsDir the jobs are kept there and a second call resumes.
 */
export async function runExperiment(experiment, { quick = false, text = DEFAULT_TEXT, threads = 2, quiet = false,
  jobsDir, study = [] } = {}) {
  const table = await variantTable(experiment, { quick, study });
  if (jobsDir) claimJobsDir(jobsDir, table, text);
  const started = Date.now();
  const options = { quick, text, threads, quiet, jobsDir, study };
  const sweep = await runJobs(experiment, sweepJobs(table), options);
  const main = await runJobs(experiment, mainJobs(table, chooseRates(table, sweep)), options);
  const merged = mergeResults(table, [...sweep, ...main]);
  merged.timing.wallSeconds = (Date.now() - started) / 1000;
  merged.timing.threads = threads;
  return merged;
}
