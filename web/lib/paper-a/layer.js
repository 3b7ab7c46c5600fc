// A paper-A layer (mlp, symmetric or gated) as a JS object: forward, backward, parameters in
// the documented row-major layout, and the two symmetry transforms (docs/MATH.md §A7, §A8). Its
// parameters (Q, K, V) come and go through the base every module shares (core/module.js).
import { GateLabError, throwCoreError } from '../core/errors.js';
import { handleOf } from '../core/handles.js';
import { gradientsOf, Module, parameterTotal } from '../core/module.js';
import {
  fail, finiteNumber, floatArray, integer, oneOf, optionsOf, rangeOf, seedOf,
} from '../core/validate.js';

const BATCH = { argument: 'rows', fields: [] };
const OPTION_FIELDS = ['kind', 'activation', 'beta', 'dIn', 'hidden', 'dOut', 'rank', 'seed', 'symmetrize'];

/** The options the layer was created with (rank is 1 for mlp; symmetrize as the core stores it, a float32). */
function optionsOfHandle(handle) {
  const o = handle.options();
  return { kind: o.kind, activation: o.activation, beta: o.beta, dIn: o.dIn, hidden: o.hidden, dOut: o.dOut,
    rank: o.kind === 'mlp' ? 1 : o.rank, seed: o.seed, symmetrize: o.symmetrize };
}

export class Layer extends Module {
  static label = 'layer';
  #core;

  constructor(core, handle) {
    super(core, handle, 'layer', optionsOfHandle(handle));
    this.#core = core;
  }

  get kind() { return this.options.kind; }
  get dIn() { return this.options.dIn; }
  get dOut() { return this.options.dOut; }

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
    const [error, dx, flat] = this.#core.heap.call([x, gradOut], [rows * this.dIn, parameterTotal(this)],
      (px, pg, pdx, pflat) => handle.backward(px, rows, pg, pdx, pflat));
    throwCoreError(error, BATCH);
    return { dx, ...gradientsOf(this, flat) };
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
