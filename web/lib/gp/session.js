// A GP session (lab.gp.createSession): a small CEM or standard transformer learning in-context
// GP regression live, stepped in coarse calls. Predictions are copied out of wasm memory.
import { throwCoreError } from '../core/errors.js';
import { handleOf, Owned } from '../core/handles.js';
import { fail, floatArray, integer, plainObject } from '../core/validate.js';

/** A sequence argument: { x (length·dx), y (length) } of finite floats. */
export function sequenceOf(argument, seq, o) {
  const s = plainObject(argument, seq);
  floatArray(`${argument}.x`, s.x, o.length * o.dx, `length·dx = ${o.length * o.dx}`);
  floatArray(`${argument}.y`, s.y, o.length, `length = ${o.length}`);
  return s;
}

/** Queries xq: a non-empty Float32Array of m·dx finite numbers; returns m. */
export function queryCount(xq, dx) {
  if (!(xq instanceof Float32Array)) fail('xq', `a Float32Array of m·${dx} numbers`, xq, 'invalid-type');
  if (xq.length === 0 || xq.length % dx) fail('xq', `a Float32Array of m·${dx} numbers`, xq, 'invalid-value');
  floatArray('xq', xq, xq.length);
  return xq.length / dx;
}

export class GpSession extends Owned {
  #core;

  constructor(core, handle, options) {
    super(core.tracker, handle, 'GP session');
    this.#core = core;
    /** The options the session was created with, defaults filled in. */
    this.options = Object.freeze(options);
  }

  get stepsDone() {
    return handleOf(this).stepsDone();
  }

  get parameterCount() {
    return handleOf(this).parameterCount();
  }

  /** True once a step gave a non-finite loss; train() then refuses to go on. */
  get diverged() {
    return handleOf(this).diverged();
  }

  /** T of the CEM layers in predict() and predictAt(); 0: the T the model trains at. */
  get evalSteps() {
    return handleOf(this).evalSteps();
  }

  /**
   * Evaluates the model at `steps` recursive steps per layer (0 … cemMaxSteps; 0: as trained)
   * from now on, while training keeps its own T: test-time recursion. Family cem only.
   */
  setEvalSteps(steps) {
    const handle = handleOf(this);
    integer('steps', steps, { min: 0, max: this.#core.module._cemMaxSteps });
    throwCoreError(handle.setEvalSteps(steps), { argument: 'steps', fields: [] });
  }

  /** η of each block's CEM attention and MLP, learned or fixed: [attention₀, MLP₀, attention₁, …]. Family cem only. */
  stepSizes() {
    const handle = handleOf(this);
    const [error, out] = this.#core.heap.call([], [2 * this.options.layers], (p) => handle.stepSizes(p));
    throwCoreError(error, { argument: 'this', fields: [] });
    return out;
  }

  /** Runs n AdamW steps, each on `batch` fresh sequences; returns their mean train MSEs. */
  train(n = 1) {
    const handle = handleOf(this);
    integer('n', n, { max: this.#core.module._gpMaxStepsPerCall });
    const before = handle.stepsDone();
    throwCoreError(handle.train(n), { argument: 'n', fields: [] });
    return this.#losses(before, handle.stepsDone() - before);
  }

  /** Every step's mean train MSE so far. */
  losses() {
    return this.#losses(0, handleOf(this).stepsDone());
  }

  /** The model's prediction of y_t at every position t of seq (it sees only the pairs before t). */
  predict(seq) {
    const handle = handleOf(this);
    const s = sequenceOf('seq', seq, this.options);
    const [error, out] = this.#core.heap.call([s.x, s.y], [this.options.length],
      (px, py, po) => handle.predict(px, py, po));
    throwCoreError(error, { argument: 'seq', fields: [] });
    return out;
  }

  /** Predictions at queries xq (m·dx) placed after the first `context` pairs of seq. */
  predictAt(seq, context, xq) {
    const handle = handleOf(this);
    const o = this.options;
    const s = sequenceOf('seq', seq, o);
    integer('context', context, { min: 0, max: o.length - 1 });
    const m = queryCount(xq, o.dx);
    const [error, out] = this.#core.heap.call([s.x, s.y, xq], [m],
      (px, py, pq, po) => handle.predictAt(px, py, context, pq, m, po));
    throwCoreError(error, { argument: 'xq', fields: [] });
    return out;
  }

  #losses(from, count) {
    const handle = handleOf(this);
    const [error, out] = this.#core.heap.call([], [count], (p) => handle.losses(from, count, p));
    throwCoreError(error, { fields: [] });
    return out;
  }
}
