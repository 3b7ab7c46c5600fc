// The one-file variant of wasm-loader.js used by the embed bundle: the wasm is inlined in
// the module as base64, so the embed needs no second request and no path configuration.
import createGateLabModule from '../../dist/gatelab_wasm_single.mjs';

export async function instantiate() {
  return createGateLabModule({});
}
