// Small pieces the paper-A figures share: a categorical palette that follows the theme, a
// "JSON" export button for figures that have weights, a bounded float formatter for CSV, and
// the test for a state change that only picks what to show of a result already computed.
import { createButton } from './controls.js';
import { download } from './export.js';
import { parseColor } from './theme.js';

const LIGHT = ['#15803d', '#7c3aed', '#b45309', '#0e7490', '#be185d', '#4d7c0f', '#9f1239', '#0369a1'];
const DARK = ['#4ade80', '#c4b5fd', '#fbbf24', '#67e8f9', '#f9a8d4', '#bef264', '#fda4af', '#7dd3fc'];

/** True when the theme's background is dark. */
export function isDark(theme) {
  const [r, g, b] = parseColor(theme.bg) ?? [255, 255, 255];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
}

/** `count` distinct colours: the theme's two accents first, then a fixed set for light or dark. */
export function palette(theme, count) {
  const base = [theme.accent, theme.accent2, ...(isDark(theme) ? DARK : LIGHT)];
  return Array.from({ length: count }, (_, i) => base[i % base.length]);
}

/**
 * Adds a "JSON" button to the figure's export group; `get()` returns the object to save, or a
 * promise of it (null when there is nothing yet).
 */
export function addJsonExport(figure, exportGroup, get, title = 'Download the weights as JSON') {
  const button = createButton({
    text: 'JSON', title, part: 'button export-json',
    onClick: async () => {
      try {
        const value = await get();
        if (!value) return;
        const blob = new Blob([JSON.stringify(value, jsonReplacer, 1)], { type: 'application/json' });
        download(blob, `${figure.exportName()}.json`, figure.shadowRoot);
      } catch (error) {
        figure.showError(error);
      }
    },
  });
  exportGroup.append(button);
  return button;
}

/**
 * True when `name` alone changed: a state entry that only picks what to show of the result
 * already computed (the selected row, the rank, the probed point), so update() redraws
 * instead of computing again.
 * @param {Set<string>} changed
 */
export function onlyChanged(changed, name) {
  return changed.size === 1 && changed.has(name);
}

/** Typed arrays become plain arrays in JSON. */
export function jsonReplacer(_key, value) {
  return ArrayBuffer.isView(value) ? Array.from(value) : value;
}

/** An evenly spaced grid of n values over [lo, hi] (inputs a figure feeds the library). */
export function linspace(lo, hi, n) {
  return Float32Array.from({ length: n }, (_, i) => (n === 1 ? lo : lo + ((hi - lo) * i) / (n - 1)));
}

const PLAIN = { identity: 'identity', relu: 'ReLU', leaky_relu: 'leaky ReLU', relu2: 'ReLU²', gelu: 'GELU',
  gelu_tanh: 'GELU (tanh)', silu: 'SiLU', swish: 'Swish', sigmoid: 'sigmoid', tanh: 'tanh', softplus: 'softplus' };
const GATED = { identity: 'Bilinear', relu: 'ReGLU', gelu: 'GEGLU', gelu_tanh: 'GEGLU (tanh)', silu: 'SwiGLU', sigmoid: 'GLU' };

/** An activation's plain name (no gated-variant suffix): "ReLU", "SiLU". */
export function plainActivation(name) {
  return PLAIN[name] ?? String(name);
}

/** A layer's name as readers know it: "SwiGLU", "gated (tanh)", "symmetric (ReLU)", "MLP (GELU)". */
export function layerLabel(kind, activation) {
  if (kind === 'gated') return GATED[activation] ?? `gated (${plainActivation(activation)})`;
  return `${kind === 'mlp' ? 'MLP' : kind} (${plainActivation(activation)})`;
}
