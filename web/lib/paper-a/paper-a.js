// Paper A's half of the lab: layers of the one family (mlp, symmetric, gated, bigated; see
// docs/MATH.md §A1–§A6), their symmetry probes, the census, rank-r approximation and
// interaction matrices, and the table of kinds and names the figures label them with.
// installPaperA(core) returns the members gatelab.js puts on the lab; the core is the module
// instance's private context.
import { census, interactions, rankApprox } from './analysis.js';
import { layerLabel } from './labels.js';
import { createLayer } from './layer.js';
import { createSymmetry } from './symmetry.js';

export function installPaperA(core) {
  return {
    /** [{ name, label }] of 'mlp', 'symmetric', 'gated', 'bigated'. */
    layerKinds: core.layerKinds,
    symmetry: createSymmetry(core),
    /** A new layer; see paper-a.d.ts for the options. Dispose it when done. */
    createLayer: (options) => createLayer(core, options),
    /** The name readers know for a layer description ('SwiGLU', 'symmetric (ReLU)' …). */
    layerLabel: (layer) => layerLabel(core, layer),
    census: (options) => census(core, options),
    rankApprox: (options) => rankApprox(core, options),
    interactions: (layer, u, x) => interactions(core, layer, u, x),
  };
}
