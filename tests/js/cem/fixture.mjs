// Shared set-up of the lab.cem tests (contract, energy and errors .test.mjs in tests/js/cem/): the
// loaded module, the option values every test loops over, seeded test data, and the checks
// they share (a GateLabError naming its argument and code, relative error, the one-step check of
// forward = h − η P ∇ε against finite differences of energy()). Not a test file itself.
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

export const lab = await loadGateLab();
export const DIAGONALS = ['none', 'per-head', 'shared'];
export const PRECONDS = ['none', 'paper', 'psd'];
export const SOFTPLUS_INV_ONE = Math.log(Math.E - 1);

/** Uniform numbers in [-scale, scale) from a small LCG (test data need not be the library's RNG). */
export function randomArray(length, seed = 1, scale = 1) {
  let s = seed >>> 0;
  return Float32Array.from({ length }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s / 4294967296) * 2 - 1) * scale;
  });
}

/** fn throws a GateLabError whose message matches, naming `argument`, with error code `code`. */
export function throwsNamed(fn, pattern, argument, code) {
  assert.ok(typeof code === 'string', 'every error path states its code');
  assert.throws(fn, (e) => {
    assert.ok(e instanceof GateLabError, `expected GateLabError, got ${e?.constructor?.name}: ${e?.message}`);
    assert.match(e.message, pattern);
    if (argument !== undefined) assert.equal(e.argument, argument, e.message);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

export function relError(got, want) {
  let num = 0;
  let den = 0;
  for (let i = 0; i < want.length; i++) {
    num += (got[i] - want[i]) ** 2;
    den += want[i] ** 2;
  }
  return Math.sqrt(num) / Math.max(Math.sqrt(den), 1e-30);
}

export const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);
export const row = (a, i, d) => a.slice(i * d, (i + 1) * d);

/** Randomises every parameter a little (diag and the preconditioner included) so nothing is trivial. */
export function randomizeParams(layer, seed, scale = 0.5) {
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
export function fdGradient(layer, h, n, i, y) {
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
export function checkOneStep(layer, h, n, tolerance, what) {
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
