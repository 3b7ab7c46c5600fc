// The race figure's own data set: points drawn by the reader or pasted as CSV. In the `points`
// attribute (and so in the URL) each point is two characters, its cell on a 64 × 64 grid of
// [−1.5, 1.5]², positive points first, then ".", then negative ones: "Gw1A.ab" is two
// positive points and one negative. At most MAX_POINTS fit the attribute's 200 characters.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const GRID_LEVELS = 64;
export const POINT_EXTENT = 1.5;
export const MAX_POINTS = 99;
export const POINTS_PATTERN = /^([A-Za-z0-9_-]{2})*(\.([A-Za-z0-9_-]{2})*)?$/;

/** The grid cell (0 … 63) nearest to a coordinate. */
export function levelOf(v) {
  const t = (v + POINT_EXTENT) / (2 * POINT_EXTENT);
  return Math.max(0, Math.min(GRID_LEVELS - 1, Math.round(t * (GRID_LEVELS - 1))));
}

/** The coordinate of a grid cell. */
export function coordOf(level) {
  return -POINT_EXTENT + (2 * POINT_EXTENT * level) / (GRID_LEVELS - 1);
}

/** Points [{ x, y, label: 1 | −1 }] → attribute text (snapped to the grid, duplicates dropped). */
export function encodePoints(points) {
  const seen = new Set();
  const parts = { 1: '', [-1]: '' };
  for (const p of points.slice(0, MAX_POINTS)) {
    const key = ALPHABET[levelOf(p.x)] + ALPHABET[levelOf(p.y)];
    if (seen.has(key)) continue;
    seen.add(key);
    parts[p.label > 0 ? 1 : -1] += key;
  }
  return parts[-1] ? `${parts[1]}.${parts[-1]}` : parts[1];
}

/** Attribute text → points [{ x, y, label }]; text that does not match gives no points. */
export function decodePoints(text) {
  if (!text || !POINTS_PATTERN.test(text)) return [];
  const [positive, negative = ''] = text.split('.');
  const out = [];
  const read = (chunk, label) => {
    for (let i = 0; i + 1 < chunk.length; i += 2) {
      out.push({ x: coordOf(ALPHABET.indexOf(chunk[i])), y: coordOf(ALPHABET.indexOf(chunk[i + 1])), label });
    }
  };
  read(positive, 1);
  read(negative, -1);
  return out;
}

/** Points → the library's user-data arrays { x: n·2, y: n }. */
export function pointArrays(points) {
  const x = new Float32Array(2 * points.length);
  const y = new Float32Array(points.length);
  points.forEach((p, i) => {
    x[2 * i] = p.x;
    x[2 * i + 1] = p.y;
    y[i] = p.label > 0 ? 1 : -1;
  });
  return { x, y };
}

/**
 * Parses pasted CSV (or TSV / whitespace) rows "x, y, label"; a header row is skipped. A label
 * > 0 is positive, anything else (0, −1) negative; the words "a"/"pos"/"true" count as positive.
 * Points beyond ±1.5 are scaled as a whole to fit. Returns { points, skipped, scaled, truncated }.
 */
export function parsePointsCsv(text) {
  const rows = String(text).split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const points = [];
  let skipped = 0;
  for (const row of rows) {
    const cells = row.split(/[,;\t ]+/).filter(Boolean);
    if (cells.length < 3) {
      skipped++;
      continue;
    }
    const [x, y] = [Number(cells[0]), Number(cells[1])];
    const word = cells[2].toLowerCase();
    const number = Number(word);
    const yes = ['a', 'pos', 'positive', 'true', 'yes'].includes(word);
    const no = ['b', 'neg', 'negative', 'false', 'no'].includes(word);
    const label = Number.isFinite(number) ? (number > 0 ? 1 : -1) : yes ? 1 : no ? -1 : NaN;
    if (!Number.isFinite(x) || !Number.isFinite(y) || Number.isNaN(label)) {
      skipped++;
      continue;
    }
    points.push({ x, y, label });
  }
  const largest = Math.max(0, ...points.map((p) => Math.max(Math.abs(p.x), Math.abs(p.y))));
  const scaled = largest > POINT_EXTENT ? (POINT_EXTENT * 0.95) / largest : 1;
  if (scaled !== 1) for (const p of points) [p.x, p.y] = [p.x * scaled, p.y * scaled];
  const truncated = Math.max(0, points.length - MAX_POINTS);
  return { points: points.slice(0, MAX_POINTS), skipped, scaled, truncated };
}
