// Dependency-free SVG panels for the paper-B experiment plots: series of (x, y) points with
// optional ±error bands or bars, dashed reference lines, markers, linear or log-x axes and a
// legend. Deterministic text (fixed palette and number formatting): the same data gives the
// same file.
export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
  '#bcbd22', '#393b79', '#637939', '#843c39'];

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ESCAPES[c]);
const f = (v) => (Math.round(v * 10) / 10).toString();

function ticks(lo, hi, count) {
  const span = hi - lo || 1;
  const raw = span / count;
  const step = [1, 2, 2.5, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

const label = (v) => (Math.abs(v) >= 1000 ? `${Math.round(v / 100) / 10}k` : String(Number(v.toPrecision(4))));

/**
 * One panel. series: [{ label, color, points: [{ x, y, lo?, hi? }], dash?, band?, bars?, marker? }].
 * @returns {string} SVG elements
 */
export function panel({ x0, y0, width, height, title, xLabel, yLabel, series, xLog = false, yRange, xRange, xTicks }) {
  const pts = series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.y));
  const tx = (x) => (xLog ? Math.log10(x) : x);
  const [xlo, xhi] = xRange ?? [Math.min(...pts.map((p) => tx(p.x))), Math.max(...pts.map((p) => tx(p.x)))];
  let [ylo, yhi] = yRange ?? [Math.min(...pts.map((p) => p.lo ?? p.y)), Math.max(...pts.map((p) => p.hi ?? p.y))];
  if (!yRange) {
    const pad = 0.06 * (yhi - ylo || 1);
    [ylo, yhi] = [ylo - pad, yhi + pad];
  }
  const xpad = 0.03 * (xhi - xlo || 1);
  const sx = (x) => x0 + ((tx(x) - xlo + xpad) / (xhi - xlo + 2 * xpad)) * width;
  const sy = (y) => y0 + height - ((Math.min(Math.max(y, ylo), yhi) - ylo) / (yhi - ylo)) * height;
  const out = [`<rect x="${x0}" y="${y0}" width="${width}" height="${height}" fill="none" stroke="#999"/>`,
    `<text x="${x0}" y="${y0 - 8}" font-size="13">${esc(title)}</text>`];
  for (const v of ticks(ylo, yhi, 5)) {
    out.push(`<line x1="${x0}" x2="${x0 + width}" y1="${f(sy(v))}" y2="${f(sy(v))}" stroke="#eee"/>`);
    out.push(`<text x="${x0 - 5}" y="${f(sy(v) + 3.5)}" text-anchor="end" font-size="10">${label(v)}</text>`);
  }
  const xt = xTicks ?? (xLog ? ticks(xlo, xhi, 4).filter(Number.isInteger).map((v) => 10 ** v) : ticks(xlo, xhi, 6));
  for (const x of xt) {
    out.push(`<text x="${f(sx(x))}" y="${y0 + height + 13}" text-anchor="middle" font-size="10">${label(x)}</text>`);
  }
  if (xLabel) {
    out.push(`<text x="${x0 + width / 2}" y="${y0 + height + 28}" text-anchor="middle" font-size="11">`
      + `${esc(xLabel)}</text>`);
  }
  if (yLabel) {
    out.push(`<text transform="translate(${x0 - 36},${y0 + height / 2}) rotate(-90)" text-anchor="middle" `
      + `font-size="11">${esc(yLabel)}</text>`);
  }
  for (const s of series) {
    const p = s.points.filter((q) => Number.isFinite(q.y));
    if (!p.length) continue;
    if (s.band && p.every((q) => Number.isFinite(q.lo))) {
      const upper = p.map((q) => `${f(sx(q.x))},${f(sy(q.hi))}`);
      const lower = p.map((q) => `${f(sx(q.x))},${f(sy(q.lo))}`).reverse();
      out.push(`<polygon points="${[...upper, ...lower].join(' ')}" fill="${s.color}" fill-opacity="0.15" `
        + 'stroke="none"/>');
    }
    if (s.bars) {
      for (const q of p) {
        if (Number.isFinite(q.lo)) {
          out.push(`<line x1="${f(sx(q.x))}" x2="${f(sx(q.x))}" y1="${f(sy(q.lo))}" y2="${f(sy(q.hi))}" `
            + `stroke="${s.color}"/>`);
        }
      }
    }
    if (p.length > 1 && !s.noLine) {
      out.push(`<polyline points="${p.map((q) => `${f(sx(q.x))},${f(sy(q.y))}`).join(' ')}" fill="none" `
        + `stroke="${s.color}" `
        + `stroke-width="${s.width ?? 1.6}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`);
    }
    if (s.marker) {
      for (const q of p) out.push(`<circle cx="${f(sx(q.x))}" cy="${f(sy(q.y))}" r="3.2" fill="${s.color}"/>`);
    }
  }
  return out.join('\n');
}

/** A legend at (x, y): columns of `rows` entries, `columnWidth` apart. */
export function legend(x0, y, series, { rows = Infinity, columnWidth = 200 } = {}) {
  return series.map((s, i) => {
    const yy = y + (i % rows) * 17;
    const x = x0 + Math.floor(i / rows) * columnWidth;
    return `<line x1="${x}" x2="${x + 20}" y1="${yy - 4}" y2="${yy - 4}" stroke="${s.color}" stroke-width="3"`
      + `${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`
      + `\n<text x="${x + 26}" y="${yy}" font-size="11">${esc(s.label)}</text>`;
  }).join('\n');
}

/** The whole document around panels. */
export function svgDocument(width, height, title, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">\n`
    + `<rect width="100%" height="100%" fill="white"/>\n<text x="20" y="22" font-size="15">${esc(title)}</text>\n`
    + `${body}\n</svg>\n`;
}
