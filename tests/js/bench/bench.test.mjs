// `npm run bench` is a command, never a timed test: this only checks that the whole benchmark
// pipeline runs on tiny sizes (node bench/run.mjs --quick) and produces every row of every
// source — GateLab native and wasm, TF.js wasm and cpu, ONNX Runtime Web, the JS API's training
// and frame rows, sizes — with a positive finite value. No timing is asserted. Kernels agree
// with their references in the C++ tests; the TF.js and ORT products are checked against a
// reference by the suite itself before they are timed (a disagreement drops the row).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { expectedQuickRows, missingRows } from '../../../bench/expected.mjs';
import { formatTable } from '../../../bench/table.mjs';
import { nativeCeiling } from '../../../bench/peak.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));

const run = spawnSync(process.execPath, ['bench/run.mjs', '--quick', '--json'],
  { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 10 * 60 * 1000 });

test('node bench/run.mjs --quick runs every source without failures', () => {
  assert.equal(run.status, 0, run.stderr);
  const failures = run.stderr.split('\n').filter((line) => /failed|unavailable/.test(line));
  assert.deepEqual(failures, [], 'no source or section failed');
});

test('it produces every row with a positive finite value', () => {
  const { rows, machine } = JSON.parse(run.stdout);
  const { missing, bad } = missingRows(rows, expectedQuickRows());
  assert.deepEqual(missing, [], 'every expected row is present');
  assert.deepEqual(bad, [], 'every value is a positive finite number');
  assert.ok(machine.cpu && machine.cores >= 1);
});

test('the rows make one table with ratios to every peer, and the targets are evaluated', () => {
  const { rows, columns, peak, targets } = JSON.parse(run.stdout);
  const table = formatTable(columns, rows, peak);
  const header = ['op', 'shape', 'unit', 'native', 'wasm', 'wasm %pk', 'tfjs-wasm', 'ort-wasm', 'tfjs-cpu',
    '× tfjs-wasm', '× ort-wasm', '× tfjs-cpu'];
  assert.match(table, new RegExp(`^${header.join(String.raw`\s+`)}$`, 'm'));
  assert.match(table, /^matmul_nn\s+64x64x64\s+GFLOP\/s(\s+[\d.]+){7}×/m);
  assert.ok(targets.length >= 9 && targets.every((t) => typeof t.name === 'string' && 'met' in t));
});

// The native ceiling is bench_peak's widest native mul + add row: f32x8 with AVX2, f32x16 with
// AVX-512, f32x4 on a machine without AVX (the same width the native products then use).
test('native GFLOP/s are shown as a share of the measured native ceiling, at the native width', () => {
  const { rows, columns, peak } = JSON.parse(run.stdout);
  const ceiling = nativeCeiling(rows);
  assert.ok(ceiling, 'bench_peak measured natively');
  const widths = rows.filter((r) => r.column === 'native' && /^peak_f32x\d+_mul\+add$/.test(r.op))
    .map((r) => Number(/x(\d+)_/.exec(r.op)[1]));
  assert.equal(ceiling.op, `peak_f32x${Math.max(...widths)}_mul+add`);
  const table = formatTable(columns, rows, peak, ceiling);
  assert.match(table, /^op\s+shape\s+unit\s+native\s+native %ceil\s+wasm\s+wasm %pk/m);
  const native = rows.find((r) => r.column === 'native' && r.op === 'matmul_nn' && r.shape === '64x64x64').value;
  const cells = new RegExp('^matmul_nn\\s+64x64x64\\s+GFLOP/s\\s+([\\d.]+)\\s+([\\d.]+)', 'm').exec(table);
  assert.ok(cells, table);
  const share = (100 * native) / ceiling.gflops;
  assert.ok(Math.abs(Number(cells[2]) - share) <= 0.06 * share + 0.06, `${cells[2]} vs ${share}`);
});
