// The JS API contract (lab.*: layers, symmetry probes, activations), end to end on the real wasm
// module in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url)));

function randomBatch(rows, dIn, seed = 1) {
  // A small LCG: the test data need not be the library's RNG.
  let s = seed;
  return Float32Array.from({ length: rows * dIn }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return (s / 2147483648) * 4 - 2;
  });
}

test('version is the package.json version', () => {
  assert.equal(lab.version, pkg.version);
});

test('activations list the catalogue in order', () => {
  assert.deepEqual([...lab.activations],
    ['identity', 'relu', 'leaky_relu', 'relu2', 'gelu', 'gelu_tanh', 'silu', 'swish', 'sigmoid', 'tanh', 'softplus']);
});

test('activationInfo reports homogeneity and linearity, and the names readers know', () => {
  assert.deepEqual(lab.activationInfo('silu'), { name: 'silu', homogeneity: null, linear: false,
    label: 'SiLU', shortLabel: 'SiLU', gatedName: 'SwiGLU' });
  assert.deepEqual(lab.activationInfo('relu'), { name: 'relu', homogeneity: 1, linear: false,
    label: 'ReLU', shortLabel: 'ReLU', gatedName: 'ReGLU' });
  assert.deepEqual(lab.activationInfo('relu2'), { name: 'relu2', homogeneity: 2, linear: false,
    label: 'ReLU²', shortLabel: 'ReLU²', gatedName: null });
  assert.deepEqual(lab.activationInfo('identity'), { name: 'identity', homogeneity: 1, linear: true,
    label: 'identity', shortLabel: 'id', gatedName: 'Bilinear' });
  assert.throws(() => lab.activationInfo('sine'), GateLabError);
});

test('createLayer + forward gives rows*dOut finite numbers, deterministic by seed', () => {
  const opts = { kind: 'gated', activation: 'silu', dIn: 4, hidden: 8, dOut: 3, rank: 1, seed: 7 };
  const a = lab.createLayer(opts);
  const b = lab.createLayer(opts);
  const x = randomBatch(5, 4);
  const ya = a.forward(x, 5);
  assert.ok(ya instanceof Float32Array);
  assert.equal(ya.length, 15);
  assert.ok(ya.every(Number.isFinite));
  assert.deepEqual(ya, b.forward(x, 5));
  const c = lab.createLayer({ ...opts, seed: 8 });
  assert.notDeepEqual(ya, c.forward(x, 5));
  [a, b, c].forEach((l) => l.dispose());
});

test('getParams layout: Q and K are hidden x rank x dIn, V hidden x dOut; mlp has no Q', () => {
  const g = lab.createLayer({ kind: 'symmetric', activation: 'relu', dIn: 3, hidden: 5, dOut: 2, rank: 2, seed: 1 });
  const p = g.getParams();
  assert.equal(p.Q.length, 5 * 2 * 3);
  assert.equal(p.K.length, 5 * 2 * 3);
  assert.equal(p.V.length, 5 * 2);
  const m = lab.createLayer({ kind: 'mlp', activation: 'relu', dIn: 3, hidden: 5, dOut: 2, seed: 1 });
  const pm = m.getParams();
  assert.equal(pm.Q, undefined);
  assert.equal(pm.K.length, 15);
  assert.equal(pm.V.length, 10);
  g.dispose();
  m.dispose();
});

test('mlp forward is sigma(x K^T) V computed by hand from getParams', () => {
  const layer = lab.createLayer({ kind: 'mlp', activation: 'relu', dIn: 3, hidden: 4, dOut: 2, seed: 3 });
  const { K, V } = layer.getParams();
  const x = randomBatch(2, 3, 9);
  const y = layer.forward(x, 2);
  for (let i = 0; i < 2; i++) {
    for (let o = 0; o < 2; o++) {
      let sum = 0;
      for (let j = 0; j < 4; j++) {
        let z = 0;
        for (let e = 0; e < 3; e++) z += x[i * 3 + e] * K[j * 3 + e];
        sum += Math.max(0, z) * V[j * 2 + o];
      }
      assert.ok(Math.abs(sum - y[i * 2 + o]) < 1e-5, `${sum} vs ${y[i * 2 + o]}`);
    }
  }
  layer.dispose();
});

test('setParams round-trips and changes the output', () => {
  const layer = lab.createLayer({ kind: 'gated', activation: 'gelu', dIn: 2, hidden: 3, dOut: 1, seed: 2 });
  const p = layer.getParams();
  const x = randomBatch(4, 2);
  const before = layer.forward(x, 4);
  const doubled = { Q: p.Q, K: p.K, V: p.V.map((v) => 2 * v) };
  layer.setParams(doubled);
  assert.deepEqual(layer.getParams().V, doubled.V);
  const after = layer.forward(x, 4);
  after.forEach((v, i) => assert.ok(Math.abs(v - 2 * before[i]) < 1e-6));
  layer.dispose();
});

test('exchanged swaps Q and K; rescaled scales them', () => {
  const layer = lab.createLayer({ kind: 'gated', activation: 'silu', dIn: 2, hidden: 3, dOut: 1, rank: 2, seed: 4 });
  const p = layer.getParams();
  const swapped = layer.exchanged();
  assert.deepEqual(swapped.getParams().Q, p.K);
  assert.deepEqual(swapped.getParams().K, p.Q);
  const scaled = layer.rescaled(2);
  scaled.getParams().Q.forEach((q, i) => assert.equal(q, p.Q[i] * 2));
  scaled.getParams().K.forEach((k, i) => assert.ok(Math.abs(k - p.K[i] / 2) < 1e-7));
  const mlp = lab.createLayer({ kind: 'mlp', activation: 'relu', dIn: 2, hidden: 3, dOut: 1 });
  assert.throws(() => mlp.exchanged(), { name: 'GateLabError', message: /mlp/ });
  assert.throws(() => mlp.rescaled(2), { name: 'GateLabError', message: /mlp/ });
  [layer, swapped, scaled, mlp].forEach((l) => l.dispose());
});

test('symmetry gaps state the theorems', () => {
  const x = randomBatch(64, 4, 5);
  for (const activation of lab.activations) {
    const sym = lab.createLayer({ kind: 'symmetric', activation, dIn: 4, hidden: 8, dOut: 3, rank: 2, seed: 1 });
    const gated = lab.createLayer({ kind: 'gated', activation, dIn: 4, hidden: 8, dOut: 3, rank: 1, seed: 1 });
    assert.ok(lab.symmetry.exchangeGap(sym, x, 64) < 1e-6, activation);
    assert.ok(lab.symmetry.scalingGap(sym, x, 64, -2.5) < 1e-6, activation);
    const exchange = lab.symmetry.exchangeGap(gated, x, 64);
    if (lab.activationInfo(activation).linear) assert.ok(exchange < 1e-6);
    else assert.ok(exchange > 1e-2, `${activation} ${exchange}`);
    const positive = lab.symmetry.scalingGap(gated, x, 64, 3);
    const homogeneousOfDegree1 = lab.activationInfo(activation).homogeneity === 1;
    assert.equal(positive < 1e-6, homogeneousOfDegree1, `${activation} ${positive}`);
    sym.dispose();
    gated.dispose();
  }
  const relu = lab.createLayer({ kind: 'gated', activation: 'relu', dIn: 4, hidden: 8, dOut: 3, seed: 1 });
  assert.ok(lab.symmetry.scalingGap(relu, x, 64, -1) > 1e-2);
  const perUnit = Float32Array.from({ length: 8 }, (_, i) => 0.5 + i);
  assert.ok(lab.symmetry.scalingGap(relu, x, 64, perUnit) < 1e-6);
  relu.dispose();
});

test('exchangePlane is sigma(a)b - sigma(b)a on the grid', () => {
  const n = 5;
  const plane = lab.symmetry.exchangePlane('relu', { min: -2, max: 2, n });
  assert.equal(plane.length, n * n);
  const axis = [-2, -1, 0, 1, 2];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const expected = Math.max(0, axis[i]) * axis[j] - Math.max(0, axis[j]) * axis[i];
      assert.ok(Math.abs(plane[i * n + j] - expected) < 1e-6);
    }
  }
  assert.ok(lab.symmetry.exchangePlane('identity', { n: 16 }).every((v) => Math.abs(v) < 1e-6));
  assert.equal(lab.symmetry.exchangePlane('silu').length, 64 * 64);
});

test('activationCurve gives value, derivative and sigma(z)/z', () => {
  const c = lab.activationCurve('relu', { min: -1, max: 1, n: 3 });
  assert.deepEqual([...c.z], [-1, 0, 1]);
  assert.ok(c.value[0] === 0 && c.value[1] === 0 && c.value[2] === 1);
  assert.ok(c.ratio[0] === 0 && c.ratio[1] === c.derivative[1] && c.ratio[2] === 1);
});

test('backward returns gradients shaped like the parameters', () => {
  const layer = lab.createLayer({ kind: 'symmetric', activation: 'tanh', dIn: 3, hidden: 4, dOut: 2, rank: 3,
    seed: 6 });
  const x = randomBatch(5, 3);
  const gradOut = randomBatch(5, 2, 7);
  const g = layer.backward(x, 5, gradOut);
  assert.equal(g.dx.length, 15);
  assert.equal(g.dQ.length, 4 * 3 * 3);
  assert.equal(g.dV.length, 8);
  // Directional check against a forward difference along V.
  const p = layer.getParams();
  const eps = 1e-2;
  const base = layer.forward(x, 5).reduce((s, v, i) => s + v * gradOut[i], 0);
  layer.setParams({ ...p, V: p.V.map((v, i) => (i === 3 ? v + eps : v)) });
  const moved = layer.forward(x, 5).reduce((s, v, i) => s + v * gradOut[i], 0);
  assert.ok(Math.abs((moved - base) / eps - g.dV[3]) < 1e-3);
  layer.dispose();
});
