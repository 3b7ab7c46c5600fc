// Every error path of the lab.* contract throws GateLabError naming the argument, with the code
// of what went wrong (GateLabErrorCode in gatelab.d.ts), and the module stays usable
// afterwards; create/dispose cycles leak neither handles nor heap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';
import { coreOf } from '../../../web/lib/core/context.js';

const lab = await loadGateLab();
const good = { kind: 'gated', activation: 'silu', dIn: 4, hidden: 8, dOut: 3, rank: 1, seed: 7 };

function throwsNamed(fn, pattern, code) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof GateLabError && e instanceof Error && e.name === 'GateLabError',
      `expected GateLabError, got ${e}`);
    assert.match(e.message, pattern);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

test('createLayer refuses bad options with a message naming the option', () => {
  throwsNamed(() => lab.createLayer(), /kind/, 'invalid-type');
  throwsNamed(() => lab.createLayer(null), /options/, 'invalid-type');
  throwsNamed(() => lab.createLayer({ ...good, kind: 'attention' }),
    /kind must be one of 'mlp', 'symmetric', 'gated', 'bigated'/, 'invalid-value');
  throwsNamed(() => lab.createLayer({ ...good, activation: 'sin' }), /activation must be one of/, 'invalid-value');
  throwsNamed(() => lab.createLayer({ ...good, activation: 7 }), /activation/, 'invalid-type');
  const badSizes = [[0, 'out-of-range'], [-1, 'out-of-range'], [2.5, 'invalid-type'], [NaN, 'not-finite'],
    [Infinity, 'not-finite'], ['4', 'invalid-type'], [null, 'invalid-type']];
  for (const field of ['dIn', 'hidden', 'dOut']) {
    for (const [bad, code] of badSizes) {
      throwsNamed(() => lab.createLayer({ ...good, [field]: bad }), new RegExp(field), code);
    }
    throwsNamed(() => lab.createLayer({ ...good, [field]: lab.limits.maxLayerDim + 1 }), new RegExp(field),
      'out-of-range');
  }
  throwsNamed(() => lab.createLayer({ ...good, rank: 5 }), /rank must be an integer from 1 to dIn = 4/, 'out-of-range');
  throwsNamed(() => lab.createLayer({ ...good, rank: 0 }), /rank/, 'out-of-range');
  throwsNamed(() => lab.createLayer({ ...good, seed: -1 }), /seed/, 'out-of-range');
  throwsNamed(() => lab.createLayer({ ...good, seed: 1.5 }), /seed/, 'invalid-type');
  throwsNamed(() => lab.createLayer({ ...good, activation: 'swish', beta: NaN }), /beta/, 'not-finite');
  throwsNamed(() => lab.createLayer({ ...good, activation: 'swish', beta: 1e6 }), /beta/, 'out-of-range');
  throwsNamed(() => lab.createLayer({ ...good, dIn: 4096, hidden: 4096, rank: 4 }), /parameters; the cap is/,
    'out-of-range');
  assert.equal(lab.liveObjects(), 0);
});

test('a core error names the field it is about', () => {
  const fields = [[{ ...good, rank: 5 }, 'rank'], [{ ...good, activation: 'swish', beta: 1e6 }, 'beta'],
    [{ ...good, dIn: 4096, hidden: 4096, rank: 4 }, 'options']];
  for (const [options, argument] of fields) {
    assert.throws(() => lab.createLayer(options), (e) => e.argument === argument, argument);
  }
});

test('forward refuses wrong arrays, lengths, non-finite values and bad row counts', () => {
  const layer = lab.createLayer(good);
  const x = new Float32Array(8);
  throwsNamed(() => layer.forward([0, 0, 0, 0], 1),
    /x must be a Float32Array of rows·dIn = 4 numbers \(got an Array/, 'invalid-type');
  throwsNamed(() => layer.forward(new Float64Array(8), 2), /Float32Array/, 'invalid-type');
  throwsNamed(() => layer.forward(x, 3), /rows·dIn = 12/, 'invalid-value');
  throwsNamed(() => layer.forward(x, 0), /rows must be an integer/, 'out-of-range');
  throwsNamed(() => layer.forward(x, 1.5), /rows/, 'invalid-type');
  throwsNamed(() => layer.forward(x, 1e9), /rows/, 'out-of-range');
  throwsNamed(() => layer.forward(Float32Array.of(0, 0, NaN, 0), 1), /x\[2\] is NaN/, 'not-finite');
  throwsNamed(() => layer.forward(Float32Array.of(0, Infinity, 0, 0), 1), /x\[1\] is Infinity/, 'not-finite');
  throwsNamed(() => layer.backward(x, 2, new Float32Array(5)), /gradOut must be a Float32Array of rows·dOut = 6/,
    'invalid-value');
  throwsNamed(() => layer.setParams({ Q: new Float32Array(3) }), /params.Q/, 'invalid-value');
  throwsNamed(() => layer.setParams(null), /params/, 'invalid-type');
  throwsNamed(() => layer.setParams(), /params/, 'invalid-type');
  throwsNamed(() => layer.rescaled(0), /alpha must be a finite non-zero number/, 'out-of-range');
  throwsNamed(() => layer.rescaled(NaN), /alpha/, 'not-finite');
  assert.equal(layer.forward(x, 2).length, 6, 'still usable');
  layer.dispose();
  const mlp = lab.createLayer({ ...good, kind: 'mlp' });
  throwsNamed(() => mlp.exchanged(), /needs a layer with a Q factor/, 'unsupported');
  throwsNamed(() => mlp.rescaled(2), /needs a layer with a Q factor/, 'unsupported');
  mlp.dispose();
});

test('a disposed layer refuses every call; dispose twice is harmless', () => {
  const layer = lab.createLayer(good);
  layer.dispose();
  layer.dispose();
  throwsNamed(() => layer.forward(new Float32Array(4), 1), /disposed/, 'disposed');
  throwsNamed(() => layer.getParams(), /disposed/, 'disposed');
  throwsNamed(() => layer.exchanged(), /disposed/, 'disposed');
  throwsNamed(() => layer.parameterCount, /disposed/, 'disposed');
  throwsNamed(() => lab.symmetry.exchangeGap(layer, new Float32Array(4), 1), /disposed/, 'disposed');
  assert.equal(lab.liveObjects(), 0);
});

test('symmetry probes refuse bad input', () => {
  const gated = lab.createLayer(good);
  const mlp = lab.createLayer({ ...good, kind: 'mlp' });
  const x = new Float32Array(8).fill(0.5);
  throwsNamed(() => lab.symmetry.exchangeGap({}, x, 2), /layer must be a layer made by lab.createLayer/,
    'invalid-type');
  throwsNamed(() => lab.symmetry.exchangeGap(mlp, x, 2), /mlp/, 'unsupported');
  throwsNamed(() => lab.symmetry.scalingGap(gated, x, 2, 0), /alpha/, 'out-of-range');
  throwsNamed(() => lab.symmetry.scalingGap(gated, x, 2, new Float32Array(3)),
    /alpha must be a Float32Array of hidden = 8/, 'invalid-value');
  throwsNamed(() => lab.symmetry.scalingGap(gated, x, 2, new Float32Array(8)),
    /alpha must be non-zero in every unit/, 'out-of-range');
  throwsNamed(() => lab.symmetry.exchangePlane('nope'), /activation/, 'invalid-value');
  throwsNamed(() => lab.symmetry.exchangePlane('silu', { n: 1 }), /options.n/, 'out-of-range');
  throwsNamed(() => lab.symmetry.exchangePlane('silu', { n: 1e6 }), /options.n/, 'out-of-range');
  throwsNamed(() => lab.symmetry.exchangePlane('silu', { min: 2, max: 1 }), /options.min/, 'invalid-value');
  throwsNamed(() => lab.symmetry.exchangePlane('silu', { min: NaN }), /options.min/, 'not-finite');
  throwsNamed(() => lab.symmetry.exchangePlane('swish', { beta: 1e6 }), /options.beta/, 'out-of-range');
  throwsNamed(() => lab.activationCurve('relu', 'wide'), /options must be an options object/, 'invalid-type');
  throwsNamed(() => lab.activationInfo('sine'), /activation must be one of/, 'invalid-value');
  assert.ok(lab.symmetry.exchangeGap(gated, x, 2) > 0, 'still usable');
  gated.dispose();
  mlp.dispose();
});

test('loadGateLab refuses a bad wasmUrl type', async () => {
  await assert.rejects(loadGateLab({ wasmUrl: 42 }), (e) => e instanceof GateLabError && e.code === 'invalid-type'
    && e.argument === 'options.wasmUrl');
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
  assert.equal(coreOf(lab).module._liveLayerCount(), 0, 'no C++ layer left behind');
  assert.equal(lab.heapBytes(), startHeap, 'the wasm heap did not grow');
});
