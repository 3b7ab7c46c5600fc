// GateLabFigure: the base class of every GateLab custom element. A figure declares
//   static schema  – its attributes (see attributes.js); each becomes a reflected property,
//   static styles  – its CSS (added to the shared look of figure-styles.js),
// and implements the hooks
//   build(parts)       – create its canvases and controls once (parts: plots, controls, readout),
//   syncControls()     – show this.state in its controls (called after every state change),
//   async start(lab)   – first computation, once the shared module is loaded,
//   update(changed, source) – recompute after a state change (changed: Set of names),
//   draw()             – paint its canvases (called in an animation frame, only when visible),
//   csv()              – { columns, rows } behind the picture, for export,
//   suspend(), resume({ released }), release() – taken out of the page and put back (presence.js),
//   screenChanged(onScreen) – the reader can see it now or no longer can (environment.js).
// The base gives it: lazy start near the viewport and pause off screen, the shared wasm module,
// sizing to the container (canvases at devicePixelRatio), attributes ⇄ properties ⇄ state with
// `change` and `ready` events, theming, dark mode and reduced motion, a polite live readout,
// PNG/CSV export and Share / Embed, a poster (or text summary) until the first drawing, URL-hash
// mirroring (`url-state`); `static description` and `static events` describe it (figure-meta.js).
import { attributeName, defaultState, formatValue, parseOrDefault, parseValue } from './attributes.js';
import { adoptStyles } from './figure-styles.js';
import { sharedLab } from './shared-lab.js';
import { readTheme } from './theme.js';
import { canvasesToPng, download, exportName, toCsv } from './export.js';
import { mirrorStateToHash } from './url-state.js';
import { buildFrame } from './figure-frame.js';
import { CanvasFitter } from './canvas-fit.js';
import { COMMON_ATTRIBUTES } from './figure-meta.js';
import { Presence } from './presence.js';
import { watchEnvironment } from './environment.js';

// In a worker (the embed bundle doubles as the runner's worker) there is no HTMLElement.
const ElementBase = globalThis.HTMLElement ?? class {};

/** Defines a reflected property per schema entry on the class prototype. */
function installProperties(figureClass) {
  for (const name of Object.keys(figureClass.schema)) {
    if (Object.hasOwn(figureClass.prototype, name)) continue;
    Object.defineProperty(figureClass.prototype, name, {
      configurable: true,
      enumerable: true,
      get() { return this.state[name]; },
      set(value) { this.setState({ [name]: value }, 'property'); },
    });
  }
}

export class GateLabFigure extends ElementBase {
  static schema = {};
  static styles = '';
  static description = '';
  static events = {};
  /** How close to the viewport a figure starts (IntersectionObserver rootMargin). */
  static lazyMargin = '300px 0px';
  static releaseDelay = 10_000;  // ms out of the page, paused, before its work is freed

  static get observedAttributes() {
    return [...Object.keys(this.schema).map(attributeName), ...Object.keys(COMMON_ATTRIBUTES)];
  }

  /** Registers the element under `tag` (once; a no-op where custom elements do not exist). */
  static define(tag) {
    installProperties(this);
    if (globalThis.customElements && !customElements.get(tag)) customElements.define(tag, this);
  }

  /** The loaded GateLab API (null until the figure starts). */
  lab = null;
  /** The resolved theme (colours, font, colormap) the canvases are drawn with. */
  theme = null;
  /** True while the user prefers reduced motion: animate() then jumps to the end. */
  reducedMotion = false;

  #shadow;
  #parts = null;
  #fitter = new CanvasFitter(() => {
    this.#dirty = true;
    this.#drawNow();  // redraw right away: resizing cleared the canvas
  });
  #visible = false;
  #started = false;
  #running = false;
  #dirty = false;
  #frame = 0;
  #animation = null;
  #pending = 0;
  #settleWaiters = [];
  #readyResolve;
  #readyFired = false;
  #reflecting = false;
  #cleanups = [];
  #announceTimer = 0;
  #announceDone = null;
  #stopUrlState = null;
  #presence = new Presence({ suspend: () => this.suspend(), release: () => this.release(),
    delay: () => this.constructor.releaseDelay });

  constructor() {
    super();
    this.state = defaultState(this.constructor.schema);
    this.#shadow = this.attachShadow({ mode: 'open' });
    adoptStyles(this.#shadow, this.constructor);
    /** Resolves (with the element) after the first complete drawing. */
    this.ready = new Promise((resolve) => (this.#readyResolve = resolve));
  }

  // ---- lifecycle -------------------------------------------------------------------------

  connectedCallback() {
    // Properties a page set before this element was defined shadow the accessors: re-apply them.
    for (const name of Object.keys(this.constructor.schema)) {
      if (!Object.hasOwn(this, name)) continue;
      const value = this[name];
      delete this[name];
      this[name] = value;
    }
    if (!this.#parts) this.#buildFrame();
    this.syncControls();
    // Back in the page after suspend() (and maybe release()): resume({ released }).
    const back = this.#presence.comeBack();
    if (back && this.#running) this.resume(back);
    this.#cleanups.push(...watchEnvironment(this, this.#fitter));
    this.#mirrorUrl(this.hasAttribute('url-state'));
    if (typeof IntersectionObserver === 'function') {
      const observer = new IntersectionObserver((entries) => this.#setVisible(entries.at(-1).isIntersecting),
        { rootMargin: this.constructor.lazyMargin });
      observer.observe(this);
      this.#cleanups.push(() => observer.disconnect());
    } else {
      this.#setVisible(true);
    }
  }

  disconnectedCallback() {
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    this.#mirrorUrl(false);
    this.#setVisible(false);
    if (this.#started) this.#presence.leave();
  }

  #mirrorUrl(on) {
    if (on && !this.#stopUrlState) this.#stopUrlState = mirrorStateToHash(this);
    if (!on && this.#stopUrlState) this.#stopUrlState = this.#stopUrlState() ?? null;
  }

  attributeChangedCallback(attribute, _old, value) {
    if (attribute === 'url-state') return void (this.isConnected && this.#mirrorUrl(value !== null));
    if (this.#reflecting) return;
    const name = Object.keys(this.constructor.schema).find((n) => attributeName(n) === attribute);
    if (name) this.setState({ [name]: value }, 'attribute');
  }

  // ---- state -----------------------------------------------------------------------------

  /**
   * Changes state. Attribute values are parsed leniently (bad text -> default, with a
   * warning); property and control values strictly (bad value -> RangeError).
   * @param {object} patch  @param {'attribute'|'property'|'user'} source
   */
  setState(patch, source = 'property') {
    const schema = this.constructor.schema;
    const next = { ...this.state };
    for (const [name, raw] of Object.entries(patch)) {
      if (!schema[name]) continue;
      if (source === 'attribute') {
        next[name] = parseOrDefault(schema, name, raw, this);
      } else {
        const parsed = parseValue(schema[name], raw, this);
        if (!parsed.ok) {
          throw new RangeError(`${this.localName}.${name}: expected ${parsed.expected}, got ${String(raw)}`);
        }
        next[name] = parsed.value;
      }
    }
    const normalized = this.constructor.normalize?.(next, this) ?? next;
    const changed = new Set(Object.keys(schema).filter((n) => !Object.is(normalized[n], this.state[n])));
    if (!changed.size) return;
    this.state = normalized;
    if (source !== 'attribute') this.#reflect(changed);
    if (this.#parts) this.syncControls();
    if (this.#running) {
      this.update(changed, source);
      this.dispatchEvent(new CustomEvent('change', {
        bubbles: true,
        detail: { changed: [...changed], state: { ...this.state }, source },
      }));
    }
  }

  #reflect(changed) {
    this.#reflecting = true;
    try {
      for (const name of changed) {
        const text = formatValue(this.constructor.schema[name], this.state[name]);
        if (text === null) this.removeAttribute(attributeName(name));
        else this.setAttribute(attributeName(name), text);
      }
    } finally {
      this.#reflecting = false;
    }
  }

  // ---- starting and pausing ----------------------------------------------------------------

  #setVisible(visible) {
    this.#visible = visible;
    if (!visible) {
      this.finishAnimation();
      return;
    }
    if (!this.#started) this.#start();
    else if (this.#dirty) this.requestDraw();
  }

  /** True while the figure is on (or near) the screen. */
  get visible() {
    return this.#visible;
  }

  async #start() {
    this.#started = true;
    const done = this.trackPending();
    try {
      this.lab = await sharedLab();
      this.#revalidateEnums();
      const before = { ...this.state };
      await this.start(this.lab);
      this.#running = true;
      // State that changed while start() awaited is computed now.
      const missed = new Set(Object.keys(before).filter((n) => !Object.is(before[n], this.state[n])));
      if (missed.size) this.update(missed, 'attribute');
      this.requestDraw();
    } catch (error) {
      this.showError(error);
    } finally {
      done();
    }
  }

  /** Enum attributes whose allowed values only the loaded library knows are checked again. */
  #revalidateEnums() {
    const schema = this.constructor.schema;
    for (const [name, spec] of Object.entries(schema)) {
      if (spec.type !== 'enum' || typeof spec.values !== 'function') continue;
      const attribute = this.getAttribute(attributeName(name));
      if (attribute !== null) this.state[name] = parseOrDefault(schema, name, attribute, this);
    }
    if (this.#parts) this.syncControls();
  }

  // ---- drawing --------------------------------------------------------------------------

  /** Asks for a draw in the next animation frame; off screen it waits until visible again. */
  requestDraw() {
    this.#dirty = true;
    if (!this.#visible || !this.#running || this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#drawNow();
    });
  }

  #drawNow() {
    if (!this.#dirty || !this.#running) return;
    this.#dirty = false;
    this.theme ??= readTheme(this);
    this.draw();
    if (!this.#readyFired) {
      this.#readyFired = true;
      this.#parts.poster.hidden = true;
      performance.mark?.(`gatelab:ready:${this.localName}`);
      this.#readyResolve(this);
      this.dispatchEvent(new CustomEvent('ready', {
        bubbles: true,
        detail: { state: { ...this.state }, version: this.lab.version, time: performance.now() },
      }));
    }
    this.#checkSettled();
  }

  /**
   * Runs step(t) for t from 0 to 1 over `duration` ms, drawing each frame. With reduced
   * motion, or off screen, it jumps straight to t = 1.
   * @returns {Promise<void>}
   */
  animate(duration, step) {
    this.finishAnimation();
    if (this.reducedMotion || !this.#visible || duration <= 0) {
      step(1);
      this.requestDraw();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = this.trackPending();
      const start = performance.now();
      const animation = {
        frame: 0,
        finish: () => {
          cancelAnimationFrame(animation.frame);
          this.#animation = null;
          step(1);
          this.requestDraw();
          done();
          resolve();
        },
      };
      const tick = (now) => {
        const t = Math.min(1, (now - start) / duration);
        if (t >= 1) return animation.finish();
        step(t);
        this.#dirty = true;
        this.#drawNow();
        animation.frame = requestAnimationFrame(tick);
      };
      animation.frame = requestAnimationFrame(tick);
      this.#animation = animation;
    });
  }

  /** Jumps the running animation, if any, to its end. */
  finishAnimation() {
    this.#animation?.finish();
  }

  /**
   * A 2D context for `canvas` scaled to CSS pixels and cleared to the theme's background.
   * @returns {{ ctx: CanvasRenderingContext2D, width: number, height: number }}
   */
  beginCanvas(canvas) {
    const ctx = canvas.getContext('2d');
    const css = this.#fitter.cssSize(canvas);
    const scale = canvas.width / Math.max(1, css.width);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = this.theme.bg;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    return { ctx, width: css.width, height: css.height };
  }

  /** Font size for canvas text: readable on a phone, a little larger on wide figures. */
  fontSizeFor(width) {
    return width < 360 ? 11 : width < 520 ? 12 : 13;
  }

  // ---- building blocks for subclasses -----------------------------------------------------

  #buildFrame() {
    this.#parts = buildFrame(this.#shadow, { onPNG: () => this.downloadPNG(), onCSV: () => this.downloadCSV(),
      host: this,
      summary: `${this.constructor.description || this.localName} The live figure loads when it comes into view.`,
      version: async () => (this.lab ?? await sharedLab()).version });
    this.build(this.#parts);
    this.#parts.controls.append(this.#parts.exportGroup);
  }

  /**
   * A canvas in the plots area; its backing store follows its CSS box at devicePixelRatio.
   * The figure's styles give it a size (e.g. `canvas.<name> { aspect-ratio: 1.5 }`).
   * @param {{ name: string, label: string }} spec name: class and part name; label: for screen readers
   */
  createCanvas({ name, label }) {
    const canvas = document.createElement('canvas');
    canvas.className = name;
    canvas.setAttribute('part', `canvas ${name}`);
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', label);
    canvas.width = canvas.height = 1;
    this.#parts.plots.append(canvas);
    this.#fitter.add(canvas);
    return canvas;
  }

  /** Shows `text` in the live readout; screen readers hear it once the figure is quiet. */
  announce(text, { busy = false } = {}) {
    clearTimeout(this.#announceTimer);
    const readout = this.#parts.readout;
    readout.classList.remove('error');
    const set = () => {
      readout.replaceChildren();
      const span = document.createElement('span');
      if (busy) span.className = 'busy';
      span.textContent = text;
      readout.append(span);
    };
    // Progress updates are shown at once but not re-announced on every step.
    if (busy) readout.setAttribute('aria-busy', 'true');
    else readout.removeAttribute('aria-busy');
    this.#announceDone?.();
    this.#announceDone = this.trackPending();
    this.#announceTimer = setTimeout(() => {
      set();
      this.#announceDone();
    }, busy ? 0 : 120);
  }

  /** The current readout text. */
  get readoutText() {
    return this.#parts?.readout.textContent ?? '';
  }

  showError(error) {
    console.error(`${this.localName}:`, error);
    const readout = this.#parts?.readout;
    if (readout) {
      readout.classList.add('error');
      readout.textContent = `This figure could not be computed: ${error?.message ?? error}`;
    }
    this.dispatchEvent(new CustomEvent('error', { detail: { error } }));
  }

  // ---- pending work and settling -----------------------------------------------------------

  /** Marks async work in progress; call the returned function when it ends. */
  trackPending() {
    this.#pending++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#pending--;
      this.#checkSettled();
    };
  }

  /** Resolves when the figure has started, finished its computations and drawn them. */
  settled() {
    return new Promise((resolve) => {
      this.#settleWaiters.push(resolve);
      this.#checkSettled();
    });
  }

  #checkSettled() {
    if (!this.#running || this.#pending || this.#dirty || this.#frame || this.#animation) return;
    for (const resolve of this.#settleWaiters.splice(0)) resolve(this);
  }

  /** Re-reads the theme (after a page changes --gatelab-* properties) and redraws. */
  refreshTheme() {
    this.theme = null;
    this.requestDraw();
  }

  // ---- export ------------------------------------------------------------------------------

  /** The figure's canvases as one PNG image. */
  toPNG() {
    const theme = (this.theme ??= readTheme(this));
    return canvasesToPng(this.#fitter.canvases,
      { background: theme.bg, foreground: theme.fg, font: theme.font, caption: this.readoutText });
  }

  /** The numbers behind the figure as CSV text. */
  toCSV() {
    const { columns, rows } = this.csv();
    return toCsv(columns, rows);
  }

  /** A file name from the tag and the state, e.g. gatelab-exchange-plane_silu_seed-1. */
  exportName() {
    return exportName(this.localName, this.state);
  }

  async downloadPNG(filename = `${this.exportName()}.png`) {
    try {
      download(await this.toPNG(), filename, this.#shadow);
    } catch (error) {
      this.showError(error);
    }
  }

  downloadCSV() {
    download(new Blob([this.toCSV()], { type: 'text/csv' }), `${this.exportName()}.csv`, this.#shadow);
  }

  // ---- default hooks -----------------------------------------------------------------------

  build() {}
  syncControls() {}
  /** Out of the page: stop ongoing work (training loops) but keep what it needs to resume. */
  suspend() {}
  /** Back in the page: continue; `released` when release() freed the work meanwhile. */
  resume() {}
  /** Out of the page for releaseDelay ms: free worker sessions and library objects. */
  release() {}
  /** The reader can see the figure now (on screen, tab visible), or no longer can: training runs only then. */
  screenChanged() {}
  async start() {}
  update() {}
  draw() {}
  csv() {
    return { columns: [], rows: [] };
  }
}
