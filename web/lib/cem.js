// lab.cem: paper B, Causal Energy Minimization (MATH.md B). A layer is T preconditioned gradient
// steps on a conditional energy: CEM attention (tied multi-head attention, B2, with the
// diagonal-plus-low-rank interaction of B4) and the tied gated MLP (B3), both with the
// preconditioner of B5 and recursion (B6); plus the standard baselines they are compared with
// (untied attention and the gated MLP) and the standard layer a tied one equals. Every number is
// computed by the C++ core (cpp/bindings/bind_cem.cpp); this file validates arguments, copies
// arrays in and out and turns error values into GateLabError. Types: cem.d.ts.
import { GateLabError, throwIfError } from './errors.js';
import { Owned } from './handles.js';
import { fail, finiteNumber, floatArray, integer, oneOf, plainObject } from './validate.js';

export const CEM_DIAGONALS = Object.freeze(['none', 'per-head', 'shared']);
export const CEM_PRECONDS = Object.freeze(['none', 'paper', 'psd']);

// The public name of each core parameter view; "precond.*" views are joined into `precond`.
const PUBLIC_NAMES = { wq: 'WQ', wk: 'WK', wv: 'WV', wo: 'WO', diag: 'diag', w: 'W', u: 'U',
  w_gate: 'Wgate', w_up: 'Wup', w_down: 'Wdown' };

/** A JS number Embind can pass as a C++ int without truncating it (ranges: C++ validate()). */
function int32(argument, value) {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 2 ** 31 - 1) {
    fail(argument, 'an integer', value);
  }
  return value;
}

/** A float the core accepts as a float: finite, and not so large that float32 makes it infinite. */
function float32(argument, value) {
  finiteNumber(argument, value);
  if (!Number.isFinite(Math.fround(value))) fail(argument, 'a finite number within float32 range', value);
  return value;
}

/** β of an attention's options: 0 (the core's 1/√(d/heads)) when not given, else a positive float. */
function attentionBeta(o) {
  if (o.beta === undefined) return 0;
  float32('beta', o.beta);
  if (!(o.beta > 0)) fail('beta', 'a positive number (leave it undefined for 1/√(d/heads))', o.beta);
  return o.beta;
}

function seedOf(o) {
  return o.seed === undefined ? 0 : integer('seed', o.seed, { min: 0, max: 2 ** 32 - 1 });
}

/** The core's message as a GateLabError; the argument is the option the message starts with. */
function throwOptionsError(error, fallback = 'options') {
  if (!error) return;
  const first = /^([A-Za-z]+)/.exec(error)?.[1];
  const known = ['d', 'heads', 'steps', 'eta', 'beta', 'diagonal', 'precond', 'precondRank', 'seed', 'hidden',
    'activation'];
  throw new GateLabError(error, { argument: known.includes(first) ? first : fallback });
}

// Internals the subclasses share, keyed by symbols so that they are not part of the public surface.
const LAB = Symbol('lab');
const GRADIENTS = Symbol('gradients');
const TOTAL = Symbol('total');
const CHECK_BATCH = Symbol('checkBatch');
const ERROR_ARGUMENT = Symbol('errorArgument');

function capitalized(name) {
  return name[0].toUpperCase() + name.slice(1);
}

/**
 * Base of the four wrappers: the parameter layout (read once from the core), parameters in and
 * out, and the checks every batch call starts with.
 */
class CemModule extends Owned {
  #lab;
  #groups;  // [{ key, size, text }] in core order, "precond.*" joined

  constructor(lab, handle, what, options) {
    super(lab.tracker, handle, what);
    this.#lab = lab;
    /** The options the object was made with (beta: the value in use). */
    this.options = Object.freeze(options);
    const groups = [];
    for (let k = 0, count = handle.viewCount(); k < count; k++) {
      const name = handle.viewName(k);
      const size = handle.viewSize(k);
      const key = name.startsWith('precond.') ? 'precond' : PUBLIC_NAMES[name] ?? name;
      const last = groups.at(-1);
      if (key === 'precond' && last?.key === 'precond') {
        last.size += size;
      } else {
        groups.push({ key, size, rows: handle.viewRows(k), cols: handle.viewCols(k) });
      }
    }
    for (const g of groups) {
      g.text = g.key === 'precond' ? `d + ${this.#precondFactors()}·d·r = ${g.size}` : `${g.rows}×${g.cols} = ${g.size}`;
    }
    this.#groups = groups;
  }

  #precondFactors() {
    return this.options.precond === 'paper' ? 2 : 1;
  }

  get [LAB]() {
    return this.#lab;
  }

  get d() { return this.options.d; }

  /** Number of trainable parameters. */
  get parameterCount() {
    return this.handle.parameterCount();
  }

  /** Names and sizes of the parameters getParams() returns, in order. */
  get parameterLayout() {
    return this.#groups.map(({ key, size, rows, cols }) => ({ name: key, size,
      shape: key === 'precond' ? [size] : [rows, cols] }));
  }

  get #total() {
    return this.#groups.reduce((sum, g) => sum + g.size, 0);
  }

  #split(flat, prefix = '') {
    const out = {};
    let at = 0;
    for (const g of this.#groups) {
      out[prefix ? prefix + capitalized(g.key) : g.key] = flat.slice(at, at + g.size);
      at += g.size;
    }
    return out;
  }

  /** Copies of every parameter, by name (see the .d.ts for each layout). */
  getParams() {
    const handle = this.handle;
    const [, flat] = this.#lab.heap.call([], [this.#total], (p) => handle.getParams(p));
    return this.#split(flat);
  }

  /** Replaces the named parameters (those not given keep their values); each array is checked. */
  setParams(params) {
    const handle = this.handle;
    if (params === null || typeof params !== 'object' || Array.isArray(params)) fail('params', 'an object of Float32Arrays', params);
    const keys = this.#groups.map((g) => g.key);
    for (const key of Object.keys(params)) {
      if (params[key] !== undefined && !keys.includes(key)) {
        throw new GateLabError(`params.${key} is not a parameter of this ${this.constructor.label} (its parameters: ${keys.join(', ')})`,
          { argument: `params.${key}` });
      }
    }
    const current = this.getParams();
    const flat = new Float32Array(this.#total);
    let at = 0;
    for (const g of this.#groups) {
      const given = params[g.key];
      flat.set(given === undefined ? current[g.key] : floatArray(`params.${g.key}`, given, g.size, g.text), at);
      at += g.size;
    }
    const [error] = this.#lab.heap.call([flat], [], (p) => handle.setParams(p));
    throwIfError(error, 'params');
  }

  /** The gradient arrays of a backward call, named d + the parameter name. */
  [GRADIENTS](flat) {
    return this.#split(flat, 'd');
  }

  get [TOTAL]() {
    return this.#total;
  }

  /** Checks n and h (n·d finite floats) and returns the live handle. */
  [CHECK_BATCH](h, n, name = 'h') {
    const handle = this.handle;
    integer('n', n, { min: 1, max: this.#lab.module.cemMaxRows });
    floatArray(name, h, n * this.d, `n·d = ${n * this.d}`);
    return handle;
  }
}

/** Forward, energies and the preconditioner, shared by CEM attention and the CEM MLP. */
class CemLayer extends CemModule {
  /** T, the number of gradient steps. */
  get steps() { return this.options.steps; }

  /** h: Float32Array n·d (row i = token i) → Float32Array n·d after all T steps. */
  forward(h, n) {
    const handle = this[CHECK_BATCH](h, n);
    const [error, out] = this[LAB].heap.call([h], [n * this.d], (ph, po) => handle.forward(ph, n, po));
    throwIfError(error, 'n');
    return out;
  }

  /** ε(y | h_0..h_i) (attention) or ε(y | h_i) (MLP); i zero-based, y: Float32Array d. */
  energy(h, n, i, y) {
    const handle = this.#checkPoint(h, n, i, y);
    const [result] = this[LAB].heap.call([h, y], [], (ph, py) => handle.energy(ph, n, i, py));
    throwIfError(result.error, this[ERROR_ARGUMENT](result.error));
    return result.value;
  }

  /** ∇_y ε at y (Float32Array d), the same context as energy(); one plain step from h_i is −∇ε at h_i. */
  energyGradient(h, n, i, y) {
    const handle = this.#checkPoint(h, n, i, y);
    const [error, out] = this[LAB].heap.call([h, y], [this.d], (ph, py, po) => handle.energyGradient(ph, n, i, py, po));
    throwIfError(error, this[ERROR_ARGUMENT](error));
    return out;
  }

  #checkPoint(h, n, i, y) {
    const handle = this[CHECK_BATCH](h, n);
    integer('i', i, { min: 0, max: n - 1 });
    floatArray('y', y, this.d, `d = ${this.d}`);
    return handle;
  }

  /** Float32Array n·(T+1): row i is token i's energy before the first step and after each step. */
  energyTrace(h, n) {
    const handle = this[CHECK_BATCH](h, n);
    const columns = this.steps + 1;
    const [error, out] = this[LAB].heap.call([h], [n * columns], (ph, po) => handle.energyTrace(ph, n, po));
    throwIfError(error, this[ERROR_ARGUMENT](error));
    return out;
  }

  /** Float32Array (T+1)·n·d: the variables y⁰ = h, y¹, …, y^T, one n·d block per step. */
  trajectory(h, n) {
    const handle = this[CHECK_BATCH](h, n);
    const size = (this.steps + 1) * n * this.d;
    if (size > this[LAB].module.cemMaxTensorFloats) {
      fail('n', `at most ${Math.floor(this[LAB].module.cemMaxTensorFloats / ((this.steps + 1) * this.d))} for this layer`, n);
    }
    const [error, out] = this[LAB].heap.call([h], [size], (ph, po) => handle.trajectory(ph, n, po));
    throwIfError(error, 'n');
    return out;
  }

  /**
   * The energy of token i's variable over a G × G grid of a plane in R^d: y = origin + u·a₀ + v·a₁
   * with u, v from min to max (G values each). Row r (v_r), column c (u_c): values[r·G + c].
   * Defaults: min −3, max 3, G 64, origin 0, axes the first two coordinates (needs d ≥ 2).
   */
  energyGrid(h, n, i, options) {
    const handle = this[CHECK_BATCH](h, n);
    integer('i', i, { min: 0, max: n - 1 });
    const o = plainObject('options', options);
    const min = o.min === undefined ? -3 : float32('options.min', o.min);
    const max = o.max === undefined ? 3 : float32('options.max', o.max);
    if (!(min < max)) throw new GateLabError(`options.min (${min}) must be less than options.max (${max})`, { argument: 'options.min' });
    const G = o.G === undefined ? 64 : integer('options.G', o.G, { min: 2, max: this[LAB].module.cemMaxGrid });
    const d = this.d;
    const origin = o.origin === undefined ? new Float32Array(d) : floatArray('options.origin', o.origin, d, `d = ${d}`);
    let axes;
    if (o.axes === undefined) {
      if (d < 2) fail('options.axes', 'given when d < 2 (two directions, 2·d numbers)', o.axes);
      axes = new Float32Array(2 * d);
      axes[0] = 1;
      axes[d + 1] = 1;
    } else {
      axes = floatArray('options.axes', o.axes, 2 * d, `2·d = ${2 * d}`);
    }
    const [error, values] = this[LAB].heap.call([h, origin, axes], [G * G],
      (ph, po, pa, pv) => handle.energyGrid(ph, n, i, po, pa, min, max, G, pv));
    throwIfError(error, this[ERROR_ARGUMENT](error));
    return values;
  }

  /** The smallest eigenvalue of P (1 for precond 'none'). */
  minEigenvalue() {
    const result = this.handle.minEigenvalue();
    throwIfError(result.error, 'this');
    return result.value;
  }

  /** P as a dense d × d row-major Float32Array. */
  preconditioner() {
    const handle = this.handle;
    const [error, out] = this[LAB].heap.call([], [this.d * this.d], (p) => handle.preconditioner(p));
    throwIfError(error, 'this');
    return out;
  }

  /** The d eigenvalues of P, ascending (d ≤ limits.maxSpectrumDim). */
  spectrum() {
    const handle = this.handle;
    const [error, out] = this[LAB].heap.call([], [this.d], (p) => handle.spectrum(p));
    throwIfError(error, 'd');
    return out;
  }

  /**
   * Gradients of a loss L whose gradient with respect to forward(h, n) is gradOut (n·d):
   * { dh, d<Param>… } with dh = dL/dh (through all T steps and through the context) and one
   * array per parameter, in the getParams layout (dWQ, dWK, dDiag, dPrecond, or dW, dU, dPrecond).
   */
  backward(h, n, gradOut) {
    const handle = this[CHECK_BATCH](h, n);
    floatArray('gradOut', gradOut, n * this.d, `n·d = ${n * this.d}`);
    const [error, dh, flat] = this[LAB].heap.call([h, gradOut], [n * this.d, this[TOTAL]],
      (ph, pg, pdh, pp) => handle.backward(ph, n, pg, pdh, pp));
    throwIfError(error, 'n');
    return { dh, ...this[GRADIENTS](flat) };
  }

  [ERROR_ARGUMENT](error) {
    return /antiderivative/.test(error ?? '') ? 'activation' : /^i /.test(error ?? '') ? 'i' : 'n';
  }
}

/** CEM attention: T steps of y ← y − η P ∇ε_att(y | h_0..h_i) (MATH.md B2, B4–B6). */
export class CemAttention extends CemLayer {
  static label = 'CEM attention';

  constructor(lab, handle, options) {
    super(lab, handle, 'CEM attention', { ...options, beta: handle.beta() });
  }

  get heads() { return this.options.heads; }

  /** β in use: the option, or 1/√(d/heads). */
  get beta() { return this.options.beta; }
}

/** The tied gated MLP: T steps of y ← y − η P ∇ε_mlp(y | h_i) (MATH.md B3, B5, B6). */
export class CemMlp extends CemLayer {
  static label = 'CEM MLP';

  constructor(lab, handle, options) {
    super(lab, handle, 'CEM MLP', options);
  }

  get hidden() { return this.options.hidden; }
}

/** Standard untied causal multi-head attention (no residual): the baseline of MATH.md B7. */
export class StandardAttention extends CemModule {
  static label = 'standard attention';

  constructor(lab, handle, options) {
    super(lab, handle, 'standard attention', { ...options, beta: handle.beta() });
  }

  get heads() { return this.options.heads; }

  get beta() { return this.options.beta; }

  /** x: n·d → the attention output n·d, without the residual (add x for a residual block). */
  forward(x, n) {
    const handle = this[CHECK_BATCH](x, n, 'x');
    const [error, out] = this[LAB].heap.call([x], [n * this.d], (px, po) => handle.forward(px, n, po));
    throwIfError(error, 'n');
    return out;
  }
}

/** The gated MLP (σ(x W_gateᵀ) ⊙ x W_upᵀ) W_downᵀ, no residual; SiLU gives SwiGLU. */
export class GatedMlp extends CemModule {
  static label = 'gated MLP';

  constructor(lab, handle, options) {
    super(lab, handle, 'gated MLP', options);
  }

  get hidden() { return this.options.hidden; }

  /** x: n·d → n·d, without the residual. */
  forward(x, n) {
    const handle = this[CHECK_BATCH](x, n, 'x');
    const [error, out] = this[LAB].heap.call([x], [n * this.d], (px, po) => handle.forward(px, n, po));
    throwIfError(error, 'n');
    return out;
  }
}

/** Installs lab.cem; called once by the GateLab constructor. */
export function installCem(lab) {
  const m = lab.module;

  const activationOptions = (o, defaultActivation) => {
    const activation = lab.activations[lab.activationIndex(o.activation ?? defaultActivation)];
    const beta = o.beta === undefined ? 1 : float32('beta', o.beta);
    if (o.beta !== undefined && activation !== 'swish') {
      fail('beta', `given only for activation 'swish' (activation is '${activation}')`, o.beta);
    }
    return { activation, beta };
  };

  const precondOptions = (o, d) => {
    const precond = o.precond === undefined ? 'none' : oneOf('precond', o.precond, CEM_PRECONDS);
    const rank = o.precondRank === undefined ? (precond === 'none' ? 0 : Math.min(2, Math.max(0, d)))
      : int32('precondRank', o.precondRank);
    return { precond, precondRank: rank };
  };

  const checkLayer = (argument, value, type, maker) => {
    if (!(value instanceof type)) fail(argument, `a ${type.label} made by lab.cem.${maker}`, value);
    return value.handle;  // throws when disposed
  };

  return Object.freeze({
    /** Diagonal options of createAttention. */
    diagonals: CEM_DIAGONALS,
    /** Preconditioner options of createAttention and createMlp. */
    preconditioners: CEM_PRECONDS,
    limits: Object.freeze({ maxD: m.cemMaxD, maxRows: m.cemMaxRows, maxSteps: m.cemMaxSteps, maxHeads: m.cemMaxHeads,
      maxHidden: m.cemMaxHidden, maxRank: m.cemMaxRank, maxEta: m.cemMaxEta, maxBeta: m.cemMaxBeta,
      maxGrid: m.cemMaxGrid, maxTensorFloats: m.cemMaxTensorFloats, maxSpectrumDim: m.cemMaxSpectrumDim }),

    /** CEM attention; see cem.d.ts for the options. Dispose it when done. */
    createAttention(options) {
      const o = plainObject('options', options);
      const d = int32('d', o.d);
      const beta = attentionBeta(o);
      const config = {
        d,
        heads: o.heads === undefined ? 1 : int32('heads', o.heads),
        steps: o.steps === undefined ? 1 : int32('steps', o.steps),
        eta: o.eta === undefined ? 1 : float32('eta', o.eta),
        beta,
        diagonal: o.diagonal === undefined ? 'none' : oneOf('diagonal', o.diagonal, CEM_DIAGONALS),
        ...precondOptions(o, d),
        seed: seedOf(o),
      };
      throwOptionsError(m.validateCemAttentionOptions(config));
      return new CemAttention(lab, m.createCemAttention(config), config);
    },

    /** The tied gated MLP; see cem.d.ts for the options. Dispose it when done. */
    createMlp(options) {
      const o = plainObject('options', options);
      const d = int32('d', o.d);
      const { activation, beta } = activationOptions(o, 'relu');
      const config = {
        d,
        hidden: int32('hidden', o.hidden),
        steps: o.steps === undefined ? 1 : int32('steps', o.steps),
        eta: o.eta === undefined ? 1 : float32('eta', o.eta),
        activation,
        activationBeta: beta,
        ...precondOptions(o, d),
        seed: seedOf(o),
      };
      throwOptionsError(m.validateCemMlpOptions(config));
      const { activationBeta, ...rest } = config;
      return new CemMlp(lab, m.createCemMlp(config), activation === 'swish' ? { ...rest, beta: activationBeta } : rest);
    },

    /** Standard (untied) causal multi-head attention: W_Q, W_K, W_V, W_O, 4d² parameters. */
    createStandardAttention(options) {
      const o = plainObject('options', options);
      const beta = attentionBeta(o);
      const config = { d: int32('d', o.d), heads: o.heads === undefined ? 1 : int32('heads', o.heads), beta, seed: seedOf(o) };
      throwOptionsError(m.validateCemStdAttentionOptions(config));
      return new StandardAttention(lab, m.createCemStdAttention(config), config);
    },

    /** The gated MLP (SwiGLU with activation 'silu'): W_gate, W_up, W_down, 3dM parameters. */
    createGatedMlp(options) {
      const o = plainObject('options', options);
      const { activation, beta } = activationOptions(o, 'silu');
      const config = { d: int32('d', o.d), hidden: int32('hidden', o.hidden), activation, activationBeta: beta, seed: seedOf(o) };
      throwOptionsError(m.validateCemGatedMlpOptions(config));
      const { activationBeta, ...rest } = config;
      return new GatedMlp(lab, m.createCemGatedMlp(config), activation === 'swish' ? { ...rest, beta: activationBeta } : rest);
    },

    /**
     * The standard attention a one-step CEM attention is (MATH.md B2): W_Q and W_K copied,
     * W_V = W_K, W_O = η W_Qᵀ, so that h + standard.forward(h) equals attention.forward(h).
     * Needs steps 1, diagonal 'none' and precond 'none'. A new object: dispose it.
     */
    asStandardAttention(attention) {
      const handle = checkLayer('attention', attention, CemAttention, 'createAttention');
      throwIfError(m.cemAttentionTieProblem(handle), 'attention');
      const { d, heads, beta, seed } = attention.options;
      return new StandardAttention(lab, m.cemStandardFromTied(handle), { d, heads, beta, seed });
    },

    /**
     * The gated MLP a one-step CEM MLP is (MATH.md B3): W_gate = W, W_up = U, W_down = η Wᵀ, so
     * that h + gated.forward(h) equals mlp.forward(h). Needs steps 1 and precond 'none'.
     */
    asGatedMlp(mlp) {
      const handle = checkLayer('mlp', mlp, CemMlp, 'createMlp');
      throwIfError(m.cemMlpTieProblem(handle), 'mlp');
      const { d, hidden, activation, seed, beta } = mlp.options;
      const options = activation === 'swish' ? { d, hidden, activation, beta, seed } : { d, hidden, activation, seed };
      return new GatedMlp(lab, m.cemGatedFromTied(handle), options);
    },
  });
}
