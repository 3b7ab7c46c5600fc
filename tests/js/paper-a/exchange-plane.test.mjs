// lab.symmetry.exchangePlane's λ dial (options.symmetrize, docs/MATH.md §A11, §A16) on the real wasm module:
// λ = 0 and no option give the plain plane g(a, b) = σ(a)b − σ(b)a bit for bit; λ = 1 gives exactly 0 for
// every activation; in between (1 − λ)·g, exactly antisymmetric; a bad λ is refused naming
// 'options.symmetrize', with createLayer's codes, and leaves the module usable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);

test('λ = 0 is the plain plane bit for bit, for every activation', () => {
  for (const activation of lab.activations) {
    const plain = lab.symmetry.exchangePlane(activation, { n: 24 });
    const zero = lab.symmetry.exchangePlane(activation, { n: 24, symmetrize: 0 });
    assert.deepEqual(bits(zero), bits(plain), activation);
  }
  const n = 5;
  const relu = lab.symmetry.exchangePlane('relu', { min: -2, max: 2, n, symmetrize: 0 });
  const axis = [-2, -1, 0, 1, 2];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      assert.equal(relu[i * n + j], Math.max(0, axis[i]) * axis[j] - Math.max(0, axis[j]) * axis[i]);
    }
  }
});

test('λ = 1 is exactly zero everywhere, whatever σ: the symgated unit is exchange-symmetric', () => {
  for (const activation of lab.activations) {
    const plane = lab.symmetry.exchangePlane(activation, { min: -4, max: 4, n: 33, symmetrize: 1 });
    assert.ok(plane.every((v) => Object.is(v, 0)), activation);
  }
});

test('in between, the plane is (1 − λ)·g and stays exactly antisymmetric', () => {
  const n = 21;
  for (const activation of ['silu', 'gelu', 'relu', 'sigmoid', 'tanh']) {
    const g = lab.symmetry.exchangePlane(activation, { n });
    for (const lambda of [0.25, 0.5, 0.8]) {
      const plane = lab.symmetry.exchangePlane(activation, { n, symmetrize: lambda });
      let largest = 0;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const want = (1 - Math.fround(lambda)) * g[i * n + j];
          assert.ok(Math.abs(plane[i * n + j] - want) <= 1e-5 * (1 + Math.abs(want)), `${activation} λ ${lambda}`);
          assert.ok(plane[i * n + j] === -plane[j * n + i], 'antisymmetric to the bit (±0 alike)');
          largest = Math.max(largest, Math.abs(plane[i * n + j]));
        }
      }
      assert.ok(largest > 0.01, `${activation} λ ${lambda}: a nonlinear σ keeps part of the gap`);
    }
  }
});

test('a bad λ is refused naming options.symmetrize, with createLayer\'s codes', () => {
  const refuses = (value, code) => assert.throws(() => lab.symmetry.exchangePlane('silu', { symmetrize: value }),
    (e) => e instanceof GateLabError && e.argument === 'options.symmetrize' && e.code === code
      && /symmetrize/.test(e.message), `${value}: ${code}`);
  refuses(1.5, 'out-of-range');
  refuses(-0.1, 'out-of-range');
  refuses(NaN, 'not-finite');
  refuses(Infinity, 'not-finite');
  refuses('0.5', 'invalid-type');
  refuses(null, 'invalid-type');
  const codeOf = (fn) => {
    try {
      fn();
    } catch (e) {
      return e.code;
    }
    return null;
  };
  for (const value of [1.5, NaN, '0.5']) {
    const layer = codeOf(() => lab.createLayer({ kind: 'gated', activation: 'silu', dIn: 2, hidden: 2, dOut: 1,
      symmetrize: value }));
    assert.equal(codeOf(() => lab.symmetry.exchangePlane('silu', { symmetrize: value })), layer,
      `the same code as createLayer for ${value}`);
  }
  assert.equal(lab.symmetry.exchangePlane('relu', { min: -1, max: 1, n: 3, symmetrize: 1 }).length, 9, 'still usable');
  assert.equal(lab.liveObjects(), 0);
});
