// Instantiates the wasm module next to this package (web/dist/gatelab_wasm.{mjs,wasm}), or
// from options.wasmUrl (a CDN or a custom path). In Node the bytes are read from disk, since
// the module is built for web and worker environments only.
import createGateLabModule from '../../dist/gatelab_wasm.mjs';

const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined'
  && typeof WorkerGlobalScope === 'undefined';

export async function instantiate({ wasmUrl } = {}) {
  const url = String(wasmUrl ?? new URL('../../dist/gatelab_wasm.wasm', import.meta.url));
  if (isNode && !/^https?:/.test(url)) {
    const { readFile } = await import('node:fs/promises');
    const wasmBinary = await readFile(url.startsWith('file:') ? new URL(url) : url);
    return createGateLabModule({ wasmBinary });
  }
  return createGateLabModule({ locateFile: () => url });
}
