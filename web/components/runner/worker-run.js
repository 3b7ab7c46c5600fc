// One computation at a time for a figure, written once.
//
// Figures that compute off the page (a task of lab-tasks.js in the shared runner's worker) all
// follow the same sequence on every state change: cancel the run before (its result would be
// stale), keep the figure unsettled while the new one is pending, hand the result on, and show
// any error in the readout, except the cancellation itself. Getting one step wrong leaves a
// figure that never settles or that flashes an error on every quick change, so it lives here.
import { sharedRunner } from './lab-runner.js';

/**
 * Runs `work()` with `figure` kept unsettled until it ends; an error other than a cancellation
 * (AbortError) is shown on the figure. `onEnd`, when given, runs last, after the error is shown
 * and before the figure may settle.
 * @param {import('../../base/gatelab-figure.js').GateLabFigure} figure
 * @param {() => Promise<void>} work
 * @param {{ onEnd?: () => void }} [options]
 */
export async function runTracked(figure, work, { onEnd } = {}) {
  const done = figure.trackPending();
  try {
    await work();
  } catch (error) {
    if (error?.name !== 'AbortError') figure.showError(error);
  } finally {
    onEnd?.();
    done();
  }
}

/** The latest run of a figure: starting one cancels the one before. */
export class WorkerRun {
  #figure;
  #abort = null;

  /** @param {import('../../base/gatelab-figure.js').GateLabFigure} figure */
  constructor(figure) {
    this.#figure = figure;
  }

  /**
   * Cancels the run before, then runs `work(signal)` tracked (see runTracked).
   * @param {(signal: AbortSignal) => Promise<void>} work
   */
  start(work) {
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    return runTracked(this.#figure, () => work(abort.signal));
  }

  /**
   * Cancels the run before, runs `task` of lab-tasks.js with `args` in the shared runner and
   * passes its result to `onResult`. `progress(fraction)`, when given, is the busy readout text.
   * @param {string} task
   * @param {object} args
   * @param {{ onResult: (value: any) => void, progress?: (fraction: number) => string }} options
   */
  run(task, args, { onResult, progress }) {
    const figure = this.#figure;
    const onProgress = progress && ((f) => figure.announce(progress(f), { busy: true }));
    return this.start(async (signal) => onResult(await sharedRunner().run(task, args, { signal, onProgress })));
  }
}
