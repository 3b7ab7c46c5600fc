// How a module worker is started. A worker's script must have the page's origin, so when the
// figures were loaded from another origin (a package CDN, a static host of the post's author)
// `new Worker(url)` is refused. Then a one-line module with the page's origin, a blob: URL whose
// only statement imports the script's absolute URL, is started in its place: the worker runs
// the same code (fetched with CORS), and its import.meta.url is still the script's own URL.
// A page whose Content-Security-Policy does not allow blob: workers (`worker-src`, or
// `script-src` when worker-src is absent) refuses that too; the caller falls back then.

/** True when `url` can be a worker script of this page as it is. */
function sameOrigin(url) {
  return globalThis.location?.origin !== undefined && url.origin === globalThis.location.origin;
}

/**
 * Starts a module worker running the script at `url`, through a same-origin bootstrap when the
 * script is cross-origin. Throws where no worker can be made; a refused load shows up later as
 * the worker's `error` event, as for any worker.
 * @param {string | URL} url
 * @param {WorkerOptions} [options]
 * @returns {Worker}
 */
export function startModuleWorker(url, options = {}) {
  const script = new URL(url, globalThis.location?.href);
  const workerOptions = { ...options, type: 'module' };
  if (sameOrigin(script) || script.protocol === 'blob:' || typeof Blob !== 'function') {
    return new Worker(script, workerOptions);
  }
  const source = `const held = [];
const hold = (event) => held.push(event);
addEventListener('message', hold);
import(${JSON.stringify(script.href)}).then(() => {
  removeEventListener('message', hold);
  for (const { data, ports } of held) dispatchEvent(new MessageEvent('message', { data, ports }));
}, (error) => setTimeout(() => { throw error; }));
`;
  const bootstrap = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  let worker;
  try {
    worker = new Worker(bootstrap, workerOptions);
  } catch (error) {
    URL.revokeObjectURL(bootstrap);
    throw error;
  }
  // The URL is only needed until the worker has loaded (first message) or failed.
  const revoke = () => URL.revokeObjectURL(bootstrap);
  worker.addEventListener('message', revoke, { once: true });
  worker.addEventListener('error', revoke, { once: true });
  return worker;
}
