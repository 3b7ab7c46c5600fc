// lab.cem (issue 5, MATH.md B) end to end on the real wasm module: the contract, the energy
// view of the layers checked through the JS API only (forward = h − η P ∇ε with ∇ε by finite
// differences of energy(), a different code path), causality, energy descent and ascent, the
// tie to standard layers, every error path, and no leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../web/lib/gatelab.js';

const lab = await loadGateLab();
const DIAGONALS = ['none', 'per-head', 'shared'];
const PRECONDS = ['none', 'paper', 'psd'];
const SOFTPLUS_INV_ONE = Math.log(Math.E - 1);

/** Uniform numbers in [-scale, scale) from a small LCG (test data need not be the library's RNG). */
function randomArray(length, seed = 1, scale = 1) {
  let s = seed >>> 0;
  return Float32Array.from({ length }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s / 4294967296) * 2 - 1) * scale;
  });
}

function throwsNamed(fn, pattern, argument) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof GateLabError, `expected GateLabError, got ${e?.constructor?.name}: ${e?.message}`);
    assert.match(e.message, pattern);
    if (argument !== undefined) assert.equal(e.argument, argument, e.message);
    return true;
  });
}

function relError(got, want) {
  let num = 0;
  let den = 0;
  for (let i = 0; i < want.length; i++) {
    num += (got[i] - want[i]) ** 2;
    den += want[i] ** 2;
  }
  return Math.sqrt(num) / Math.max(Math.sqrt(den), 1e-30);
}

const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);
const row = (a, i, d) => a.slice(i * d, (i + 1) * d);

/** Randomises every parameter a little (diag and the preconditioner included) so nothing is trivial. */
function randomizeParams(layer, seed, scale = 0.5) {
  const params = layer.getParams();
  const next = {};
  let k = 0;
  for (const [name, value] of Object.entries(params)) {
    next[name] = randomArray(value.length, seed + 7 * k++, scale);
    if (name === 'precond') next[name].fill(SOFTPLUS_INV_ONE, 0, layer.d);  // softplus(p) = 1 on P's diagonal
  }
  layer.setParams(next);
}

/** ∇ε(y) at token i by central differences with Richardson extrapolation (error O(δ⁴)). */
function fdGradient(layer, h, n, i, y) {
  const d = y.length;
  const g = new Float64Array(d);
  const central = (c, delta) => {
    const yp = y.slice();
    const ym = y.slice();
    yp[c] += delta;
    ym[c] -= delta;
    return (layer.energy(h, n, i, yp) - layer.energy(h, n, i, ym)) / (yp[c] - ym[c]);
  };
  const delta = 2 ** -7;
  for (let c = 0; c < d; c++) g[c] = (4 * central(c, delta / 2) - central(c, delta)) / 3;
  return g;
}

/** Checks forward(h) = h − η P ∇ε(h_i) row by row (T = 1). */
function checkOneStep(layer, h, n, tolerance, what) {
  const d = layer.d;
  const out = layer.forward(h, n);
  const P = layer.preconditioner();
  const eta = Math.fround(layer.options.eta);
  for (let i = 0; i < n; i++) {
    const y = row(h, i, d);
    const g = fdGradient(layer, h, n, i, y);
    const want = new Float64Array(d);
    const got = new Float64Array(d);
    for (let a = 0; a < d; a++) {
      let pg = 0;
      for (let b = 0; b < d; b++) pg += P[a * d + b] * g[b];
      want[a] = -eta * pg;
      got[a] = out[i * d + a] - y[a];
    }
    const e = relError(got, want);
    assert.ok(e <= tolerance, `${what}, token ${i}: relative error ${e} > ${tolerance}`);
  }
}

test('createAttention follows the contract: options, defaults, β, parameter count', () => {
  const att = lab.cem.createAttention({ d: 8, heads: 2, steps: 1, eta: 1, beta: undefined, diagonal: 'none',
    precond: 'none', precondRank: 2, seed: 3 });
  assert.equal(att.beta, Math.fround(1 / Math.sqrt(4)));
  assert.equal(att.parameterCount, 2 * 8 * 8, '2d² parameters (MATH.md B2)');
  assert.deepEqual(Object.keys(att.getParams()), ['WQ', 'WK']);
  att.dispose();

  const full = lab.cem.createAttention({ d: 8, heads: 2, diagonal: 'per-head', precond: 'paper', precondRank: 2, seed: 3 });
  assert.deepEqual(full.options, { d: 8, heads: 2, steps: 1, eta: 1, beta: Math.fround(1 / 2), diagonal: 'per-head',
    precond: 'paper', precondRank: 2, seed: 3 });
  const p = full.getParams();
  assert.deepEqual(Object.keys(p), ['WQ', 'WK', 'diag', 'precond']);
  assert.equal(p.WQ.length, 64);
  assert.equal(p.diag.length, 2 * 8);
  assert.equal(p.precond.length, 8 + 2 * 8 * 2, '[p | U | V]');
  assert.equal(full.parameterCount, 64 + 64 + 16 + 40);
  assert.deepEqual(full.parameterLayout.map((l) => [l.name, l.size]), [['WQ', 64], ['WK', 64], ['diag', 16], ['precond', 40]]);
  // The paper's P starts at I: p = log(e − 1), V = 0.
  for (let c = 0; c < 8; c++) assert.ok(Math.abs(p.precond[c] - SOFTPLUS_INV_ONE) < 1e-6);
  assert.ok(p.precond.subarray(8 + 16).every((v) => v === 0), 'V = 0');
  assert.ok(Math.abs(full.minEigenvalue() - 1) < 1e-6);
  full.dispose();

  const shared = lab.cem.createAttention({ d: 6, heads: 3, diagonal: 'shared', precond: 'psd', precondRank: 1, beta: 0.7, seed: 1 });
  const sp = shared.getParams();
  assert.equal(sp.diag.length, 6, 'one diagonal shared by all heads');
  assert.equal(sp.precond.length, 6 + 6, '[p | U], no V for psd');
  assert.equal(shared.beta, Math.fround(0.7));
  shared.dispose();

  const defaults = lab.cem.createAttention({ d: 4 });
  assert.deepEqual({ ...defaults.options }, { d: 4, heads: 1, steps: 1, eta: 1, beta: Math.fround(0.5), diagonal: 'none',
    precond: 'none', precondRank: 0, seed: 0 });
  defaults.dispose();
  assert.equal(lab.liveObjects(), 0);
});

test('the same seed gives the same weights; another seed other weights', () => {
  const a = lab.cem.createAttention({ d: 8, heads: 2, seed: 9 });
  const b = lab.cem.createAttention({ d: 8, heads: 2, seed: 9 });
  const c = lab.cem.createAttention({ d: 8, heads: 2, seed: 10 });
  assert.deepEqual(bits(a.getParams().WQ), bits(b.getParams().WQ));
  assert.notDeepEqual(bits(a.getParams().WQ), bits(c.getParams().WQ));
  [a, b, c].forEach((x) => x.dispose());
});

test('forward, energy, energyTrace, trajectory and energyGrid agree with each other', () => {
  const d = 8;
  const n = 5;
  const att = lab.cem.createAttention({ d, heads: 2, steps: 3, eta: 0.5, diagonal: 'shared', precond: 'psd', precondRank: 2, seed: 4 });
  randomizeParams(att, 40, 0.4);
  const h = randomArray(n * d, 2);
  const out = att.forward(h, n);
  assert.ok(out instanceof Float32Array && out.length === n * d);
  const trace = att.energyTrace(h, n);
  assert.ok(trace instanceof Float32Array && trace.length === n * 4);
  const path = att.trajectory(h, n);
  assert.equal(path.length, 4 * n * d);
  assert.deepEqual(bits(path.slice(0, n * d)), bits(h), 'y⁰ = h');
  assert.deepEqual(bits(path.slice(3 * n * d)), bits(out), 'y^T = forward');
  for (let i = 0; i < n; i++) {
    for (let t = 0; t <= 3; t++) {
      const y = path.slice((t * n + i) * d, (t * n + i + 1) * d);
      assert.equal(trace[i * 4 + t], Math.fround(att.energy(h, n, i, y)), `trace of token ${i}, step ${t}`);
    }
  }
  // The grid is energy() at y = origin + u·a₀ + v·a₁, u and v from min to max.
  const G = 7;
  const origin = randomArray(d, 5);
  const axes = randomArray(2 * d, 6);
  const [min, max] = [-1.5, 2];
  const grid = att.energyGrid(h, n, 3, { min, max, G, origin, axes });
  assert.equal(grid.length, G * G);
  for (const [r, c] of [[0, 0], [0, 6], [3, 2], [6, 6], [5, 1]]) {
    const u = min + ((max - min) * c) / (G - 1);
    const v = min + ((max - min) * r) / (G - 1);
    const y = Float32Array.from({ length: d }, (_, k) => origin[k] + u * axes[k] + v * axes[d + k]);
    assert.equal(grid[r * G + c], Math.fround(att.energy(h, n, 3, y)), `grid cell (${r}, ${c})`);
  }
  // Default plane: the first two coordinates through the origin.
  const plane = att.energyGrid(h, n, 0, { G: 3 });
  const y = new Float32Array(d);
  y[0] = 3;
  y[1] = -3;
  assert.equal(plane[0 * 3 + 2], Math.fround(att.energy(h, n, 0, y)));
  att.dispose();
});

test('results are copies: changing them or the inputs changes nothing inside', () => {
  const att = lab.cem.createAttention({ d: 4, heads: 2, diagonal: 'per-head', seed: 1 });
  const p = att.getParams();
  p.WQ.fill(7);
  assert.notEqual(att.getParams().WQ[0], 7);
  const h = randomArray(12, 3);
  const out = att.forward(h, 3);
  out.fill(0);
  h[0] = 5;
  assert.notEqual(att.forward(randomArray(12, 3), 3)[0], 0);
  att.dispose();
});

test('setParams replaces the named parameters and keeps the others', () => {
  const att = lab.cem.createAttention({ d: 4, heads: 2, diagonal: 'per-head', precond: 'paper', precondRank: 1, seed: 2 });
  const before = att.getParams();
  const diag = randomArray(8, 11);
  att.setParams({ diag });
  const after = att.getParams();
  assert.deepEqual(bits(after.diag), bits(diag));
  assert.deepEqual(bits(after.WQ), bits(before.WQ));
  assert.deepEqual(bits(after.precond), bits(before.precond));
  att.setParams(before);
  assert.deepEqual(bits(att.getParams().diag), bits(before.diag));
  att.dispose();
});

test('forward = h − η P ∇ε with ∇ε by finite differences of energy(): attention, every diagonal, heads and P', () => {
  const d = 4;
  const n = 4;
  for (const diagonal of DIAGONALS) {
    for (const heads of [1, 2]) {
      for (const precond of PRECONDS) {
        const att = lab.cem.createAttention({ d, heads, steps: 1, eta: 0.7, diagonal, precond, precondRank: 2, seed: 5 });
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
    const att = lab.cem.createAttention({ d, heads: 3, steps: 3, eta: 0.8, diagonal, precond: 'paper', precondRank: 2, seed: 8 });
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
    const att = lab.cem.createAttention({ d, heads: 2, steps: T, eta: 0.05, diagonal, precond: 'psd', precondRank: 3, seed: 12 });
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
  const mlp = lab.cem.createMlp({ d, hidden: 10, activation: 'silu', steps: T, eta: 0.02, precond: 'psd', precondRank: 2, seed: 3 });
  const trace = mlp.energyTrace(randomArray(n * d, 14), n);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < T; t++) assert.ok(trace[i * (T + 1) + t + 1] < trace[i * (T + 1) + t], `mlp token ${i}, step ${t}`);
  }
  mlp.dispose();
});

test("the paper's P can be indefinite, and then a step raises the energy", () => {
  // P = I + u vᵀ + v uᵀ with u = e, v = −e (e the unit gradient direction) is I − 2 e eᵀ: it
  // reflects the gradient, eigenvalues 1 and −1, and the step goes uphill.
  const d = 6;
  const n = 5;
  const i = n - 1;
  const att = lab.cem.createAttention({ d, heads: 2, steps: 1, eta: 0.01, diagonal: 'shared', precond: 'paper', precondRank: 1, seed: 2 });
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
          want += precond === 'paper' ? U[a * r + k] * V[b * r + k] + V[a * r + k] * U[b * r + k] : U[a * r + k] * U[b * r + k];
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

test('tied attention equals standard attention with W_V = W_K and W_O = η W_Qᵀ', () => {
  const d = 8;
  const n = 6;
  for (const heads of [1, 2, 4]) {
    const att = lab.cem.createAttention({ d, heads, eta: 0.7, seed: heads });
    const standard = lab.cem.asStandardAttention(att);
    assert.equal(standard.beta, att.beta);
    assert.equal(att.parameterCount, 2 * d * d);
    assert.equal(standard.parameterCount, 4 * d * d, 'twice the parameters (MATH.md B2)');
    const tied = att.getParams();
    const { WQ, WK, WV, WO } = standard.getParams();
    assert.deepEqual(bits(WQ), bits(tied.WQ));
    assert.deepEqual(bits(WK), bits(tied.WK));
    assert.deepEqual(bits(WV), bits(tied.WK), 'W_V = W_K');
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < d; b++) assert.equal(WO[a * d + b], Math.fround(Math.fround(0.7) * tied.WQ[b * d + a]), 'W_O = η W_Qᵀ');
    }
    const h = randomArray(n * d, 40 + heads);
    const cem = att.forward(h, n);
    const update = standard.forward(h, n);
    const want = Float64Array.from(update);
    const got = Float64Array.from(cem, (v, k) => v - h[k]);
    assert.ok(relError(got, want) < 1e-5, `heads ${heads}: ${relError(got, want)}`);
    att.dispose();
    standard.dispose();
  }
  // An untied standard attention of its own weights is a different layer.
  const base = lab.cem.createStandardAttention({ d, heads: 2, seed: 1 });
  assert.deepEqual(Object.keys(base.getParams()), ['WQ', 'WK', 'WV', 'WO']);
  assert.equal(base.forward(randomArray(n * d, 1), n).length, n * d);
  base.dispose();
});

test('the tied MLP equals a gated MLP with W_down = η Wᵀ', () => {
  const d = 6;
  const hidden = 10;
  const n = 4;
  for (const activation of ['relu', 'silu', 'gelu_tanh', 'identity']) {
    const mlp = lab.cem.createMlp({ d, hidden, activation, eta: 0.6, seed: 2 });
    const gated = lab.cem.asGatedMlp(mlp);
    assert.equal(mlp.parameterCount, 2 * d * hidden);
    assert.equal(gated.parameterCount, 3 * d * hidden, 'a third more (MATH.md B3)');
    const { W, U } = mlp.getParams();
    const { Wgate, Wup, Wdown } = gated.getParams();
    assert.deepEqual(bits(Wgate), bits(W));
    assert.deepEqual(bits(Wup), bits(U));
    for (let a = 0; a < d; a++) {
      for (let k = 0; k < hidden; k++) assert.equal(Wdown[a * hidden + k], Math.fround(Math.fround(0.6) * W[k * d + a]));
    }
    const h = randomArray(n * d, 5);
    const got = Float64Array.from(mlp.forward(h, n), (v, k) => v - h[k]);
    assert.ok(relError(got, gated.forward(h, n)) < 1e-5, activation);
    mlp.dispose();
    gated.dispose();
  }
  const swiglu = lab.cem.createGatedMlp({ d, hidden, seed: 1 });
  assert.equal(swiglu.options.activation, 'silu', 'SwiGLU by default');
  swiglu.dispose();
});

test('backward: gradients are linear in gradOut and dh matches finite differences of forward', () => {
  const d = 4;
  const n = 3;
  const att = lab.cem.createAttention({ d, heads: 2, steps: 2, eta: 0.5, diagonal: 'per-head', precond: 'paper', precondRank: 1, seed: 6 });
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

test('createAttention and createMlp refuse bad options with a message naming the option', () => {
  const good = { d: 8, heads: 2, steps: 1, eta: 1, diagonal: 'none', precond: 'paper', precondRank: 2, seed: 3 };
  throwsNamed(() => lab.cem.createAttention(), /d must be an integer/, 'd');
  throwsNamed(() => lab.cem.createAttention(null), /options/, 'options');
  throwsNamed(() => lab.cem.createAttention([1]), /options/, 'options');
  for (const bad of [2.5, NaN, Infinity, '8', null, 1e12]) throwsNamed(() => lab.cem.createAttention({ ...good, d: bad }), /^d must/, 'd');
  throwsNamed(() => lab.cem.createAttention({ ...good, d: 0 }), /d must be in 1…1024 \(d = 0\)/, 'd');
  throwsNamed(() => lab.cem.createAttention({ ...good, d: 2048 }), /d must be in 1…1024/, 'd');
  throwsNamed(() => lab.cem.createAttention({ ...good, heads: 3 }), /heads must divide d \(d = 8, heads = 3\)/, 'heads');
  for (const bad of [0, -2, 1.5, NaN]) throwsNamed(() => lab.cem.createAttention({ ...good, heads: bad }), /heads/, 'heads');
  for (const bad of [0, 17, 1.5, '2']) throwsNamed(() => lab.cem.createAttention({ ...good, steps: bad }), /steps/, 'steps');
  for (const bad of [0, -1, NaN, Infinity, 101, 1e300, '1']) throwsNamed(() => lab.cem.createAttention({ ...good, eta: bad }), /eta/, 'eta');
  for (const bad of [0, -1, NaN, null, 1e6]) throwsNamed(() => lab.cem.createAttention({ ...good, beta: bad }), /beta/, 'beta');
  for (const bad of ['per_head', 'diag', 7, null]) {
    throwsNamed(() => lab.cem.createAttention({ ...good, diagonal: bad }), /diagonal must be one of 'none', 'per-head', 'shared'/, 'diagonal');
  }
  for (const bad of ['spd', 'PSD', 0]) throwsNamed(() => lab.cem.createAttention({ ...good, precond: bad }), /precond must be one of/, 'precond');
  throwsNamed(() => lab.cem.createAttention({ ...good, d: 4, heads: 1, precondRank: 5 }), /precondRank must be in 0…min\(d, 64\)/, 'precondRank');
  for (const bad of [-1, 1.5, NaN]) throwsNamed(() => lab.cem.createAttention({ ...good, precondRank: bad }), /precondRank/, 'precondRank');
  for (const bad of [-1, 1.5, 2 ** 32, NaN, '3']) throwsNamed(() => lab.cem.createAttention({ ...good, seed: bad }), /seed/, 'seed');

  const mlp = { d: 8, hidden: 16, activation: 'relu', steps: 1, eta: 1, precond: 'none', seed: 3 };
  throwsNamed(() => lab.cem.createMlp({ d: 8 }), /hidden must be an integer/, 'hidden');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, hidden: 0 }), /hidden must be in 1…8192/, 'hidden');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, hidden: 9000 }), /hidden/, 'hidden');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, activation: 'sine' }), /activation must be one of/, 'activation');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, beta: 2 }), /beta must be given only for activation 'swish'/, 'beta');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, activation: 'swish', beta: 1e6 }), /beta must be in \(0, 100/, 'beta');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, activation: 'swish', beta: NaN }), /beta/, 'beta');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, steps: 0 }), /steps/, 'steps');
  throwsNamed(() => lab.cem.createMlp({ ...mlp, precond: 'x' }), /precond/, 'precond');
  throwsNamed(() => lab.cem.createStandardAttention({ d: 6, heads: 4 }), /heads must divide d/, 'heads');
  throwsNamed(() => lab.cem.createGatedMlp({ d: 6, hidden: -1 }), /hidden/, 'hidden');
  assert.equal(lab.liveObjects(), 0, 'nothing was created');
});

test('every call refuses wrong arrays, lengths, non-finite values and indices', () => {
  const att = lab.cem.createAttention({ d: 4, heads: 2, diagonal: 'per-head', precond: 'psd', precondRank: 1, seed: 1 });
  const h = randomArray(8, 1);
  const y = randomArray(4, 2);
  throwsNamed(() => att.forward([0, 0, 0, 0], 1), /h must be a Float32Array of n·d = 4 numbers \(got an Array/, 'h');
  throwsNamed(() => att.forward(new Float64Array(8), 2), /Float32Array/, 'h');
  throwsNamed(() => att.forward(h, 3), /n·d = 12/, 'h');
  for (const bad of [0, -1, 1.5, NaN, 1e9, '2']) throwsNamed(() => att.forward(h, bad), /^n must be an integer from 1 to 4096/, 'n');
  throwsNamed(() => att.forward(Float32Array.of(0, 0, NaN, 0), 1), /h\[2\] is NaN/, 'h');
  throwsNamed(() => att.forward(Float32Array.of(0, Infinity, 0, 0), 1), /h\[1\] is Infinity/, 'h');
  throwsNamed(() => att.energy(h, 2, 2, y), /^i must be an integer from 0 to 1/, 'i');
  for (const bad of [-1, 0.5, NaN, undefined]) throwsNamed(() => att.energy(h, 2, bad, y), /^i must/, 'i');
  throwsNamed(() => att.energy(h, 2, 1, new Float32Array(3)), /y must be a Float32Array of d = 4/, 'y');
  throwsNamed(() => att.energy(h, 2, 1, Float32Array.of(0, NaN, 0, 0)), /y\[1\] is NaN/, 'y');
  throwsNamed(() => att.energyTrace(h, 4), /n·d = 16/, 'h');
  throwsNamed(() => att.trajectory(new Float32Array(3), 1), /h must be/, 'h');
  throwsNamed(() => att.energyGrid(h, 2, 1, { G: 1 }), /options.G must be an integer from 2 to 512/, 'options.G');
  throwsNamed(() => att.energyGrid(h, 2, 1, { G: 1e6 }), /options.G/, 'options.G');
  throwsNamed(() => att.energyGrid(h, 2, 1, { min: 2, max: 1 }), /options.min \(2\) must be less than options.max \(1\)/, 'options.min');
  throwsNamed(() => att.energyGrid(h, 2, 1, { min: NaN }), /options.min/, 'options.min');
  throwsNamed(() => att.energyGrid(h, 2, 1, { max: 1e39 }), /options.max/, 'options.max');
  throwsNamed(() => att.energyGrid(h, 2, 1, { origin: new Float32Array(2) }), /options.origin must be a Float32Array of d = 4/, 'options.origin');
  throwsNamed(() => att.energyGrid(h, 2, 1, { axes: new Float32Array(4) }), /options.axes must be a Float32Array of 2·d = 8/, 'options.axes');
  throwsNamed(() => att.energyGrid(h, 2, 2), /^i must/, 'i');
  throwsNamed(() => att.energyGrid(h, 2, 1, 'big'), /options/, 'options');
  throwsNamed(() => att.backward(h, 2, new Float32Array(3)), /gradOut must be a Float32Array of n·d = 8/, 'gradOut');
  throwsNamed(() => att.setParams(null), /params must be an object/, 'params');
  throwsNamed(() => att.setParams({ WQ: new Float32Array(3) }), /params.WQ must be a Float32Array of 4×4 = 16 numbers/, 'params.WQ');
  throwsNamed(() => att.setParams({ diag: new Float32Array(4) }), /params.diag must be a Float32Array of 2×4 = 8/, 'params.diag');
  throwsNamed(() => att.setParams({ precond: new Float32Array(4) }), /params.precond must be a Float32Array of d \+ 1·d·r = 8/, 'params.precond');
  throwsNamed(() => att.setParams({ Wq: new Float32Array(16) }), /params.Wq is not a parameter of this CEM attention \(its parameters: WQ, WK, diag, precond\)/, 'params.Wq');
  throwsNamed(() => att.setParams({ WK: new Float32Array(16).fill(NaN) }), /params.WK\[0\] is NaN/, 'params.WK');
  assert.equal(att.forward(h, 2).length, 8, 'still usable');

  const d1 = lab.cem.createAttention({ d: 1 });
  throwsNamed(() => d1.energyGrid(new Float32Array(1), 1, 0), /options.axes must be given when d < 2/, 'options.axes');
  assert.equal(d1.energyGrid(new Float32Array(1), 1, 0, { axes: Float32Array.of(1, 0), G: 4 }).length, 16);
  d1.dispose();

  const mlp = lab.cem.createMlp({ d: 4, hidden: 4, activation: 'gelu_tanh', seed: 1 });
  throwsNamed(() => mlp.energy(h, 2, 0, y), /energy needs an activation with a closed-form antiderivative; gelu_tanh has none/, 'activation');
  throwsNamed(() => mlp.energyTrace(h, 2), /antiderivative/, 'activation');
  throwsNamed(() => mlp.energyGrid(h, 2, 0), /antiderivative/, 'activation');
  assert.equal(mlp.forward(h, 2).length, 8, 'forward needs no Φ');
  mlp.dispose();
  att.dispose();
});

test('the tie helpers refuse layers that are not one standard layer', () => {
  const stepped = lab.cem.createAttention({ d: 4, steps: 2 });
  const diag = lab.cem.createAttention({ d: 4, diagonal: 'shared' });
  const pre = lab.cem.createAttention({ d: 4, precond: 'psd' });
  throwsNamed(() => lab.cem.asStandardAttention(stepped), /only one step \(steps = 1\)/, 'attention');
  throwsNamed(() => lab.cem.asStandardAttention(diag), /diagonal must be 'none'/, 'attention');
  throwsNamed(() => lab.cem.asStandardAttention(pre), /precond must be 'none'/, 'attention');
  throwsNamed(() => lab.cem.asStandardAttention({}), /attention must be a CEM attention made by lab.cem.createAttention/, 'attention');
  const mlp = lab.cem.createMlp({ d: 4, hidden: 3, precond: 'paper' });
  throwsNamed(() => lab.cem.asGatedMlp(mlp), /precond must be 'none'/, 'mlp');
  throwsNamed(() => lab.cem.asGatedMlp(stepped), /mlp must be a CEM MLP/, 'mlp');
  [stepped, diag, pre, mlp].forEach((x) => x.dispose());
  throwsNamed(() => lab.cem.asStandardAttention(stepped), /disposed/, 'this');
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
    throwsNamed(() => x.forward(h, 1), /has been disposed/, 'this');
    throwsNamed(() => x.energy(h, 1, 0, h), /disposed/, 'this');
    throwsNamed(() => x.energyTrace(h, 1), /disposed/, 'this');
    throwsNamed(() => x.trajectory(h, 1), /disposed/, 'this');
    throwsNamed(() => x.energyGrid(h, 1, 0), /disposed/, 'this');
    throwsNamed(() => x.backward(h, 1, h), /disposed/, 'this');
    throwsNamed(() => x.getParams(), /disposed/, 'this');
    throwsNamed(() => x.setParams({}), /disposed/, 'this');
    throwsNamed(() => x.minEigenvalue(), /disposed/, 'this');
    throwsNamed(() => x.preconditioner(), /disposed/, 'this');
    throwsNamed(() => x.spectrum(), /disposed/, 'this');
    throwsNamed(() => x.parameterCount, /disposed/, 'this');
  }
  throwsNamed(() => std.forward(h, 1), /disposed/, 'this');
  throwsNamed(() => gated.getParams(), /disposed/, 'this');
  assert.equal(lab.liveObjects(), 0);
});

test('1000 create/use/dispose cycles leak neither handles nor heap', () => {
  const h = randomArray(6 * 8, 1);
  const cycle = () => {
    const att = lab.cem.createAttention({ d: 8, heads: 2, steps: 2, diagonal: 'shared', precond: 'paper', precondRank: 2, seed: 3 });
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
