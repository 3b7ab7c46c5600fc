// Keeps canvases' backing stores at their CSS size × devicePixelRatio: a ResizeObserver per
// canvas (device-pixel-content-box where supported, so lines stay sharp), and a watch on the
// ratio itself (browser zoom, a window moved to another screen).

export class CanvasFitter {
  #canvases = [];
  #cssSize = new WeakMap();
  #onResize;
  #stopResolutionWatch = null;

  /** @param {(canvas: HTMLCanvasElement) => void} onResize called after a backing store changed */
  constructor(onResize) {
    this.#onResize = onResize;
  }

  get canvases() {
    return [...this.#canvases];
  }

  add(canvas) {
    this.#canvases.push(canvas);
    const observer = new ResizeObserver(([entry]) => this.#fit(canvas, entry));
    try {
      observer.observe(canvas, { box: 'device-pixel-content-box' });
    } catch {
      observer.observe(canvas);
    }
  }

  /** The canvas's size in CSS pixels (as last observed). */
  cssSize(canvas) {
    return this.#cssSize.get(canvas) ?? { width: canvas.width, height: canvas.height };
  }

  /** Re-fits every canvas whenever devicePixelRatio changes, until stop() is called. */
  watchResolution() {
    if (this.#stopResolutionWatch) return;
    let list = null;
    const listener = () => {
      for (const canvas of this.#canvases) {
        const { width, height } = canvas.getBoundingClientRect();
        this.#fit(canvas, { contentRect: { width, height } });
      }
      arm();
    };
    const arm = () => {
      list?.removeEventListener('change', listener);
      list = matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
      list.addEventListener('change', listener);
    };
    arm();
    this.#stopResolutionWatch = () => list.removeEventListener('change', listener);
  }

  stop() {
    this.#stopResolutionWatch?.();
    this.#stopResolutionWatch = null;
  }

  #fit(canvas, entry) {
    const css = { width: entry.contentRect.width, height: entry.contentRect.height };
    this.#cssSize.set(canvas, css);
    const dpr = window.devicePixelRatio || 1;
    let width = Math.round(css.width * dpr);
    let height = Math.round(css.height * dpr);
    // The exact device-pixel size avoids resampling blur, when it agrees with the ratio (an
    // emulated devicePixelRatio is not reflected in it).
    const exact = entry.devicePixelContentBoxSize?.[0];
    if (exact && Math.abs(exact.inlineSize - width) <= 1 && Math.abs(exact.blockSize - height) <= 1) {
      [width, height] = [exact.inlineSize, exact.blockSize];
    }
    if (width < 1 || height < 1 || (canvas.width === width && canvas.height === height)) return;
    canvas.width = width;
    canvas.height = height;
    this.#onResize(canvas);
  }
}
