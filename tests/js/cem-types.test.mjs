// The hand-written cem.d.ts (merged into gatelab.d.ts) is checked with tsc over a usage file
// (must compile) and a misuse file (must fail on each marked line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = (args) => spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', ...args], { cwd: root, encoding: 'utf8' });

test('the lab.cem usage file type-checks against gatelab.d.ts', () => {
  const r = tsc(['-p', 'tests/types/tsconfig.cem.json']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('lab.cem misuse is rejected by the types', () => {
  const r = tsc(['--noEmit', '--strict', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext',
    'tests/types/cem-misuse.ts']);
  assert.notEqual(r.status, 0);
  const errors = r.stdout.split('\n').filter((l) => l.includes('cem-misuse.ts('));
  assert.deepEqual(errors.map((l) => Number(/cem-misuse\.ts\((\d+)/.exec(l)[1])), [6, 7, 8, 10, 11], r.stdout);
});
