// Paper A's half of the lab: layers of the one family (mlp, symmetric, gated; see
// docs/MATH.md §A1–§A6), their symmetry probes, the census, rank-r approximation and
// interaction matrices. installPaperA(core) returns the members gatelab.js puts on the lab; the core is the module
// instance's private context.
import { census, interactions, rankApprox } from './analysis.js';
import { createLayer } from './layer.js';
import { createSymmetry } from './symmetry.js';

export function installPaperA(core) {
  return {
    symmetry: createSymmetry(core),
    /** A new layer; see paper-a.d.ts for the options. Dispose it when done. */
    createLayer: (options) => createLayer(core, options),
    census: (options) => census(core, options),
    rankApprox: (options) => rankApprox(core, options),
    interactions: (layer, u, x) => interactions(core, layer, u, x),
  };
}
