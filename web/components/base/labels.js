// The names readers see for layer kinds and activations: "MLP", "symmetric", "gated"; "SiLU",
// "sigm"; the gated variants "SwiGLU", "GEGLU", "Bilinear"; a layer as "SwiGLU",
// "symmetric (ReLU)", "MLP (GELU)". Every figure, task and page reads them here and nowhere
// else, so a name is written once.
//
// THE ONE PLACE TO SWITCH TO THE LIBRARY. The names belong to web/lib, which is to provide
// them as lab.layerKinds ([{ name, label }]), lab.activationInfo(name).label / .shortLabel /
// .gatedName and lab.layerLabel({ kind, activation }). Until it does, LOCAL_KINDS and
// LOCAL_ACTIVATIONS below hold them. Every reader already takes the lab and asks it first
// (fromLibrary), so once the library has them the figures show the library's names; then delete
// the two local tables and the fallbacks (a reader called before the lab has loaded, e.g. while
// a figure builds its controls, then needs a lab: sharedLab() or the figure's own).
// No DOM here: the runner's tasks read it in the worker too.

/** LOCAL TABLE (see above): the layer kinds, in the library's order. */
const LOCAL_KINDS = Object.freeze([
  Object.freeze({ name: 'mlp', label: 'MLP' }),
  Object.freeze({ name: 'symmetric', label: 'symmetric' }),
  Object.freeze({ name: 'gated', label: 'gated' }),
  Object.freeze({ name: 'bigated', label: 'bigated' }),
]);

const entry = (label, shortLabel, gatedName = null) => Object.freeze({ label, shortLabel, gatedName });
/** LOCAL TABLE (see above): each catalogue activation's label, short label and gated variant's name. */
const LOCAL_ACTIVATIONS = Object.freeze({
  identity: entry('identity', 'id', 'Bilinear'),
  relu: entry('ReLU', 'ReLU', 'ReGLU'),
  leaky_relu: entry('leaky ReLU', 'leaky'),
  relu2: entry('ReLU²', 'ReLU²'),
  gelu: entry('GELU', 'GELU', 'GEGLU'),
  gelu_tanh: entry('GELU (tanh)', 'GELUₜ', 'GEGLU (tanh)'),
  silu: entry('SiLU', 'SiLU', 'SwiGLU'),
  swish: entry('Swish', 'Swish'),
  sigmoid: entry('sigmoid', 'sigm', 'GLU'),
  tanh: entry('tanh', 'tanh'),
  softplus: entry('softplus', 'softp'),
});

/** True when the lab provides the names itself. */
function fromLibrary(lab) {
  return Array.isArray(lab?.layerKinds) && typeof lab.layerLabel === 'function';
}

/** { label, shortLabel, gatedName } of an activation; an unknown name is shown as it is. */
function activationNames(name, lab) {
  if (fromLibrary(lab)) {
    try {
      const info = lab.activationInfo(name);
      if (info?.label) return { label: info.label, shortLabel: info.shortLabel ?? info.label, gatedName: info.gatedName ?? null };
    } catch {
      // Not a catalogue name: shown as it is, below.
    }
  }
  return LOCAL_ACTIVATIONS[name] ?? { label: String(name), shortLabel: String(name), gatedName: null };
}

/** The layer kinds, [{ name, label }]. */
export function layerKinds(lab = null) {
  return fromLibrary(lab) ? lab.layerKinds : LOCAL_KINDS;
}

/** The kinds' names: ['mlp', 'symmetric', 'gated', 'bigated']. */
export function layerKindNames(lab = null) {
  return layerKinds(lab).map((k) => k.name);
}

// The bigated kind σ(a)σ(b) (docs/MATH.md §A23) is issue #23's language-model variant, not one of
// paper A's forms: the paper-A figures (census, exchange, interactions, the gap readouts) keep to
// the paper's three kinds; <gatelab-lm> offers it through its own preset.
const OUTSIDE_PAPER_A = new Set(['bigated']);

/** Paper A's kinds, in the library's order: ['mlp', 'symmetric', 'gated']. */
export function paperAKindNames(lab = null) {
  return layerKindNames(lab).filter((name) => !OUTSIDE_PAPER_A.has(name));
}

/** Paper A's kinds whose units have a query and a key, so Q ↔ K can be exchanged (all but the MLP). */
export function queryKindNames(lab = null) {
  return paperAKindNames(lab).filter((name) => name !== 'mlp');
}

/** A kind's label: "MLP", "symmetric", "gated". */
export function kindLabel(kind, lab = null) {
  return layerKinds(lab).find((k) => k.name === kind)?.label ?? String(kind);
}

/** An activation's label: "SiLU", "GELU (tanh)". */
export function activationLabel(name, lab = null) {
  return activationNames(name, lab).label;
}

/** An activation's short label, for crowded axes: "sigm", "softp". */
export function activationShortLabel(name, lab = null) {
  return activationNames(name, lab).shortLabel;
}

/** The name of the gated layer with this activation ("SwiGLU", "Bilinear"), or null. */
export function gatedName(name, lab = null) {
  return activationNames(name, lab).gatedName;
}

/** An activation as menus and readouts show it: "SiLU (SwiGLU)", "tanh", "GELU (tanh)". */
export function activationDisplayName(name, lab = null) {
  const { label, gatedName: gated } = activationNames(name, lab);
  return gated && !label.includes('(') ? `${label} (${gated})` : label;
}

/**
 * A layer as readers know it: "SwiGLU", "gated (tanh)", "symmetric (ReLU)", "MLP (GELU)"; a gated
 * layer with symmetrize λ: "symgated (SiLU)" at 1, "SwiGLU, λ = 0.25" between 0 and 1; ", rank r" for r > 1.
 */
export function layerLabel({ kind, activation, rank = 1, symmetrize = 0 }, lab = null) {
  if (fromLibrary(lab)) return lab.layerLabel({ kind, activation, rank, symmetrize });
  const { label, gatedName: gated } = activationNames(activation);
  const ranked = (text) => (kind !== 'mlp' && rank > 1 ? `${text}, rank ${rank}` : text);
  if (kind === 'gated' && symmetrize === 1) return ranked(`symgated (${label})`);
  if (kind === 'gated' && symmetrize) return `${ranked(gated ?? `gated (${label})`)}, λ = ${symmetrize}`;
  if (kind === 'gated') return ranked(gated ?? `gated (${label})`);
  return ranked(`${kindLabel(kind)} (${label})`);
}

/** A regular-expression source matching "kind:activation", e.g. for a `models` attribute. */
export function kindActivationPattern(lab = null) {
  return `(${layerKindNames(lab).join('|')}):[a-z0-9_]{1,20}`;
}
