// A pool of workers for a figure that trains several models at once (<gatelab-lm>): one model
// per worker, as many workers as navigator.hardwareConcurrency allows with one core left to the
// page, at least one; when there are more models than workers they take turns. Each worker is a
// LabRunner made as the page's shared runner is (lab-runner.js createRunner), so it starts, falls
// back to the main thread and cancels exactly as every other figure's worker does.
//
//   const pool = new RunnerPool();
//   pool.resize(poolSize(jobs.length));
//   await pool.drive(jobs, { hasWork, progress, turn, signal });
import { createRunner } from './lab-runner.js';

/** Workers for `jobs` jobs: hardwareConcurrency − 1 (one core for the page), at least 1, at most `jobs`. */
export function poolSize(jobs, cores = globalThis.navigator?.hardwareConcurrency) {
  const spare = Number.isInteger(cores) && cores > 1 ? cores - 1 : 1;
  return Math.max(1, Math.min(jobs, spare));
}

/** The lane (worker index) of job j in a pool of `size`: jobs are dealt out in turn. */
export function laneOf(job, size) {
  return job % size;
}

export class RunnerPool {
  #runners = [];
  #make;

  /** @param {{ make?: () => import('./lab-runner.js').LabRunner }} [options] */
  constructor({ make = createRunner } = {}) {
    this.#make = make;
  }

  get size() {
    return this.#runners.length;
  }

  /** The runners, lane by lane. */
  get runners() {
    return [...this.#runners];
  }

  /** Each runner's mode: 'idle', 'starting', 'worker' or 'main' (its fallback). */
  get modes() {
    return this.#runners.map((r) => r.mode);
  }

  /** Grows the pool to `n` runners (made lazily, their workers on first use) or ends those beyond n. */
  resize(n) {
    while (this.#runners.length < n) this.#runners.push(this.#make());
    for (const runner of this.#runners.splice(n)) runner.terminate();
  }

  /** Ends every worker (their jobs reject with AbortError). */
  terminate() {
    this.resize(0);
  }

  /**
   * Serves `jobs` on the pool until none has work left or `signal` aborts. Lane l serves the jobs
   * j with laneOf(j, size) = l, one turn at a time, each turn to its job with work and the least
   * progress, so jobs sharing a worker advance together.
   * @template J
   * @param {J[]} jobs
   * @param {{ hasWork: (job: J) => boolean, progress: (job: J) => number,
   *   turn: (job: J, runner: import('./lab-runner.js').LabRunner, lane: number) => Promise<void>,
   *   signal?: AbortSignal }} spec
   */
  async drive(jobs, { hasWork, progress, turn, signal }) {
    const size = this.size;
    if (!size) throw new Error('RunnerPool.drive: the pool has no runners (call resize first)');
    const lanes = Array.from({ length: size }, () => []);
    jobs.forEach((job, j) => lanes[laneOf(j, size)].push(job));
    let failure = null;  // the first lane to fail stops the others after their current turn
    await Promise.all(lanes.map(async (mine, lane) => {
      try {
        for (;;) {
          if (signal?.aborted || failure) return;
          const waiting = mine.filter(hasWork);
          if (!waiting.length) return;
          const next = waiting.reduce((a, b) => (progress(b) < progress(a) ? b : a));
          await turn(next, this.#runners[lane], lane);
        }
      } catch (error) {
        failure ??= { error };
      }
    }));
    if (failure) throw failure.error;
  }
}
