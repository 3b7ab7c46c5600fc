// The API fuzzer with a fixed seed. `npm run fuzz -- --calls 200000 --seed N` runs longer.
// It reflects over the public surface, so this also pins that surface: every public function
// is a fuzz target, every handle class's methods are called, and the module's private side
// (raw module, heap, handle tracker, Embind handles) is not reachable from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab } from '../../../web/lib/gatelab.js';
import { fuzzApi, handleMethods, publicTargets, seedHandles } from '../../fuzz/fuzz-api.mjs';

const PUBLIC_FUNCTIONS = [
  'lab.activationInfo', 'lab.activationCurve', 'lab.liveObjects', 'lab.heapBytes',
  'lab.createLayer', 'lab.layerLabel', 'lab.census', 'lab.rankApprox', 'lab.interactions',
  'lab.symmetry.exchangeGap', 'lab.symmetry.scalingGap', 'lab.symmetry.exchangePlane', 'lab.symmetry.ntk',
  'lab.datasets.make', 'lab.createTrainer', 'lab.race', 'lab.stats.summary', 'lab.stats.paired', 'lab.stats.holm',
  'lab.stats.tQuantile', 'lab.stats.bands',
  'lab.cem.createAttention', 'lab.cem.createMlp', 'lab.cem.createStandardAttention', 'lab.cem.createGatedMlp',
  'lab.cem.asStandardAttention', 'lab.cem.asGatedMlp',
  'lab.gp.sample', 'lab.gp.posterior', 'lab.gp.posteriorAt', 'lab.gp.createSession',
  'lab.lm.createCorpus', 'lab.lm.createSession', 'lab.lm.hiddenForBudget',
];

test('the fuzz targets are exactly the public functions; no private member is reachable', async () => {
  const lab = await loadGateLab();
  assert.deepEqual(publicTargets(lab).map((t) => t.path).sort(), [...PUBLIC_FUNCTIONS].sort());
  for (const name of ['module', 'heap', 'tracker', 'activationIndex', 'curveOptions']) {
    assert.equal(name in lab, false, `lab.${name}`);
  }
  for (const wrapper of seedHandles(lab)) {
    const name = wrapper.constructor.name;
    assert.equal('handle' in wrapper, false, `${name}.handle`);
    assert.deepEqual(Object.keys(wrapper), ['options'], name);
    for (let p = wrapper; p; p = Object.getPrototypeOf(p)) assert.deepEqual(Object.getOwnPropertySymbols(p), [], name);
    wrapper.dispose();
  }
  assert.equal(lab.liveObjects(), 0);
});

test('10000 random API calls: only GateLabErrors with a code, no abort, no leak, bounded heap', async () => {
  const lab = await loadGateLab();
  const baseline = lab.liveObjects();
  const stats = await fuzzApi(lab, { seed: 20261129, calls: 10000 });
  assert.deepEqual(stats.failures.slice(0, 5), [],
    `${stats.failures.length} calls failed otherwise than with GateLabError`);
  assert.ok(stats.refused > 1000, 'the fuzzer reached the validation paths');
  assert.ok(stats.calls - stats.refused > 100, 'and made valid calls too');
  const kinds = seedHandles(lab);
  const methods = kinds.flatMap((h) => handleMethods(h).map((name) => `${h.constructor.name}.${name}`));
  kinds.forEach((h) => h.dispose());
  assert.deepEqual(new Set(kinds.map((h) => h.constructor.name)).size, 9, 'every handle class');
  assert.deepEqual(methods.filter((path) => !stats.handleMethods.has(path)), [], 'every handle method was fuzzed');
  assert.equal(lab.liveObjects(), baseline);
  assert.ok(lab.heapBytes() <= 512 * 2 ** 20, `heap ${lab.heapBytes()} bytes`);
  // Still usable: a known computation gives its known answer.
  const plane = lab.symmetry.exchangePlane('relu', { min: -1, max: 1, n: 3 });
  assert.deepEqual([...plane].map((v) => v + 0), [0, 0, 1, 0, 0, 0, -1, 0, 0]);
});
