// Reading single cells of a heatmap, by pointer or by keyboard: the canvas becomes focusable,
// arrow keys move a probe cell (Shift: 8 cells, Home/End: the edges, Escape: away), and the
// pointer sets it while it hovers the plot. The figure draws the marker and says the value in
// the line createProbeLine() makes (also used by figures that probe without a grid).
// Cells are (i, j) with i along x (left to right) and j along y (bottom to top).

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{ size: () => number, plot: () => ({ x, y, w, h } | null),
 *   onChange: (cell: { i: number, j: number } | null) => void }} options
 * @returns {{ cell: { i: number, j: number } | null, clear: () => void }}
 */
export function attachGridProbe(canvas, { size, plot, onChange }) {
  const probe = { cell: null, clear: () => set(null) };
  canvas.tabIndex = 0;

  function set(cell) {
    const n = size();
    const next = cell && { i: Math.max(0, Math.min(n - 1, cell.i)), j: Math.max(0, Math.min(n - 1, cell.j)) };
    if (next?.i === probe.cell?.i && next?.j === probe.cell?.j) return;
    probe.cell = next;
    onChange(next);
  }

  canvas.addEventListener('keydown', (event) => {
    const n = size();
    const step = event.shiftKey ? 8 : 1;
    const middle = Math.floor(n / 2);
    const cell = probe.cell ?? { i: middle, j: middle };
    const moves = {
      ArrowLeft: { i: cell.i - step, j: cell.j },
      ArrowRight: { i: cell.i + step, j: cell.j },
      ArrowUp: { i: cell.i, j: cell.j + step },
      ArrowDown: { i: cell.i, j: cell.j - step },
      Home: { i: 0, j: cell.j },
      End: { i: n - 1, j: cell.j },
      PageUp: { i: cell.i, j: n - 1 },
      PageDown: { i: cell.i, j: 0 },
    };
    if (event.key === 'Escape') {
      set(null);
      return;
    }
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    set(probe.cell ? move : cell);
  });

  canvas.addEventListener('pointermove', (event) => {
    const area = plot();
    if (!area) return;
    const box = canvas.getBoundingClientRect();
    const u = (event.clientX - box.left - area.x) / area.w;
    const v = (event.clientY - box.top - area.y) / area.h;
    if (u < 0 || u > 1 || v < 0 || v > 1) {
      set(null);
      return;
    }
    const n = size();
    set({ i: Math.min(n - 1, Math.floor(u * n)), j: Math.min(n - 1, Math.floor((1 - v) * n)) });
  });
  canvas.addEventListener('pointerleave', () => set(null));
  canvas.addEventListener('blur', () => set(null));
  return probe;
}

/**
 * The polite live line under a figure's plots where a probe's reading is said (part `probe`,
 * class `probe`): the same element for every figure that reads values under a cursor.
 * @param {HTMLElement} plots the figure's plots part; the line is inserted right after it
 * @returns {HTMLParagraphElement}
 */
export function createProbeLine(plots) {
  const line = document.createElement('p');
  line.className = 'probe';
  line.setAttribute('part', 'probe');
  line.setAttribute('aria-live', 'polite');
  plots.after(line);
  return line;
}
