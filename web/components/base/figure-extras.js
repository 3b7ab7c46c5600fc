// Small pieces the figures share: a categorical palette that follows the theme, a "JSON"
// export button for figures that have weights (and the replacer that writes typed arrays as
// arrays), the test for a state change that only picks what to show of a result already
// computed, and an evenly spaced grid of inputs.
import { createButton } from './controls.js';
import { download } from './export.js';
import { parseColor } from './theme.js';

// After the theme's two accents (orange, blue). Chosen, with the default accents, for the largest
// smallest CIEDE2000 difference between any two of the first seven (the race's default models):
// 28 in light, 24 in dark (the old set had 6.9: ReLU's orange beside SwiGLU's amber), each at
// least 3:1 against its background and clear of the grey text and baseline colours.
// tests/browser/base/colours.test.mjs measures the colours the figures draw.
const LIGHT = ['#4b5900', '#931589', '#1199af', '#b2850a', '#f74b81', '#01a24d', '#9d81b6', '#006a5b'];
const DARK = ['#36aa6b', '#ffbade', '#00f0e2', '#facc15', '#ff6264', '#a3e635', '#b883f9', '#0ba5b8'];

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
