// Entry of the one-tag embed bundle (scripts/bundle.mjs -> web/dist/gatelab.embed.js): the JS
// API, every figure and the wasm module (inlined, gzipped) in one ES module, so a blog post needs only
//   <script type="module" src="https://…/gatelab.embed.js"></script>
// The same file is also the runner's worker: loaded with `new Worker(url, { type: 'module' })`
// it answers task requests instead of defining elements (loaded from another origin, the
// runner starts it through a same-origin bootstrap: runner/worker-bootstrap.js).
import { configureRunner } from './runner/lab-runner.js';
import { serveTasks } from './runner/worker-loop.js';
import { configureShare } from './base/share-links.js';

export * from './index.js';
export { loadGateLab, sharedGateLab, GateLabError } from '../lib/gatelab.js';

const inWorker = typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope;
if (inWorker) serveTasks(globalThis);
else {
  configureRunner({ workerUrl: import.meta.url });
  // Share links are built from the site this file came from (it sits in the site's dist/).
  configureShare({ webRoot: new URL('../', import.meta.url).href });
}
