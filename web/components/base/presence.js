// A figure's presence in the page: taken out (disconnected) after it started, its work stops at
// once (suspend); kept a while for a figure that is only moved, then freed (release: worker
// sessions, trainers, their wasm memory). Put back, it resumes, told whether it was released.

export class Presence {
  #timer = 0;
  #away = false;
  #released = false;

  /** @param {{ suspend: () => void, release: () => void, delay: () => number }} hooks */
  constructor(hooks) {
    this.hooks = hooks;
  }

  leave() {
    this.#away = true;
    this.hooks.suspend();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#released = true;
      this.hooks.release();
    }, this.hooks.delay());
  }

  /** @returns {null | { released: boolean }} null when the figure had not left */
  comeBack() {
    if (!this.#away) return null;
    clearTimeout(this.#timer);
    const released = this.#released;
    this.#away = this.#released = false;
    return { released };
  }
}
