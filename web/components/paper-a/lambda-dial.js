// The λ dial of the exchange figures: `symmetrize` (docs/MATH.md §A11), 0 = the gated layer,
// 1 = the exchange-symmetric "symgated" form. A labelled slider with its value beside it, a
// note when the figure's layer is not gated (only gated layers take λ), and the sentence the
// readouts use to say what λ does.
import { createRange } from '../base/controls.js';

const NOT_GATED = 'Only gated layers take λ: choose the gated layer to use the dial.';

/** The slider (steps of 0.05; an attribute may hold any value in [0, 1], shown as it is). */
export function createLambdaRange(onInput) {
  const range = createRange({
    label: 'λ (symmetrize)', min: 0, max: 1, step: 0.05, value: 0, exact: true, format: formatLambda, onInput,
  });
  range.input.title = 'λ = 0: the gated layer; λ = 1: symgated, the same for Q ↔ K swapped';
  const note = document.createElement('span');
  note.className = 'control-note';
  note.textContent = NOT_GATED;
  note.hidden = true;
  range.element.append(note);
  return { ...range, note };
}

/** Shows λ; disabled, with the note, when the layer is not gated. */
export function syncLambdaRange(range, lambda, gated) {
  range.set(lambda);
  range.input.disabled = !gated;
  range.note.hidden = gated;
}

/** λ as the slider's readout shows it: up to three decimals, "0", "0.25", "1". */
export function formatLambda(lambda) {
  return String(Number(Number(lambda).toFixed(3)));
}

/** What λ does to a gated layer (docs/MATH.md §A11), or null at λ = 0. */
export function lambdaWhy(lambda, linear) {
  if (!lambda) return null;
  if (lambda === 1) {
    return 'At λ = 1 each pair contributes ½(σ(a)·b + σ(b)·a), symmetric in a and b, '
      + 'so the swap changes nothing, whatever σ.';
  }
  return linear ? 'σ is linear, so σ(a)·b = σ(b)·a and the layer keeps the symmetry at any λ.'
    : `λ = ${formatLambda(lambda)} keeps the share 1 − λ of the antisymmetric part `
      + '½(σ(a)·b − σ(b)·a), so the swap still changes the layer, by (1 − λ) of what it changes at λ = 0.';
}
