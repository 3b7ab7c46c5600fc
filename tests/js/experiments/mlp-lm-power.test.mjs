// The power calculation of issue #23's protocol (scripts/experiments/mlp-lm-power.mjs): the
// two-stage O'Brien–Fleming design keeps the overall two-sided error near 0.05 (the split 0.0054 +
// 0.0492 checked by simulation), power grows with the gap and the seeds, and the protocol quotes the
// script's table as it prints it from the committed run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { detectableGap, powerReport, powerTable, sequentialChances } from
  '../../../scripts/experiments/mlp-lm-power.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const { stats } = await loadGateLab();

test('the two looks spend α = 0.05 between them, and no more', () => {
  const zero = sequentialChances(stats, 0, 0.01, { runs: 40000, seed: 3 });
  assert.ok(zero.atLook > 0.003 && zero.atLook < 0.009, `look ${zero.atLook}`);
  assert.ok(zero.byEnd > 0.043 && zero.byEnd < 0.058, `overall ${zero.byEnd}`);
  const big = sequentialChances(stats, 0.02, 0.01, { runs: 4000, seed: 3 });
  assert.ok(big.atLook > zero.atLook && big.byEnd > 0.99);
});

test('the detectable gap shrinks with seeds and grows with the SD', () => {
  const look = detectableGap(stats, 12, 0.015, 0.0054);
  const end = detectableGap(stats, 24, 0.015, 0.0492);
  assert.ok(end < look / 1.8, `${end} against ${look}`);
  assert.ok(detectableGap(stats, 24, 0.03, 0.0492) > 1.9 * end);
});

test('the protocol quotes the power table as the script prints it from the committed run', () => {
  const run = JSON.parse(readFileSync(new URL('../../../docs/experiments/mlp-lm.json', import.meta.url), 'utf8'));
  const protocol = readFileSync(new URL('../../../docs/PAPER_A_LM_PROTOCOL.md', import.meta.url), 'utf8');
  assert.ok(protocol.includes(powerReport(powerTable(stats, run))), 'run npm run experiment -- mlp-lm-power');
});
