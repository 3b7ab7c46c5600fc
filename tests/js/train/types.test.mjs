// train.d.ts (exported from gatelab.d.ts) is checked with tsc over a usage file (must compile)
// and a misuse file (must fail on each marked line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { misuseErrors, tsc } from '../package/tsc-check.mjs';

test('datasets, trainers and the race type-check as a user writes them', () => {
  const r = tsc(['-p', 'tests/types/tsconfig.train.json']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('their misuse is rejected by the types', () => {
  const r = misuseErrors('tests/types/train-misuse.ts');
  assert.notEqual(r.status, 0);
  assert.deepEqual(r.lines, [6, 7, 8, 9, 10, 11, 13, 14, 15, 18, 19, 21, 22, 23, 24], r.stdout);
});
