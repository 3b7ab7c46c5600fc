// lab.cem (docs/MATH.md §B) end to end on the real wasm module, part 1 of 3: the contract
// (options, defaults, β, parameter counts, seeds), the views of one layer agreeing with each
// other (forward, energy, energyTrace, trajectory, energyGrid), copies in and out, setParams,
// and the tie to standard layers (tied attention and the tied MLP equal their standard forms).
// The energy view is in energy.test.mjs, the error paths and leaks in errors.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPTIONS } from '../../../web/lib/catalogue.js';
import { lab, SOFTPLUS_INV_ONE, randomArray, relError, bits, randomizeParams } from './fixture.mjs';

test('createAttention follows the contract: options, defaults, β, parameter count', () => {
  const att = lab.cem.createAttention({ d: 8, heads: 2, steps: 1, eta: 1, beta: undefined, diagonal: 'none',
    precond: 'none', precondRank: 2, seed: 3 });
  assert.equal(att.beta, Math.fround(1 / Math.sqrt(4)));
  assert.equal(att.parameterCount, 2 * 8 * 8, '2d² parameters (docs/MATH.md §B2)');
  assert.deepEqual(Object.keys(att.getParams()), ['WQ', 'WK']);
  att.dispose();

  const full = lab.cem.createAttention({ d: 8, heads: 2, diagonal: 'per-head', precond: 'paper', precondRank: 2,
    seed: 3 });
  assert.deepEqual(full.options, { d: 8, heads: 2, steps: 1, eta: 1, beta: Math.fround(1 / 2), diagonal: 'per-head',
    precond: 'paper', precondRank: 2, seed: 3 });
  const p = full.getParams();
  assert.deepEqual(Object.keys(p), ['WQ', 'WK', 'diag', 'precond']);
  assert.equal(p.WQ.length, 64);
  assert.equal(p.diag.length, 2 * 8);
  assert.equal(p.precond.length, 8 + 2 * 8 * 2, '[p | U | V]');
  assert.equal(full.parameterCount, 64 + 64 + 16 + 40);
  assert.deepEqual(full.parameterLayout.map((l) => [l.name, l.size]),
    [['WQ', 64], ['WK', 64], ['diag', 16], ['precond', 40]]);
  // The paper's P starts at I: p = log(e − 1), V = 0.
  for (let c = 0; c < 8; c++) assert.ok(Math.abs(p.precond[c] - SOFTPLUS_INV_ONE) < 1e-6);
  assert.ok(p.precond.subarray(8 + 16).every((v) => v === 0), 'V = 0');
  assert.ok(Math.abs(full.minEigenvalue() - 1) < 1e-6);
  full.dispose();

  const shared = lab.cem.createAttention({ d: 6, heads: 3, diagonal: 'shared', precond: 'psd', precondRank: 1,
    beta: 0.7, seed: 1 });
  const sp = shared.getParams();
  assert.equal(sp.diag.length, 6, 'one diagonal shared by all heads');
  assert.equal(sp.precond.length, 6 + 6, '[p | U], no V for psd');
  assert.equal(shared.beta, Math.fround(0.7));
  shared.dispose();

  const defaults = lab.cem.createAttention({ d: 4 });
  assert.deepEqual({ ...defaults.options }, { d: 4, heads: 1, steps: 1, eta: 1, beta: Math.fround(0.5),
    diagonal: 'none', precond: 'none', precondRank: 0, seed: 0 });
  defaults.dispose();
  assert.equal(lab.liveObjects(), 0);
});

test('the makers\' defaults are the core\'s: the catalogue states them, the core picks the rank', () => {
  const stated = (entry, name) => OPTIONS[entry][name].default;
  const mlp = lab.cem.createMlp({ d: 4, hidden: 3 });
  assert.equal(mlp.options.activation, stated('cem.createMlp', 'activation'));
  assert.equal(mlp.options.steps, stated('cem.createMlp', 'steps'));
  const gated = lab.cem.createGatedMlp({ d: 4, hidden: 3 });
  assert.equal(gated.options.activation, stated('cem.createGatedMlp', 'activation'));
  assert.notEqual(mlp.options.activation, gated.options.activation, 'the two MLPs differ by default (ReLU, SiLU)');
  const standard = lab.cem.createStandardAttention({ d: 4 });
  assert.equal(standard.options.heads, stated('cem.createStandardAttention', 'heads'));
  // No rank given: 0 without a preconditioner, else min(2, d).
  const rank = (d, precond) => {
    const layer = lab.cem.createAttention({ d, precond });
    const r = layer.options.precondRank;
    layer.dispose();
    return r;
  };
  assert.deepEqual([rank(1, 'paper'), rank(8, 'paper'), rank(8, 'psd'), rank(8, 'none')], [1, 2, 2, 0]);
  [mlp, gated, standard].forEach((x) => x.dispose());
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
  const att = lab.cem.createAttention({ d, heads: 2, steps: 3, eta: 0.5, diagonal: 'shared', precond: 'psd',
    precondRank: 2, seed: 4 });
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
  const att = lab.cem.createAttention({ d: 4, heads: 2, diagonal: 'per-head', precond: 'paper', precondRank: 1,
    seed: 2 });
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

test('tied attention equals standard attention with W_V = W_K and W_O = η W_Qᵀ', () => {
  const d = 8;
  const n = 6;
  for (const heads of [1, 2, 4]) {
    const att = lab.cem.createAttention({ d, heads, eta: 0.7, seed: heads });
    const standard = lab.cem.asStandardAttention(att);
    assert.equal(standard.beta, att.beta);
    assert.equal(att.parameterCount, 2 * d * d);
    assert.equal(standard.parameterCount, 4 * d * d, 'twice the parameters (docs/MATH.md §B2)');
    const tied = att.getParams();
    const { WQ, WK, WV, WO } = standard.getParams();
    assert.deepEqual(bits(WQ), bits(tied.WQ));
    assert.deepEqual(bits(WK), bits(tied.WK));
    assert.deepEqual(bits(WV), bits(tied.WK), 'W_V = W_K');
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < d; b++) {
        assert.equal(WO[a * d + b], Math.fround(Math.fround(0.7) * tied.WQ[b * d + a]), 'W_O = η W_Qᵀ');
      }
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
    assert.equal(gated.parameterCount, 3 * d * hidden, 'a third more (docs/MATH.md §B3)');
    const { W, U } = mlp.getParams();
    const { Wgate, Wup, Wdown } = gated.getParams();
    assert.deepEqual(bits(Wgate), bits(W));
    assert.deepEqual(bits(Wup), bits(U));
    for (let a = 0; a < d; a++) {
      for (let k = 0; k < hidden; k++) {
        assert.equal(Wdown[a * hidden + k], Math.fround(Math.fround(0.6) * W[k * d + a]));
      }
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
