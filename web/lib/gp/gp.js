// lab.gp: in-context GP regression (docs/MATH.md §B7): sample GP sequences, compute the exact
// posterior (the best any model can do) and the context-mean baseline, and train a small CEM
// or standard transformer on the task live (session.js). Every number comes from the C++ core
// (cpp/src/gp/ via cpp/bindings/bind_gp.cpp); this file fills in defaults, validates, copies
// arrays and throws GateLabError. installGp(core) returns lab.gp. Types: gp.d.ts.
import { NAMES, OPTIONS as CATALOGUE } from '../catalogue.js';
import { throwCoreError } from '../core/errors.js';
import { boolean, finiteNumber, integer, oneOf, optionsOf, rangeOf, seedOf } from '../core/validate.js';
import { GpSession, queryCount, sequenceOf } from './session.js';

export const GP_DEFAULTS = Object.freeze({
  dx: 1, length: 16, lengthScale: 0.5, signalVar: 1, noiseStd: 0.1, inputs: 'uniform',
  family: 'cem', steps: 1, diagonal: 'shared', precond: 'none', precondRank: 0,
  d: 16, layers: 2, heads: 2, hidden: 32, eta: 0.25, learnEta: false, batch: 8, lr: 0.003, warmup: 20, clipNorm: 1,
  seed: 0,
});

// The options' types and name sets are the core's (web/lib/catalogue.js).
const ofType = (type) => Object.keys(CATALOGUE.gp).filter((k) => CATALOGUE.gp[k].type === type);
const INTEGERS = ofType('integer');
const NUMBERS = ofType('number');
const CHOICES = Object.fromEntries(ofType('name').map((k) => [k, NAMES[CATALOGUE.gp[k].of]]));
// 'per-head' is the spelling of the whole API; lab.gp also takes the older 'per_head'.
const DIAGONAL_ALIASES = { per_head: 'per-head' };
const OPTIONS = { argument: 'options', prefix: 'options', fields: Object.keys(GP_DEFAULTS) };

/** Every field of GP_DEFAULTS, type-checked (the numbers' ranges are the core's to check). */
function fullOptions(options) {
  const o = optionsOf('options', options, 'gp');
  const out = { ...GP_DEFAULTS };
  // An integer the core checks in a fixed range is checked in that range (the catalogue's), the rest from 0.
  for (const k of INTEGERS) {
    if (o[k] !== undefined) out[k] = integer(`options.${k}`, o[k], { min: 0, ...rangeOf('gp', k) });
  }
  if (o.seed !== undefined) out.seed = seedOf('options.seed', o.seed);
  for (const k of NUMBERS) if (o[k] !== undefined) out[k] = finiteNumber(`options.${k}`, o[k]);
  if (o.learnEta !== undefined) out.learnEta = boolean('options.learnEta', o.learnEta);
  for (const [k, values] of Object.entries(CHOICES)) {
    if (o[k] !== undefined) {
      const value = k === 'diagonal' ? DIAGONAL_ALIASES[o[k]] ?? o[k] : o[k];
      out[k] = oneOf(`options.${k}`, value, values);
    }
  }
  return out;
}

/** The options as the binding takes them, validated by the core (GateLabError naming the option). */
function forCore(m, o) {
  throwCoreError(m._gpValidate(o), OPTIONS);  // the core takes 'per-head' as the API spells it
  return o;
}

export function installGp(core) {
  const m = core.module;

  /** count sequences named by seed: [{ x, y }]. */
  function sample(options, seed = 0, count = 1) {
    const o = fullOptions(options);
    seedOf('seed', seed);
    integer('count', count, { max: m._gpMaxSampleCount });
    const c = forCore(m, o);
    const n = o.length, dx = o.dx;
    const [error, x, y] = core.heap.call([], [count * n * dx, count * n],
      (px, py) => m._gpSample(c, seed, count, px, py));
    throwCoreError(error, OPTIONS);
    return Array.from({ length: count },
      (_, i) => ({ x: x.slice(i * n * dx, (i + 1) * n * dx), y: y.slice(i * n, (i + 1) * n) }));
  }

  /** The exact posterior predictive of y_t given the pairs before t, and the running context mean. */
  function posterior(options, seq) {
    const o = fullOptions(options);
    const c = forCore(m, o);
    const s = sequenceOf('seq', seq, o);
    const [error, mean, variance, contextMean] = core.heap.call([s.x, s.y], [o.length, o.length, o.length],
      (px, py, pm, pv, pc) => m._gpPosterior(c, px, py, pm, pv, pc));
    throwCoreError(error, OPTIONS);
    return { mean, variance, contextMean };
  }

  /** The posterior predictive at queries xq (m·dx) after the first `context` pairs. */
  function posteriorAt(options, seq, context, xq) {
    const o = fullOptions(options);
    const c = forCore(m, o);
    const s = sequenceOf('seq', seq, o);
    integer('context', context, { min: 0, max: o.length });
    const q = queryCount(xq, o.dx);
    const [error, mean, variance] = core.heap.call([s.x, s.y, xq], [q, q],
      (px, py, pq, pm, pv) => m._gpPosteriorAt(c, px, py, context, pq, q, pm, pv));
    throwCoreError(error, OPTIONS);
    return { mean, variance };
  }

  /** A model learning the task; dispose() it when done. */
  function createSession(options) {
    const o = fullOptions(options);
    const c = forCore(m, o);
    return new GpSession(core, m._gpCreateSession(c), o);
  }

  return Object.freeze({ defaults: GP_DEFAULTS, sample, posterior, posteriorAt, createSession });
}
