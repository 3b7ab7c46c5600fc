// The hand-written gp.d.ts (exported from gatelab.d.ts) is checked with tsc over a usage file
// (must compile) and a misuse file (must fail on each marked line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { misuseErrors, tsc } from '../package/tsc-check.mjs';

test('the lab.gp usage file type-checks against gatelab.d.ts', () => {
  const r = tsc(['-p', 'tests/types/tsconfig.gp.json']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('lab.gp misuse is rejected by the types', () => {
  const r = misuseErrors('tests/types/gp-misuse.ts');
  assert.notEqual(r.status, 0);
  assert.deepEqual(r.lines, [6, 7, 8, 10, 11, 12, 13, 14], r.stdout);
});
