// Benchmark rows measured from JavaScript in Node: GateLab's matmul (bench_module of the wasm
// build), TF.js (tfjs-core with the wasm backend — XNNPACK, SIMD, one thread — and the cpu
// backend), ONNX Runtime Web (wasm execution provider, one thread) and GateLab's JS API
// (training, figure frame, the language model on data/lm/sotu-1790-1880.txt) on the wasm module
// web/dist/gatelab_wasm.wasm. The wasm files of TF.js and ORT load from node_modules.
// One source module of bench/run.mjs; the measuring code is bench/suite/, shared with the
// browser run.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { bundleTf } from './bundle.mjs';
import { JS_COLUMNS, runJsSuite } from './suite/index.mjs';

const require = createRequire(import.meta.url);
export const LM_TEXT = 'data/lm/sotu-1790-1880.txt';

async function loadTf(root, log) {
  try {
    const { tf, setThreadsCount, setWasmPaths } = require(await bundleTf(root, 'node'));
    setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`);
    setThreadsCount(1);
    tf.env().set('IS_NODE', false);  // silences the cpu backend's "install tfjs-node" banner
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);  // the single-threaded SIMD build
    await tf.setBackend('wasm');
    await tf.ready();
    if (!tf.env().getBool('WASM_HAS_SIMD_SUPPORT')) log('warning: TF.js wasm runs without SIMD');
    return tf;
  } catch (error) {
    log(`warning: TF.js unavailable (${error.message}): npm install restores it`);
    return null;
  }
}

// GateLab's matmul for the interleaved matrix-product rows: bench_module of the wasm build
// (an ES module built for web and worker; in Node its wasm bytes are passed in).
async function loadBenchModule(root, log) {
  const dir = join(root, process.env.GATELAB_WASM_BUILD ?? 'build/wasm', 'bench/web');
  try {
    const { default: create } = await import(pathToFileURL(join(dir, 'bench_module.mjs')).href);
    return await create({ wasmBinary: readFileSync(join(dir, 'bench_module.wasm')) });
  } catch (error) {
    log(`warning: bench_module unavailable (${error.message}): build the wasm benchmarks (scripts/build.sh)`);
    return null;
  }
}

async function loadOrt(log) {
  try {
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmPaths = `${dirname(require.resolve('onnxruntime-web'))}/`;
    return ort;
  } catch (error) {
    log(`warning: ONNX Runtime Web unavailable (${error.message})`);
    return null;
  }
}

export const jsSource = {
  name: 'js',
  columns: [{ key: 'wasm', label: 'wasm', wasm: true }, ...JS_COLUMNS],

  async run({ root, quick, only, log }) {
    const { loadGateLab } = await import(pathToFileURL(join(root, 'web/lib/gatelab.js')).href);
    const lab = await loadGateLab();
    const lm = only === 'lm';
    const gatelab = lm ? null : await loadBenchModule(root, log);
    const tf = await loadTf(root, log);
    const ort = lm ? null : await loadOrt(log);
    const text = readFileSync(join(root, LM_TEXT), 'utf8');
    const rows = await runJsSuite({ gatelab, tf, ort, lab, text, quick, only, log });
    return { rows, meta: {} };
  },
};
