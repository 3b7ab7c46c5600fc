// Runs a long computation written as a generator in time slices: the generator does one coarse
// library call per step and yields its progress (0..1); the driver yields to the event loop
// every ~12 ms so the page (or the worker's message queue, where cancellation arrives) stays
// responsive. Cancelling calls the generator's return(), so its finally blocks dispose layers.

/** Yields to the event loop without setTimeout's 4 ms clamp. Works in pages and workers. */
export function nextTick() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

export function abortError() {
  return new DOMException('The computation was cancelled', 'AbortError');
}

/**
 * @param {Iterator<number, any>} steps a started generator
 * @param {{ onProgress?: (fraction: number) => void, isCancelled?: () => boolean, sliceMs?: number }} [options]
 * @returns {Promise<any>} the generator's return value
 */
export async function driveSteps(steps, { onProgress, isCancelled = () => false, sliceMs = 12 } = {}) {
  let sliceStart = performance.now();
  try {
    for (;;) {
      if (isCancelled()) throw abortError();
      const { value, done } = steps.next();
      if (done) return value;
      if (typeof value === 'number') onProgress?.(value);
      if (performance.now() - sliceStart > sliceMs) {
        await nextTick();
        sliceStart = performance.now();
      }
    }
  } finally {
    steps.return?.();
  }
}
