// The paper-A JS surface (web/lib/paper-a.js) on the real wasm module: datasets, trainer,
// race, census, rank-r approximation and interactions; every error path throws GateLabError
// naming the argument; nothing leaks (liveObjects back to baseline, heap bounded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';
import { installPaperA } from '../../../web/lib/paper-a/paper-a.js';

const lab = await loadGateLab();
const pa = installPaperA(lab);
const baseline = lab.liveObjects();

function throwsNamed(fn, pattern, argument) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof GateLabError, `expected GateLabError, got ${e}`);
    assert.match(e.message, pattern);
    if (argument) assert.equal(e.argument, argument);
    return true;
  });
}

test('datasets.make gives every built-in task with ±1 labels, split and seeded', () => {
  for (const task of pa.datasets.tasks.filter((t) => t !== 'user')) {
    const d = pa.datasets.make(task, { count: 120, trainFraction: 0.75, seed: 3 });
    assert.equal(d.xTrain.length, 180, task);
    assert.equal(d.yTrain.length, 90);
    assert.equal(d.xTest.length, 60);
    assert.ok([...d.yTrain, ...d.yTest].every((y) => y === 1 || y === -1));
    assert.deepEqual(pa.datasets.make(task, { count: 120, trainFraction: 0.75, seed: 3 }), d);
    assert.notDeepEqual(pa.datasets.make(task, { count: 120, trainFraction: 0.75, seed: 4 }).xTrain, d.xTrain);
  }
  const teacher = pa.datasets.make('teacher', { teacher: { kind: 'symmetric', activation: 'tanh', hidden: 4 } });
  assert.equal(teacher.yTrain.length + teacher.yTest.length, 200);
});

test('datasets.make takes user points (0 means −1)', () => {
  const x = new Float32Array([0, 0, 1, 1, -1, 0.5, 0.2, -0.3]);
  const y = new Float32Array([1, 0, -1, 1]);
  const d = pa.datasets.make('user', { points: { x, y }, trainFraction: 0.5 });
  assert.equal(d.yTrain.length, 2);
  assert.deepEqual([...d.yTrain, ...d.yTest].sort(), [-1, -1, 1, 1]);
});

test('datasets.make refuses bad input naming the argument', () => {
  throwsNamed(() => pa.datasets.make('moons'), /options.task must be one of/);
  throwsNamed(() => pa.datasets.make('circle', { count: 3 }), /options.count must be an integer from 4/, 'options.count');
  throwsNamed(() => pa.datasets.make('circle', { count: 1e9 }), /options.count/);
  throwsNamed(() => pa.datasets.make('circle', { noise: NaN }), /options.noise must be a finite number/);
  throwsNamed(() => pa.datasets.make('circle', { noise: 5 }), /noise must be a number from 0 to 2/);
  throwsNamed(() => pa.datasets.make('circle', { trainFraction: 0 }), /options.trainFraction/);
  throwsNamed(() => pa.datasets.make('circle', { seed: -1 }), /options.seed/);
  throwsNamed(() => pa.datasets.make('circle', 'big'), /options must be an options object/);
  throwsNamed(() => pa.datasets.make('user'), /options.points must be an object/);
  throwsNamed(() => pa.datasets.make('circle', { points: {} }), /options.points must be absent/);
  throwsNamed(() => pa.datasets.make('user', { points: { x: new Float32Array(4), y: [1, -1] } }), /options.points.y/);
  throwsNamed(() => pa.datasets.make('user', { points: { x: new Float32Array(3), y: new Float32Array(2) } }),
    /options.points.x must be a Float32Array of 2·points = 4/);
  throwsNamed(() => pa.datasets.make('user', { points: { x: new Float32Array([0, 0, NaN, 1]), y: new Float32Array(2) } }),
    /options.points.x\[2\] is NaN/);
  throwsNamed(() => pa.datasets.make('user', { points: { x: new Float32Array(4), y: new Float32Array([1, 3]) } }),
    /y\[1\] must be -1, 0 or 1/);
  throwsNamed(() => pa.datasets.make('teacher', { teacher: { kind: 'rnn' } }), /options.teacher.kind/);
  throwsNamed(() => pa.datasets.make('teacher', { teacher: { rank: 4 } }), /rank/);
});

test('a trainer steps, records curves, lowers the loss and is deterministic by seed', () => {
  const options = { kind: 'gated', activation: 'silu', hidden: 8, seed: 5, learningRate: 0.03, data: { task: 'xor', seed: 2 } };
  const a = pa.createTrainer(options);
  const b = pa.createTrainer(options);
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
  throwsNamed(() => a.step(1), /this trainer has been disposed/);
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
    const t = pa.createTrainer({ kind, activation, optimizer, loss, hidden: 8, seed: 3, learningRate: 0.05, batchSize: 32,
      data: { task: 'spiral', count: 200, noise: 0.05, seed: 7 } });
    t.step(100);
    assert.equal(runHash(t), hash, `${kind} ${activation}`);
    t.dispose();
  }
});

test('a diverging trainer reports, rolls back and can resume; it does not throw', () => {
  const t = pa.createTrainer({ kind: 'gated', activation: 'relu2', loss: 'mse', optimizer: 'sgd', learningRate: 50,
    data: { task: 'xor', noise: 0.05, seed: 1 }, seed: 3 });
  const r = t.step(500);
  assert.ok(r.done < 500);
  assert.ok(r.divergence);
  assert.equal(r.divergence.cause, 'gradient');
  assert.match(r.divergence.message, /at step \d+: the gradient norm grew .* the learning rate 50 is too large for this model; try <= 5/);
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
  const t = pa.createTrainer({ kind: 'mlp', hidden: 8, learningRate: 0.05, data: { task: 'user', points: { x, y } } });
  const r = t.step(100);
  assert.ok(r.records.trainAccuracy[99] >= 0.95);
  t.dispose();
});

test('createTrainer and its methods refuse bad input naming the argument', () => {
  throwsNamed(() => pa.createTrainer(), /options must be an options object/);
  throwsNamed(() => pa.createTrainer({}), /options.kind must be one of/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', activation: 'sine' }), /options.activation/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', hidden: 0 }), /options.hidden/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', hidden: 5000 }), /options.hidden/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', rank: 4 }), /rank must be an integer from 1 to dIn = 3/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', learningRate: -1 }), /options.learningRate/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', learningRate: Infinity }), /options.learningRate/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', momentum: 1 }), /momentum must be a number in \[0, 1\)/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', loss: 'hinge' }), /options.loss/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', optimizer: 'lion' }), /options.optimizer/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', batchSize: -1 }), /options.batchSize/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', evalEvery: 0 }), /options.evalEvery/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', biasFeature: 1 }), /options.biasFeature must be a boolean/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', seed: 2 ** 32 }), /options.seed/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', data: { task: 'rings' } }), /options.data.task/);
  throwsNamed(() => pa.createTrainer({ kind: 'gated', data: { count: 2 } }), /options.data.count/);
  assert.equal(lab.liveObjects(), baseline);
  const t = pa.createTrainer({ kind: 'symmetric' });
  throwsNamed(() => t.step(0), /n must be an integer from 1/, 'n');
  throwsNamed(() => t.step(1.5), /n must be an integer/);
  throwsNamed(() => t.step(1e6), /n must be an integer/);
  throwsNamed(() => t.grid(1), /size must be an integer from 2/);
  throwsNamed(() => t.grid(8, -1), /extent/);
  throwsNamed(() => t.grid(8, NaN), /extent/);
  throwsNamed(() => t.setLearningRate(0), /learningRate/);
  t.dispose();
  assert.equal(lab.liveObjects(), baseline);
});

test('race: equal budgets, bands, finals, reproducible', () => {
  const options = { data: { task: 'gaussians', count: 120 }, steps: 60, seeds: 2, learningRate: 0.03,
    models: [{ kind: 'mlp' }, { kind: 'gated', activation: 'silu' }, 'bilinear'] };
  const r = pa.race(options);
  assert.deepEqual(r.models.map((m) => m.label), ['mlp(relu)', 'SwiGLU', 'Bilinear']);
  assert.deepEqual(r.models.map((m) => m.parameters), [128, 126, 126]);
  for (const m of r.models) {
    assert.equal(m.curves.step.length, 61);
    assert.equal(m.final.testLoss.values.length, 2);
    assert.ok(m.curves.trainLoss.mean[60] < m.curves.trainLoss.mean[0]);
    assert.ok(m.curves.testAccuracy.min.every((v, i) => v <= m.curves.testAccuracy.max[i]));
    assert.equal(m.diverged, 0);
  }
  assert.deepEqual(pa.race(options).models, r.models);
  const shazeer = pa.race({ ...options, steps: 10, widthRule: 'shazeer', mlpHidden: 30 });
  assert.deepEqual(shazeer.models.map((m) => m.hidden), [30, 20, 20]);
  assert.equal(lab.liveObjects(), baseline);
});

test('race refuses bad input naming the argument', () => {
  throwsNamed(() => pa.race({ models: [] }), /options.models must be a non-empty array/);
  throwsNamed(() => pa.race({ models: [{ kind: 'rnn' }] }), /options.models\[0\].kind/);
  throwsNamed(() => pa.race({ models: ['gated:relu'] }), /options.models\[0\] must be an options object/);
  throwsNamed(() => pa.race({ seeds: 0 }), /options.seeds/);
  throwsNamed(() => pa.race({ seeds: 1000 }), /options.seeds/);
  throwsNamed(() => pa.race({ steps: 0 }), /options.steps/);
  throwsNamed(() => pa.race({ widthRule: 'chinchilla' }), /options.widthRule/);
  throwsNamed(() => pa.race({ budget: -3 }), /options.budget/);
  throwsNamed(() => pa.race({ steps: 100000, evalEvery: 1 }), /evalEvery/);
  throwsNamed(() => pa.race({ data: { task: 'spiral', noise: -1 } }), /noise/);
});

test('census: measured null-space dimensions equal the predicted counts', () => {
  const rows = pa.census({ ranks: [1, 2] });
  assert.equal(rows.length, 11 * 5);
  for (const r of rows) {
    assert.equal(r.measured, r.predicted, `${r.kind} ${r.activation} r${r.rank}: ${r.explanation}`);
    assert.ok(r.gapDecades > 3);
    assert.equal(r.spectrum.length, r.parameters);
    if (r.exchangeApplicable) assert.equal(r.exchangeMeasured, r.exchangePredicted);
  }
  const gatedSilu = rows.find((r) => r.kind === 'gated' && r.activation === 'silu' && r.rank === 1);
  assert.equal(gatedSilu.predicted, 3);
  assert.equal(gatedSilu.exchangeMeasured, false);
  throwsNamed(() => pa.census({ kinds: ['rnn'] }), /options.kinds\[0\]/);
  throwsNamed(() => pa.census({ activations: 'relu' }), /options.activations must be a non-empty array/);
  throwsNamed(() => pa.census({ ranks: [9] }), /rank must be an integer from 1 to dIn = 4/);
  throwsNamed(() => pa.census({ hidden: 50, ranks: [4] }), /census cap is 256/);
  throwsNamed(() => pa.census({ threshold: 2 }), /threshold/);
  throwsNamed(() => pa.census({ dIn: 0 }), /options.dIn/);
});

test('rankApprox: the error falls with r and vanishes at r = dIn', () => {
  const rows = pa.rankApprox({ activation: 'silu', dIn: 5, hidden: 4, dOut: 2 });
  assert.deepEqual(rows.map((r) => r.rank), [1, 2, 3, 4, 5]);
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i].error < rows[i - 1].error);
  assert.ok(rows[4].error < 1e-5);
  assert.equal(rows[0].parameters, 4 * (2 * 5 + 2));
  throwsNamed(() => pa.rankApprox({ dIn: 0 }), /options.dIn/);
  throwsNamed(() => pa.rankApprox({ dIn: 65 }), /options.dIn/);
  throwsNamed(() => pa.rankApprox({ activation: 'sin' }), /options.activation/);
  throwsNamed(() => pa.rankApprox({ inputs: 0 }), /options.inputs/);
});

test('interactions reproduce the layer: x·B·xᵀ = u·f(x)', () => {
  const layer = lab.createLayer({ kind: 'gated', activation: 'gelu', dIn: 4, hidden: 6, dOut: 2, seed: 4 });
  const u = new Float32Array([0.6, -1.2]);
  const x = new Float32Array([0.5, -1, 0.25, 2]);
  const at = pa.interactions(layer, u, x);
  assert.ok(at.exact);
  assert.ok(Math.abs(at.quadratic - at.output) < 1e-5 * (1 + Math.abs(at.output)), `${at.quadratic} vs ${at.output}`);
  assert.ok(at.exchangeGap > 1e-3);  // gelu breaks the exchange symmetry
  let q = 0;
  for (let a = 0; a < 4; a++) for (let b = 0; b < 4; b++) q += x[a] * at.matrix[a * 4 + b] * x[b];
  assert.ok(Math.abs(q - at.output) < 1e-4);
  const weightBased = pa.interactions(layer, u);
  assert.equal(weightBased.exact, false);
  assert.ok(weightBased.exchangeGap < 1e-6);  // sym() is the exchange quotient
  assert.ok(weightBased.rawAsymmetry > 0.01);
  assert.equal(weightBased.quadratic, undefined);
  assert.equal(weightBased.eigenvalues.length, 4);
  const mlp = lab.createLayer({ kind: 'mlp', dIn: 4, hidden: 6, dOut: 2 });
  throwsNamed(() => pa.interactions(mlp, u), /this layer is 'mlp'/, 'layer');
  throwsNamed(() => pa.interactions({}, u), /layer must be a layer made by lab.createLayer/);
  throwsNamed(() => pa.interactions(layer, new Float32Array(3)), /u must be a Float32Array of dOut = 2/);
  throwsNamed(() => pa.interactions(layer, u, new Float32Array([1, 2, NaN, 0])), /x\[2\] is NaN/);
  mlp.dispose();
  layer.dispose();
  throwsNamed(() => pa.interactions(layer, u), /this layer has been disposed/);
  assert.equal(lab.liveObjects(), baseline);
});

test('no leaks: create/step/dispose cycles keep liveObjects and the heap flat', () => {
  const cycle = () => {
    const t = pa.createTrainer({ kind: 'gated', hidden: 16, data: { task: 'spiral', count: 400 } });
    t.step(5);
    t.grid(32);
    t.dispose();
    pa.census({ kinds: ['gated'], activations: ['relu'] });
    pa.race({ steps: 5, seeds: 1, models: ['bilinear'] });
  };
  for (let i = 0; i < 5; i++) cycle();
  const heap = lab.heapBytes();
  for (let i = 0; i < 40; i++) cycle();
  assert.equal(lab.heapBytes(), heap);
  assert.equal(lab.liveObjects(), baseline);
});
