// Drawing data points on a canvas, by pointer or keyboard. The canvas becomes focusable; a
// click adds a point of the current class where it lands, a click on a point removes it.
// Keys: arrows move a cursor over the 64 × 64 grid of user-points.js (Shift: 8 cells),
// Enter or Space adds a point of the current class at the cursor, Delete or Backspace removes
// the point nearest the cursor, C switches the class, Escape hides the cursor.
import { coordOf, GRID_LEVELS, levelOf } from './user-points.js';

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{ plot: () => ({x,y,w,h}|null), extent: number, enabled: () => boolean,
 *   points: () => {x,y,label}[], label: () => 1 | -1, onAdd: (point) => void,
 *   onRemove: (index: number) => void, onToggleClass: () => void,
 *   onCursor: (cursor: {i, j} | null) => void }} options
 */
export function attachPointEditor(canvas, options) {
  const editor = {
    cursor: null,
    /** Focusable only while drawing is possible. */
    sync() {
      canvas.tabIndex = options.enabled() ? 0 : -1;
    },
  };
  const { extent } = options;
  const toData = (event) => {
    const area = options.plot();
    if (!area) return null;
    const box = canvas.getBoundingClientRect();
    const u = (event.clientX - box.left - area.x) / area.w;
    const v = (event.clientY - box.top - area.y) / area.h;
    if (u < 0 || u > 1 || v < 0 || v > 1) return null;
    return { x: -extent + 2 * extent * u, y: extent - 2 * extent * v, pixelsPerUnit: area.w / (2 * extent) };
  };
  const nearest = (x, y) => {
    let best = -1;
    let distance = Infinity;
    options.points().forEach((p, i) => {
      const d = Math.hypot(p.x - x, p.y - y);
      if (d < distance) [best, distance] = [i, d];
    });
    return { index: best, distance };
  };
  const setCursor = (cursor) => {
    editor.cursor = cursor;
    options.onCursor(cursor);
  };

  canvas.addEventListener('click', (event) => {
    if (!options.enabled()) return;
    const at = toData(event);
    if (!at) return;
    const hit = nearest(at.x, at.y);
    if (hit.index >= 0 && hit.distance * at.pixelsPerUnit < 7) options.onRemove(hit.index);
    else options.onAdd({ x: coordOf(levelOf(at.x)), y: coordOf(levelOf(at.y)), label: options.label() });
  });

  canvas.addEventListener('keydown', (event) => {
    if (!options.enabled()) return;
    const middle = Math.floor(GRID_LEVELS / 2);
    const cursor = editor.cursor ?? { i: middle, j: middle };
    const step = event.shiftKey ? 8 : 1;
    const clamp = (v) => Math.max(0, Math.min(GRID_LEVELS - 1, v));
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[event.key]) {
      event.preventDefault();
      const [di, dj] = editor.cursor ? moves[event.key] : [0, 0];
      setCursor({ i: clamp(cursor.i + di), j: clamp(cursor.j + dj) });
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      setCursor(cursor);
      options.onAdd({ x: coordOf(cursor.i), y: coordOf(cursor.j), label: options.label() });
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      const hit = nearest(coordOf(cursor.i), coordOf(cursor.j));
      if (hit.index >= 0) options.onRemove(hit.index);
    } else if (event.key === 'c' || event.key === 'C') {
      options.onToggleClass();
    } else if (event.key === 'Escape') {
      setCursor(null);
    }
  });
  canvas.addEventListener('blur', () => setCursor(null));
  return editor;
}
