// Runs the tasks of lab-tasks.js in a module Web Worker with progress and cancellation:
//
//   const runner = sharedRunner();
//   const gaps = await runner.run('exchangeGaps', { activation: 'gelu', seed: 3 },
//     { onProgress: (f) => ..., signal: abortController.signal });
//
// The worker holds its own GateLab module. When no worker can be made (an old browser, a page
// whose policy forbids it, a cross-origin script, a failed load) the runner falls back to the
// page's shared module and runs the same task on the main thread in time slices; jobs already
// sent to a failed worker are re-run there. `runner.mode` says which path is in use.
import { GateLabError } from '../../lib/gatelab.js';
import { sharedLab } from '../base/shared-lab.js';
import { tasks } from './lab-tasks.js';
import { abortError, driveSteps } from './task-driver.js';

let sharedConfig = { worker: true, workerUrl: null };
let shared = null;

/**
 * Sets how the shared runner is made; call before its first use.
 * @param {{ worker?: boolean, workerUrl?: string | URL }} config
 */
export function configureRunner(config) {
  sharedConfig = { ...sharedConfig, ...config };
  if (shared) {
    shared.terminate();
    shared = null;
  }
}

/** The page's runner: one worker shared by every figure. */
export function sharedRunner() {
  shared ??= new LabRunner(sharedConfig);
  return shared;
}

function errorFrom({ name, message, argument }) {
  if (name === 'AbortError') return abortError();
  if (name === 'GateLabError') return new GateLabError(message, { argument });
  const error = new Error(message);
  error.name = name;
  return error;
}

export class LabRunner {
  #worker = null;
  #mode;
  #workerUrl;
  #jobs = new Map();
  #nextId = 1;

  /** @param {{ worker?: boolean, workerUrl?: string | URL | null }} [options] */
  constructor({ worker = true, workerUrl = null } = {}) {
    this.#mode = worker && typeof Worker === 'function' ? 'idle' : 'main';
    this.#workerUrl = workerUrl;
  }

  /** 'idle' (no job yet), 'starting', 'worker', or 'main' (the fallback). */
  get mode() {
    return this.#mode;
  }

  /**
   * @param {string} task a key of lab-tasks.js `tasks`
   * @param {object} args structured-cloneable
   * @param {{ onProgress?: (fraction: number) => void, signal?: AbortSignal }} [options]
   */
  run(task, args = {}, { onProgress, signal } = {}) {
    if (!Object.hasOwn(tasks, task)) return Promise.reject(new TypeError(`unknown task "${task}"`));
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      const job = { id: this.#nextId++, task, args, onProgress, resolve, reject, cancelled: false, where: null };
      this.#jobs.set(job.id, job);
      signal?.addEventListener('abort', () => this.#cancel(job), { once: true });
      this.#dispatch(job);
    });
  }

  terminate() {
    this.#worker?.terminate();
    this.#worker = null;
    for (const job of this.#jobs.values()) this.#cancel(job);
  }

  #dispatch(job) {
    if (this.#startWorker()) {
      job.where = 'worker';
      this.#worker.postMessage({ type: 'run', id: job.id, task: job.task, args: job.args });
    } else {
      this.#runOnMainThread(job);
    }
  }

  /** Makes the worker on first use; false when the main-thread path is in use. */
  #startWorker() {
    if (this.#mode === 'main') return false;
    if (this.#worker) return true;
    try {
      const url = this.#workerUrl ?? new URL('./lab-worker.js', import.meta.url);
      this.#worker = new Worker(url, { type: 'module', name: 'gatelab-runner' });
    } catch {
      this.#mode = 'main';
      return false;
    }
    this.#mode = 'starting';
    this.#worker.addEventListener('message', ({ data }) => this.#onMessage(data));
    this.#worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.#fallBack();
    });
    return true;
  }

  #onMessage(data) {
    if (data?.type === 'ready') this.#mode = 'worker';
    if (data?.type === 'fail') this.#fallBack();
    const job = this.#jobs.get(data?.id);
    if (!job || job.where !== 'worker') return;
    if (data.type === 'progress') job.onProgress?.(data.value);
    else if (data.type === 'result') this.#settle(job, null, data.value);
    else if (data.type === 'error') this.#settle(job, errorFrom(data));
  }

  /** The worker could not start or died: re-run its jobs on the main thread from now on. */
  #fallBack() {
    this.#worker?.terminate();
    this.#worker = null;
    this.#mode = 'main';
    for (const job of this.#jobs.values()) if (job.where === 'worker') this.#runOnMainThread(job);
  }

  async #runOnMainThread(job) {
    job.where = 'main';
    try {
      const lab = await sharedLab();
      const value = await driveSteps(tasks[job.task](lab, job.args), {
        onProgress: job.onProgress,
        isCancelled: () => job.cancelled,
      });
      this.#settle(job, null, value);
    } catch (error) {
      this.#settle(job, error);
    }
  }

  #cancel(job) {
    if (!this.#jobs.has(job.id)) return;
    job.cancelled = true;
    if (job.where === 'worker') this.#worker?.postMessage({ type: 'cancel', id: job.id });
    this.#settle(job, abortError());
  }

  #settle(job, error, value) {
    if (!this.#jobs.delete(job.id)) return;
    if (error) job.reject(error);
    else job.resolve(value);
  }
}
