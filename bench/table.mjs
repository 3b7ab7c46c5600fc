// Formats the rows of every source as one table: a line per (op, shape, unit), a column per
// source column (native, wasm, TF.js wasm, ONNX Runtime Web, TF.js cpu), the wasm column's
// GFLOP/s as a percentage of the wasm SIMD128 peak, the native column's as a percentage of the
// measured native mul + add ceiling, and GateLab wasm's speed-up over each
// peer column ("× tfjs-wasm": 2.0 means GateLab is twice as fast; for times and sizes the
// ratio is peer / GateLab, so above 1 is always GateLab ahead).

function pad(text, width, left = false) {
  const s = String(text);
  return left ? s.padEnd(width) : s.padStart(width);
}

/** true when a larger value is better for this unit. */
export const higherIsBetter = (unit) => /GFLOP\/s|steps\/s/.test(unit);

/** GateLab wasm's advantage over a peer value (> 1: GateLab ahead), or undefined. */
export function advantage(unit, ours, theirs) {
  if (!(ours > 0) || !(theirs > 0)) return undefined;
  return higherIsBetter(unit) ? ours / theirs : theirs / ours;
}

function formatNumber(v) {
  if (v === undefined) return '—';
  const a = Math.abs(v);
  return v.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : a >= 0.1 ? 2 : 3);
}

/** Lines of the table keyed "op|shape|unit", in first-seen order. */
export function tableLines(rows) {
  const lines = new Map();
  for (const row of rows) {
    const key = `${row.op}|${row.shape}|${row.unit}`;
    if (!lines.has(key)) {
      lines.set(key, { bench: row.bench ?? '', op: row.op, shape: row.shape, unit: row.unit, values: {} });
    }
    lines.get(key).values[row.column] = row.value;
  }
  return [...lines.values()];
}

// columns: [{ key, label, wasm?, peer? }]; rows: [{ column, op, shape, unit, value }];
// peak: from peak.mjs, or null; ceiling: the native mul + add ceiling (peak.mjs nativeCeiling),
// or null. The GateLab column the peers are compared with is 'wasm'.
export function formatTable(columns, rows, peak, ceiling = null) {
  const lines = tableLines(rows);
  const used = columns.filter((c) => rows.some((r) => r.column === c.key));
  const header = [];
  for (const c of used) {
    header.push({ title: c.label, get: (line) => line.values[c.key] });
    if (c.key === 'native' && ceiling && rows.some((r) => r.unit === 'GFLOP/s')) {
      const known = (line) => line.unit === 'GFLOP/s' && line.values.native !== undefined;
      header.push({ title: 'native %ceil',
        get: (line) => (known(line) ? (100 * line.values.native) / ceiling.gflops : undefined) });
    }
    if (c.wasm && peak && rows.some((r) => r.unit === 'GFLOP/s')) {
      const known = (line) => line.unit === 'GFLOP/s' && line.values[c.key] !== undefined;
      header.push({ title: `${c.label} %pk`,
        get: (line) => (known(line) ? (100 * line.values[c.key]) / peak.gflops : undefined) });
    }
  }
  for (const c of used.filter((u) => u.peer)) {
    header.push({ title: `× ${c.label}`, ratio: true,
      get: (line) => advantage(line.unit, line.values.wasm, line.values[c.key]) });
  }
  const opWidth = Math.max(12, ...lines.map((l) => l.op.length));
  const shapeWidth = Math.max(14, ...lines.map((l) => l.shape.length));
  const unitWidth = Math.max(8, ...lines.map((l) => l.unit.length));
  const widths = header.map((h) => Math.max(9, h.title.length));
  const out = [[pad('op', opWidth, true), pad('shape', shapeWidth, true), pad('unit', unitWidth, true),
    ...header.map((h, i) => pad(h.title, widths[i]))].join('  ')];
  let lastGroup = '';
  for (const line of lines) {
    const group = line.bench || line.op.split(/[_ ]/)[0];  // peak, matmul, activations, train, …
    if (lastGroup && group !== lastGroup) out.push('');
    lastGroup = group;
    const cells = header.map((h, i) => {
      const v = h.get(line);
      return pad(v === undefined ? '—' : h.ratio ? `${v.toFixed(v >= 10 ? 0 : 2)}×` : formatNumber(v), widths[i]);
    });
    const label = [pad(line.op, opWidth, true), pad(line.shape, shapeWidth, true), pad(line.unit, unitWidth, true)];
    out.push([...label, ...cells].join('  ').trimEnd());
  }
  return out.join('\n');
}
