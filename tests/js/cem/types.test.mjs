// The hand-written cem.d.ts (exported from gatelab.d.ts) is checked with tsc over a usage file
// (must compile) and a misuse file (must fail on each marked line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { misuseErrors, tsc } from '../package/tsc-check.mjs';

test('the lab.cem usage file type-checks against gatelab.d.ts', () => {
  const r = tsc(['-p', 'tests/types/tsconfig.cem.json']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('lab.cem misuse is rejected by the types', () => {
  const r = misuseErrors('tests/types/cem-misuse.ts');
  assert.notEqual(r.status, 0);
  assert.deepEqual(r.lines, [6, 7, 8, 10, 11, 12], r.stdout);
});
