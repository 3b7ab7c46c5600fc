// Every error path of the contract throws GateLabError naming the argument, and the module
// stays usable afterwards; create/dispose cycles leak neither handles nor heap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const good = { kind: 'gated', activation: 'silu', dIn: 4, hidden: 8, dOut: 3, rank: 1, seed: 7 };

function throwsNamed(fn, pattern) {
  assert.throws(fn, (e) => e instanceof GateLabError && e instanceof Error && e.name === 'GateLabError' && pattern.test(e.message),
    `expected GateLabError matching ${pattern}`);
}

test('createLayer refuses bad options with a message naming the option', () => {
  throwsNamed(() => lab.createLayer(), /kind/);
  throwsNamed(() => lab.createLayer(null), /options/);
  throwsNamed(() => lab.createLayer({ ...good, kind: 'attention' }), /kind must be one of 'mlp', 'symmetric', 'gated'/);
  throwsNamed(() => lab.createLayer({ ...good, activation: 'sin' }), /activation must be one of/);
  throwsNamed(() => lab.createLayer({ ...good, activation: 7 }), /activation/);
  for (const field of ['dIn', 'hidden', 'dOut']) {
    for (const bad of [0, -1, 2.5, NaN, Infinity, '4', null]) {
      throwsNamed(() => lab.createLayer({ ...good, [field]: bad }), new RegExp(field));
    }
    throwsNamed(() => lab.createLayer({ ...good, [field]: lab.limits.maxLayerDim + 1 }), new RegExp(field));
  }
  throwsNamed(() => lab.createLayer({ ...good, rank: 5 }), /rank must be an integer from 1 to dIn = 4/);
  throwsNamed(() => lab.createLayer({ ...good, rank: 0 }), /rank/);
  throwsNamed(() => lab.createLayer({ ...good, seed: -1 }), /seed/);
  throwsNamed(() => lab.createLayer({ ...good, seed: 1.5 }), /seed/);
  throwsNamed(() => lab.createLayer({ ...good, activation: 'swish', beta: NaN }), /beta/);
  throwsNamed(() => lab.createLayer({ ...good, activation: 'swish', beta: 1e6 }), /beta/);
  throwsNamed(() => lab.createLayer({ ...good, dIn: 4096, hidden: 4096, rank: 4 }), /parameters; the cap is/);
  assert.equal(lab.liveObjects(), 0);
});

test('forward refuses wrong arrays, lengths, non-finite values and bad row counts', () => {
  const layer = lab.createLayer(good);
  const x = new Float32Array(8);
  throwsNamed(() => layer.forward([0, 0, 0, 0], 1), /x must be a Float32Array of rows·dIn = 4 numbers \(got an Array/);
  throwsNamed(() => layer.forward(new Float64Array(8), 2), /Float32Array/);
  throwsNamed(() => layer.forward(x, 3), /rows·dIn = 12/);
  throwsNamed(() => layer.forward(x, 0), /rows must be an integer/);
  throwsNamed(() => layer.forward(x, 1.5), /rows/);
  throwsNamed(() => layer.forward(x, 1e9), /rows/);
  throwsNamed(() => layer.forward(Float32Array.of(0, 0, NaN, 0), 1), /x\[2\] is NaN/);
  throwsNamed(() => layer.forward(Float32Array.of(0, Infinity, 0, 0), 1), /x\[1\] is Infinity/);
  throwsNamed(() => layer.setParams({ Q: new Float32Array(3) }), /params.Q/);
  throwsNamed(() => layer.setParams(null), /params/);
  throwsNamed(() => layer.rescaled(0), /alpha must be a finite non-zero number/);
  throwsNamed(() => layer.rescaled(NaN), /alpha/);
  assert.equal(layer.forward(x, 2).length, 6, 'still usable');
  layer.dispose();
});

test('a disposed layer refuses every call; dispose twice is harmless', () => {
  const layer = lab.createLayer(good);
  layer.dispose();
  layer.dispose();
  throwsNamed(() => layer.forward(new Float32Array(4), 1), /disposed/);
  throwsNamed(() => layer.getParams(), /disposed/);
  throwsNamed(() => layer.exchanged(), /disposed/);
  throwsNamed(() => lab.symmetry.exchangeGap(layer, new Float32Array(4), 1), /disposed/);
  assert.equal(lab.liveObjects(), 0);
});

test('symmetry probes refuse bad input', () => {
  const gated = lab.createLayer(good);
  const mlp = lab.createLayer({ ...good, kind: 'mlp' });
  const x = new Float32Array(8).fill(0.5);
  throwsNamed(() => lab.symmetry.exchangeGap({}, x, 2), /layer must be a layer made by lab.createLayer/);
  throwsNamed(() => lab.symmetry.exchangeGap(mlp, x, 2), /mlp/);
  throwsNamed(() => lab.symmetry.scalingGap(gated, x, 2, 0), /alpha/);
  throwsNamed(() => lab.symmetry.scalingGap(gated, x, 2, new Float32Array(3)), /alpha must be a Float32Array of hidden = 8/);
  throwsNamed(() => lab.symmetry.exchangePlane('nope'), /activation/);
  throwsNamed(() => lab.symmetry.exchangePlane('silu', { n: 1 }), /options.n/);
  throwsNamed(() => lab.symmetry.exchangePlane('silu', { n: 1e6 }), /options.n/);
  throwsNamed(() => lab.symmetry.exchangePlane('silu', { min: 2, max: 1 }), /options.min/);
  throwsNamed(() => lab.symmetry.exchangePlane('silu', { min: NaN }), /options.min/);
  assert.ok(lab.symmetry.exchangeGap(gated, x, 2) > 0, 'still usable');
  gated.dispose();
  mlp.dispose();
});

test('loadGateLab refuses a bad wasmUrl type', async () => {
  await assert.rejects(loadGateLab({ wasmUrl: 42 }), GateLabError);
});

test('1000 create/dispose cycles leave liveObjects and the heap where they were', () => {
  const x = new Float32Array(16 * 4).fill(0.25);
  const warm = lab.createLayer(good);
  warm.forward(x, 16);
  warm.dispose();
  const startLive = lab.liveObjects();
  const startHeap = lab.heapBytes();
  for (let i = 0; i < 1000; i++) {
    const layer = lab.createLayer({ ...good, seed: i });
    const swapped = layer.exchanged();
    layer.forward(x, 16);
    lab.symmetry.exchangeGap(layer, x, 16);
    try { layer.forward(x, 3); } catch { /* error path must not leak either */ }
    swapped.dispose();
    layer.dispose();
  }
  assert.equal(lab.liveObjects(), startLive);
  assert.equal(lab.module.liveLayerCount(), 0, 'no C++ layer left behind');
  assert.equal(lab.heapBytes(), startHeap, 'the wasm heap did not grow');
});
