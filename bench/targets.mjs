// The speed targets, checked against the rows of one run: each becomes a line "met" or
// "MISSED" with the worst case, so the printed table proves (or disproves) them.
import { advantage, tableLines } from './table.mjs';

const square = (shape) => /^(\d+)x\1x\1$/.exec(shape);

/** @returns {{ name: string, met: boolean | null, detail: string }[]} null = not measured. */
export function checkTargets(rows, peak, { browser = false, ceiling = null } = {}) {
  const lines = tableLines(rows);
  const results = [];
  const worst = (name, cases, need, describe) => {
    const known = cases.filter((c) => c.value !== undefined);
    if (!known.length) return results.push({ name, met: null, detail: 'not measured' });
    const bad = known.filter((c) => !need(c.value));
    // Values are oriented so that lower is worse (times are negated by the callers).
    const lowest = (list) => list.reduce((a, b) => (a.value <= b.value ? a : b));
    results.push({ name, met: bad.length === 0, detail: bad.length
      ? `${bad.length} of ${known.length} miss; worst ${describe(lowest(bad))}`
      : `all ${known.length} cases; worst ${describe(lowest(known))}` });
    return null;
  };
  const matmul = lines.filter((l) => l.op === 'matmul_nn' && l.unit === 'GFLOP/s');
  for (const peer of ['tfjs-wasm', 'ort-wasm']) {
    const cases = matmul.map((l) => ({ shape: l.shape, value: advantage(l.unit, l.values.wasm, l.values[peer]),
      need: l.shape === '64x64x64' ? 2 : 1.25 }));
    const known = cases.filter((c) => c.value !== undefined);
    const bad = known.filter((c) => c.value < c.need);
    results.push({ name: `matmul ≥ 1.25× ${peer} (≥ 2× at n = 64)`, met: known.length ? bad.length === 0 : null,
      detail: !known.length ? 'not measured' : bad.length
        ? `missed at ${bad.map((c) => `${c.shape} (${c.value.toFixed(2)}×)`).join(', ')}`
        : `lowest ${Math.min(...known.map((c) => c.value)).toFixed(2)}× over ${known.length} shapes` });
  }
  if (peak) {
    worst('matmul ≥ 50 % of the wasm SIMD128 peak (square n ≥ 64)',
      matmul.filter((l) => square(l.shape))
        .map((l) => ({ shape: l.shape, value: l.values.wasm && (100 * l.values.wasm) / peak.gflops })),
      (v) => v >= 50, (c) => `${c.shape} ${c.value.toFixed(0)} %`);
  }
  if (ceiling) {
    const lmShape = (shape) => ['1024x64x128', '1024x128x64', '64x16x64', '64x64x16'].includes(shape);
    worst(`native matmul ≥ 70 % of the measured native mul + add ceiling (${ceiling.op}; square n ≥ 128, LM shapes)`,
      matmul.filter((l) => (square(l.shape) && Number(square(l.shape)[1]) >= 128) || lmShape(l.shape))
        .map((l) => ({ shape: l.shape, value: l.values.native && (100 * l.values.native) / ceiling.gflops })),
      (v) => v >= 70, (c) => `${c.shape} ${c.value.toFixed(0)} %`);
  }
  worst('native LM step ≥ 3× the wasm core step (steps/s, one run)',
    lines.filter((l) => l.op === 'lm_train_step core').map((l) => ({ shape: l.shape,
      value: l.values.native > 0 && l.values.wasm > 0 ? l.values.native / l.values.wasm : undefined })),
    (v) => v >= 3, (c) => `${c.shape} ${c.value.toFixed(2)}×`);
  // Times are negated so that "lowest" is the slowest case.
  worst('SiLU and GELU (erf form) values ≤ 3 ns/element in wasm',
    lines.filter((l) => /^(silu|gelu)_forward$/.test(l.op))
      .map((l) => ({ shape: l.op, value: l.values.wasm && -l.values.wasm })),
    (v) => -v <= 3, (c) => `${c.shape} ${(-c.value).toFixed(2)} ns`);
  worst('training ≥ 20× TF.js-wasm',
    lines.filter((l) => l.unit === 'steps/s' && l.op.startsWith('train_')).map((l) => ({ shape: `${l.op} (${l.shape})`,
      value: advantage(l.unit, l.values.wasm, l.values['tfjs-wasm']) })),
    (v) => v >= 20, (c) => `${c.shape} ${c.value.toFixed(1)}×`);
  worst(`figure frame < 8 ms${browser ? '' : ' (the target is for Chromium: --browser)'}`,
    lines.filter((l) => l.op === 'frame_forward')
      .map((l) => ({ shape: l.shape, value: l.values.wasm && -l.values.wasm })),
    (v) => -v < 8, (c) => `${(-c.value).toFixed(2)} ms`);
  worst('figure-sized training step < 0.2 ms (full batch, ms = 1000 / steps/s)',
    lines.filter((l) => l.unit === 'steps/s' && l.op.startsWith('train_') && /full batch/.test(l.shape))
      .map((l) => ({ shape: `${l.op} (${l.shape})`, value: l.values.wasm && -1000 / l.values.wasm })),
    (v) => -v < 0.2, (c) => `${c.shape} ${(-c.value).toFixed(3)} ms`);
  worst('LM training step ≥ 3× TF.js-wasm (steps/s)',
    lines.filter((l) => l.op === 'lm_train_step').map((l) => ({ shape: l.shape,
      value: advantage(l.unit, l.values.wasm, l.values['tfjs-wasm']) })),
    (v) => v >= 3, (c) => `${c.shape} ${c.value.toFixed(1)}×`);
  const size = (op) => lines.find((l) => l.op === op && l.unit === 'KB gzip')?.values.wasm;
  for (const [op, limit, label] of [['size_wasm', 250, 'wasm'], ['size_embed', 350, 'single-file embed']]) {
    const v = size(op);
    results.push({ name: `${label} ≤ ${limit} KB gzip`, met: v === undefined ? null : v <= limit,
      detail: v === undefined ? 'not measured' : `${v.toFixed(1)} KB gzip` });
  }
  return results;
}

export function formatTargets(results) {
  const mark = (r) => (r.met === null ? '   ?  ' : r.met ? '  met ' : 'MISSED');
  return results.map((r) => `  ${mark(r)}  ${r.name}: ${r.detail}`).join('\n');
}
