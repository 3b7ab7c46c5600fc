// The one table of layer kinds and activation names as readers know them, and the layer names
// built from it ("SwiGLU", "symmetric (ReLU)", "MLP (GELU)", "symgated (SiLU)"). Figures read
// these through lab.layerKinds, lab.activationInfo(name) and lab.layerLabel(layer) instead of
// keeping copies. The names are the ones the figures showed before: the plain activation label
// of figure-extras.js, the short one of the census and scaling bar charts, the gated variant
// names of the race (Shazeer 2020's ReGLU, GEGLU, SwiGLU, GLU and Bilinear).
import { GateLabError } from '../core/errors.js';
import { fail, finiteNumber, integer, oneOf, plainObject } from '../core/validate.js';

/** lab.layerKinds: the paper-A layer kinds in their canonical order (docs/MATH.md §A1, §A4, §A5). */
export const LAYER_KINDS = Object.freeze([
  Object.freeze({ name: 'mlp', label: 'MLP' }),
  Object.freeze({ name: 'symmetric', label: 'symmetric' }),
  Object.freeze({ name: 'gated', label: 'gated' }),
]);

export const KINDS = Object.freeze(LAYER_KINDS.map((k) => k.name));

// name: [label, shortLabel, gatedName]
const ACTIVATIONS = {
  identity: ['identity', 'id', 'Bilinear'],
  relu: ['ReLU', 'ReLU', 'ReGLU'],
  leaky_relu: ['leaky ReLU', 'leaky', null],
  relu2: ['ReLU²', 'ReLU²', null],
  gelu: ['GELU', 'GELU', 'GEGLU'],
  gelu_tanh: ['GELU (tanh)', 'GELUₜ', 'GEGLU (tanh)'],
  silu: ['SiLU', 'SiLU', 'SwiGLU'],
  swish: ['Swish', 'Swish', null],
  sigmoid: ['sigmoid', 'sigm', 'GLU'],
  tanh: ['tanh', 'tanh', null],
  softplus: ['softplus', 'softp', null],
};

/** { label, shortLabel, gatedName } of a catalogue activation (the name checked by the caller). */
export function activationLabels(name) {
  const [label, shortLabel, gatedName] = ACTIVATIONS[name] ?? [name, name, null];
  return { label, shortLabel, gatedName };
}

/**
 * The name readers know for a layer description { kind, activation?, rank?, symmetrize? }:
 * 'MLP (GELU)', 'symmetric (ReLU)', the gated variant's name ('SwiGLU', or 'gated (tanh)' when it
 * has none), 'symgated (SiLU)' for symmetrize 1, then ', rank r' for r > 1 and ', λ = 0.25' for
 * a symmetrize between 0 and 1. `activations` is the catalogue the activation is checked against.
 */
export function layerLabel(layer, activations) {
  if (layer === undefined) fail('layer', 'a layer description { kind, activation?, rank?, symmetrize? }', layer, 'invalid-type');
  const o = plainObject('layer', layer);
  const kind = oneOf('layer.kind', o.kind, KINDS);
  const activation = o.activation === undefined ? 'relu' : oneOf('layer.activation', o.activation, activations);
  const rank = o.rank === undefined || kind === 'mlp' ? 1 : integer('layer.rank', o.rank);
  const symmetrize = o.symmetrize === undefined ? 0 : finiteNumber('layer.symmetrize', o.symmetrize);
  if (symmetrize < 0 || symmetrize > 1) fail('layer.symmetrize', 'a number from 0 to 1', symmetrize, 'out-of-range');
  if (symmetrize !== 0 && kind !== 'gated') {
    throw new GateLabError(`layer.symmetrize applies to kind 'gated' only (kind is '${kind}')`,
      { argument: 'layer.symmetrize', code: 'unsupported' });
  }
  const { label, gatedName } = activationLabels(activation);
  let name;
  if (kind === 'mlp') name = `MLP (${label})`;
  else if (kind === 'symmetric') name = `symmetric (${label})`;
  else if (symmetrize === 1) name = `symgated (${label})`;
  else name = gatedName ?? `gated (${label})`;
  if (rank > 1) name += `, rank ${rank}`;
  if (symmetrize > 0 && symmetrize < 1) name += `, λ = ${symmetrize}`;
  return name;
}
