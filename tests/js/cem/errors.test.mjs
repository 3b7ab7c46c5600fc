// lab.cem (docs/MATH.md §B) end to end on the real wasm module, part 3 of 3: every error path
// (bad options, wrong arrays and indices, tie helpers on layers that are not one standard
// layer, disposed objects) refuses with a GateLabError naming the argument and its code, and no leaks over
// 1000 create/use/dispose cycles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, randomArray, throwsNamed } from './fixture.mjs';

test('createAttention and createMlp refuse bad options with a message naming the option', () => {
  const good = { d: 8, heads: 2, steps: 1, eta: 1, diagonal: 'none', precond: 'paper', precondRank: 2, seed: 3 };
  throwsNamed(() => lab.cem.createAttention(), /d must be an integer/, 'd', 'invalid-type');
  throwsNamed(() => lab.cem.createAttention(null), /options/, 'options', 'invalid-type');
  throwsNamed(() => lab.cem.createAttention([1]), /options/, 'options', 'invalid-type');
  const badInts = [[2.5, 'invalid-type'], [NaN, 'not-finite'], [Infinity, 'not-finite'], ['8', 'invalid-type'],
    [null, 'invalid-type'], [1e12, 'out-of-range']];
  for (const [bad, code] of badInts) {
    throwsNamed(() => lab.cem.createAttention({ ...good, d: bad }), /^d must/, 'd', code);
  }
  throwsNamed(() => lab.cem.createAttention({ ...good, d: 0 }), /d must be in 1…1024 \(d = 0\)/, 'd', 'out-of-range');
  throwsNamed(() => lab.cem.createAttention({ ...good, d: 2048 }), /d must be in 1…1024/, 'd', 'out-of-range');
  throwsNamed(() => lab.cem.createAttention({ ...good, heads: 3 }), /heads must divide d \(d = 8, heads = 3\)/,
    'heads', 'invalid-value');
  for (const [bad, code] of [[0, 'out-of-range'], [-2, 'out-of-range'], [1.5, 'invalid-type'], [NaN, 'not-finite']]) {
    throwsNamed(() => lab.cem.createAttention({ ...good, heads: bad }), /heads/, 'heads', code);
  }
  for (const [bad, code] of [[0, 'out-of-range'], [17, 'out-of-range'], [1.5, 'invalid-type'], ['2', 'invalid-type']]) {
    throwsNamed(() => lab.cem.createAttention({ ...good, steps: bad }), /steps/, 'steps', code);
  }
  const badEtas = [[0, 'out-of-range'], [-1, 'out-of-range'], [NaN, 'not-finite'], [Infinity, 'not-finite'],
    [101, 'out-of-range'], [1e300, 'out-of-range'], ['1', 'invalid-type']];
  for (const [bad, code] of badEtas) {
    throwsNamed(() => lab.cem.createAttention({ ...good, eta: bad }), /eta/, 'eta', code);
  }
  const badBetas = [[0, 'out-of-range'], [-1, 'out-of-range'], [NaN, 'not-finite'], [null, 'invalid-type'],
    [1e6, 'out-of-range']];
  for (const [bad, code] of badBetas) {
    throwsNamed(() => lab.cem.createAttention({ ...good, beta: bad }), /beta/, 'beta', code);
  }
  const badDiagonals = [['per_head', 'invalid-value'], ['diag', 'invalid-value'], [7, 'invalid-type'],
    [null, 'invalid-type']];
  for (const [bad, code] of badDiagonals) {
    throwsNamed(() => lab.cem.createAttention({ ...good, diagonal: bad }),
      /diagonal must be one of 'none', 'per-head', 'shared'/, 'diagonal', code);
  }
  for (const [bad, code] of [['spd', 'invalid-value'], ['PSD', 'invalid-value'], [0, 'invalid-type']]) {
    throwsNamed(() => lab.cem.createAttention({ ...good, precond: bad }), /precond must be one of/, 'precond', code);
  }
  throwsNamed(() => lab.cem.createAttention({ ...good, d: 4, heads: 1, precondRank: 5 }),
    /precondRank must be in 0…min\(d, 64\)/, 'precondRank', 'out-of-range');
  for (const [bad, code] of [[-1, 'out-of-range'], [1.5, 'invalid-type'], [NaN, 'not-finite']]) {
    throwsNamed(() => lab.cem.createAttention({ ...good, precondRank: bad }), /precondRank/, 'precondRank', code);
  }
  const badSeeds = [[-1, 'out-of-range'], [1.5, 'invalid-type'], [2 ** 32, 'out-of-range'], [NaN, 'not-finite'],
    ['3', 'invalid-type']];
  for (const [bad, code] of badSeeds) {
    throwsNamed(() => lab.cem.createAttention({ ...good, seed: bad }), /seed/, 'seed', code);
  }

  const mlp = { d: 8, hidden: 16, activation: 'relu', steps: 1, eta: 1, precond: 'none', seed: 3 };
  throwsNamed(() => lab.cem.createMlp({ d: 8 }), /hidden must be an integer/, 'hidden', 'invalid-type');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, hidden: 0 }), /hidden must be in 1…8192/, 'hidden', 'out-of-range');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, hidden: 9000 }), /hidden/, 'hidden', 'out-of-range');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, activation: 'sine' }), /activation must be one of/, 'activation',
    'invalid-value');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, beta: 2 }), /beta must be given only for activation 'swish'/, 'beta',
    'unsupported');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, activation: 'swish', beta: 1e6 }), /beta must be in \(0, 100/, 'beta',
    'out-of-range');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, activation: 'swish', beta: NaN }), /beta/, 'beta', 'not-finite');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, steps: 0 }), /steps/, 'steps', 'out-of-range');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, precond: 'x' }), /precond/, 'precond', 'invalid-value');
  throwsNamed(() => lab.cem.createStandardAttention({ d: 6, heads: 4 }), /heads must divide d/, 'heads',
    'invalid-value');
  throwsNamed(() => lab.cem.createGatedMlp({ d: 6, hidden: -1 }), /hidden/, 'hidden', 'out-of-range');
  assert.equal(lab.liveObjects(), 0, 'nothing was created');
});

test('every call refuses wrong arrays, lengths, non-finite values and indices', () => {
  const att = lab.cem.createAttention({ d: 4, heads: 2, diagonal: 'per-head', precond: 'psd', precondRank: 1,
    seed: 1 });
  const h = randomArray(8, 1);
  const y = randomArray(4, 2);
  throwsNamed(() => att.forward([0, 0, 0, 0], 1), /h must be a Float32Array of n·d = 4 numbers \(got an Array/, 'h',
    'invalid-type');
  throwsNamed(() => att.forward(new Float64Array(8), 2), /Float32Array/, 'h', 'invalid-type');
  throwsNamed(() => att.forward(h, 3), /n·d = 12/, 'h', 'invalid-value');
  const badRows = [[0, 'out-of-range'], [-1, 'out-of-range'], [1.5, 'invalid-type'], [NaN, 'not-finite'],
    [1e9, 'out-of-range'], ['2', 'invalid-type']];
  for (const [bad, code] of badRows) {
    throwsNamed(() => att.forward(h, bad), /^n must be an integer from 1 to 4096/, 'n', code);
  }
  throwsNamed(() => att.forward(Float32Array.of(0, 0, NaN, 0), 1), /h\[2\] is NaN/, 'h', 'not-finite');
  throwsNamed(() => att.forward(Float32Array.of(0, Infinity, 0, 0), 1), /h\[1\] is Infinity/, 'h', 'not-finite');
  throwsNamed(() => att.energy(h, 2, 2, y), /^i must be an integer from 0 to 1/, 'i', 'out-of-range');
  for (const [bad, code] of [[-1, 'out-of-range'], [0.5, 'invalid-type'], [NaN, 'not-finite'],
    [undefined, 'invalid-type']]) {
    throwsNamed(() => att.energy(h, 2, bad, y), /^i must/, 'i', code);
  }
  throwsNamed(() => att.energy(h, 2, 1, new Float32Array(3)), /y must be a Float32Array of d = 4/, 'y',
    'invalid-value');
  throwsNamed(() => att.energy(h, 2, 1, Float32Array.of(0, NaN, 0, 0)), /y\[1\] is NaN/, 'y', 'not-finite');
  throwsNamed(() => att.energyTrace(h, 4), /n·d = 16/, 'h', 'invalid-value');
  throwsNamed(() => att.trajectory(new Float32Array(3), 1), /h must be/, 'h', 'invalid-value');
  throwsNamed(() => att.energyGrid(h, 2, 1, { G: 1 }), /options.G must be an integer from 2 to 512/, 'options.G',
    'out-of-range');
  throwsNamed(() => att.energyGrid(h, 2, 1, { G: 1e6 }), /options.G/, 'options.G', 'out-of-range');
  throwsNamed(() => att.energyGrid(h, 2, 1, { min: 2, max: 1 }),
    /options.min \(2\) must be less than options.max \(1\)/, 'options.min', 'invalid-value');
  throwsNamed(() => att.energyGrid(h, 2, 1, { min: NaN }), /options.min/, 'options.min', 'not-finite');
  throwsNamed(() => att.energyGrid(h, 2, 1, { max: 1e39 }), /options.max/, 'options.max', 'out-of-range');
  throwsNamed(() => att.energyGrid(h, 2, 1, { origin: new Float32Array(2) }),
    /options.origin must be a Float32Array of d = 4/, 'options.origin', 'invalid-value');
  throwsNamed(() => att.energyGrid(h, 2, 1, { axes: new Float32Array(4) }),
    /options.axes must be a Float32Array of 2·d = 8/, 'options.axes', 'invalid-value');
  throwsNamed(() => att.energyGrid(h, 2, 2), /^i must/, 'i', 'out-of-range');
  throwsNamed(() => att.energyGrid(h, 2, 1, 'big'), /options/, 'options', 'invalid-type');
  throwsNamed(() => att.backward(h, 2, new Float32Array(3)), /gradOut must be a Float32Array of n·d = 8/, 'gradOut',
    'invalid-value');
  throwsNamed(() => att.setParams(null), /params must be an object/, 'params', 'invalid-type');
  throwsNamed(() => att.setParams({ WQ: new Float32Array(3) }),
    /params.WQ must be a Float32Array of 4×4 = 16 numbers/, 'params.WQ', 'invalid-value');
  throwsNamed(() => att.setParams({ diag: new Float32Array(4) }),
    /params.diag must be a Float32Array of 2×4 = 8/, 'params.diag', 'invalid-value');
  throwsNamed(() => att.setParams({ precond: new Float32Array(4) }),
    /params.precond must be a Float32Array of d \+ 1·d·r = 8/, 'params.precond', 'invalid-value');
  throwsNamed(() => att.setParams({ Wq: new Float32Array(16) }),
    /params.Wq is not a parameter of this CEM attention \(its parameters: WQ, WK, diag, precond\)/,
    'params.Wq', 'invalid-value');
  throwsNamed(() => att.setParams({ WK: new Float32Array(16).fill(NaN) }), /params.WK\[0\] is NaN/, 'params.WK',
    'not-finite');
  assert.equal(att.forward(h, 2).length, 8, 'still usable');

  const d1 = lab.cem.createAttention({ d: 1 });
  throwsNamed(() => d1.energyGrid(new Float32Array(1), 1, 0), /options.axes must be given when d < 2/,
    'options.axes', 'invalid-value');
  assert.equal(d1.energyGrid(new Float32Array(1), 1, 0, { axes: Float32Array.of(1, 0), G: 4 }).length, 16);
  d1.dispose();

  const mlp = lab.cem.createMlp({ d: 4, hidden: 4, activation: 'gelu_tanh', seed: 1 });
  throwsNamed(() => mlp.energy(h, 2, 0, y),
    /energy needs an activation with a closed-form antiderivative; 'gelu_tanh' has none/, 'activation',
    'unsupported');
  throwsNamed(() => mlp.energyTrace(h, 2), /antiderivative/, 'activation', 'unsupported');
  throwsNamed(() => mlp.energyGrid(h, 2, 0), /antiderivative/, 'activation', 'unsupported');
  assert.equal(mlp.forward(h, 2).length, 8, 'forward needs no Φ');
  mlp.dispose();
  att.dispose();
});

test('the tie helpers refuse layers that are not one standard layer', () => {
  const stepped = lab.cem.createAttention({ d: 4, steps: 2 });
  const diag = lab.cem.createAttention({ d: 4, diagonal: 'shared' });
  const pre = lab.cem.createAttention({ d: 4, precond: 'psd' });
  throwsNamed(() => lab.cem.asStandardAttention(stepped), /only one step \(steps = 1\)/, 'attention', 'unsupported');
  throwsNamed(() => lab.cem.asStandardAttention(diag), /diagonal must be 'none'/, 'attention', 'unsupported');
  throwsNamed(() => lab.cem.asStandardAttention(pre), /precond must be 'none'/, 'attention', 'unsupported');
  throwsNamed(() => lab.cem.asStandardAttention({}),
    /attention must be a CEM attention made by lab.cem.createAttention/, 'attention', 'invalid-type');
  const mlp = lab.cem.createMlp({ d: 4, hidden: 3, precond: 'paper' });
  throwsNamed(() => lab.cem.asGatedMlp(mlp), /precond must be 'none'/, 'mlp', 'unsupported');
  throwsNamed(() => lab.cem.asGatedMlp(stepped), /mlp must be a CEM MLP/, 'mlp', 'invalid-type');
  [stepped, diag, pre, mlp].forEach((x) => x.dispose());
  throwsNamed(() => lab.cem.asStandardAttention(stepped), /disposed/, 'this', 'disposed');
  assert.equal(lab.liveObjects(), 0);
});

test('a disposed object refuses every call; dispose twice is harmless', () => {
  const att = lab.cem.createAttention({ d: 4, heads: 2, seed: 1 });
  const mlp = lab.cem.createMlp({ d: 4, hidden: 3 });
  const std = lab.cem.createStandardAttention({ d: 4 });
  const gated = lab.cem.createGatedMlp({ d: 4, hidden: 3 });
  assert.equal(lab.liveObjects(), 4);
  for (const x of [att, mlp, std, gated]) {
    x.dispose();
    x.dispose();
    assert.equal(x.disposed, true);
  }
  const h = new Float32Array(4);
  for (const x of [att, mlp]) {
    throwsNamed(() => x.forward(h, 1), /has been disposed/, 'this', 'disposed');
    throwsNamed(() => x.energy(h, 1, 0, h), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.energyTrace(h, 1), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.trajectory(h, 1), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.energyGrid(h, 1, 0), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.backward(h, 1, h), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.getParams(), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.setParams({}), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.minEigenvalue(), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.preconditioner(), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.spectrum(), /disposed/, 'this', 'disposed');
    throwsNamed(() => x.parameterCount, /disposed/, 'this', 'disposed');
  }
  throwsNamed(() => std.forward(h, 1), /disposed/, 'this', 'disposed');
  throwsNamed(() => gated.getParams(), /disposed/, 'this', 'disposed');
  assert.equal(lab.liveObjects(), 0);
});

test('1000 create/use/dispose cycles leak neither handles nor heap', () => {
  const h = randomArray(6 * 8, 1);
  const cycle = () => {
    const att = lab.cem.createAttention({ d: 8, heads: 2, steps: 2, diagonal: 'shared', precond: 'paper',
      precondRank: 2, seed: 3 });
    att.forward(h, 6);
    att.energyTrace(h, 6);
    att.energyGrid(h, 6, 5, { G: 8 });
    att.backward(h, 6, h);
    att.setParams(att.getParams());
    const mlp = lab.cem.createMlp({ d: 8, hidden: 16, activation: 'relu', steps: 1, eta: 1, precond: 'none', seed: 3 });
    mlp.forward(h, 6);
    const gated = lab.cem.asGatedMlp(mlp);
    const tied = lab.cem.createAttention({ d: 8, heads: 2 });
    const std = lab.cem.asStandardAttention(tied);
    std.forward(h, 6);
    try {
      att.forward(h, 7);  // an error path inside the loop
    } catch {
      // expected
    }
    for (const x of [att, mlp, gated, tied, std]) x.dispose();
  };
  for (let k = 0; k < 20; k++) cycle();  // warm-up: the heap reaches its working size
  const live = lab.liveObjects();
  const heap = lab.heapBytes();
  for (let k = 0; k < 1000; k++) cycle();
  assert.equal(lab.liveObjects(), live);
  assert.equal(lab.heapBytes(), heap);
});
