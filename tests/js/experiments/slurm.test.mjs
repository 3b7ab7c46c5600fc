// scripts/slurm/job-array.sh, the Slurm array script the width pilot's plan uses (docs/PAPER_A_LM_STUDY.md):
// task N runs line N of the job list, skips a job whose output exists (a resubmitted array resumes)
// and refuses a task beyond the list. Run with bash as Slurm would, without a cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = new URL('../../../scripts/slurm/job-array.sh', import.meta.url).pathname;

test('one job per array task, resumable, refusing a task past the list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatelab-slurm-'));
  try {
    const list = join(dir, 'jobs.txt');
    writeFileSync(list, `echo one > ${join(dir, 'one.json')}\necho two > ${join(dir, 'two.json')}\n`);
    const task = (n) => spawnSync('bash', [SCRIPT, list], { env: { ...process.env, SLURM_ARRAY_TASK_ID: String(n) },
      encoding: 'utf8' });
    assert.equal(task(2).status, 0);
    assert.equal(readFileSync(join(dir, 'two.json'), 'utf8'), 'two\n');
    assert.equal(existsSync(join(dir, 'one.json')), false, 'only its own line runs');
    writeFileSync(join(dir, 'two.json'), 'kept');
    const again = task(2);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /exists, skipped/);
    assert.equal(readFileSync(join(dir, 'two.json'), 'utf8'), 'kept');
    assert.equal(task(3).status, 2);
    const outside = spawnSync('bash', [SCRIPT, list], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
    assert.notEqual(outside.status, 0);
    assert.match(outside.stderr, /Slurm array task/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
