// The private side of one loaded module instance: the raw Embind module (its names `_`-prefixed,
// `_createLayer`, apart from the API's), the heap copier, the handle tracker and the activation
// catalogue, in one frozen object every area receives when the lab is assembled (gatelab.js).
// None of it is a property of the lab: the library's own files (and its tests) reach it from a
// lab through coreOf(lab), a WeakMap only this module can read, so `lab` enumerates its public
// API and nothing else.
import { LABELS, NAMES } from '../catalogue.js';
import { GateLabError } from './errors.js';
import { HandleTracker } from './handles.js';
import { Heap } from './heap.js';
import { oneOf } from './validate.js';

const CORES = new WeakMap();

/** The private context of a freshly instantiated module. */
export function createCore(module) {
  // The name sets and labels are the core's, as the build generated them (web/lib/catalogue.js).
  const activations = NAMES.activations;
  const layerKinds = Object.freeze(NAMES.kinds.map((name) => Object.freeze({ name, label: LABELS.kinds[name] })));
  return Object.freeze({
    module,
    heap: new Heap(module),
    tracker: new HandleTracker(),
    activations,
    layerKinds,
    kinds: Object.freeze(layerKinds.map((k) => k.name)),
    // The optimizer family's names (train/optimizer.hpp), in the core's order.
    optimizers: NAMES.optimizers,
    /** The catalogue index of an activation name; GateLabError naming `argument` otherwise. */
    activationIndex(name, argument = 'activation') {
      return activations.indexOf(oneOf(argument, name, activations));
    },
  });
}

/** Ties a public object (the lab) to its core. */
export function bindCore(owner, core) {
  CORES.set(owner, core);
  return owner;
}

/** The core of a lab made by loadGateLab. */
export function coreOf(owner) {
  const core = CORES.get(owner);
  if (!core) {
    throw new GateLabError('this must be a GateLab made by loadGateLab', { argument: 'this', code: 'invalid-type' });
  }
  return core;
}
