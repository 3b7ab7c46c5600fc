// A paper-A layer (mlp, symmetric or gated) as a JS object: forward, backward, parameters in
// the documented row-major layout, and the two symmetry transforms (docs/MATH.md §A7, §A8).
import { GateLabError, throwCoreError } from '../core/errors.js';
import { handleOf, Owned } from '../core/handles.js';
import {
  fail, finiteNumber, floatArray, integer, oneOf, optionsOf, plainObject, rangeOf, seedOf,
} from '../core/validate.js';

const BATCH = { argument: 'rows', fields: [] };
const OPTION_FIELDS = ['kind', 'activation', 'beta', 'dIn', 'hidden', 'dOut', 'rank', 'seed', 'symmetrize'];

export class Layer extends Owned {
  #core;

  constructor(core, handle) {
    super(core.tracker, handle, 'layer');
    this.#core = core;
    const o = handle.options();
    /** The options the layer was created with (rank is 1 for mlp; symmetrize as the core stores it, a float32). */
    this.options = Object.freeze({ kind: o.kind, activation: o.activation, beta: o.beta, dIn: o.dIn,
      hidden: o.hidden, dOut: o.dOut, rank: o.kind === 'mlp' ? 1 : o.rank, seed: o.seed, symmetrize: o.symmetrize });
  }

  get kind() { return this.options.kind; }
  get dIn() { return this.options.dIn; }
  get dOut() { return this.options.dOut; }

  /** Number of trainable parameters (Q, K and V). */
  get parameterCount() {
    return handleOf(this).parameterCount();
  }

  /** Largest batch one call accepts. */
  get maxRows() {
    return handleOf(this).maxRows();
  }

  /** x: Float32Array rows·dIn (row-major) → Float32Array rows·dOut. */
  forward(x, rows) {
    const handle = checkBatch(this, x, rows);
    const [error, out] = this.#core.heap.call([x], [rows * this.dOut], (px, pout) => handle.forward(px, rows, pout));
    throwCoreError(error, BATCH);
    return out;
  }

  /** Gradients of a loss with dL/d(out) = gradOut: { dx, dQ, dK, dV } in the getParams layout. */
  backward(x, rows, gradOut) {
    const handle = checkBatch(this, x, rows);
    floatArray('gradOut', gradOut, rows * this.dOut, `rows·dOut = ${rows * this.dOut}`);
    const sizes = [0, 1, 2].map((i) => handle.paramSize(i));
    const [error, dx, dQ, dK, dV] = this.#core.heap.call([x, gradOut], [rows * this.dIn, ...sizes],
      (px, pg, pdx, pq, pk, pv) => handle.backward(px, rows, pg, pdx, pq, pk, pv));
    throwCoreError(error, BATCH);
    return this.kind === 'mlp' ? { dx, dK, dV } : { dx, dQ, dK, dV };
  }

  /** { Q, K, V } copies; Q and K are hidden × rank × dIn (mlp: K is hidden × dIn, no Q), V hidden × dOut. */
  getParams() {
    const handle = handleOf(this);
    const sizes = [0, 1, 2].map((i) => handle.paramSize(i));
    const [, Q, K, V] = this.#core.heap.call([], sizes, (pq, pk, pv) => handle.getParams(pq, pk, pv));
    return this.kind === 'mlp' ? { K, V } : { Q, K, V };
  }

  /** Replaces the parameters; same layout as getParams, every array validated. */
  setParams(params) {
    const handle = handleOf(this);
    if (params === undefined) fail('params', 'an options object', params, 'invalid-type');
    plainObject('params', params);
    const { hidden, rank, dIn, dOut } = this.options;
    const Q = this.kind === 'mlp' ? new Float32Array(0)
      : floatArray('params.Q', params.Q, hidden * rank * dIn, `hidden·rank·dIn = ${hidden * rank * dIn}`);
    const K = floatArray('params.K', params.K, hidden * rank * dIn, `hidden·rank·dIn = ${hidden * rank * dIn}`);
    const V = floatArray('params.V', params.V, hidden * dOut, `hidden·dOut = ${hidden * dOut}`);
    this.#core.heap.call([Q, K, V], [], (pq, pk, pv) => handle.setParams(pq, pk, pv));
  }

  /** A new layer with Q and K swapped (docs/MATH.md §A7). */
  exchanged() {
    return new Layer(this.#core, queryHandle(this, 'exchanged').exchanged());
  }

  /** A new layer with Q·alpha and K/alpha (docs/MATH.md §A8). */
  rescaled(alpha) {
    const handle = queryHandle(this, 'rescaled');
    finiteNumber('alpha', alpha, { nonZero: true });
    return new Layer(this.#core, handle.rescaled(alpha));
  }
}

/** The handle of a layer with a Q factor; 'unsupported' for 'mlp'. */
function queryHandle(layer, method) {
  const handle = handleOf(layer);
  if (layer.kind === 'mlp') {
    throw new GateLabError(`${method}() needs a layer with a Q factor ('symmetric' or 'gated'); this layer is 'mlp'`,
      { argument: 'kind', code: 'unsupported' });
  }
  return handle;
}

/** Checks rows and x (rows·dIn finite floats) and returns the live handle. */
export function checkBatch(layer, x, rows) {
  const handle = handleOf(layer);
  integer('rows', rows, { min: 1, max: handle.maxRows() });
  floatArray('x', x, rows * layer.dIn, `rows·dIn = ${rows * layer.dIn}`);
  return handle;
}

/** The handle of a layer argument made by lab.createLayer (throws for anything else or a disposed one). */
export function layerHandle(layer, argument = 'layer') {
  if (!(layer instanceof Layer)) fail(argument, 'a layer made by lab.createLayer', layer, 'invalid-type');
  return handleOf(layer);
}

/** lab.createLayer: validates the options, then asks the core for the layer. */
export function createLayer(core, options) {
  const o = optionsOf('options', options, 'createLayer');
  const kind = oneOf('kind', o.kind, core.kinds);
  const activation = core.activations[core.activationIndex(o.activation ?? 'relu')];
  const layerOptions = {
    kind,
    activation,
    beta: o.beta === undefined ? 1 : finiteNumber('beta', o.beta),
    dIn: integer('dIn', o.dIn, rangeOf('createLayer', 'dIn')),
    hidden: integer('hidden', o.hidden, rangeOf('createLayer', 'hidden')),
    dOut: integer('dOut', o.dOut, rangeOf('createLayer', 'dOut')),
    rank: kind === 'mlp' || o.rank === undefined ? 1 : integer('rank', o.rank),
    seed: seedOf('seed', o.seed),
    // Its range and kind are the core's to check (docs/MATH.md §A11).
    symmetrize: o.symmetrize === undefined ? 0 : finiteNumber('symmetrize', o.symmetrize),
  };
  throwCoreError(core.module._validateLayerOptions(layerOptions), { argument: 'options', fields: OPTION_FIELDS });
  return new Layer(core, core.module._createLayer(layerOptions));
}
