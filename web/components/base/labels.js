// The names readers see for layer kinds and activations: "MLP", "symmetric", "gated"; "SiLU",
// "sigm"; the gated variants "SwiGLU", "GEGLU", "Bilinear"; a layer as "SwiGLU",
// "symmetric (ReLU)", "MLP (GELU)". Every figure, task and page reads them here and nowhere
// else, so a name is written once.
//
// They come from the core: web/lib/catalogue.js, which scripts/catalogue.mjs generates
// from the C++ name functions (paper_a/labels.hpp, base/activations.hpp), so a figure has them
// before any wasm loads, in the worker too. A layer's whole label ("SwiGLU, λ = 0.25") is the
// library's lab.layerLabel once a lab is at hand; before that, the same rule over the same names.
// No DOM here: the runner's tasks read it in the worker too.
import { LABELS, NAMES } from '../../lib/catalogue.js';

const KINDS = Object.freeze(NAMES.kinds.map((name) => Object.freeze({ name, label: LABELS.kinds[name] })));

/** { label, shortLabel, gatedName } of an activation; an unknown name is shown as it is. */
function activationNames(name) {
  return LABELS.activations[name] ?? { label: String(name), shortLabel: String(name), gatedName: null };
}

/** The layer kinds, [{ name, label }], in the core's order. */
export function layerKinds() {
  return KINDS;
}

/** The kinds' names: ['mlp', 'symmetric', 'gated', 'bigated']. */
export function layerKindNames() {
  return layerKinds().map((k) => k.name);
}

// The bigated kind σ(a)σ(b) (docs/MATH.md §A23) is issue #23's language-model variant, not one of
// paper A's forms: the paper-A figures (census, exchange, interactions, the gap readouts) keep to
// the paper's three kinds; <gatelab-lm> offers it through its own preset.
const OUTSIDE_PAPER_A = new Set(['bigated']);

/** Paper A's kinds, in the core's order: ['mlp', 'symmetric', 'gated']. */
export function paperAKindNames() {
  return layerKindNames().filter((name) => !OUTSIDE_PAPER_A.has(name));
}

/** Paper A's kinds whose units have a query and a key, so Q ↔ K can be exchanged (all but the MLP). */
export function queryKindNames() {
  return paperAKindNames().filter((name) => name !== 'mlp');
}

/** A kind's label: "MLP", "symmetric", "gated". */
export function kindLabel(kind) {
  return layerKinds().find((k) => k.name === kind)?.label ?? String(kind);
}

/** An activation's label: "SiLU", "GELU (tanh)". */
export function activationLabel(name) {
  return activationNames(name).label;
}

/** An activation's short label, for crowded axes: "sigm", "softp". */
export function activationShortLabel(name) {
  return activationNames(name).shortLabel;
}

/** The name of the gated layer with this activation ("SwiGLU", "Bilinear"), or null. */
export function gatedName(name) {
  return activationNames(name).gatedName;
}

/** An activation as menus and readouts show it: "SiLU (SwiGLU)", "tanh", "GELU (tanh)". */
export function activationDisplayName(name) {
  const { label, gatedName: gated } = activationNames(name);
  return gated && !label.includes('(') ? `${label} (${gated})` : label;
}

/**
 * A layer as readers know it: "SwiGLU", "gated (tanh)", "symmetric (ReLU)", "MLP (GELU)"; a gated
 * layer with symmetrize λ: "symgated (SiLU)" at 1, "SwiGLU, λ = 0.25" between 0 and 1; ", rank r" for r > 1.
 */
export function layerLabel({ kind, activation, rank = 1, symmetrize = 0 }, lab = null) {
  if (typeof lab?.layerLabel === 'function') return lab.layerLabel({ kind, activation, rank, symmetrize });
  const { label, gatedName: gated } = activationNames(activation);
  const ranked = (text) => (kind !== 'mlp' && rank > 1 ? `${text}, rank ${rank}` : text);
  if (kind === 'gated' && symmetrize === 1) return ranked(`symgated (${label})`);
  if (kind === 'gated' && symmetrize) return `${ranked(gated ?? `gated (${label})`)}, λ = ${symmetrize}`;
  if (kind === 'gated') return ranked(gated ?? `gated (${label})`);
  return ranked(`${kindLabel(kind)} (${label})`);
}

/** A regular-expression source matching "kind:activation", e.g. for a `models` attribute. */
export function kindActivationPattern() {
  return `(${layerKindNames().join('|')}):[a-z0-9_]{1,20}`;
}
