// Text for readouts and labels: activation names as readers know them, numbers at a sensible
// precision (very small gaps as 2.1 × 10⁻⁸ rather than 0.0000000213), real minus signs.

const ACTIVATION_LABELS = {
  identity: 'identity (bilinear)',
  relu: 'ReLU (ReGLU)',
  leaky_relu: 'leaky ReLU',
  relu2: 'ReLU²',
  gelu: 'GELU (GEGLU)',
  gelu_tanh: 'GELU, tanh form',
  silu: 'SiLU (SwiGLU)',
  swish: 'Swish-β',
  sigmoid: 'sigmoid (GLU)',
  tanh: 'tanh',
  softplus: 'softplus',
};

/** A reader-facing name for a catalogue activation; unknown names are shown as they are. */
export function activationLabel(name) {
  return Object.hasOwn(ACTIVATION_LABELS, name) ? ACTIVATION_LABELS[name] : String(name);
}

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
const SUBSCRIPT = { '-': '₋', 0: '₀', 1: '₁', 2: '₂', 3: '₃', 4: '₄', 5: '₅', 6: '₆', 7: '₇', 8: '₈', 9: '₉' };

/** −12 → "⁻¹²" (digits and the minus sign; other characters stay). */
export function superscript(n) {
  return String(n).replace(/./g, (c) => SUPERSCRIPT[c] ?? c);
}

/** 3 → "₃". */
export function subscript(n) {
  return String(n).replace(/./g, (c) => SUBSCRIPT[c] ?? c);
}

/** 3 significant digits; scientific notation with a superscript exponent below 10⁻³. */
export function formatNumber(value) {
  if (value === null || value === undefined) return 'n/a';
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  let text;
  if (magnitude < 1e-3 || magnitude >= 1e6) {
    const [mantissa, exponent] = value.toExponential(1).split('e');
    text = `${mantissa} × 10${superscript(Number(exponent))}`;
  } else {
    text = String(Number(value.toPrecision(3)));
  }
  return text.replace(/^-/, '−');
}
