// `npm run bench -- --only lm` (here on tiny sizes, --quick): only the language-model rows —
// GateLab's lab.lm step against the same model in TF.js-wasm (which the suite first checks is
// the same model: equal parameter counts and validation loss from the same weights), and
// bench_lm natively and in wasm — and the closing line in its fixed form. No timing is asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const run = (args) => spawnSync(process.execPath, ['bench/run.mjs', '--quick', '--only', 'lm', ...args],
  { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 5 * 60 * 1000 });

test('--only lm runs the LM rows alone and ends with the lm line', () => {
  const r = run([]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stderr.split('\n').filter((line) => /failed|unavailable|warning/.test(line)), []);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines.at(-1), /^lm: GateLab \d+(\.\d)? steps\/s, TF\.js-wasm \d+(\.\d)? steps\/s, ratio \d+\.\d\d$/);
  assert.match(r.stdout, /^lm_train_step core\s+d16 L2 h2 C8 B2 m16, (\d+) params\s+steps\/s\s+[\d.]+\s+[\d.]+/m);
  assert.match(r.stdout,
    /^lm_train_step\s+d16 L2 h2 C8 B2 m16, (\d+) params\s+steps\/s\s+—\s+[\d.]+\s+[\d.]+\s+[\d.]+×$/m);
  assert.doesNotMatch(r.stdout, /matmul_nn|train_mlp|size_wasm/);
  assert.match(r.stdout, /LM training step ≥ 3× TF\.js-wasm/);
  // The core step natively against wasm: the ratio line and the target, computed from the rows.
  const core = new RegExp(String.raw`^lm core step \(d16 L2 h2 C8 B2 m16, \d+ params\): `
    + String.raw`native ([\d.]+) steps\/s, wasm ([\d.]+) steps\/s, native ([\d.]+)× wasm$`, 'm')
    .exec(r.stdout);
  assert.ok(core, r.stdout);
  assert.ok(Math.abs(Number(core[3]) - Number(core[1]) / Number(core[2])) < 0.01 * Number(core[3]) + 0.01);
  assert.match(r.stdout, /native LM step ≥ 3× the wasm core step/);
});

test('the JSON of an --only lm run has both columns of the step with one parameter count', () => {
  const r = run(['--json']);
  assert.equal(r.status, 0, r.stderr);
  const { rows, only } = JSON.parse(r.stdout);
  assert.equal(only, 'lm');
  const step = rows.filter((row) => row.op === 'lm_train_step');
  assert.deepEqual(step.map((row) => row.column).sort(), ['tfjs-wasm', 'wasm']);
  assert.equal(new Set(step.map((row) => row.shape)).size, 1, 'GateLab and TF.js: the same shape and parameter count');
  const core = rows.filter((row) => row.op === 'lm_train_step core');
  assert.deepEqual(core.map((row) => row.column).sort(), ['native', 'wasm']);
  assert.equal(core[0].shape, step[0].shape, 'bench_lm builds the same model');
  for (const row of rows) assert.ok(row.value > 0 && Number.isFinite(row.value), `${row.column} ${row.op}`);
});
