// `npm run bench -- --browser` in headless Chromium, on tiny sizes (--quick): the page loads
// GateLab's C++ benchmarks as browser modules, TF.js (wasm, cpu) and ONNX Runtime Web from
// node_modules and GateLab's JS API, and every row of the table arrives with a positive
// value. No timing is asserted: a benchmark is a command, not a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { expectedQuickRows, missingRows } from '../../bench/expected.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('node bench/run.mjs --quick --browser produces every row in Chromium', { timeout: 10 * 60 * 1000 }, () => {
  const run = spawnSync(process.execPath, ['bench/run.mjs', '--quick', '--browser', '--json'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 10 * 60 * 1000 });
  assert.equal(run.status, 0, run.stderr);
  const failures = run.stderr.split('\n').filter((line) => /failed|unavailable|page error|no usable JSON/.test(line));
  assert.deepEqual(failures, [], 'no source or section failed');
  const { rows, machine } = JSON.parse(run.stdout);
  assert.match(machine.browser, /HeadlessChrome|Chrome/);
  const { missing, bad } = missingRows(rows, expectedQuickRows({ browser: true }));
  assert.deepEqual(missing, [], 'every expected row is present');
  assert.deepEqual(bad, [], 'every value is a positive finite number');
});

test('--only lm --browser runs the LM rows alone in Chromium and ends with the lm line',
  { timeout: 10 * 60 * 1000 }, () => {
  const run = spawnSync(process.execPath, ['bench/run.mjs', '--quick', '--browser', '--only', 'lm'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 10 * 60 * 1000 });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.stderr.split('\n').filter((line) => /failed|unavailable|page error|warning/.test(line)), []);
  const lines = run.stdout.trimEnd().split('\n');
  assert.match(lines.at(-1), /^lm: GateLab \d+(\.\d)? steps\/s, TF\.js-wasm \d+(\.\d)? steps\/s, ratio \d+\.\d\d$/);
  assert.match(run.stdout, /^lm_train_step core\s/m);
  assert.doesNotMatch(run.stdout, /matmul_nn|size_wasm/);
});
