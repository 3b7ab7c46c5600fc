// The base of every module wrapper (paper A's layer and the four lab.cem modules, all bound one
// way: cpp/bindings/bind_module.hpp): the parameter layout (read once from the core),
// parameters in and out by name, and the checks every batch call starts with. What the
// subclasses share beyond the public methods (the module's core, the batch check, the split of
// a gradient vector) is reached through the functions below, defined in the class's static
// block, so no wrapper carries it as a property.
import { GateLabError, throwCoreError } from './errors.js';
import { handleOf, Owned } from './handles.js';
import { fail, finiteNumber, floatArray, integer, optional, optionsOf, seedOf } from './validate.js';

// The public name of each core parameter view; "precond.*" views are joined into `precond`,
// whose parts keep their own names (p, U, V) for parameterLayout and drawParams.
const PUBLIC_NAMES = { q: 'Q', k: 'K', v: 'V', wq: 'WQ', wk: 'WK', wv: 'WV', wo: 'WO', diag: 'diag', w: 'W', u: 'U',
  w_gate: 'Wgate', w_up: 'Wup', w_down: 'Wdown' };
const PRECOND_PARTS = { 'precond.p': 'p', 'precond.u': 'U', 'precond.v': 'V' };

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

export class Module extends Owned {
  #core;
  #groups;  // [{ key, size, rows, cols, text, parts }] in core order, "precond.*" joined (parts: the views)
  #drawNames;  // public name → the core views it stands for (drawParams)

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
    const drawNames = new Map();
    for (let k = 0, count = handle.viewCount(); k < count; k++) {
      const name = handle.viewName(k);
      const size = handle.viewSize(k);
      const [rows, cols] = [handle.viewRows(k), handle.viewCols(k)];
      const key = name.startsWith('precond.') ? 'precond' : PUBLIC_NAMES[name] ?? name;
      const last = groups.at(-1);
      if (key === 'precond') {
        const part = PRECOND_PARTS[name] ?? name;
        const group = last?.key === 'precond' ? last : { key, size: 0, rows, cols, parts: [] };
        if (group !== last) groups.push(group);
        const shape = part === 'p' ? [size] : [rows, cols];
        group.parts.push(Object.freeze({ name: part, offset: group.size, size, shape }));
        group.size += size;
        drawNames.set(`precond.${part}`, [name]);
      } else {
        groups.push({ key, size, rows, cols });
      }
      drawNames.set(key, [...(drawNames.get(key) ?? []), name]);
    }
    const factors = options.precond === 'paper' ? 2 : 1;
    for (const g of groups) {
      g.text = g.key === 'precond' ? `d + ${factors}·d·r = ${g.size}` : `${g.rows}×${g.cols} = ${g.size}`;
    }
    this.#groups = groups;
    this.#drawNames = drawNames;
  }

  get d() {
    return this.options.d;
  }

  /** Number of trainable parameters. */
  get parameterCount() {
    return handleOf(this).parameterCount();
  }

  /**
   * Names and sizes of the parameters getParams() returns, in order; `precond` also lists its
   * parts (p, then U, then V where it is a parameter) with their offsets in its flat array.
   */
  get parameterLayout() {
    return this.#groups.map(({ key, size, rows, cols, parts }) => (parts
      ? { name: key, size, shape: [size], parts: [...parts] } : { name: key, size, shape: [rows, cols] }));
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

  /**
   * Replaces the named parameters by scale·N(0, 1) values from the library's generator: one
   * stream from `seed`, through the names in the order given (a parameter name, or a part of the
   * preconditioner: 'precond.p', 'precond.U', 'precond.V'). The others keep their values.
   */
  drawParams(names, options) {
    const handle = handleOf(this);
    if (!Array.isArray(names)) fail('names', 'an array of parameter names', names, 'invalid-type');
    const o = optionsOf('options', options, 'cem.drawParams');
    const views = names.flatMap((name, i) => this.#drawNames.get(name)
      ?? fail(`names[${i}]`, `one of ${[...this.#drawNames.keys()].join(', ')}`, name, 'invalid-value'));
    const seed = seedOf('options.seed', o.seed);
    const scale = optional(o.scale, 1, (v) => finiteNumber('options.scale', v));
    throwCoreError(handle.drawParams(views, seed, scale), { argument: 'names', prefix: 'options', fields: ['scale'] });
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
        const label = this.constructor.label;
        throw new GateLabError(`params.${key} is not a parameter of this ${label} (its parameters: ${keys.join(', ')})`,
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
