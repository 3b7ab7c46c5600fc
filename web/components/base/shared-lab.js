// One GateLab module per page, shared by every figure (and by page code that calls the API's
// sharedGateLab()): the first figure to start loads it, the others reuse the same promise.
// A page that self-hosts the wasm elsewhere calls configureSharedLab({ wasmUrl }) before any
// figure starts.
import { sharedGateLab } from '../../lib/gatelab.js';

let options;
let labPromise = null;

export function configureSharedLab(newOptions) {
  if (labPromise) throw new Error('configureSharedLab: the shared GateLab module is already loading');
  options = { ...newOptions };
}

/** @returns {Promise<import('../../../lib/gatelab.js').GateLab>} */
export function sharedLab() {
  labPromise ??= sharedGateLab(options);
  return labPromise;
}
