// Level sets of a grid by marching squares: the energy landscape's contour lines, a trained
// model's decision boundary (its zero level) and the interaction plane's zero line all come from
// contourSegments(). Grid coordinates are (c, r): column c, row r of a row-major rows × cols
// grid, with linear interpolation along cell edges; a saddle cell is resolved by the value at
// its centre. Cells with a non-finite corner are skipped.

/** Calls segment(c0, r0, c1, r1) for every piece of the level set `level` of the grid. */
export function contourSegments(grid, rows, cols, level, segment) {
  const at = (r, c) => grid[r * cols + c];
  const cross = (a, b) => (level - a) / (b - a);
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      const v0 = at(r, c);          // (c, r)
      const v1 = at(r, c + 1);      // (c+1, r)
      const v2 = at(r + 1, c + 1);  // (c+1, r+1)
      const v3 = at(r + 1, c);      // (c, r+1)
      if (!(Number.isFinite(v0) && Number.isFinite(v1) && Number.isFinite(v2) && Number.isFinite(v3))) continue;
      const code = (v0 > level ? 1 : 0) | (v1 > level ? 2 : 0) | (v2 > level ? 4 : 0) | (v3 > level ? 8 : 0);
      if (code === 0 || code === 15) continue;
      const edges = [];
      if ((code & 1) !== ((code >> 1) & 1)) edges.push([c + cross(v0, v1), r]);
      if (((code >> 1) & 1) !== ((code >> 2) & 1)) edges.push([c + 1, r + cross(v1, v2)]);
      if (((code >> 2) & 1) !== ((code >> 3) & 1)) edges.push([c + 1 - cross(v2, v3), r + 1]);
      if (((code >> 3) & 1) !== (code & 1)) edges.push([c, r + 1 - cross(v3, v0)]);
      if (edges.length === 2) {
        segment(edges[0][0], edges[0][1], edges[1][0], edges[1][1]);
      } else if (edges.length === 4) {
        const [a, b, c2, d] = edges;
        const centre = (v0 + v1 + v2 + v3) / 4 > level;
        if (centre === (code === 5)) {
          segment(a[0], a[1], b[0], b[1]);
          segment(c2[0], c2[1], d[0], d[1]);
        } else {
          segment(a[0], a[1], d[0], d[1]);
          segment(b[0], b[1], c2[0], c2[1]);
        }
      }
    }
  }
}

/**
 * Strokes the level sets `levels` of a grid. `toPlot(c, r)` gives the canvas position of grid
 * coordinates (see heatmap.js's gridPosition for a grid drawn as a heatmap).
 * @param {CanvasRenderingContext2D} ctx
 * @param {{ grid: ArrayLike<number>, rows: number, cols: number, levels: number[],
 *   toPlot: (c: number, r: number) => [number, number], color: string, width?: number, alpha?: number }} spec
 */
export function drawContours(ctx, { grid, rows, cols, levels, toPlot, color, width = 1, alpha = 1 }) {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.globalAlpha = alpha;
  ctx.beginPath();
  for (const level of levels) {
    contourSegments(grid, rows, cols, level, (c0, r0, c1, r1) => {
      ctx.moveTo(...toPlot(c0, r0));
      ctx.lineTo(...toPlot(c1, r1));
    });
  }
  ctx.stroke();
  ctx.restore();
}
