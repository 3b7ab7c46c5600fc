// The one-file variant of wasm-loader.js used by the embed bundle: the wasm is inlined as the
// base64 of its gzip (scripts/bundle.mjs), so the embed needs no second request and no path
// configuration. Gzipped before base64 it is ~190 KB of the embed where plain base64 was ~275 KB
// after the server's gzip and 700 KB before it. DecompressionStream is in Chrome 80, Safari 16.4
// (with the wasm SIMD the module needs), Firefox 113 (May 2023; SIMD came at 89) and Node 18; it
// needs no CSP source, and with wasmBinary given the module fetches nothing.
import createGateLabModule from '../../dist/gatelab_wasm.mjs';
import wasmGzipBase64 from 'gatelab:wasm-gzip-base64';
import { GateLabError } from './errors.js';

async function wasmBytes() {
  if (typeof DecompressionStream !== 'function') {
    throw new GateLabError('the one-file embed unpacks its wasm with DecompressionStream, which this browser lacks '
      + '(Firefox before 113); load the npm module (gatelab.js beside gatelab_wasm.wasm) instead',
      { argument: 'DecompressionStream', code: 'unsupported' });
  }
  const text = atob(wasmGzipBase64);
  const packed = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ++i) packed[i] = text.charCodeAt(i);
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// Unpacked once per page or worker: every module instance after the first reuses the bytes (the
// first instance keeps them alive anyway, as its wasmBinary).
let unpacked = null;

export async function instantiate() {
  unpacked ??= wasmBytes();
  return createGateLabModule({ wasmBinary: await unpacked });
}
