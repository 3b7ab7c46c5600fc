// The API fuzzer with a fixed seed (issue #7). `npm run fuzz -- --calls 200000 --seed N` runs longer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab } from '../../../web/lib/gatelab.js';
import { fuzzApi } from '../../fuzz/fuzz-api.mjs';

test('10000 random API calls: only GateLabErrors, no abort, no leak, bounded heap', async () => {
  const lab = await loadGateLab();
  const baseline = lab.liveObjects();
  const stats = await fuzzApi(lab, { seed: 20261129, calls: 10000 });
  assert.deepEqual(stats.failures.slice(0, 5), [], `${stats.failures.length} calls failed otherwise than with GateLabError`);
  assert.ok(stats.refused > 1000, 'the fuzzer reached the validation paths');
  assert.ok(stats.calls - stats.refused > 100, 'and made valid calls too');
  assert.equal(lab.liveObjects(), baseline);
  assert.ok(lab.heapBytes() <= 512 * 2 ** 20, `heap ${lab.heapBytes()} bytes`);
  // Still usable: a known computation gives its known answer.
  const plane = lab.symmetry.exchangePlane('relu', { min: -1, max: 1, n: 3 });
  assert.deepEqual([...plane].map((v) => v + 0), [0, 0, 1, 0, 0, 0, -1, 0, 0]);
});
