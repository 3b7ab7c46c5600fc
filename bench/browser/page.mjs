// The benchmark in a Chromium page: the C++ benchmarks as browser wasm modules (each run by
// callMain in a module worker, so the page stays responsive), then the shared JavaScript
// suite (bench/suite/) on the page's main thread, where figures run: GateLab's matmul
// (bench_module), TF.js (wasm, cpu), ONNX Runtime Web and GateLab's JS API, the language model on
// the corpus of data/lm. Returns the C++ benchmarks' raw output and the suite's rows;
// bench/browser/run-browser.mjs turns both into the table.
import { runJsSuite } from '../suite/index.mjs';

function runCpp(name, args) {
  return new Promise((done, fail) => {
    const worker = new Worker(new URL('./cpp-worker.mjs', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      worker.terminate();
      if (data.error) fail(new Error(`${name}: ${data.error}`));
      else done(data.stdout);
    };
    worker.onerror = (event) => {
      worker.terminate();
      fail(new Error(`${name}: ${event.message}`));
    };
    worker.postMessage({ url: new URL(`/bench-build/cpp/${name}.mjs`, location.href).href, args });
  });
}

export async function runBench({ quick, benches, only = null }) {
  const log = (message) => console.log(message);
  const cpp = {};
  for (const name of benches) {
    log(`running wasm ${name} in a worker ...`);
    try {
      cpp[name] = await runCpp(name, quick ? ['--json', '--quick'] : ['--json']);
    } catch (error) {
      log(`warning: ${error.message}`);
    }
  }
  let gatelab = null, tf = null, ort = null, text = '';
  if (only !== 'lm') {  // the matrix products' GateLab side; --only lm does not need it
    try {
      const { default: create } = await import('/bench-build/cpp/bench_module.mjs');
      gatelab = await create({ locateFile: (file) => `/bench-build/cpp/${file}` });
    } catch (error) {
      log(`warning: bench_module unavailable: ${error.message}`);
    }
  }
  try {
    const bundle = await import('/bench-build/tf/tf-browser.mjs');
    bundle.setWasmPaths('/bench-vendor/@tensorflow/tfjs-backend-wasm/');
    bundle.setThreadsCount(1);
    bundle.tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    await bundle.tf.setBackend('wasm');
    await bundle.tf.ready();
    if (!bundle.tf.env().getBool('WASM_HAS_SIMD_SUPPORT')) log('warning: TF.js wasm runs without SIMD');
    tf = bundle.tf;
  } catch (error) {
    log(`warning: TF.js unavailable: ${error.message}`);
  }
  if (only !== 'lm') {
    try {
      ort = await import('/bench-vendor/onnxruntime-web/ort.wasm.min.mjs');
      ort.env.wasm.numThreads = 1;
      ort.env.wasm.proxy = false;
      ort.env.wasm.wasmPaths = '/bench-vendor/onnxruntime-web/';
    } catch (error) {
      log(`warning: ONNX Runtime Web unavailable: ${error.message}`);
    }
  }
  try {
    const answer = await fetch('/bench-data/sotu-1790-1880.txt');
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    text = await answer.text();
  } catch (error) {
    log(`warning: the LM corpus is unavailable: ${error.message}`);
  }
  const { loadGateLab } = await import('/lib/gatelab.js');
  const lab = await loadGateLab();
  const rows = await runJsSuite({ gatelab, tf, ort, lab, text, quick, only, log });
  return { cpp, rows, userAgent: navigator.userAgent, crossOriginIsolated };
}
