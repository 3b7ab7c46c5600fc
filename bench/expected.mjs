// The rows `node bench/run.mjs --quick` must produce (tests/js/bench.test.mjs and
// tests/browser/bench.test.mjs): every source, every column, every op. A missing row means a
// benchmark stopped working or a kernel disagreed with its reference (the suite checks TF.js
// and ONNX Runtime Web products against a double-precision reference before timing them).
import { MODELS } from './suite/models.mjs';
import { QUICK_MATMUL_SHAPES, shapeName } from './suite/shapes.mjs';

const ACTIVATIONS = ['identity', 'relu', 'leaky_relu', 'relu2', 'gelu', 'gelu_tanh', 'silu', 'swish', 'sigmoid',
  'tanh', 'softplus'];

/** [{ column, op, shape? }] for a quick run; browser: no native column. */
export function expectedQuickRows({ browser = false } = {}) {
  const gatelab = browser ? ['wasm'] : ['native', 'wasm'];
  const rows = [];
  for (const column of gatelab) {
    for (const op of ['peak_f32x4_mul', 'peak_f32x4_add', 'peak_f32x4_mul+add']) rows.push({ column, op });
    for (const s of QUICK_MATMUL_SHAPES) rows.push({ column, op: 'matmul_nn', shape: shapeName(s) });
    for (const a of ACTIVATIONS) {
      rows.push({ column, op: `${a}_forward` });
      rows.push({ column, op: `${a}_backward` });
    }
    rows.push({ column, op: 'cem_train_step' }, { column, op: 'std_train_step' }, { column, op: 'frame_forward core' },
      { column, op: 'lm_train_step core' });
    for (const m of MODELS) rows.push({ column, op: `train_${m.name} core` });
  }
  for (const column of ['tfjs-wasm', 'tfjs-cpu', 'ort-wasm']) {
    for (const s of QUICK_MATMUL_SHAPES) rows.push({ column, op: 'matmul_nn', shape: shapeName(s) });
  }
  for (const column of ['wasm', 'tfjs-wasm', 'tfjs-cpu']) {
    for (const m of MODELS) rows.push({ column, op: `train_${m.name}` });
  }
  rows.push({ column: 'wasm', op: 'train_call gated step(1)+eval' });
  rows.push({ column: 'wasm', op: 'frame_forward' }, { column: 'tfjs-wasm', op: 'frame_forward' });
  rows.push({ column: 'wasm', op: 'lm_train_step' }, { column: 'tfjs-wasm', op: 'lm_train_step' });
  for (const op of ['size_wasm', 'size_glue', 'size_embed']) rows.push({ column: 'wasm', op });
  return rows;
}

/** The expected rows that `rows` lacks (each as "column op shape"), and rows whose value is not a positive number. */
export function missingRows(rows, expected) {
  const missing = expected.filter((e) => !rows.some((r) => r.column === e.column && r.op === e.op &&
    (e.shape === undefined || r.shape === e.shape)))
    .map((e) => `${e.column} ${e.op}${e.shape ? ` ${e.shape}` : ''}`);
  const bad = rows.filter((r) => !(typeof r.value === 'number' && Number.isFinite(r.value) && r.value > 0))
    .map((r) => `${r.column} ${r.op} ${r.shape}: ${r.value}`);
  return { missing, bad };
}
