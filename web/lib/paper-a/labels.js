// Layer kinds and activation names as readers know them, and the layer names built from them
// ("SwiGLU", "symmetric (ReLU)", "MLP (GELU)", "symgated (SiLU)"), all from the one table in the
// C++ core (paper_a/labels.hpp). Figures read them through lab.layerKinds,
// lab.activationInfo(name) and lab.layerLabel(layer) instead of keeping copies.
import { LABELS } from '../catalogue.js';
import { GateLabError } from '../core/errors.js';
import { fail, finiteNumber, integer, oneOf, plainObject } from '../core/validate.js';

/** { label, shortLabel, gatedName } of a catalogue activation (the name checked by the caller). */
export function activationLabels(_core, name) {
  return LABELS.activations[name];
}

/**
 * The name readers know for a layer description { kind, activation?, rank?, symmetrize? }:
 * 'MLP (GELU)', 'symmetric (ReLU)', the gated variant's name ('SwiGLU', or 'gated (tanh)' when it
 * has none), 'symgated (SiLU)' for symmetrize 1, then ', rank r' for r > 1 and ', λ = 0.25' for
 * a symmetrize between 0 and 1.
 */
export function layerLabel(core, layer) {
  if (layer === undefined) {
    fail('layer', 'a layer description { kind, activation?, rank?, symmetrize? }', layer, 'invalid-type');
  }
  const o = plainObject('layer', layer);
  const kind = oneOf('layer.kind', o.kind, core.kinds);
  const activation = o.activation === undefined ? 'relu' : oneOf('layer.activation', o.activation, core.activations);
  const rank = o.rank === undefined || kind === 'mlp' ? 1 : integer('layer.rank', o.rank);
  const symmetrize = o.symmetrize === undefined ? 0 : finiteNumber('layer.symmetrize', o.symmetrize);
  if (symmetrize < 0 || symmetrize > 1) fail('layer.symmetrize', 'a number from 0 to 1', symmetrize, 'out-of-range');
  if (symmetrize !== 0 && kind !== 'gated') {
    throw new GateLabError(`layer.symmetrize applies to kind 'gated' only (kind is '${kind}')`,
      { argument: 'layer.symmetrize', code: 'unsupported' });
  }
  return core.module._layerLabel(core.kinds.indexOf(kind), core.activations.indexOf(activation), rank, symmetrize);
}
