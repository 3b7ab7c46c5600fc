// Ownership of C++ objects handed to JS. Each wrapper owns one Embind handle and must be
// disposed; the tracker counts the live ones (lab.liveObjects()) and, as a safety net, frees
// the C++ object of a wrapper that was garbage-collected without dispose().
//
// The handle is private: no property of a wrapper exposes it. The library's own files reach
// it through handleOf(wrapper), which only this module can define (it reads the private
// field), so the public surface of every wrapper is its documented methods and nothing else.
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

/** Runs fn(handle) on a transient Embind handle (a census or race run) and deletes it whatever happens. */
export function using(handle, fn) {
  try {
    return fn(handle);
  } finally {
    handle.delete();
  }
}

/** The live Embind handle of a wrapper; throws GateLabError 'disposed' once it is disposed. */
export let handleOf;

/** Base of every wrapper: the private handle, dispose(), and a clear error after it. */
export class Owned {
  #handle;
  #tracker;
  #what;

  static {
    handleOf = (wrapper) => {
      if (!wrapper.#handle) {
        throw new GateLabError(`this ${wrapper.#what} has been disposed`, { argument: 'this', code: 'disposed' });
      }
      return wrapper.#handle;
    };
  }

  constructor(tracker, handle, what) {
    this.#handle = handle;
    this.#tracker = tracker;
    this.#what = what;
    tracker.adopt(this, handle);
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
