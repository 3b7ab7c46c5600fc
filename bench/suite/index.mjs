// The JavaScript half of the benchmark table, the same code in Node (bench/source-js.mjs) and
// in Chromium (bench/browser/page.mjs): matrix products of GateLab wasm, TF.js and ONNX
// Runtime Web (timed interleaved), training throughput and the figure frame of GateLab's JS
// API against TF.js, and the language model's training step (GateLab's lab.lm against the same
// model in TF.js-wasm). The caller loads the libraries and the corpus text (paths differ
// between Node and the browser) and passes them in.
import { lmRows } from './lm.mjs';
import { frameRows, trainingRows } from './models.mjs';
import { matmulRows } from './matmul.mjs';
import { MATMUL_SHAPES, QUICK_MATMUL_SHAPES } from './shapes.mjs';

export const JS_COLUMNS = [
  { key: 'tfjs-wasm', label: 'tfjs-wasm', peer: true },
  { key: 'ort-wasm', label: 'ort-wasm', peer: true },
  { key: 'tfjs-cpu', label: 'tfjs-cpu', peer: true },
];

export function timingFor(quick) {
  return quick ? { warmupMs: 5, batchMs: 2, repeats: 3, maxMs: 200 }
    : { warmupMs: 400, firstWarmupMs: 1500, batchMs: 25, repeats: 11, maxMs: 3000 };
}

/**
 * @param {{ gatelab?: object, tf?: object, ort?: object, lab: import('../../web/lib/gatelab.js').GateLab,
 *   text?: string, quick: boolean, only?: string | null, log: (s: string) => void }} env  gatelab:
 *   the bench_module instance (GateLab's matmul); tf with the 'wasm' and 'cpu' backends
 *   registered; ort set to one wasm thread; any of these may be missing (its columns are left
 *   out). text: the LM corpus (no text, no LM rows). only 'lm': just the LM rows.
 * @returns {Promise<object[]>} rows as bench/run.mjs documents them
 */
export async function runJsSuite({ gatelab, tf, ort, lab, text, quick, only = null, log }) {
  const timing = timingFor(quick);
  const shapes = quick ? QUICK_MATMUL_SHAPES : MATMUL_SHAPES;
  const tfBackends = tf ? ['wasm', 'cpu'] : [];
  const rows = [];
  const section = async (name, fn) => {
    log(`${name} ...`);
    try {
      rows.push(...await fn());
    } catch (error) {
      log(`warning: ${name} failed: ${error.stack ?? error.message}`);
    }
  };
  if (only !== 'lm') {
    await section('matmul', () => matmulRows({ gatelab, tf, ort, shapes, timing, log }));
    await section('training throughput', () => trainingRows({ lab, tf, tfBackends, quick, timing, log }));
    await section('figure frame', () => frameRows({ lab, tf, tfBackends: tf ? ['wasm'] : [], quick, timing, log }));
  }
  await section('language model', () => lmRows({ lab, tf, text, quick, log }));
  return rows;
}
