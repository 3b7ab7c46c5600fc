// Timing for the JavaScript-side benchmarks (TF.js, ONNX Runtime Web, GateLab's JS API), the
// same method as the C++ benchmarks: warm up (so V8 and the wasm tiers settle), size a batch
// of calls to last about batchMs, time `repeats` batches and report the median and the best
// time per call. Environment-agnostic: works in Node and in a browser page.

export const now = () => performance.now();

/** Lets the event loop run (timers, the page's own work) between measurements. */
export const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));

function summarise(perCall) {
  const sorted = [...perCall].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], best: sorted[0], repeats: sorted.length };
}

/**
 * Times fn (sync, or async when it returns a promise: then every call is awaited).
 * Returns { median, best } in milliseconds per call.
 * @param {() => unknown} fn
 * @param {{ warmupMs?: number, batchMs?: number, repeats?: number, maxMs?: number }} [options]
 *   maxMs bounds the whole measurement: slow cases get fewer repeats (at least 3).
 */
export async function timeCalls(fn, { warmupMs = 200, batchMs = 20, repeats = 11, maxMs = 4000 } = {}) {
  const start = now();
  let calls = 0;
  let isAsync = false;
  do {
    const r = fn();
    if (r && typeof r.then === 'function') {
      isAsync = true;
      await r;
    }
    calls++;
  } while (now() - start < warmupMs || calls < 3);
  const perCallGuess = (now() - start) / calls;
  const batch = Math.max(1, Math.round(batchMs / perCallGuess));
  const times = [];
  const began = now();
  for (let r = 0; r < repeats; r++) {
    const t0 = now();
    if (isAsync) for (let i = 0; i < batch; i++) await fn();
    else for (let i = 0; i < batch; i++) fn();
    times.push((now() - t0) / batch);
    if (r >= 2 && now() - began > maxMs) break;
  }
  await breathe();
  return summarise(times);
}

/**
 * Times several functions doing the same work, their batches interleaved: each repeat times
 * one batch of every function in turn, so a machine that gets busier or quieter mid-run
 * slows or speeds all of them alike and their ratio stays sound. Functions may be async.
 * @param {Record<string, () => unknown>} fns
 * @returns {Promise<Record<string, { median: number, best: number }>>} ms per call
 */
export async function timeInterleaved(fns, { warmupMs = 200, batchMs = 20, repeats = 11, maxMs = 4000 } = {}) {
  const keys = Object.keys(fns);
  const plan = {};
  for (const key of keys) {  // warm-up and batch size per function
    const fn = fns[key];
    const start = now();
    let calls = 0;
    let isAsync = false;
    do {
      const r = fn();
      if (r && typeof r.then === 'function') {
        isAsync = true;
        await r;
      }
      calls++;
    } while (now() - start < warmupMs || calls < 3);
    plan[key] = { isAsync, batch: Math.max(1, Math.round(batchMs / ((now() - start) / calls))), times: [] };
    await breathe();
  }
  const began = now();
  for (let r = 0; r < repeats; r++) {
    for (const key of keys) {
      const { isAsync, batch, times } = plan[key];
      const fn = fns[key];
      const t0 = now();
      if (isAsync) for (let i = 0; i < batch; i++) await fn();
      else for (let i = 0; i < batch; i++) fn();
      times.push((now() - t0) / batch);
    }
    if (r >= 2 && now() - began > maxMs * keys.length) break;
  }
  await breathe();
  return Object.fromEntries(keys.map((key) => [key, summarise(plan[key].times)]));
}
