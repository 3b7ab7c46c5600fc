// Matrix-product rows: GateLab wasm (matmul_nn through bench/module/bench_module.cpp, the same
// kernel the library runs), TF.js (wasm backend with XNNPACK + SIMD, one thread; and the
// plain-JS cpu backend) and ONNX Runtime Web (wasm execution provider, one thread). C = A·B in
// float32, A m×k, B k×n, each through the library's ordinary API: tf.matMul on resident
// tensors (result disposed, not read back: the kernel has run when matMul returns) and
// session.run on a one-node MatMul model built in memory whose B is a constant initializer
// (a layer's weights) and whose A is fed. GateLab, TF.js-wasm and ORT are timed by the same
// code with their batches interleaved (timeInterleaved), so load on a shared machine hits all
// three alike. Each product is checked against a double-precision reference before timing.
import { matmulModel } from './onnx.mjs';
import { shapeName } from './shapes.mjs';
import { timeCalls, timeInterleaved } from './timing.mjs';

/** A deterministic uniform(−1, 1) Float32Array (a small LCG: no dependency on Math.random). */
export function randomArray(length, seed) {
  const out = new Float32Array(length);
  let s = seed >>> 0;
  for (let i = 0; i < length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 2 - 1;
  }
  return out;
}

/** Throws unless c (m×n) matches a·b on up to 64 sampled entries (relative to Σ|a·b|). */
export function checkProduct(label, a, b, c, { m, k, n }) {
  for (let s = 0; s < Math.min(64, m * n); s++) {
    const index = Math.floor(((s * 2654435761) % 2 ** 32) / 2 ** 32 * m * n);
    const i = Math.floor(index / n), j = index % n;
    let exact = 0, scale = 0;
    for (let p = 0; p < k; p++) {
      exact += a[i * k + p] * b[p * n + j];
      scale += Math.abs(a[i * k + p] * b[p * n + j]);
    }
    if (!(Math.abs(c[index] - exact) <= 1e-5 * Math.max(1, scale))) {
      throw new Error(`${label} ${shapeName({ m, k, n })}: C[${i},${j}] = ${c[index]}, expected ${exact}`);
    }
  }
}

const gflops = ({ m, k, n }, ms) => (2 * m * k * n) / (ms * 1e6);

function row(column, shape, t) {
  return { column, bench: 'matmul', op: 'matmul_nn', shape: shapeName(shape), unit: 'GFLOP/s',
    value: gflops(shape, t.median), best: gflops(shape, t.best) };
}

// The cpu backend (plain JS, ~0.3 GFLOP/s) needs ~8 s for one n = 1024 product: it skips
// products above this many flops (its row shows "—").
const CPU_MAX_FLOPS = 2 * 512 ** 3;

/** GateLab's matmul_nn through bench_module (a wasm module of the same build): () => void. */
function gatelabProduct(module, a, b, { m, k, n }) {
  const pa = module._malloc(4 * a.length), pb = module._malloc(4 * b.length), pc = module._malloc(4 * m * n);
  module.HEAPF32.set(a, pa >>> 2);
  module.HEAPF32.set(b, pb >>> 2);
  return {
    run: () => module._gl_matmul_nn(pa, pb, pc, m, k, n),
    result: () => module.HEAPF32.slice(pc >>> 2, (pc >>> 2) + m * n),
    dispose() {
      for (const p of [pa, pb, pc]) module._free(p);
    },
  };
}

/**
 * Matrix-product rows of GateLab wasm ('wasm', through bench_module), TF.js wasm and ONNX
 * Runtime Web, timed interleaved per shape; then TF.js cpu on its own (its backend is global).
 * Each engine's product is checked against a double-precision reference first; an engine that
 * fails the check or is missing gives no row for that shape.
 */
export async function matmulRows({ gatelab, tf, ort, shapes, timing, log }) {
  const rows = [];
  if (tf) {
    await tf.setBackend('wasm');
    await tf.ready();
  }
  for (const shape of shapes) {
    const { m, k, n } = shape;
    const a = randomArray(m * k, 1), b = randomArray(k * n, 2);
    const fns = {};
    const cleanup = [];
    try {
      if (gatelab) {
        const g = gatelabProduct(gatelab, a, b, shape);
        cleanup.push(() => g.dispose());
        g.run();
        checkProduct('wasm', a, b, g.result(), shape);
        fns.wasm = g.run;
      }
      if (tf) {
        const ta = tf.tensor2d(a, [m, k]), tb = tf.tensor2d(b, [k, n]);
        cleanup.push(() => tf.dispose([ta, tb]));
        const check = tf.matMul(ta, tb);
        checkProduct('tfjs-wasm', a, b, check.dataSync(), shape);
        check.dispose();
        fns['tfjs-wasm'] = () => tf.matMul(ta, tb).dispose();
      }
      if (ort) {
        const session = await ort.InferenceSession.create(matmulModel(m, k, n, b),
          { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
        cleanup.push(() => session.release());
        const feeds = { A: new ort.Tensor('float32', a, [m, k]) };
        checkProduct('ort-wasm', a, b, (await session.run(feeds)).Y.data, shape);
        fns['ort-wasm'] = () => session.run(feeds);
      }
      // The first shape also warms the engines up: V8 tiers a wasm function up to its
      // optimised code only after a budget of calls, which for the kernels here took up to
      // 0.6 s in Node (until then n = 64 ran at ~60 % speed), so it gets a long warm-up.
      const first = shape === shapes[0];
      const warm = first ? { ...timing, warmupMs: Math.max(timing.warmupMs, timing.firstWarmupMs ?? 0) } : timing;
      const times = await timeInterleaved(fns, warm);
      for (const [column, t] of Object.entries(times)) rows.push(row(column, shape, t));
      log(`  matmul ${shapeName(shape)}: ${Object.entries(times)
        .map(([c, t]) => `${c} ${gflops(shape, t.median).toFixed(2)}`).join(', ')} GFLOP/s`);
    } catch (error) {
      log(`warning: matmul ${shapeName(shape)}: ${error.message}`);
    } finally {
      for (const f of cleanup) await f();
    }
  }
  if (tf) {
    const cpuTiming = { ...timing, warmupMs: Math.min(timing.warmupMs, 50), repeats: 5 };
    rows.push(...await tfjsMatmulRows(tf, 'cpu', shapes, cpuTiming, log));
  }
  return rows;
}

/** Rows for tf on `backend` ('wasm' → column 'tfjs-wasm', 'cpu' → 'tfjs-cpu'), timed on their own. */
export async function tfjsMatmulRows(tf, backend, shapes, timing, log) {
  await tf.setBackend(backend);
  await tf.ready();
  const column = `tfjs-${backend}`;
  const rows = [];
  for (const shape of shapes) {
    const { m, k, n } = shape;
    if (backend === 'cpu' && 2 * m * k * n > CPU_MAX_FLOPS) {
      log(`  ${column} matmul ${shapeName(shape)}: skipped (seconds per product)`);
      continue;
    }
    const a = randomArray(m * k, 1), b = randomArray(k * n, 2);
    const ta = tf.tensor2d(a, [m, k]), tb = tf.tensor2d(b, [k, n]);
    try {
      const check = tf.matMul(ta, tb);
      checkProduct(column, a, b, check.dataSync(), shape);
      check.dispose();
      const t = await timeCalls(() => tf.matMul(ta, tb).dispose(), timing);
      rows.push(row(column, shape, t));
      log(`  ${column} matmul ${shapeName(shape)}: ${gflops(shape, t.median).toFixed(2)} GFLOP/s`);
    } catch (error) {
      log(`warning: ${column} matmul ${shapeName(shape)}: ${error.message}`);
    } finally {
      ta.dispose();
      tb.dispose();
    }
  }
  return rows;
}
