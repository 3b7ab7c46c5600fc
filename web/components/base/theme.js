// Theme: the colours and font a figure draws its canvases with, read from CSS custom properties
// (so a page themes a figure with plain CSS), plus the diverging colormap. The public
// properties, inherited from the page or set on the element, are
//   --gatelab-fg, --gatelab-bg, --gatelab-muted, --gatelab-accent, --gatelab-accent-2,
//   --gatelab-grid, --gatelab-font,
//   --gatelab-colormap: a comma-separated list of CSS colours, negative end first
//                       (the middle stop is zero for a diverging map).
// figure-styles.js resolves each into a private --gl-* property with a light or dark default
// (prefers-color-scheme); this module reads the resolved --gl-* values.

let probe = null;

/** Parses any CSS colour into [r, g, b, a] (0..255), or null when the browser rejects it. */
export function parseColor(text) {
  probe ??= new OffscreenCanvas(1, 1).getContext('2d');
  const sentinel = '#010203';
  probe.fillStyle = sentinel;
  probe.fillStyle = String(text).trim();
  const normalised = probe.fillStyle;
  if (normalised === sentinel && String(text).trim().toLowerCase() !== sentinel) return null;
  if (normalised.startsWith('#')) {
    const v = parseInt(normalised.slice(1, 7), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255, 255];
  }
  const parts = normalised.match(/[\d.]+/g)?.map(Number) ?? [];
  if (parts.length < 3) return null;
  return [parts[0], parts[1], parts[2], Math.round((parts[3] ?? 1) * 255)];
}

/** The colour with an alpha, for bands and fills. */
export function withAlpha(color, alpha) {
  const [r, g, b] = parseColor(color) ?? [128, 128, 128];
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** Splits "a, rgb(1, 2, 3), b" at top-level commas. */
export function splitList(text) {
  const items = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      items.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  items.push(text.slice(start).trim());
  return items.filter(Boolean);
}

const FALLBACK = {
  fg: '#1d1d1f', bg: '#ffffff', muted: '#6b6b70', accent: '#c2410c', accent2: '#2563eb', grid: '#d9d9de',
  font: 'system-ui, sans-serif', colormap: ['#2166ac', '#f7f7f7', '#b2182b'],
};

/** Reads the element's theme. Colour strings are kept as CSS for the 2D context; the colormap
 *  is resolved to RGB stops. */
export function readTheme(element) {
  const style = getComputedStyle(element);
  const read = (name, fallback) => {
    const value = style.getPropertyValue(name.replace('--gatelab-', '--gl-')).trim();
    return value && parseColor(value) ? value : fallback;
  };
  const font = style.getPropertyValue('--gl-font').trim() || style.fontFamily || FALLBACK.font;
  const stops = splitList(style.getPropertyValue('--gl-colormap')).map(parseColor).filter(Boolean);
  return {
    fg: read('--gatelab-fg', FALLBACK.fg),
    bg: read('--gatelab-bg', FALLBACK.bg),
    muted: read('--gatelab-muted', FALLBACK.muted),
    accent: read('--gatelab-accent', FALLBACK.accent),
    accent2: read('--gatelab-accent-2', FALLBACK.accent2),
    grid: read('--gatelab-grid', FALLBACK.grid),
    font,
    colormap: stops.length >= 2 ? stops : FALLBACK.colormap.map(parseColor),
  };
}

/**
 * A 256-entry RGBA lookup table through the colour stops, interpolated in linear light so the
 * middle of the map does not turn muddy. Entry 0 is the negative end, 255 the positive end.
 */
export function colormapTable(stops) {
  const toLinear = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const toSrgb = (c) => 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
  const linear = stops.map(([r, g, b, a]) => [toLinear(r), toLinear(g), toLinear(b), a]);
  const table = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (linear.length - 1);
    const k = Math.min(linear.length - 2, Math.floor(t));
    const f = t - k;
    const [p, q] = [linear[k], linear[k + 1]];
    table[4 * i] = toSrgb(p[0] + f * (q[0] - p[0]));
    table[4 * i + 1] = toSrgb(p[1] + f * (q[1] - p[1]));
    table[4 * i + 2] = toSrgb(p[2] + f * (q[2] - p[2]));
    table[4 * i + 3] = p[3] + f * (q[3] - p[3]);
  }
  return table;
}

const tables = new WeakMap();
/** The theme's colormap as a colormapTable, built once per theme. */
export function colormapFor(theme) {
  let table = tables.get(theme.colormap);
  if (!table) tables.set(theme.colormap, (table = colormapTable(theme.colormap)));
  return table;
}

/** The CSS colour at t ∈ [0, 1] of the theme's colormap (0: its negative end). */
export function colormapColor(theme, t) {
  const table = colormapFor(theme);
  const k = 4 * Math.max(0, Math.min(255, Math.round(t * 255)));
  return `rgb(${table[k]}, ${table[k + 1]}, ${table[k + 2]})`;
}
