// What <gatelab-teleport> and <gatelab-conservation> share: the layer menu (names from the library's
// own labels), a log axis for factors and step sizes, the plain-words laws, and a centred message
// on a canvas (where a layer has no orbit to draw).
import { layerLabel } from '../../base/labels.js';
import { ORBIT_LAYERS } from '../../runner/symmetry-tasks.js';

export const LAYER_NAMES = Object.keys(ORBIT_LAYERS);

/** The library's name of a menu layer ('ReGLU', 'Bilinear', 'symmetric (ReLU)', 'SwiGLU'). */
export function orbitLayerLabel(name, lab) {
  return layerLabel(ORBIT_LAYERS[name], lab);
}

export function layerOptions(lab) {
  return LAYER_NAMES.map((value) => ({ value, text: orbitLayerLabel(value, lab) }));
}

/** Ticks at the given values on an axis that holds log10 of them. */
export function logValueTicks(values, format) {
  return values.map((v) => ({ value: Math.log10(v), label: format(v) }));
}

/** Why a layer has the orbit (or not), in plain words; the library decides which applies. */
export function orbitWhy(name, lab) {
  const label = orbitLayerLabel(name, lab);
  if (name === 'swiglu') {
    return `${label} has no such orbit: SiLU is not positively homogeneous (SiLU(c·a) ≠ c·SiLU(a)), so `
      + 'σ(c·a)·(b/c) ≠ σ(a)·b and moving (q_j, k_j) → (c·q_j, k_j/c) changes what the layer computes.';
  }
  if (name === 'symmetric') return `${label}: (c·a)(b/c) = a·b inside σ, so every c keeps the function.`;
  return `${label}: σ(c·a) = c·σ(a) for c > 0 (${name === 'bilinear' ? 'the identity' : 'ReLU'} is positively `
    + 'homogeneous), so σ(c·a)·(b/c) = σ(a)·b and every c > 0 keeps the function.';
}

/** The conservation law, named plainly. */
export function conservationLaw(lab) {
  const names = LAYER_NAMES.filter((n) => n !== 'swiglu').map((n) => orbitLayerLabel(n, lab)).join(', ');
  return `The law: for ${names}, gradient flow (infinitely small steps, no weight decay) never changes any unit's `
    + 'balance ‖q_j‖² − ‖k_j‖², because scaling q_j up and k_j down leaves the function as it is. Real steps '
    + `drift it by an amount that shrinks with the step. ${orbitLayerLabel('swiglu', lab)} has no such `
    + 'symmetry and no such law: its balance moves whatever the step.';
}

/** A message in the middle of an empty chart area (wrapped to the width). */
export function drawMessage(ctx, width, height, text, theme, fontSize) {
  ctx.save();
  ctx.fillStyle = theme.muted;
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const words = text.split(' ');
  const lines = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (ctx.measureText(next).width > width - 24 && line) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  lines.push(line);
  const lead = 1.35 * fontSize;
  lines.forEach((l, i) => ctx.fillText(l, width / 2, height / 2 + (i - (lines.length - 1) / 2) * lead));
  ctx.restore();
}
