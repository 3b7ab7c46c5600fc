// lab.cem (docs/MATH.md §B) end to end on the real wasm module, part 2 of 3: the energy view
// of the layers checked through the JS API only — forward = h − η P ∇ε with ∇ε by finite
// differences of energy() (a different code path), causality, energy descent and ascent, the
// preconditioner and its spectrum, backward against finite differences of forward, and the
// energy gradient against both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, DIAGONALS, PRECONDS, SOFTPLUS_INV_ONE, randomArray, bits, row, randomizeParams, fdGradient, checkOneStep,
  relError, throwsNamed } from './fixture.mjs';

test('forward = h − η P ∇ε with ∇ε by finite differences of energy(): attention, every diagonal, heads and P', () => {
  const d = 4;
  const n = 4;
  for (const diagonal of DIAGONALS) {
    for (const heads of [1, 2]) {
      for (const precond of PRECONDS) {
        const att = lab.cem.createAttention({ d, heads, steps: 1, eta: 0.7, diagonal, precond, precondRank: 2,
          seed: 5 });
        randomizeParams(att, 100 + heads, 0.6);
        const h = randomArray(n * d, 17 + heads);
        checkOneStep(att, h, n, 1e-4, `attention diagonal=${diagonal} heads=${heads} precond=${precond}`);
        att.dispose();
      }
    }
  }
});

test('forward = h − η P ∇ε for the tied MLP, every activation with a closed-form Φ', () => {
  const d = 4;
  const n = 3;
  const activations = lab.activations.filter((a) => a !== 'gelu_tanh');
  assert.equal(activations.length, 10);
  for (const activation of activations) {
    for (const precond of PRECONDS) {
      const mlp = lab.cem.createMlp({ d, hidden: 6, activation, steps: 1, eta: 0.8, precond, precondRank: 2, seed: 7 });
      randomizeParams(mlp, 300, 0.6);
      const h = randomArray(n * d, 23, 1.2);
      checkOneStep(mlp, h, n, 1e-4, `mlp ${activation} precond=${precond}`);
      mlp.dispose();
    }
  }
  const swish = lab.cem.createMlp({ d, hidden: 5, activation: 'swish', beta: 1.7, eta: 0.5, seed: 2 });
  assert.equal(swish.options.beta, 1.7);
  checkOneStep(swish, randomArray(2 * d, 4), 2, 1e-4, 'mlp swish β = 1.7');
  swish.dispose();
});

test('causality: changing a later token leaves every earlier output bit-identical', () => {
  const d = 6;
  const n = 8;
  const changed = 5;
  for (const diagonal of DIAGONALS) {
    const att = lab.cem.createAttention({ d, heads: 3, steps: 3, eta: 0.8, diagonal, precond: 'paper',
      precondRank: 2, seed: 8 });
    randomizeParams(att, 60, 0.5);
    const h = randomArray(n * d, 9);
    const a = att.forward(h, n);
    const ta = att.energyTrace(h, n);
    h[changed * d + 2] += 0.75;
    const b = att.forward(h, n);
    const tb = att.energyTrace(h, n);
    assert.deepEqual(bits(a.slice(0, changed * d)), bits(b.slice(0, changed * d)), diagonal);
    assert.deepEqual(bits(ta.slice(0, changed * 4)), bits(tb.slice(0, changed * 4)), `${diagonal}: energies`);
    assert.notDeepEqual(bits(a.slice(changed * d, (changed + 1) * d)), bits(b.slice(changed * d, (changed + 1) * d)));
    att.dispose();
  }
  const mlp = lab.cem.createMlp({ d, hidden: 12, activation: 'silu', steps: 2, seed: 1 });
  const h = randomArray(n * d, 3);
  const a = mlp.forward(h, n);
  h[changed * d] += 1;
  const b = mlp.forward(h, n);
  assert.deepEqual(bits(a.slice(0, changed * d)), bits(b.slice(0, changed * d)));
  mlp.dispose();
});

test('with a small η and a positive-definite P the energy falls at every step', () => {
  const d = 6;
  const n = 6;
  const T = 8;
  for (const diagonal of DIAGONALS) {
    const att = lab.cem.createAttention({ d, heads: 2, steps: T, eta: 0.05, diagonal, precond: 'psd',
      precondRank: 3, seed: 12 });
    randomizeParams(att, 80, 0.4);
    assert.ok(att.minEigenvalue() > 0, 'psd P is positive definite');
    const trace = att.energyTrace(randomArray(n * d, 13), n);
    for (let i = 0; i < n; i++) {
      for (let t = 0; t < T; t++) {
        assert.ok(trace[i * (T + 1) + t + 1] < trace[i * (T + 1) + t], `${diagonal}: token ${i}, step ${t}`);
      }
    }
    att.dispose();
  }
  const mlp = lab.cem.createMlp({ d, hidden: 10, activation: 'silu', steps: T, eta: 0.02, precond: 'psd',
    precondRank: 2, seed: 3 });
  const trace = mlp.energyTrace(randomArray(n * d, 14), n);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < T; t++) {
      assert.ok(trace[i * (T + 1) + t + 1] < trace[i * (T + 1) + t], `mlp token ${i}, step ${t}`);
    }
  }
  mlp.dispose();
});

test("the paper's P can be indefinite, and then a step raises the energy", () => {
  // P = I + u vᵀ + v uᵀ with u = e, v = −e (e the unit gradient direction) is I − 2 e eᵀ: it
  // reflects the gradient, eigenvalues 1 and −1, and the step goes uphill.
  const d = 6;
  const n = 5;
  const i = n - 1;
  const att = lab.cem.createAttention({ d, heads: 2, steps: 1, eta: 0.01, diagonal: 'shared', precond: 'paper',
    precondRank: 1, seed: 2 });
  randomizeParams(att, 5, 0.6);
  const h = randomArray(n * d, 9);
  const g = fdGradient(att, h, n, i, row(h, i, d));
  const norm = Math.hypot(...g);
  const precond = new Float32Array(d + 2 * d);
  precond.fill(SOFTPLUS_INV_ONE, 0, d);
  for (let c = 0; c < d; c++) {
    precond[d + c] = g[c] / norm;
    precond[2 * d + c] = -g[c] / norm;
  }
  att.setParams({ precond });
  assert.ok(Math.abs(att.minEigenvalue() + 1) < 1e-5, `λ_min = ${att.minEigenvalue()}`);
  const spectrum = att.spectrum();
  assert.ok(Math.abs(spectrum[0] + 1) < 1e-5 && Math.abs(spectrum[d - 1] - 1) < 1e-5, String(spectrum));
  const trace = att.energyTrace(h, n);
  assert.ok(trace[i * 2 + 1] > trace[i * 2], `the step raised the energy: ${trace[i * 2]} → ${trace[i * 2 + 1]}`);
  att.dispose();
});

test('the preconditioner and its spectrum: P = diag(softplus(p)) + UVᵀ + VUᵀ or + UUᵀ', () => {
  const d = 5;
  const r = 2;
  for (const precond of ['paper', 'psd']) {
    const att = lab.cem.createAttention({ d, heads: 1, precond, precondRank: r, seed: 3 });
    const flat = randomArray(precond === 'paper' ? d + 2 * d * r : d + d * r, 31, 0.8);
    att.setParams({ precond: flat });
    const p = flat.subarray(0, d);
    const U = flat.subarray(d, d + d * r);
    const V = precond === 'paper' ? flat.subarray(d + d * r) : U;
    const P = att.preconditioner();
    let trace = 0;
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < d; b++) {
        let want = a === b ? Math.log1p(Math.exp(p[a])) : 0;
        for (let k = 0; k < r; k++) {
          want += precond === 'paper'
            ? U[a * r + k] * V[b * r + k] + V[a * r + k] * U[b * r + k] : U[a * r + k] * U[b * r + k];
        }
        assert.ok(Math.abs(P[a * d + b] - want) < 1e-5, `${precond} P[${a}][${b}] = ${P[a * d + b]}, want ${want}`);
        if (a === b) trace += want;
      }
    }
    const spectrum = att.spectrum();
    assert.equal(spectrum.length, d);
    for (let k = 1; k < d; k++) assert.ok(spectrum[k] >= spectrum[k - 1], 'ascending');
    assert.ok(Math.abs(spectrum[0] - att.minEigenvalue()) < 1e-5);
    assert.ok(Math.abs(spectrum.reduce((s, v) => s + v, 0) - trace) < 1e-4, 'eigenvalues sum to the trace');
    if (precond === 'psd') assert.ok(spectrum[0] > 0);
    att.dispose();
  }
  const none = lab.cem.createAttention({ d: 3 });
  assert.deepEqual([...none.preconditioner()], [1, 0, 0, 0, 1, 0, 0, 0, 1]);
  assert.deepEqual([...none.spectrum()], [1, 1, 1]);
  assert.equal(none.minEigenvalue(), 1);
  none.dispose();
});

test('backward: gradients are linear in gradOut and dh matches finite differences of forward', () => {
  const d = 4;
  const n = 3;
  const att = lab.cem.createAttention({ d, heads: 2, steps: 2, eta: 0.5, diagonal: 'per-head', precond: 'paper',
    precondRank: 1, seed: 6 });
  randomizeParams(att, 9, 0.5);
  const h = randomArray(n * d, 2);
  const gradOut = randomArray(n * d, 3);
  const g1 = att.backward(h, n, gradOut);
  assert.deepEqual(Object.keys(g1), ['dh', 'dWQ', 'dWK', 'dDiag', 'dPrecond']);
  assert.equal(g1.dPrecond.length, att.getParams().precond.length);
  const g2 = att.backward(h, n, gradOut.map((v) => 2 * v));
  for (const key of Object.keys(g1)) {
    assert.deepEqual(bits(g2[key]), bits(g1[key].map((v) => 2 * v)), `${key} doubles exactly`);
  }
  const loss = (x) => att.forward(x, n).reduce((s, v, k) => s + v * gradOut[k], 0);
  for (let k = 0; k < n * d; k++) {
    const xp = h.slice();
    const xm = h.slice();
    xp[k] += 1e-2;
    xm[k] -= 1e-2;
    const fd = (loss(xp) - loss(xm)) / (xp[k] - xm[k]);
    assert.ok(Math.abs(fd - g1.dh[k]) < 2e-3 * Math.max(1, Math.abs(fd)), `dh[${k}] = ${g1.dh[k]}, fd ${fd}`);
  }
  att.dispose();
  const mlp = lab.cem.createMlp({ d, hidden: 5, activation: 'silu', seed: 1 });
  assert.deepEqual(Object.keys(mlp.backward(h, n, gradOut)), ['dh', 'dW', 'dU']);
  mlp.dispose();
});

test('energyGradient: ∇ε matches finite differences of energy(), and −∇ε at h_i is one plain step', () => {
  const d = 4;
  const n = 4;
  const layers = [
    ...DIAGONALS.map((diagonal) => lab.cem.createAttention({ d, heads: 2, steps: 3, eta: 0.4, diagonal,
      precond: 'paper', seed: 4 })),
    lab.cem.createMlp({ d, hidden: 6, activation: 'silu', steps: 2, precond: 'psd', seed: 5 }),
    lab.cem.createMlp({ d, hidden: 6, activation: 'gelu_tanh', seed: 6 }),  // no closed-form Φ: a gradient all the same
  ];
  layers.forEach((layer, k) => randomizeParams(layer, 40 + k, 0.6));
  const h = randomArray(n * d, 31, 1.1);
  for (const layer of layers) {
    const what = `${layer.constructor.label} ${layer.options.diagonal ?? layer.options.activation}`;
    const { steps: _steps, eta: _eta, precond: _precond, precondRank: _precondRank, ...plainOptions } = layer.options;
    const plain = layer.heads === undefined ? lab.cem.createMlp(plainOptions) : lab.cem.createAttention(plainOptions);
    const { precond: _, ...weights } = layer.getParams();
    plain.setParams(weights);
    const step = plain.forward(h, n);
    plain.dispose();
    for (let i = 0; i < n; i++) {
      const g = layer.energyGradient(h, n, i, row(h, i, d));
      assert.ok(g instanceof Float32Array && g.length === d, what);
      const minusStep = Array.from({ length: d }, (_, c) => h[i * d + c] - step[i * d + c]);
      assert.ok(relError(g, minusStep) < 1e-5, `${what}, token ${i}: −∇ε against the plain step`);
      if (layer.options.activation === 'gelu_tanh') continue;
      const y = randomArray(d, 50 + i, 0.8);
      assert.ok(relError(layer.energyGradient(h, n, i, y), fdGradient(layer, h, n, i, y)) < 1e-4,
        `${what}, token ${i}`);
    }
  }
  const att = layers[0];
  throwsNamed(() => att.energyGradient(h, n, n, row(h, 0, d)), /i/, 'i', 'out-of-range');
  throwsNamed(() => att.energyGradient(h, n, 0, new Float32Array(d + 1)), /y/, 'y', 'invalid-value');
  throwsNamed(() => att.energyGradient(h, n, 0, new Float32Array([NaN, 0, 0, 0])), /y\[0\]/, 'y', 'not-finite');
  throwsNamed(() => att.energyGradient(h.subarray(1), n, 0, row(h, 0, d)), /h/, 'h', 'invalid-value');
  layers.forEach((layer) => layer.dispose());
  throwsNamed(() => att.energyGradient(h, n, 0, row(h, 0, d)), /disposed/, 'this', 'disposed');
});
