// Copies arrays into and out of the wasm heap around one coarse call. Views into the heap are
// taken fresh after every allocation, since memory growth detaches old ones, and results are
// copied out (slice), so nothing the caller holds points into wasm memory.
import { GateLabError } from './errors.js';

function allocate(m, floats) {
  const p = m._malloc(Math.max(4, floats * 4));
  if (!p) {
    throw new GateLabError('the wasm heap is exhausted: the request needs more memory than the module can grow to',
      { code: 'out-of-range' });
  }
  return p;
}

export class Heap {
  #module;

  constructor(module) {
    this.#module = module;
  }

  /**
   * Runs fn(pointers) with `inputs` (Float32Arrays) copied in and `outputLengths` floats
   * allocated for outputs; returns [fn's result, ...output copies]. Frees everything, also on throw.
   */
  call(inputs, outputLengths, fn) {
    const m = this.#module;
    const pointers = [];
    try {
      for (const array of inputs) {
        pointers.push(allocate(m, array.length));
        m.HEAPF32.set(array, pointers.at(-1) >>> 2);
      }
      for (const length of outputLengths) {
        pointers.push(allocate(m, length));
      }
      const result = fn(...pointers);
      const outputs = outputLengths.map((length, i) => {
        const start = pointers[inputs.length + i] >>> 2;
        return m.HEAPF32.slice(start, start + length);
      });
      return [result, ...outputs];
    } finally {
      for (const p of pointers) m._free(p);
    }
  }

  /** Bytes of linear memory the module holds now (grows, never shrinks). */
  get size() {
    return this.#module.HEAPU8.length;
  }
}
