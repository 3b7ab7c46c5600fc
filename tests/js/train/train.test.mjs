// The training API (web/lib/train/) on the real wasm module: datasets, trainer and race; every
// error path throws GateLabError naming the argument, with its code; nothing leaks
// (liveObjects back to baseline, heap bounded). The census, rank-r approximation and
// interactions are in tests/js/paper-a/analysis.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const baseline = lab.liveObjects();

/** fn throws a GateLabError whose message matches, with error code `code` (and naming `argument` when given). */
function throwsNamed(fn, pattern, code, argument) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof GateLabError, `expected GateLabError, got ${e}`);
    assert.match(e.message, pattern);
    assert.equal(e.code, code, e.message);
    if (argument) assert.equal(e.argument, argument);
    return true;
  });
}

test('datasets.make gives every built-in task with ±1 labels, split and seeded', () => {
  for (const task of lab.datasets.tasks.filter((t) => t !== 'user')) {
    const d = lab.datasets.make(task, { count: 120, trainFraction: 0.75, seed: 3 });
    assert.equal(d.xTrain.length, 180, task);
    assert.equal(d.yTrain.length, 90);
    assert.equal(d.xTest.length, 60);
    assert.ok([...d.yTrain, ...d.yTest].every((y) => y === 1 || y === -1));
    assert.deepEqual(lab.datasets.make(task, { count: 120, trainFraction: 0.75, seed: 3 }), d);
    assert.notDeepEqual(lab.datasets.make(task, { count: 120, trainFraction: 0.75, seed: 4 }).xTrain, d.xTrain);
  }
  const teacher = lab.datasets.make('teacher', { teacher: { kind: 'symmetric', activation: 'tanh', hidden: 4 } });
  assert.equal(teacher.yTrain.length + teacher.yTest.length, 200);
});

test('datasets.make takes user points (0 means −1)', () => {
  const x = new Float32Array([0, 0, 1, 1, -1, 0.5, 0.2, -0.3]);
  const y = new Float32Array([1, 0, -1, 1]);
  const d = lab.datasets.make('user', { points: { x, y }, trainFraction: 0.5 });
  assert.equal(d.yTrain.length, 2);
  assert.deepEqual([...d.yTrain, ...d.yTest].sort(), [-1, -1, 1, 1]);
});

test('datasets.make refuses bad input naming the argument', () => {
  throwsNamed(() => lab.datasets.make('moons'), /^task must be one of/, 'invalid-value', 'task');
  throwsNamed(() => lab.datasets.make('circle', { count: 3 }), /options.count must be an integer from 4/,
    'out-of-range', 'options.count');
  throwsNamed(() => lab.datasets.make('circle', { count: 1e9 }), /options.count/, 'out-of-range');
  throwsNamed(() => lab.datasets.make('circle', { noise: NaN }), /options.noise must be a finite number/, 'not-finite');
  throwsNamed(() => lab.datasets.make('circle', { noise: 5 }), /noise must be a number from 0 to 2/, 'out-of-range',
    'options.noise');
  throwsNamed(() => lab.datasets.make('circle', { trainFraction: 0 }), /options.trainFraction/, 'out-of-range');
  throwsNamed(() => lab.datasets.make('circle', { seed: -1 }), /options.seed/, 'out-of-range');
  throwsNamed(() => lab.datasets.make('circle', 'big'), /options must be an options object/, 'invalid-type');
  throwsNamed(() => lab.datasets.make('user'), /options.points must be an object/, 'invalid-type');
  throwsNamed(() => lab.datasets.make('circle', { points: {} }), /options.points must be absent/, 'unsupported',
    'options.points');
  throwsNamed(() => lab.datasets.make('user', { points: { x: new Float32Array(4), y: [1, -1] } }),
    /options.points.y/, 'invalid-type');
  throwsNamed(() => lab.datasets.make('user', { points: { x: new Float32Array(3), y: new Float32Array(2) } }),
    /options.points.x must be a Float32Array of 2·points = 4/, 'invalid-value');
  throwsNamed(() => lab.datasets.make('user',
    { points: { x: new Float32Array([0, 0, NaN, 1]), y: new Float32Array(2) } }),
    /options.points.x\[2\] is NaN/, 'not-finite');
  throwsNamed(() => lab.datasets.make('user', { points: { x: new Float32Array(4), y: new Float32Array([1, 3]) } }),
    /y\[1\] must be -1, 0 or 1/, 'invalid-value');
  throwsNamed(() => lab.datasets.make('teacher', { teacher: { kind: 'rnn' } }), /options.teacher.kind/,
    'invalid-value');
  throwsNamed(() => lab.datasets.make('teacher', { teacher: { rank: 4 } }), /rank/, 'out-of-range',
    'options.teacher.rank');
});

test('a trainer steps, records curves, lowers the loss and is deterministic by seed', () => {
  const options = { kind: 'gated', activation: 'silu', hidden: 8, seed: 5, learningRate: 0.03,
    data: { task: 'xor', seed: 2 } };
  const a = lab.createTrainer(options);
  const b = lab.createTrainer(options);
  assert.equal(lab.liveObjects(), baseline + 2);
  const ra = a.step(150);
  assert.equal(ra.done, 150);
  assert.equal(ra.divergence, null);
  assert.equal(ra.records.step.length, 150);
  assert.equal(ra.records.step[149], 150);
  b.step(100);
  b.step(50);
  assert.deepEqual(a.history(), b.history());
  const h = a.history();
  assert.equal(h.trainLoss.length, 151);
  assert.ok(h.trainLoss[150] < 0.5 * h.trainLoss[0], `${h.trainLoss[0]} → ${h.trainLoss[150]}`);
  assert.ok(h.testAccuracy[150] > 0.9);
  assert.equal(a.stepsDone, 150);
  assert.equal(a.parameterCount, 8 * 7);
  const grid = a.grid(16, 1.2);
  assert.ok(grid instanceof Float32Array && grid.length === 256 && grid.every(Number.isFinite));
  const w = JSON.parse(JSON.stringify(a.weights()));
  assert.equal(w.Q.length, 8 * 3);
  assert.equal(w.layer.dIn, 3);
  assert.equal(w.options.data.task, 'xor');
  const d = a.data();
  assert.equal(d.xTrain.length, 200);
  a.dispose();
  b.dispose();
  a.dispose();
  assert.equal(lab.liveObjects(), baseline);
  throwsNamed(() => a.step(1), /this trainer has been disposed/, 'disposed', 'this');
});

// FNV-1a over the float bits of the curves and the final weights, as in test_trainer.cpp.
function runHash(t) {
  let h = 1469598103934665603n;
  const bits = new Uint32Array(1), f32 = new Float32Array(bits.buffer);
  const mix = (v) => {
    f32[0] = v;
    for (let i = 0; i < 4; i++) h = ((h ^ BigInt((bits[0] >>> (8 * i)) & 0xff)) * 1099511628211n) & 0xffffffffffffffffn;
  };
  const r = t.history();
  for (let i = 0; i < r.step.length; i++) {
    [r.trainLoss, r.testLoss, r.trainAccuracy, r.testAccuracy, r.gradNorm].forEach((c) => mix(c[i]));
  }
  const w = t.weights();
  [...(w.Q ?? []), ...w.K, ...w.V].forEach(mix);
  return h;
}

test('100-step runs give the golden hashes of the native C++ tests, bit for bit', () => {
  const golden = [['gated', 'silu', 'adam', 'cross_entropy', 7711746193370313250n],
    ['mlp', 'gelu', 'momentum', 'mse', 5236717361067013256n],
    ['symmetric', 'tanh', 'sgd', 'cross_entropy', 15608253729625421003n]];
  for (const [kind, activation, optimizer, loss, hash] of golden) {
    const t = lab.createTrainer({ kind, activation, optimizer, loss, hidden: 8, seed: 3, learningRate: 0.05,
      batchSize: 32,
      data: { task: 'spiral', count: 200, noise: 0.05, seed: 7 } });
    t.step(100);
    assert.equal(runHash(t), hash, `${kind} ${activation}`);
    t.dispose();
  }
});

test('a diverging trainer reports, rolls back and can resume; it does not throw', () => {
  const t = lab.createTrainer({ kind: 'gated', activation: 'relu2', loss: 'mse', optimizer: 'sgd', learningRate: 50,
    data: { task: 'xor', noise: 0.05, seed: 1 }, seed: 3 });
  const r = t.step(500);
  assert.ok(r.done < 500);
  assert.ok(r.divergence);
  assert.equal(r.divergence.cause, 'gradient');
  assert.match(r.divergence.message,
    /at step \d+: the gradient norm grew .* the learning rate 50 is too large for this model; try <= 5/);
  assert.equal(t.stepsDone, r.divergence.rolledBackTo);
  assert.equal(t.step(5).done, 0);
  assert.ok(t.grid(4).every(Number.isFinite));
  t.setLearningRate(1e-9);
  assert.equal(t.divergence, null);
  assert.equal(t.step(5).done, 5);
  t.dispose();
});

test('a user-points trainer trains on the given points', () => {
  const n = 40;
  const x = Float32Array.from({ length: 2 * n }, (_, i) => Math.sin(i * 1.7));
  const y = Float32Array.from({ length: n }, (_, i) => (x[2 * i] > 0 ? 1 : -1));
  const t = lab.createTrainer({ kind: 'mlp', hidden: 8, learningRate: 0.05, data: { task: 'user', points: { x, y } } });
  const r = t.step(100);
  assert.ok(r.records.trainAccuracy[99] >= 0.95);
  t.dispose();
});

test('createTrainer and its methods refuse bad input naming the argument', () => {
  throwsNamed(() => lab.createTrainer(), /options must be an options object/, 'invalid-type');
  throwsNamed(() => lab.createTrainer({}), /options.kind must be one of/, 'invalid-type');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', activation: 'sine' }), /options.activation/, 'invalid-value');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', hidden: 0 }), /options.hidden/, 'out-of-range');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', hidden: 5000 }), /options.hidden/, 'out-of-range');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', rank: 4 }), /rank must be an integer from 1 to dIn = 3/,
    'out-of-range', 'options.rank');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', learningRate: -1 }), /options.learningRate/, 'out-of-range');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', learningRate: Infinity }), /options.learningRate/, 'not-finite');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', momentum: 1 }), /momentum must be a number in \[0, 1\)/,
    'out-of-range', 'options.momentum');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', loss: 'hinge' }), /options.loss/, 'invalid-value');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', optimizer: 'lion' }), /options.optimizer/, 'invalid-value');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', batchSize: -1 }), /options.batchSize/, 'out-of-range');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', evalEvery: 0 }), /options.evalEvery/, 'out-of-range');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', biasFeature: 1 }), /options.biasFeature must be a boolean/,
    'invalid-type');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', seed: 2 ** 32 }), /options.seed/, 'out-of-range');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', data: { task: 'rings' } }), /options.data.task/,
    'invalid-value');
  throwsNamed(() => lab.createTrainer({ kind: 'gated', data: { count: 2 } }), /options.data.count/, 'out-of-range');
  assert.equal(lab.liveObjects(), baseline);
  const t = lab.createTrainer({ kind: 'symmetric' });
  throwsNamed(() => t.step(0), /n must be an integer from 1/, 'out-of-range', 'n');
  throwsNamed(() => t.step(1.5), /n must be an integer/, 'invalid-type');
  throwsNamed(() => t.step(1e6), /n must be an integer/, 'out-of-range');
  throwsNamed(() => t.grid(1), /size must be an integer from 2/, 'out-of-range', 'size');
  throwsNamed(() => t.grid(8, -1), /extent/, 'out-of-range', 'extent');
  throwsNamed(() => t.grid(8, NaN), /extent/, 'not-finite', 'extent');
  throwsNamed(() => t.setLearningRate(0), /learningRate/, 'out-of-range', 'learningRate');
  t.dispose();
  assert.equal(lab.liveObjects(), baseline);
});

test('race: equal budgets, bands, finals, reproducible', () => {
  const options = { data: { task: 'gaussians', count: 120 }, steps: 60, seeds: 2, learningRate: 0.03,
    models: [{ kind: 'mlp' }, { kind: 'gated', activation: 'silu' }, 'bilinear'] };
  const r = lab.race(options);
  assert.deepEqual(r.models.map((m) => m.label), ['MLP (ReLU)', 'SwiGLU', 'Bilinear']);
  assert.deepEqual(r.models.map((m) => m.parameters), [128, 126, 126]);
  for (const m of r.models) {
    assert.equal(m.curves.step.length, 61);
    assert.equal(m.final.testLoss.values.length, 2);
    assert.ok(m.curves.trainLoss.mean[60] < m.curves.trainLoss.mean[0]);
    assert.ok(m.curves.testAccuracy.min.every((v, i) => v <= m.curves.testAccuracy.max[i]));
    assert.equal(m.diverged, 0);
  }
  assert.deepEqual(lab.race(options).models, r.models);
  const shazeer = lab.race({ ...options, steps: 10, widthRule: 'shazeer', mlpHidden: 30 });
  assert.deepEqual(shazeer.models.map((m) => m.hidden), [30, 20, 20]);
  assert.equal(lab.liveObjects(), baseline);
});

test('race refuses bad input naming the argument', () => {
  throwsNamed(() => lab.race({ models: [] }), /options.models must be a non-empty array/, 'out-of-range');
  throwsNamed(() => lab.race({ models: [{ kind: 'rnn' }] }), /options.models\[0\].kind/, 'invalid-value');
  throwsNamed(() => lab.race({ models: ['gated:relu'] }), /options.models\[0\] must be an options object/,
    'invalid-type');
  throwsNamed(() => lab.race({ seeds: 0 }), /options.seeds/, 'out-of-range');
  throwsNamed(() => lab.race({ seeds: 1000 }), /options.seeds/, 'out-of-range');
  throwsNamed(() => lab.race({ steps: 0 }), /options.steps/, 'out-of-range');
  throwsNamed(() => lab.race({ widthRule: 'chinchilla' }), /options.widthRule/, 'invalid-value');
  throwsNamed(() => lab.race({ budget: -3 }), /options.budget/, 'out-of-range');
  throwsNamed(() => lab.race({ steps: 100000, evalEvery: 1 }), /evalEvery/, 'out-of-range');
  throwsNamed(() => lab.race({ data: { task: 'spiral', noise: -1 } }), /noise/, 'out-of-range');
});

test('no leaks: create/step/dispose cycles keep liveObjects and the heap flat', () => {
  const cycle = () => {
    const t = lab.createTrainer({ kind: 'gated', hidden: 16, data: { task: 'spiral', count: 400 } });
    t.step(5);
    t.grid(32);
    t.dispose();
    lab.census({ kinds: ['gated'], activations: ['relu'] });
    lab.race({ steps: 5, seeds: 1, models: ['bilinear'] });
  };
  for (let i = 0; i < 5; i++) cycle();
  const heap = lab.heapBytes();
  for (let i = 0; i < 40; i++) cycle();
  assert.equal(lab.heapBytes(), heap);
  assert.equal(lab.liveObjects(), baseline);
});
