// The worker side of the runner: loads its own GateLab module, then answers
//   { type: 'run', id, task, args }  with  { type: 'progress', id, value } ... then
//   { type: 'result', id, value } or { type: 'error', id, name, message, argument };
//   { type: 'cancel', id }           stops that job at its next slice.
// It announces { type: 'ready' } once the module is loaded, or { type: 'fail', message }.
import { loadGateLab } from '../../lib/gatelab.js';
import { tasks } from './lab-tasks.js';
import { driveSteps } from './task-driver.js';

/** The ArrayBuffers of the typed arrays in a result (top level or one level down). */
function transferablesOf(value) {
  const buffers = new Set();
  const visit = (v) => {
    if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer) buffers.add(v.buffer);
  };
  visit(value);
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) Object.values(value).forEach(visit);
  return [...buffers];
}

/** @param {DedicatedWorkerGlobalScope} scope */
export function serveTasks(scope) {
  const cancelled = new Set();
  const labPromise = loadGateLab();
  labPromise.then(
    () => scope.postMessage({ type: 'ready' }),
    (error) => scope.postMessage({ type: 'fail', message: String(error?.message ?? error) }),
  );

  scope.addEventListener('message', async ({ data }) => {
    if (data?.type === 'cancel') {
      cancelled.add(data.id);
      return;
    }
    if (data?.type !== 'run') return;
    const { id, task, args } = data;
    let lastProgress = 0;
    try {
      if (!Object.hasOwn(tasks, task)) throw new TypeError(`unknown task "${task}"`);
      const lab = await labPromise;
      const value = await driveSteps(tasks[task](lab, args ?? {}), {
        isCancelled: () => cancelled.has(id),
        onProgress: (fraction) => {
          const now = performance.now();
          if (now - lastProgress < 50 && fraction < 1) return;
          lastProgress = now;
          scope.postMessage({ type: 'progress', id, value: fraction });
        },
      });
      scope.postMessage({ type: 'result', id, value }, transferablesOf(value));
    } catch (error) {
      scope.postMessage({ type: 'error', id, name: error?.name ?? 'Error', message: String(error?.message ?? error),
        argument: error?.argument });
    } finally {
      cancelled.delete(id);
    }
  });
}
