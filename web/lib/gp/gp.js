// In-context GP regression as JS API (issue 6, MATH.md B7): sample GP sequences, compute the
// exact posterior (the best any model can do) and the context-mean baseline, and train a small
// CEM or standard transformer on the task live. Every number comes from the C++ core
// (cpp/src/gp_data.cpp, gp_session.cpp via cpp/bindings/bind_gp.cpp); this file fills in
// defaults, validates, copies arrays and throws GateLabError. installGp(lab) returns the object
// the lab exposes as lab.gp.
//
// Its types are in gp.d.ts beside it (exported from gatelab.d.ts).
import { GateLabError, throwIfError } from '../core/errors.js';
import { Owned } from '../core/handles.js';
import { fail, finiteNumber, floatArray, integer, oneOf, plainObject } from '../core/validate.js';

export const GP_DEFAULTS = Object.freeze({
  dx: 1, length: 16, lengthScale: 0.5, signalVar: 1, noiseStd: 0.1, inputs: 'uniform',
  family: 'cem', steps: 1, diagonal: 'shared', precond: 'none', precondRank: 0,
  d: 16, layers: 2, heads: 2, hidden: 32, eta: 0.25, batch: 8, lr: 0.003, warmup: 20, clipNorm: 1, seed: 0,
});

const INTEGERS = ['dx', 'length', 'steps', 'precondRank', 'd', 'layers', 'heads', 'hidden', 'batch', 'warmup'];
const NUMBERS = ['lengthScale', 'signalVar', 'noiseStd', 'eta', 'lr', 'clipNorm'];
const CHOICES = { inputs: ['uniform', 'normal'], family: ['cem', 'standard'], diagonal: ['none', 'per_head', 'shared'],
  precond: ['none', 'paper', 'psd'] };

/** Every field of GP_DEFAULTS, type-checked (ranges are the core's to check). */
function fullOptions(options) {
  const o = plainObject('options', options);
  for (const key of Object.keys(o)) if (!(key in GP_DEFAULTS)) fail(`options.${key}`, 'a known option', key);
  const out = { ...GP_DEFAULTS };
  for (const k of INTEGERS) if (o[k] !== undefined) out[k] = integer(`options.${k}`, o[k], { min: 0 });
  if (o.seed !== undefined) out.seed = integer('options.seed', o.seed, { min: 0, max: 4294967295 });
  for (const k of NUMBERS) if (o[k] !== undefined) out[k] = finiteNumber(`options.${k}`, o[k]);
  for (const [k, values] of Object.entries(CHOICES)) if (o[k] !== undefined) out[k] = oneOf(`options.${k}`, o[k], values);
  return out;
}

// The core names the field first ("lengthScale must be…" / "data: dx must…"): point at it.
function throwCore(error) {
  if (!error) return;
  const field = error.replace(/^(data|attention|mlp): /, '').match(/^([a-z_]+)/i)?.[1] ?? '';
  const camel = field.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  throw new GateLabError(error, { argument: camel in GP_DEFAULTS ? `options.${camel}` : 'options' });
}

function sequenceOf(argument, seq, o) {
  const s = plainObject(argument, seq);
  floatArray(`${argument}.x`, s.x, o.length * o.dx, `length·dx = ${o.length * o.dx}`);
  floatArray(`${argument}.y`, s.y, o.length, `length = ${o.length}`);
  return s;
}

export class GpSession extends Owned {
  #lab;

  constructor(lab, handle, options) {
    super(lab.tracker, handle, 'GP session');
    this.#lab = lab;
    /** The options the session was created with, defaults filled in. */
    this.options = Object.freeze(options);
  }

  get stepsDone() {
    return this.handle.stepsDone();
  }

  get parameterCount() {
    return this.handle.parameterCount();
  }

  /** True once a step gave a non-finite loss; train() then refuses to go on. */
  get diverged() {
    return this.handle.diverged();
  }

  /** Runs n AdamW steps, each on `batch` fresh sequences; returns their mean train MSEs. */
  train(n = 1) {
    const handle = this.handle;
    integer('n', n, { max: this.#lab.module.gpMaxStepsPerCall });
    const before = handle.stepsDone();
    throwIfError(handle.train(n), 'n');
    return this.#losses(before, handle.stepsDone() - before);
  }

  /** Every step's mean train MSE so far. */
  losses() {
    return this.#losses(0, this.handle.stepsDone());
  }

  /** The model's prediction of y_t at every position t of seq (it sees only the pairs before t). */
  predict(seq) {
    const handle = this.handle;
    const s = sequenceOf('seq', seq, this.options);
    const [error, out] = this.#lab.heap.call([s.x, s.y], [this.options.length], (px, py, po) => handle.predict(px, py, po));
    throwIfError(error, 'seq');
    return out;
  }

  /** Predictions at queries xq (m·dx) placed after the first `context` pairs of seq. */
  predictAt(seq, context, xq) {
    const handle = this.handle;
    const o = this.options;
    const s = sequenceOf('seq', seq, o);
    integer('context', context, { min: 0, max: o.length - 1 });
    if (!(xq instanceof Float32Array) || xq.length === 0 || xq.length % o.dx) fail('xq', `a Float32Array of m·${o.dx} numbers`, xq);
    floatArray('xq', xq, xq.length);
    const m = xq.length / o.dx;
    const [error, out] = this.#lab.heap.call([s.x, s.y, xq], [m], (px, py, pq, po) => handle.predictAt(px, py, context, pq, m, po));
    throwIfError(error, 'xq');
    return out;
  }

  #losses(from, count) {
    const handle = this.handle;
    const [error, out] = this.#lab.heap.call([], [count], (p) => handle.losses(from, count, p));
    throwIfError(error);
    return out;
  }
}

export function installGp(lab) {
  const m = lab.module;

  /** count sequences named by seed: [{ x, y }]. */
  function sample(options, seed = 0, count = 1) {
    const o = fullOptions(options);
    integer('seed', seed, { min: 0, max: 4294967295 });
    integer('count', count, { max: m.gpMaxSampleCount });
    throwCore(m.gpValidate(o));
    const n = o.length, dx = o.dx;
    const [error, x, y] = lab.heap.call([], [count * n * dx, count * n], (px, py) => m.gpSample(o, seed, count, px, py));
    throwCore(error);
    return Array.from({ length: count }, (_, i) => ({ x: x.slice(i * n * dx, (i + 1) * n * dx), y: y.slice(i * n, (i + 1) * n) }));
  }

  /** The exact posterior predictive of y_t given the pairs before t, and the running context mean. */
  function posterior(options, seq) {
    const o = fullOptions(options);
    throwCore(m.gpValidate(o));
    const s = sequenceOf('seq', seq, o);
    const [error, mean, variance, contextMean] = lab.heap.call([s.x, s.y], [o.length, o.length, o.length],
      (px, py, pm, pv, pc) => m.gpPosterior(o, px, py, pm, pv, pc));
    throwCore(error);
    return { mean, variance, contextMean };
  }

  /** The posterior predictive at queries xq (m·dx) after the first `context` pairs. */
  function posteriorAt(options, seq, context, xq) {
    const o = fullOptions(options);
    throwCore(m.gpValidate(o));
    const s = sequenceOf('seq', seq, o);
    integer('context', context, { min: 0, max: o.length });
    if (!(xq instanceof Float32Array) || xq.length === 0 || xq.length % o.dx) fail('xq', `a Float32Array of m·${o.dx} numbers`, xq);
    floatArray('xq', xq, xq.length);
    const q = xq.length / o.dx;
    const [error, mean, variance] = lab.heap.call([s.x, s.y, xq], [q, q],
      (px, py, pq, pm, pv) => m.gpPosteriorAt(o, px, py, context, pq, q, pm, pv));
    throwCore(error);
    return { mean, variance };
  }

  /** A model learning the task; dispose() it when done. */
  function createSession(options) {
    const o = fullOptions(options);
    throwCore(m.gpValidate(o));
    return new GpSession(lab, m.gpCreateSession(o), o);
  }

  return Object.freeze({ defaults: GP_DEFAULTS, sample, posterior, posteriorAt, createSession });
}
