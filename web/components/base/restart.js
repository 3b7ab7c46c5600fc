// A figure's restart after its settings change, debounced: a burst of changes (a slider being
// dragged) restarts the work once, `delay` ms after the last one, and settled() waits for it
// (one trackPending for the whole burst). Shared by every figure that trains.
export class Restarter {
  #figure;
  #run;
  #timer = 0;
  #done = null;

  /** run(...args) starts the work again and returns a promise that ends with it. */
  constructor(figure, run) {
    this.#figure = figure;
    this.#run = run;
  }

  /** True while a restart waits for its delay. */
  get pending() {
    return this.#done !== null;
  }

  /** Restarts after `delay` ms, unless another schedule comes first; args go to run. */
  schedule(delay, ...args) {
    clearTimeout(this.#timer);
    this.#done ??= this.#figure.trackPending();
    this.#timer = setTimeout(() => {
      const done = this.#done;
      this.#done = null;
      this.#run(...args).finally(done);
    }, delay);
  }

  /** Drops a waiting restart (the figure left the page or was released). */
  cancel() {
    clearTimeout(this.#timer);
    this.#done?.();
    this.#done = null;
  }
}
