// The language-model harness as a command line (scripts/experiments/lm-study.mjs, lm-cli.mjs,
// lm-jobs.mjs and the native runner's study flags): with no new flag the plans are today's
// command for command (golden/: written by the code before the flags existed) and merging the
// committed run's jobs gives the committed JSON; every study flag reaches the jobs, whose JSON
// records the settings and flags; --variants selects, per-variant rates reach the sweep plan,
// --sweep-seeds multiplies the sweep; plan → run → merge reads the flags from the job files; and
// a mistake exits with 2 naming the flag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parseLmOptions } from '../../../scripts/experiments/lm-cli.mjs';
import { DEFAULT_TEXT, readJobs } from '../../../scripts/experiments/lm-jobs.mjs';
import { runMlpLm } from '../../../scripts/experiments/mlp-lm.mjs';
import { ROOT, runnerPath } from '../../../scripts/experiments/native.mjs';
import { runTinyLm } from '../../../scripts/experiments/tiny-lm.mjs';

const out = mkdtempSync(join(tmpdir(), 'gatelab-lm-study-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));
const golden = (name) => readFileSync(new URL(`golden/${name}`, import.meta.url), 'utf8').trimEnd().split('\n');
const committed = (name) => JSON.parse(readFileSync(join(ROOT, 'docs/experiments', name), 'utf8'));
// The plan as the golden files write it: the runner, the text and the jobs folder by name.
const normalised = (commands, dir) => commands.map((c) => c.replaceAll(runnerPath(), 'RUNNER')
  .replaceAll(DEFAULT_TEXT, 'TEXT').replaceAll(dir, 'JOBS'));

/** A folder of job files made from a written run (its sweep and main lists), as the jobs wrote them. */
function jobsOf(run, experiment) {
  const dir = mkdtempSync(join(out, `${experiment}-jobs-`));
  for (const j of [...run.sweep, ...run.main]) {
    writeFileSync(join(dir, `${experiment}-${j.phase}-${j.variant}-s${j.seed}-lr${j.lr}.json`), JSON.stringify(j));
  }
  return dir;
}

const runAll = (commands) => {
  for (const command of commands) {
    const [binary, ...args] = command.split(' ');
    execFileSync(binary, args, { stdio: 'ignore' });
  }
};

test('no new flag: the plans are today\'s, command for command', async () => {
  const dir = join(out, 'plan-jobs');
  const plan = async (run, argv) => normalised((await run([...argv, '--jobs-dir', dir], { quiet: true })).commands,
    dir);
  assert.deepEqual(await plan(runMlpLm, ['--plan', 'sweep']), golden('mlp-lm-plan-sweep.txt'));
  assert.deepEqual(await plan(runMlpLm, ['--quick', '--plan', 'sweep']), golden('mlp-lm-plan-sweep-quick.txt'));
  assert.deepEqual(await plan(runTinyLm, ['--plan', 'sweep']), golden('tiny-lm-plan-sweep.txt'));
  const jobs = jobsOf(committed('mlp-lm.json'), 'mlp-lm');
  const main = await runMlpLm(['--plan', 'main', '--jobs-dir', jobs], { quiet: true });
  assert.deepEqual(normalised(main.commands, jobs), golden('mlp-lm-plan-main.txt'),
    'the main plan from the committed sweep');
});

test('no new flag: merging the committed runs\' jobs gives the committed JSON (but for the job timings)', async () => {
  const run = committed('mlp-lm.json');
  const merged = await runMlpLm(['--merge', jobsOf(run, 'mlp-lm')], { quiet: true, writeFiles: false });
  const { timing, ...rest } = run;
  assert.deepEqual({ ...merged.results, timing: undefined, analysis: merged.analysis }, { ...rest, timing: undefined });
  assert.equal(merged.results.timing.jobs, timing.jobs);
  const tiny = committed('tiny-lm.json');
  const again = await runTinyLm(['--merge', jobsOf(tiny, 'tiny-lm')], { quiet: true, writeFiles: false });
  for (const key of ['settings', 'variants', 'rates', 'sweep', 'main']) {
    assert.deepEqual(again.results[key], tiny[key], key);
  }
});

test('every study flag reaches the jobs, whose JSON records the settings and the flags', async () => {
  const dir = join(out, 'study');
  const study = ['--d', '24', '--layers', '2', '--heads', '3', '--context', '8', '--batch', '2', '--steps', '20',
    '--seeds', '3', '--sweep-seeds', '2', '--variants', 'swiglu,ffn-gelu,symgated-silu', '--rates', '0.002,0.004',
    '--rates', 'swiglu=0.001,0.002,0.004'];
  const { results } = await runMlpLm(['--quick', ...study, '--resume', dir], { quiet: true, writeFiles: false });
  const s = results.settings;
  assert.deepEqual([s.d, s.layers, s.heads, s.context, s.batch, s.steps, s.sweepSteps, s.longSteps, s.seeds,
    s.sweepSeeds], [24, 2, 3, 8, 2, 20, 20, 40, 3, 2]);
  assert.equal(s.budget, 3 * 24 * 24, 'the quick budget 3d² at the new d (§A20)');
  assert.deepEqual(results.variants.map((v) => v.name), ['ffn-gelu', 'swiglu', 'symgated-silu'], 'the table\'s order');
  assert.ok(results.variants.every((v) => v.mlpParameters === s.budget), 'one MLP budget');
  assert.deepEqual(results.variants.map((v) => v.learningRates),
    [[0.002, 0.004], [0.001, 0.002, 0.004], [0.002, 0.004]]);
  const jobs = readJobs(dir, 'mlp-lm');
  assert.equal(jobs.filter((j) => j.phase === 'sweep').length, (2 + 3 + 2) * 2, 'rates × 2 sweep seeds');
  assert.equal(jobs.filter((j) => j.phase === 'main').length, 3 * 3);
  assert.equal(jobs.filter((j) => j.phase === 'long').length, 2 * 3, 'the long pair, both selected');
  for (const j of jobs) {
    assert.deepEqual(j.settings, s, `${j.file}: the settings travel with the job`);
    assert.deepEqual(j.args, study, j.file);
    assert.equal(j.steps, j.phase === 'long' ? 40 : 20);
    const V = j.corpus.vocabulary;
    // W_in, W_out, the final norm, and per block attention (4d²), two norms and the MLP at the budget.
    assert.equal(j.parameters, 2 * V * 24 + 24 + 2 * (4 * 24 * 24 + 2 * 24 + s.budget),
      `${j.file}: parameters follow d`);
  }
  assert.deepEqual([...new Set(jobs.filter((j) => j.phase === 'sweep').map((j) => j.seed))].sort(), [101, 102]);
  for (const v of results.variants) {
    const r = results.rates[v.name];
    assert.deepEqual(r.tried.map((t) => t.lr), v.learningRates);
    for (const t of r.tried) {
      assert.equal(t.devLosses.length, 2);
      assert.equal(t.devLoss, (t.devLosses[0] + t.devLosses[1]) / 2, 'the mean over the sweep seeds');
    }
  }
});

test('per-variant rates reach the sweep plan; sweep seeds multiply it; the flags travel in each command', async () => {
  const dir = join(out, 'plan-rates');
  const argv = ['--quick', '--variants', 'swiglu,reglu-gauge', '--rates', 'swiglu=0.001,0.003,0.009,0.027',
    '--plan', 'sweep', '--jobs-dir', dir];
  const one = (await runMlpLm(argv, { quiet: true })).commands;
  assert.equal(one.length, 4 + 3);
  assert.deepEqual(one.filter((c) => c.includes('--variant swiglu ')).map((c) => c.match(/--lr (\S+)/)[1]),
    ['0.001', '0.003', '0.009', '0.027']);
  const flags = ' --quick --variants swiglu,reglu-gauge --rates swiglu=0.001,0.003,0.009,0.027 --text ';
  assert.ok(one.every((c) => c.includes(flags)));
  const three = (await runMlpLm([...argv, '--sweep-seeds', '3'], { quiet: true })).commands;
  assert.equal(three.length, 3 * one.length);
  assert.deepEqual([...new Set(three.map((c) => c.match(/--seed (\d+)/)[1]))], ['101', '102', '103']);
});

test('plan → one process per job → merge reads the study from the job files and equals one run', async () => {
  const dir = join(out, 'plan-merge');
  mkdirSync(dir);
  const study = ['--quick', '--d', '8', '--heads', '2', '--context', '8', '--steps', '12', '--variants',
    'swiglu,symgated-silu', '--rates', '0.004,0.008'];
  runAll((await runMlpLm([...study, '--plan', 'sweep', '--jobs-dir', dir], { quiet: true })).commands);
  await assert.rejects(runMlpLm(['--quick', '--plan', 'main', '--jobs-dir', dir], { quiet: true }),
    (e) => e.exitCode === 2 && /ran with other settings \(d 8, not 16/.test(e.message), 'planned without the flags');
  runAll((await runMlpLm([...study, '--plan', 'main', '--jobs-dir', dir], { quiet: true })).commands);
  const merged = await runMlpLm(['--quick', '--merge', dir], { quiet: true, writeFiles: false });
  const single = await runMlpLm(study, { quiet: true, writeFiles: false });
  assert.equal(merged.results.settings.d, 8);
  assert.deepEqual(merged.analysis, single.analysis);
  assert.deepEqual(merged.results.main, single.results.main);
  assert.equal(merged.markdown, single.markdown);
  await assert.rejects(runMlpLm(['--quick', '--d', '16', '--heads', '2', '--merge', dir],
    { quiet: true, writeFiles: false }), /ran with other settings/);
});

test('tiny-lm: the step size and a subset are flags (the rerun of T = 1 and T = 2 at another η)', async () => {
  const { results, analysis, markdown } = await runTinyLm(['--quick', '--eta', '0.0625', '--variants',
    'cem-t1-d16,cem-t2-d16', '--steps', '20'], { quiet: true, writeFiles: false });
  assert.equal(results.settings.eta, 0.0625);
  assert.deepEqual(results.variants.map((v) => v.name), ['cem-t1-d16', 'cem-t2-d16']);
  assert.ok(results.main.every((j) => j.steps === 20));
  assert.match(markdown, /η = 0\.0625/);
  assert.deepEqual(analysis.claims.map((c) => c.a), ['cem-t2-d16'], 'the one comparison both variants make');
  assert.equal(analysis.claims[0].holm, analysis.claims[0].diff.p, 'a family of one: Holm p = p');
});

test('mistakes exit with 2 and name the flag, before anything runs', () => {
  const cli = (...args) => spawnSync(process.execPath, [join(ROOT, 'scripts/experiment.mjs'), ...args],
    { encoding: 'utf8' });
  for (const [args, message] of [
    [['mlp-lm', '--d', '0'], /--d must be a positive integer/],
    [['mlp-lm', '--depth', '2'], /unknown option '--depth'/],
    [['mlp-lm', '--rates', '0.004,0.002'], /--rates: the grid must increase/],
    [['mlp-lm', '--heads', '5', '--plan', 'sweep', '--jobs-dir', out], /--heads must divide the width/],
    [['mlp-lm', '--variants', 'swiglu,nope', '--plan', 'sweep', '--jobs-dir', out], /--variants: no variant 'nope'/],
    [['mlp-lm', '--eta', '0.125', '--plan', 'sweep', '--jobs-dir', out], /--eta: mlp-lm has no CEM layer/],
    [['tiny-lm', '--d', '32', '--plan', 'sweep', '--jobs-dir', out], /--d: tiny-lm/],
  ]) {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.throws(() => parseLmOptions(['--seeds', '3', '--seeds', '4']), /--seeds is given twice/);
  assert.throws(() => parseLmOptions(['--sweep-seeds', '1.5']),
    (e) => e.exitCode === 2 && /--sweep-seeds/.test(e.message));
  assert.throws(() => parseLmOptions(['--rates', 'swiglu=0.1', '--rates', 'swiglu=0.2']), /swiglu's grid twice/);
  assert.throws(() => parseLmOptions(['--from', 'x.json', '--d', '8']), /--from/);
  assert.deepEqual(parseLmOptions(['--rates=glu=0.0010,0.02', '--d', '032', '--rates', '1e-3,2e-3']).study,
    ['--d', '32', '--rates', '0.001,0.002', '--rates', 'glu=0.001,0.02']);
  const r = spawnSync(runnerPath(), ['lm-variants', '--experiment', 'mlp-lm', '--depth', '2'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option --depth/);
});

test('lm-time times the study\'s variants at its size', () => {
  const r = spawnSync(runnerPath(), ['lm-time', '--experiment', 'mlp-lm', '--quick', '--text', DEFAULT_TEXT, '--d', '8',
    '--heads', '2', '--variants', 'swiglu,ffn-gelu', '--time-steps', '2'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 3, r.stderr);
  assert.match(lines[0], /ms\/step {2}ffn-gelu/);
  assert.match(lines[2], /average over 2 variants/);
});
