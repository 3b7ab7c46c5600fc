// Ownership of C++ objects handed to JS. Each wrapper owns one Embind handle and must be
// disposed; the tracker counts the live ones (lab.liveObjects()) and, as a safety net, frees
// the C++ object of a wrapper that was garbage-collected without dispose().
import { GateLabError } from './errors.js';

export class HandleTracker {
  #live = 0;
  #registry = new FinalizationRegistry((handle) => {
    this.#live--;
    handle.delete();
  });

  get live() {
    return this.#live;
  }

  adopt(wrapper, handle) {
    this.#live++;
    this.#registry.register(wrapper, handle, wrapper);
  }

  release(wrapper, handle) {
    this.#registry.unregister(wrapper);
    handle.delete();
    this.#live--;
  }
}

/** Base of every wrapper: the handle, dispose(), and a clear error after it. */
export class Owned {
  #handle;
  #tracker;
  #what;

  constructor(tracker, handle, what) {
    this.#handle = handle;
    this.#tracker = tracker;
    this.#what = what;
    tracker.adopt(this, handle);
  }

  /** The live Embind handle; throws if disposed. */
  get handle() {
    if (!this.#handle) throw new GateLabError(`this ${this.#what} has been disposed`, { argument: 'this' });
    return this.#handle;
  }

  get disposed() {
    return this.#handle === null;
  }

  /** Frees the C++ object. Calling it again does nothing. */
  dispose() {
    if (!this.#handle) return;
    this.#tracker.release(this, this.#handle);
    this.#handle = null;
  }
}
