// A paper-A layer (mlp, symmetric or gated) as a JS object: forward, backward, parameters in
// the documented row-major layout, and the two symmetry transforms.
import { GateLabError, throwIfError } from '../core/errors.js';
import { Owned } from '../core/handles.js';
import { finiteNumber, floatArray, integer, plainObject } from '../core/validate.js';

export class Layer extends Owned {
  #lab;

  constructor(lab, handle) {
    super(lab.tracker, handle, 'layer');
    this.#lab = lab;
    const o = handle.options();
    /** The options the layer was created with (rank is 1 for mlp). */
    this.options = Object.freeze({ kind: o.kind, activation: o.activation, beta: o.beta, dIn: o.dIn,
      hidden: o.hidden, dOut: o.dOut, rank: o.kind === 'mlp' ? 1 : o.rank, seed: o.seed });
  }

  get kind() { return this.options.kind; }
  get dIn() { return this.options.dIn; }
  get dOut() { return this.options.dOut; }

  /** Number of trainable parameters (Q, K and V). */
  get parameterCount() {
    return this.handle.parameterCount();
  }

  /** Largest batch one call accepts. */
  get maxRows() {
    return this.handle.maxRows();
  }

  /** x: Float32Array rows·dIn (row-major) → Float32Array rows·dOut. */
  forward(x, rows) {
    const handle = this.handle;
    this.#checkBatch(x, rows);
    const [error, out] = this.#lab.heap.call([x], [rows * this.dOut], (px, pout) => handle.forward(px, rows, pout));
    throwIfError(error, 'rows');
    return out;
  }

  /** Gradients of a loss with dL/d(out) = gradOut: { dx, dQ, dK, dV } in the getParams layout. */
  backward(x, rows, gradOut) {
    const handle = this.handle;
    this.#checkBatch(x, rows);
    floatArray('gradOut', gradOut, rows * this.dOut, `rows·dOut = ${rows * this.dOut}`);
    const sizes = [0, 1, 2].map((i) => handle.paramSize(i));
    const [error, dx, dQ, dK, dV] = this.#lab.heap.call([x, gradOut], [rows * this.dIn, ...sizes],
      (px, pg, pdx, pq, pk, pv) => handle.backward(px, rows, pg, pdx, pq, pk, pv));
    throwIfError(error, 'rows');
    return this.kind === 'mlp' ? { dx, dK, dV } : { dx, dQ, dK, dV };
  }

  /** { Q, K, V } copies; Q and K are hidden × rank × dIn (mlp: K is hidden × dIn, no Q), V hidden × dOut. */
  getParams() {
    const handle = this.handle;
    const sizes = [0, 1, 2].map((i) => handle.paramSize(i));
    const [, Q, K, V] = this.#lab.heap.call([], sizes, (pq, pk, pv) => handle.getParams(pq, pk, pv));
    return this.kind === 'mlp' ? { K, V } : { Q, K, V };
  }

  /** Replaces the parameters; same layout as getParams, every array validated. */
  setParams(params) {
    const handle = this.handle;
    plainObject('params', params);
    const { hidden, rank, dIn, dOut } = this.options;
    const Q = this.kind === 'mlp' ? new Float32Array(0)
      : floatArray('params.Q', params.Q, hidden * rank * dIn, `hidden·rank·dIn = ${hidden * rank * dIn}`);
    const K = floatArray('params.K', params.K, hidden * rank * dIn, `hidden·rank·dIn = ${hidden * rank * dIn}`);
    const V = floatArray('params.V', params.V, hidden * dOut, `hidden·dOut = ${hidden * dOut}`);
    this.#lab.heap.call([Q, K, V], [], (pq, pk, pv) => handle.setParams(pq, pk, pv));
  }

  /** A new layer with Q and K swapped (MATH.md A7). */
  exchanged() {
    this.#needsQuery('exchanged');
    return new Layer(this.#lab, this.handle.exchanged());
  }

  /** A new layer with Q·alpha and K/alpha (MATH.md A8). */
  rescaled(alpha) {
    this.#needsQuery('rescaled');
    finiteNumber('alpha', alpha, { nonZero: true });
    return new Layer(this.#lab, this.handle.rescaled(alpha));
  }

  #needsQuery(method) {
    this.handle;  // throws when disposed
    if (this.kind === 'mlp') {
      throw new GateLabError(`${method}() needs a layer with a Q factor ('symmetric' or 'gated'); this layer is 'mlp'`,
        { argument: 'kind' });
    }
  }

  #checkBatch(x, rows) {
    integer('rows', rows, { min: 1, max: this.handle.maxRows() });
    floatArray('x', x, rows * this.dIn, `rows·dIn = ${rows * this.dIn}`);
  }
}
