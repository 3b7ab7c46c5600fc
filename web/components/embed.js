// Entry of the one-tag embed bundle (scripts/bundle.mjs -> web/dist/gatelab.embed.js): the JS
// API, every figure and the single-file wasm module in one ES module, so a blog post needs only
//   <script type="module" src="https://…/gatelab.embed.js"></script>
// The same file is also the runner's worker: loaded with `new Worker(url, { type: 'module' })`
// it answers task requests instead of defining elements (cross-origin, where a worker cannot
// be made, the runner falls back to the main thread).
import { configureRunner } from './runner/lab-runner.js';
import { serveTasks } from './runner/worker-loop.js';

export * from './index.js';
export { loadGateLab, sharedGateLab, GateLabError } from '../lib/gatelab.js';

const inWorker = typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope;
if (inWorker) serveTasks(globalThis);
else configureRunner({ workerUrl: import.meta.url });
