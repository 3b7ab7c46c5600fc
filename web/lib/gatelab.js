// GateLab's public JavaScript API, the one entry of the package: load the wasm module once, then
// create layers, probe their symmetries, train them, and run paper B's layers. Thin by design:
// every number is computed by the C++ core; the areas (paper-a/, train/, cem/, gp/, base/)
// validate arguments, copy arrays in and out, and turn error values into GateLabError. This
// file assembles the lab from them. See gatelab.d.ts for the documented types.
//
// The module instance's private side (raw module, heap, handle tracker) is not a property of
// the lab: each area receives it when the lab is assembled, and core/context.js's coreOf(lab)
// reaches it from the library's own files.
import { activationCurve, activationProperties } from './base/activations.js';
import { createStats } from './base/stats.js';
import { installCem } from './cem/cem.js';
import { bindCore, coreOf, createCore } from './core/context.js';
import { GateLabError } from './core/errors.js';
import { optionsOf } from './core/validate.js';
import { instantiate } from './core/wasm-loader.js';
import { installGp } from './gp/gp.js';
import { installLm } from './train/lm.js';
import { activationLabels } from './paper-a/labels.js';
import { installPaperA } from './paper-a/paper-a.js';
import { installTrain } from './train/train.js';

export { GateLabError } from './core/errors.js';

class GateLab {
  constructor(module) {
    const core = createCore(module);
    bindCore(this, core);
    this.version = module._version();
    this.activations = core.activations;
    this.limits = Object.freeze({ maxLayerDim: module._maxLayerDim, maxLayerParams: module._maxLayerParams,
      maxBatchFloats: module._maxBatchFloats, maxSwishBeta: module._maxSwishBeta,
      maxCurvePoints: module._maxCurvePoints });
    this.stats = createStats(core);
    // layerKinds, symmetry, createLayer, layerLabel, census, rankApprox, interactions
    Object.assign(this, installPaperA(core));
    // datasets, createTrainer, race
    Object.assign(this, installTrain(core));
    this.cem = installCem(core);
    this.gp = installGp(core);
    this.lm = installLm(core);
  }

  /** { name, homogeneity, linear, label, shortLabel, gatedName } for a catalogue activation. */
  activationInfo(name) {
    const core = coreOf(this);
    return { ...activationProperties(core, name), ...activationLabels(core, name) };
  }

  /** Samples of σ on [min, max]: { z, value, derivative, ratio } with ratio = σ(z)/z (σ'(0) at 0). */
  activationCurve(name, options) {
    return activationCurve(coreOf(this), name, options);
  }

  /** How many layers (and other handles) are not disposed yet. */
  liveObjects() {
    return coreOf(this).tracker.live;
  }

  /** Bytes of wasm linear memory in use by the module (grows, never shrinks). */
  heapBytes() {
    return coreOf(this).heap.size;
  }
}

let shared = null;

/**
 * Loads the wasm module and returns the API. Options: { wasmUrl } to load the .wasm from a
 * CDN or a custom path. Each call makes a new, independent module instance.
 */
export async function loadGateLab(options) {
  const o = optionsOf('options', options, 'loadGateLab');
  if (o.wasmUrl !== undefined && typeof o.wasmUrl !== 'string' && !(o.wasmUrl instanceof URL)) {
    throw new GateLabError('options.wasmUrl must be a string or URL',
      { argument: 'options.wasmUrl', code: 'invalid-type' });
  }
  const module = await instantiate(o);
  return new GateLab(module);
}

/** One module per page (or worker) shared by every caller, loaded on first use. */
export function sharedGateLab(options) {
  shared ??= loadGateLab(options);
  return shared;
}
