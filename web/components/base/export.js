// Export of a figure: a PNG of its canvases and a CSV of the numbers behind it, offered as
// downloads through a temporary object URL (no data: URLs, nothing inline: CSP-safe).

/** Triggers a download of `blob` under `filename`. `host` is where the temporary link lives. */
export function download(blob, filename, host = document.body) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  host.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A CSV field: quoted when it holds a comma, quote or line break; numbers at full precision. */
function csvField(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  // A leading =, +, - or @ would be read as a formula by spreadsheets.
  const safe = /^[=+\-@]/.test(text) && !/^-?[\d.]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** @param {string[]} columns @param {Iterable<any[]>} rows */
export function toCsv(columns, rows) {
  const lines = [columns.map(csvField).join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Splits text into lines no wider than `width` in the context's current font. */
function wrapLines(ctx, text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(candidate).width > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

const PAD = 16;
const LINE_HEIGHT = 18;

/**
 * Where canvasesToPng puts things: the canvases' box on screen, the caption's wrapped lines, and
 * the picture's size in CSS pixels (width, height) and device pixels per CSS pixel (scale).
 * @param {HTMLCanvasElement[]} canvases
 */
export function pngLayout(canvases, { font, caption }) {
  const boxes = canvases.map((c) => c.getBoundingClientRect());
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const scale = canvases[0].width / Math.max(1, boxes[0].width);
  const width = Math.max(...boxes.map((b) => b.right)) - left + 2 * PAD;
  const plotsHeight = Math.max(...boxes.map((b) => b.bottom)) - top;
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `13px ${font}`;
  const lines = caption ? wrapLines(ctx, caption, width - 2 * PAD) : [];
  const height = plotsHeight + 2 * PAD + (lines.length ? lines.length * LINE_HEIGHT + 8 : 0);
  return { boxes, left, top, scale, width, height, plotsHeight, lines };
}

/**
 * Draws several canvases as laid out on screen onto one canvas with the theme's background, at
 * the canvases' own pixel resolution, with a margin and an optional wrapped caption below.
 * @param {HTMLCanvasElement[]} canvases
 * @returns {Promise<Blob>} PNG
 */
export async function canvasesToPng(canvases, { background, foreground, font, caption }) {
  const { boxes, left, top, scale, width, height, plotsHeight, lines } = pngLayout(canvases, { font, caption });
  const out = document.createElement('canvas');
  const ctx = out.getContext('2d');
  out.width = Math.ceil(width * scale);
  out.height = Math.ceil(height * scale);

  ctx.fillStyle = background;
  ctx.fillRect(0, 0, out.width, out.height);
  canvases.forEach((c, i) => {
    ctx.drawImage(c, (boxes[i].left - left + PAD) * scale, (boxes[i].top - top + PAD) * scale,
      boxes[i].width * scale, boxes[i].height * scale);
  });
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.fillStyle = foreground;
  ctx.font = `13px ${font}`;
  ctx.textBaseline = 'top';
  lines.forEach((line, i) => ctx.fillText(line, PAD, PAD + plotsHeight + 8 + i * LINE_HEIGHT));
  return new Promise((resolve, reject) => {
    out.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG export failed'))), 'image/png');
  });
}

/** A file name from the tag and the state, e.g. gatelab-exchange-plane_silu_seed-1. */
export function exportName(tag, state) {
  const parts = Object.entries(state).map(([k, v]) => (typeof v === 'string' ? v : `${k}-${v}`));
  return [tag, ...parts].join('_').replace(/[^\w.-]+/g, '-').slice(0, 120);
}
