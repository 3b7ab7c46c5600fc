// Text for readouts and labels: numbers at a sensible precision (very small gaps as
// 2.1 × 10⁻⁸ rather than 0.0000000213) with real minus signs, and super- and subscript digits.
// The names of kinds and activations are labels.js's.

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
