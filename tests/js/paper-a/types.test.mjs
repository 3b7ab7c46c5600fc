// The hand-written .d.ts files are checked with tsc over usage files (must compile) and misuse
// files (must fail on each marked line), so the types cannot silently drift from the API:
// the lab.* contract (usage.ts, misuse.ts), and paper A's analyses, the tables of kinds and
// names, lab.stats, error codes and the private side that is not typed (paper-a-*.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { misuseErrors, tsc } from '../package/tsc-check.mjs';

test('the usage file type-checks against gatelab.d.ts', () => {
  const r = tsc(['-p', 'tests/types/tsconfig.json']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('misuse is rejected by the types', () => {
  const r = misuseErrors('tests/types/misuse.ts');
  assert.notEqual(r.status, 0);
  assert.deepEqual(r.lines, [6, 7, 8, 9, 11, 13, 14, 15], r.stdout);
});

test('paper A\'s analyses, labels, stats and error codes type-check as a figure uses them', () => {
  const r = tsc(['-p', 'tests/types/tsconfig.paper-a.json']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('their misuse, and the private members, are rejected by the types', () => {
  const r = misuseErrors('tests/types/paper-a-misuse.ts');
  assert.notEqual(r.status, 0);
  assert.deepEqual(r.lines, [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18], r.stdout);
});
