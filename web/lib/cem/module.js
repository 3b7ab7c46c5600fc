// The base of the four lab.cem wrappers: the parameter layout (read once from the core),
// parameters in and out by name, and the checks every batch call starts with. What the
// subclasses share beyond the public methods (the module's core, the batch check, the split of
// a gradient vector) is reached through the functions below, defined in the class's static
// block, so no wrapper carries it as a property.
import { GateLabError, throwCoreError } from '../core/errors.js';
import { handleOf, Owned } from '../core/handles.js';
import { fail, floatArray, integer } from '../core/validate.js';

// The public name of each core parameter view; "precond.*" views are joined into `precond`.
const PUBLIC_NAMES = { wq: 'WQ', wk: 'WK', wv: 'WV', wo: 'WO', diag: 'diag', w: 'W', u: 'U',
  w_gate: 'Wgate', w_up: 'Wup', w_down: 'Wdown' };

function capitalized(name) {
  return name[0].toUpperCase() + name.slice(1);
}

/** The private core of a wrapper. */
export let coreOfModule;
/** Checks n and h (n·d finite floats, named `name`) and returns the live handle. */
export let checkBatch;
/** The gradient arrays of a backward call, named d + the parameter name. */
export let gradientsOf;
/** The number of floats of all parameters together. */
export let parameterTotal;

export class CemModule extends Owned {
  #core;
  #groups;  // [{ key, size, rows, cols, text }] in core order, "precond.*" joined

  static {
    coreOfModule = (o) => o.#core;
    checkBatch = (o, h, n, name = 'h') => {
      const handle = handleOf(o);
      integer('n', n, { min: 1, max: o.#core.module._cemMaxRows });
      floatArray(name, h, n * o.d, `n·d = ${n * o.d}`);
      return handle;
    };
    gradientsOf = (o, flat) => o.#split(flat, 'd');
    parameterTotal = (o) => o.#total;
  }

  constructor(core, handle, what, options) {
    super(core.tracker, handle, what);
    this.#core = core;
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
    const factors = options.precond === 'paper' ? 2 : 1;
    for (const g of groups) {
      g.text = g.key === 'precond' ? `d + ${factors}·d·r = ${g.size}` : `${g.rows}×${g.cols} = ${g.size}`;
    }
    this.#groups = groups;
  }

  get d() {
    return this.options.d;
  }

  /** Number of trainable parameters. */
  get parameterCount() {
    return handleOf(this).parameterCount();
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

  /** Copies of every parameter, by name (see cem.d.ts for each layout). */
  getParams() {
    const handle = handleOf(this);
    const [, flat] = this.#core.heap.call([], [this.#total], (p) => handle.getParams(p));
    return this.#split(flat);
  }

  /** Replaces the named parameters (those not given keep their values); each array is checked. */
  setParams(params) {
    const handle = handleOf(this);
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      fail('params', 'an object of Float32Arrays', params, 'invalid-type');
    }
    const keys = this.#groups.map((g) => g.key);
    for (const key of Object.keys(params)) {
      if (params[key] !== undefined && !keys.includes(key)) {
        throw new GateLabError(`params.${key} is not a parameter of this ${this.constructor.label} (its parameters: ${keys.join(', ')})`,
          { argument: `params.${key}`, code: 'invalid-value' });
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
    const [error] = this.#core.heap.call([flat], [], (p) => handle.setParams(p));
    throwCoreError(error, { argument: 'params', fields: [] });
  }
}
