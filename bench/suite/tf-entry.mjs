// TF.js as the benchmark uses it: tfjs-core with its gradients (the core bundles leave them
// out; the union package @tensorflow/tfjs registers them the same way), the cpu backend and
// the wasm backend. bench/bundle.mjs bundles this file with esbuild from the packages' ES
// sources, once for Node (CommonJS) and once for the browser page, so there is exactly one
// tfjs-core instance behind every import.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-backend-cpu';
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

export { tf, setThreadsCount, setWasmPaths };
