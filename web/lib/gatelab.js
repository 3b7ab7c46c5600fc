// GateLab's public JavaScript API: load the wasm module once, then create layers, probe their
// symmetries and sample activations. Thin by design: every number is computed by the C++ core;
// this layer validates arguments, copies arrays in and out, and turns error values into
// GateLabError. See gatelab.d.ts for the documented types.
import { GateLabError, throwIfError } from './core/errors.js';
import { Heap } from './core/heap.js';
import { HandleTracker } from './core/handles.js';
import { Layer } from './paper-a/layer.js';
import { createSymmetry } from './paper-a/symmetry.js';
import { installCem } from './cem/cem.js';
import { installGp } from './gp/gp.js';
import { installPaperA } from './paper-a/paper-a.js';
import { finiteNumber, integer, oneOf, plainObject } from './core/validate.js';
import { instantiate } from './core/wasm-loader.js';

export { GateLabError } from './core/errors.js';

const KINDS = ['mlp', 'symmetric', 'gated'];

class GateLab {
  constructor(module) {
    this.module = module;
    this.heap = new Heap(module);
    this.tracker = new HandleTracker();
    this.version = module.version();
    this.activations = Object.freeze(Array.from({ length: module.activationCount }, (_, i) => module.activationName(i)));
    this.limits = Object.freeze({ maxLayerDim: module.maxLayerDim, maxLayerParams: module.maxLayerParams,
      maxBatchFloats: module.maxBatchFloats, maxSwishBeta: module.maxSwishBeta, maxCurvePoints: module.maxCurvePoints });
    this.symmetry = createSymmetry(this);
    this.cem = installCem(this);
    this.gp = installGp(this);
    // lab.datasets, createTrainer, race, census, rankApprox, interactions (paper A, issue 4)
    Object.assign(this, installPaperA(this));
  }

  /** { name, homogeneity: null | number, linear: boolean } for a catalogue activation. */
  activationInfo(name) {
    const index = this.activationIndex(name);
    const degree = this.module.activationDegree(index);
    return { name, homogeneity: degree < 0 ? null : degree, linear: this.module.activationLinear(index) };
  }

  /** A new layer; see gatelab.d.ts for the options. Dispose it when done. */
  createLayer(options) {
    const o = plainObject('options', options);
    const kind = oneOf('kind', o.kind, KINDS);
    const activation = this.activations[this.activationIndex(o.activation ?? 'relu')];
    const layerOptions = {
      kind,
      activation,
      beta: o.beta === undefined ? 1 : finiteNumber('beta', o.beta),
      dIn: integer('dIn', o.dIn),
      hidden: integer('hidden', o.hidden),
      dOut: integer('dOut', o.dOut),
      rank: kind === 'mlp' || o.rank === undefined ? 1 : integer('rank', o.rank),
      seed: o.seed === undefined ? 0 : integer('seed', o.seed, { min: 0, max: 2 ** 32 - 1 }),
    };
    throwIfError(this.module.validateLayerOptions(layerOptions), 'options');
    return new Layer(this, this.module.createLayer(layerOptions));
  }

  /** Samples of σ on [min, max]: { z, value, derivative, ratio } with ratio = σ(z)/z (σ'(0) at 0). */
  activationCurve(name, options) {
    const { index, beta, min, max, n } = this.curveOptions(name, options, 256);
    const [error, z, value, derivative, ratio] = this.heap.call([], [n, n, n, n],
      (pz, pv, pd, pr) => this.module.activationCurve(index, beta, min, max, n, pz, pv, pd, pr));
    throwIfError(error, 'options');
    return { z, value, derivative, ratio };
  }

  /** How many layers (and other handles) are not disposed yet. */
  liveObjects() {
    return this.tracker.live;
  }

  /** Bytes of wasm linear memory in use by the module (grows, never shrinks). */
  heapBytes() {
    return this.heap.size;
  }

  // Internal helpers shared by the API modules.
  activationIndex(name) {
    return this.activations.indexOf(oneOf('activation', name, this.activations));
  }

  curveOptions(activation, options, defaultN) {
    const index = this.activationIndex(activation);
    const o = plainObject('options', options);
    const min = o.min === undefined ? -3 : finiteNumber('options.min', o.min);
    const max = o.max === undefined ? 3 : finiteNumber('options.max', o.max);
    if (!(min < max)) throw new GateLabError(`options.min (${min}) must be less than options.max (${max})`, { argument: 'options.min' });
    const n = o.n === undefined ? defaultN : integer('options.n', o.n, { min: 2, max: this.module.maxCurvePoints });
    const beta = o.beta === undefined ? 1 : finiteNumber('options.beta', o.beta);
    if (Math.abs(beta) > this.module.maxSwishBeta) {
      throw new GateLabError(`options.beta must satisfy |beta| <= ${this.module.maxSwishBeta} (got ${beta})`, { argument: 'options.beta' });
    }
    return { index, beta, min, max, n };
  }
}

let shared = null;

/**
 * Loads the wasm module and returns the API. Options: { wasmUrl } to load the .wasm from a
 * CDN or a custom path. Each call makes a new, independent module instance.
 */
export async function loadGateLab(options) {
  const o = plainObject('options', options);
  if (o.wasmUrl !== undefined && typeof o.wasmUrl !== 'string' && !(o.wasmUrl instanceof URL)) {
    throw new GateLabError('options.wasmUrl must be a string or URL', { argument: 'options.wasmUrl' });
  }
  const module = await instantiate(o);
  return new GateLab(module);
}

/** One module per page (or worker) shared by every caller, loaded on first use. */
export function sharedGateLab(options) {
  shared ??= loadGateLab(options);
  return shared;
}
