// The lab.cem wrappers (docs/MATH.md §B1–§B7): CEM attention and the tied gated MLP, which are
// T preconditioned gradient steps on an energy and so have energies, trajectories and a
// preconditioner; and the two standard baselines they are compared with. Every number is
// computed by the C++ core (cpp/bindings/bind_cem.cpp).
import { GateLabError, throwCoreError } from '../core/errors.js';
import { handleOf } from '../core/handles.js';
import { fail, finiteNumber, floatArray, integer, optionsOf } from '../core/validate.js';
import { checkBatch, coreOfModule, gradientsOf, Module, parameterTotal } from '../core/module.js';

// A batch call's core error names n; an energy call's may name i, or the activation (no Φ).
const BATCH = { argument: 'n', fields: [] };
const ENERGY = { argument: 'n', fields: ['i', 'n', 'activation'] };

/** A float the core accepts as a float: finite, and not so large that float32 makes it infinite. */
export function float32(argument, value) {
  finiteNumber(argument, value);
  if (!Number.isFinite(Math.fround(value))) {
    fail(argument, 'a finite number within float32 range', value, 'out-of-range');
  }
  return value;
}

/** Forward, energies and the preconditioner, shared by CEM attention and the CEM MLP. */
class CemLayer extends Module {
  /** T, the number of gradient steps. */
  get steps() {
    return this.options.steps;
  }

  /** h: Float32Array n·d (row i = token i) → Float32Array n·d after all T steps. */
  forward(h, n) {
    const handle = checkBatch(this, h, n);
    const [error, out] = coreOfModule(this).heap.call([h], [n * this.d], (ph, po) => handle.forward(ph, n, po));
    throwCoreError(error, BATCH);
    return out;
  }

  /** ε(y | h_0..h_i) (attention) or ε(y | h_i) (MLP); i zero-based, y: Float32Array d. */
  energy(h, n, i, y) {
    const handle = checkBatch(this, h, n);
    integer('i', i, { min: 0, max: n - 1 });
    floatArray('y', y, this.d, `d = ${this.d}`);
    const [result] = coreOfModule(this).heap.call([h, y], [], (ph, py) => handle.energy(ph, n, i, py));
    throwCoreError(result.error, ENERGY);
    return result.value;
  }

  /** ∇_y ε at y (Float32Array d), the context of energy(); one plain step from h_i is −∇ε at h_i. */
  energyGradient(h, n, i, y) {
    const handle = checkBatch(this, h, n);
    integer('i', i, { min: 0, max: n - 1 });
    floatArray('y', y, this.d, `d = ${this.d}`);
    const [error, out] = coreOfModule(this).heap.call([h, y], [this.d],
      (ph, py, po) => handle.energyGradient(ph, n, i, py, po));
    throwCoreError(error, ENERGY);
    return out;
  }

  /** Float32Array n·(T+1): row i is token i's energy before the first step and after each step. */
  energyTrace(h, n) {
    const handle = checkBatch(this, h, n);
    const columns = this.steps + 1;
    const [error, out] = coreOfModule(this).heap.call([h], [n * columns], (ph, po) => handle.energyTrace(ph, n, po));
    throwCoreError(error, ENERGY);
    return out;
  }

  /** Float32Array (T+1)·n·d: the variables y⁰ = h, y¹, …, y^T, one n·d block per step. */
  trajectory(h, n) {
    const handle = checkBatch(this, h, n);
    const core = coreOfModule(this);
    const size = (this.steps + 1) * n * this.d;
    if (size > core.module._cemMaxTensorFloats) {
      const most = Math.floor(core.module._cemMaxTensorFloats / ((this.steps + 1) * this.d));
      fail('n', `at most ${most} for this layer`, n, 'out-of-range');
    }
    const [error, out] = core.heap.call([h], [size], (ph, po) => handle.trajectory(ph, n, po));
    throwCoreError(error, BATCH);
    return out;
  }

  /**
   * The energy of token i's variable over a G × G grid of a plane in R^d: y = origin + u·a₀ + v·a₁
   * with u, v from min to max (G values each). Row r (v_r), column c (u_c): values[r·G + c].
   * Defaults: min −3, max 3, G 64, origin 0, axes the first two coordinates (needs d ≥ 2).
   */
  energyGrid(h, n, i, options) {
    const handle = checkBatch(this, h, n);
    const core = coreOfModule(this);
    integer('i', i, { min: 0, max: n - 1 });
    const o = optionsOf('options', options, 'cem.energyGrid');
    const min = o.min === undefined ? -3 : float32('options.min', o.min);
    const max = o.max === undefined ? 3 : float32('options.max', o.max);
    if (!(min < max)) {
      throw new GateLabError(`options.min (${min}) must be less than options.max (${max})`,
        { argument: 'options.min', code: 'invalid-value' });
    }
    const G = o.G === undefined ? 64 : integer('options.G', o.G, { min: 2, max: core.module._cemMaxGrid });
    const d = this.d;
    const origin = o.origin === undefined ? new Float32Array(d) : floatArray('options.origin', o.origin, d, `d = ${d}`);
    let axes;
    if (o.axes === undefined) {
      if (d < 2) fail('options.axes', 'given when d < 2 (two directions, 2·d numbers)', o.axes, 'invalid-value');
      axes = new Float32Array(2 * d);
      axes[0] = 1;
      axes[d + 1] = 1;
    } else {
      axes = floatArray('options.axes', o.axes, 2 * d, `2·d = ${2 * d}`);
    }
    const [error, values] = core.heap.call([h, origin, axes], [G * G],
      (ph, po, pa, pv) => handle.energyGrid(ph, n, i, po, pa, min, max, G, pv));
    throwCoreError(error, ENERGY);
    return values;
  }

  /** The smallest eigenvalue of P (1 for precond 'none'). */
  minEigenvalue() {
    const result = handleOf(this).minEigenvalue();
    throwCoreError(result.error, { argument: 'this', fields: [] });
    return result.value;
  }

  /** P as a dense d × d row-major Float32Array. */
  preconditioner() {
    const handle = handleOf(this);
    const [error, out] = coreOfModule(this).heap.call([], [this.d * this.d], (p) => handle.preconditioner(p));
    throwCoreError(error, { argument: 'this', fields: [] });
    return out;
  }

  /** The d eigenvalues of P, ascending (d ≤ limits.maxSpectrumDim). */
  spectrum() {
    const handle = handleOf(this);
    const [error, out] = coreOfModule(this).heap.call([], [this.d], (p) => handle.spectrum(p));
    throwCoreError(error, { argument: 'd', fields: [] });
    return out;
  }

  /**
   * Gradients of a loss L whose gradient with respect to forward(h, n) is gradOut (n·d):
   * { dh, d<Param>… } with dh = dL/dh (through all T steps and through the context) and one
   * array per parameter, in the getParams layout (dWQ, dWK, dDiag, dPrecond, or dW, dU, dPrecond).
   */
  backward(h, n, gradOut) {
    const handle = checkBatch(this, h, n);
    floatArray('gradOut', gradOut, n * this.d, `n·d = ${n * this.d}`);
    const [error, dh, flat] = coreOfModule(this).heap.call([h, gradOut], [n * this.d, parameterTotal(this)],
      (ph, pg, pdh, pp) => handle.backward(ph, n, pg, pdh, pp));
    throwCoreError(error, BATCH);
    return { dh, ...gradientsOf(this, flat) };
  }
}

/** CEM attention: T steps of y ← y − η P ∇ε_att(y | h_0..h_i) (docs/MATH.md §B2, §B4–§B6). */
export class CemAttention extends CemLayer {
  static label = 'CEM attention';

  constructor(core, handle, options) {
    super(core, handle, 'CEM attention', { ...options, beta: handle.beta() });
  }

  get heads() {
    return this.options.heads;
  }

  /** β in use: the option, or 1/√(d/heads). */
  get beta() {
    return this.options.beta;
  }
}

/** The tied gated MLP: T steps of y ← y − η P ∇ε_mlp(y | h_i) (docs/MATH.md §B3, §B5, §B6). */
export class CemMlp extends CemLayer {
  static label = 'CEM MLP';

  constructor(core, handle, options) {
    super(core, handle, 'CEM MLP', options);
  }

  get hidden() {
    return this.options.hidden;
  }
}

/** x: n·d → n·d through a baseline (no residual). */
function forwardBaseline(module, x, n) {
  const handle = checkBatch(module, x, n, 'x');
  const [error, out] = coreOfModule(module).heap.call([x], [n * module.d], (px, po) => handle.forward(px, n, po));
  throwCoreError(error, BATCH);
  return out;
}

/** Standard untied causal multi-head attention (no residual): the baseline of docs/MATH.md §B7. */
export class StandardAttention extends Module {
  static label = 'standard attention';

  constructor(core, handle, options) {
    super(core, handle, 'standard attention', { ...options, beta: handle.beta() });
  }

  get heads() {
    return this.options.heads;
  }

  get beta() {
    return this.options.beta;
  }

  /** x: n·d → the attention output n·d, without the residual (add x for a residual block). */
  forward(x, n) {
    return forwardBaseline(this, x, n);
  }
}

/** The gated MLP (σ(x W_gateᵀ) ⊙ x W_upᵀ) W_downᵀ, no residual; SiLU gives SwiGLU. */
export class GatedMlp extends Module {
  static label = 'gated MLP';

  constructor(core, handle, options) {
    super(core, handle, 'gated MLP', options);
  }

  get hidden() {
    return this.options.hidden;
  }

  /** x: n·d → n·d, without the residual. */
  forward(x, n) {
    return forwardBaseline(this, x, n);
  }
}
