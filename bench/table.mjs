// Formats the rows of every source as one table: a line per (op, shape), a column per
// source column (native, wasm, later TF.js, ONNX Runtime Web …), and for each wasm column
// of GFLOP/s rows its percentage of the wasm SIMD128 peak.

function pad(text, width, left = false) {
  const s = String(text);
  return left ? s.padEnd(width) : s.padStart(width);
}

// columns: [{ key, label, wasm? }]; rows: [{ column, op, shape, unit, value }];
// peak: from peak.mjs, or null.
export function formatTable(columns, rows, peak) {
  const lines = new Map();  // "op|shape|unit" → { op, shape, unit, values: { column: value } }
  for (const row of rows) {
    const key = `${row.op}|${row.shape}|${row.unit}`;
    if (!lines.has(key)) lines.set(key, { op: row.op, shape: row.shape, unit: row.unit, values: {} });
    lines.get(key).values[row.column] = row.value;
  }
  const used = columns.filter((c) => rows.some((r) => r.column === c.key));
  const header = [];
  for (const c of used) {
    header.push({ title: c.label, get: (line) => line.values[c.key] });
    if (c.wasm && peak) {
      const percent = (line) => (100 * line.values[c.key]) / peak.gflops;
      const known = (line) => line.unit === 'GFLOP/s' && line.values[c.key] !== undefined;
      header.push({ title: `${c.label} %pk`, get: (line) => (known(line) ? percent(line) : undefined) });
    }
  }
  const opWidth = Math.max(12, ...[...lines.values()].map((l) => l.op.length));
  const shapeWidth = Math.max(14, ...[...lines.values()].map((l) => l.shape.length));
  const unitWidth = Math.max(8, ...[...lines.values()].map((l) => l.unit.length));
  const widths = header.map((h) => Math.max(9, h.title.length));
  const out = [[pad('op', opWidth, true), pad('shape', shapeWidth, true), pad('unit', unitWidth, true),
    ...header.map((h, i) => pad(h.title, widths[i]))].join('  ')];
  let lastGroup = '';
  for (const line of lines.values()) {
    const group = `${line.op.split(/[_ ]/)[0]}|${line.shape}`;  // e.g. matmul at one shape
    if (lastGroup && group !== lastGroup) out.push('');
    lastGroup = group;
    const cells = header.map((h, i) => {
      const v = h.get(line);
      return pad(v === undefined ? '—' : v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2), widths[i]);
    });
    const label = [pad(line.op, opWidth, true), pad(line.shape, shapeWidth, true), pad(line.unit, unitWidth, true)];
    out.push([...label, ...cells].join('  '));
  }
  return out.join('\n');
}
