// <gatelab-lm models="swiglu,symgated-silu,ffn-gelu" seeds="3" steps="2000" seed="1">
//
// Paper A's question in a language model, trained live in the reader's browser (docs/PAPER_A_LM.md):
// two to four tiny character transformers that differ only in their MLP (the same parameter
// budget, the same initial MLP output RMS: docs/MATH.md §A20) learn the 1790–1813 State of the
// Union addresses side by side, one model per Web Worker. Shown: the validation loss with a band
// over seeds, the antisymmetric share of each gated MLP (§A12), samples every few hundred steps
// at the reader's temperature, and in words which model is ahead and by how much (with the paired
// 95 % interval from lab.stats once 3 or more seeds run). Training pauses off screen and while
// the tab is hidden, and its checkpoints survive a reload (IndexedDB). The same settings give the
// native runner's curves bit for bit: `gatelab_experiment lm-job --experiment lm-figure …`.
//
// This file is the element: its parts, its lifecycle, restarts and pauses. Beside it:
// lm-preset.js (generated from the native runner's table), lm-schema.js (attributes, runs and
// session options), lm-training.js (the runs in the worker pool), lm-store.js (checkpoints),
// lm-report.js (curves over seeds, standings, table, samples), lm-charts.js (drawing),
// lm-controls.js, lm-export.js, lm-styles.js and lm-text-url.js (where the text is served).
import { GateLabFigure } from '../../base/gatelab-figure.js';
import { Restarter } from '../../base/restart.js';
import { addJsonExport, palette } from '../../base/figure-extras.js';
import { readTheme } from '../../base/theme.js';
import { RunnerPool, poolSize } from '../../runner/lm-pool.js';
import { LM_TEXT_URL } from './lm-text-url.js';
import { LM_SCHEMA, SETTINGS, modelsOf, normalizeLmState, stateKey } from './lm-schema.js';
import { LmTraining } from './lm-training.js';
import { buildLmControls, syncLmControls } from './lm-controls.js';
import { buildSamples, buildTable, summaryText } from './lm-report.js';
import { drawLossChart, drawShareChart } from './lm-charts.js';
import { lmCsv, lmResults } from './lm-export.js';
import { LM_STYLES } from './lm-styles.js';

const RESTARTS = ['models', 'seeds', 'seed', 'steps'];
const REPORT_EVERY_MS = 500;  // the table, the samples and the busy readout at most twice a second

let textPromise = null;

/** The figure's text, fetched once a page from beside the module (never another host). */
export function lmText() {
  textPromise ??= fetch(LM_TEXT_URL).then(async (response) => {
    if (!response.ok) throw new Error(`could not load the figure's text (${response.status} at ${LM_TEXT_URL})`);
    const text = await response.text();
    if (text.length !== SETTINGS.maxChars) {
      throw new Error(`the figure's text has ${text.length} characters, not ${SETTINGS.maxChars} `
        + '(rebuild it: node scripts/bundle.mjs)');
    }
    return text;
  }).catch((error) => {
    textPromise = null;
    throw error;
  });
  return textPromise;
}

const perSecond = (v) => `${Math.round(v).toLocaleString('en-US')} characters a second`;

export class GateLabLm extends GateLabFigure {
  static description = 'Tiny character language models with different MLPs trained side by side in the browser: '
    + 'validation loss, samples and the antisymmetric share.';
  static events = {
    step: 'Training progressed: detail { stepsDone, steps }.',
    trained: 'Every model has finished its steps: detail { results, state }.',
  };
  static styles = LM_STYLES;
  static schema = LM_SCHEMA;
  static normalize = normalizeLmState;

  #ui = null;
  #canvases = null;
  #table = null;
  #samples = null;
  #pool = null;
  #training = null;
  #text = null;
  #looping = false;
  #onScreen = false;
  #restarter = new Restarter(this, (options) => this.#restart(options));
  #resampleTimer = 0;
  #lastReport = 0;
  #reportTimer = 0;

  /**
   * Every run's curve, diagnostics and sample, the settings, the standings and the throughput (null before the
   * start).
   */
  get results() {
    return lmResults(this.#training, this.state, this.lab);
  }

  /**
   * True while steps are computing; off screen, in a hidden tab or paused the figure finishes the turns in
   * flight, then rests.
   */
  get training() {
    return this.#looping;
  }

  /**
   * The chosen models as readers know them ("SwiGLU", "symgated (SiLU)", "MLP (GELU)"), from the
   * library's lab.layerLabel once it has loaded (before: the generated preset's labels, the same
   * C++ table), so a page's caption can name what is training.
   */
  get modelLabels() {
    return modelsOf(this.state).map((variant) => (this.lab ? this.lab.layerLabel(variant) : variant.label));
  }

  build({ plots, controls, exportGroup }) {
    this.#canvases = {
      loss: this.createCanvas({ name: 'loss', label: 'Validation loss of every model against training steps' }),
      share: this.createCanvas({ name: 'antisymmetric-share',
        label: 'Antisymmetric share of each gated MLP against training steps' }),
    };
    this.#table = document.createElement('div');
    this.#table.className = 'results';
    this.#table.setAttribute('part', 'table');
    // A scroll region on a phone: focusable, so the keyboard can scroll it.
    this.#table.tabIndex = 0;
    this.#table.setAttribute('role', 'region');
    this.#table.setAttribute('aria-label', 'Results per model');
    this.#samples = document.createElement('div');
    this.#samples.className = 'samples';
    this.#samples.setAttribute('part', 'samples');
    this.#samples.setAttribute('aria-label', 'Generated samples');
    this.#samples.setAttribute('role', 'group');
    plots.after(this.#table, this.#samples);
    this.#ui = buildLmControls(controls, {
      set: (patch) => this.setState(patch, 'user'),
      state: () => this.state,
      togglePause: () => this.setState({ paused: !this.state.paused }, 'user'),
      startOver: () => this.#scheduleRestart(0, { clear: true }),
    });
    addJsonExport(this, exportGroup, () => this.results, 'Download every curve, sample and setting as JSON');
  }

  syncControls() {
    syncLmControls(this.#ui, this.state, { paused: this.state.paused, finished: !!this.#training?.finished });
  }

  connectedCallback() {
    super.connectedCallback();
    if (this.lab && this.#text && !this.#training) this.#scheduleRestart(0);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#restarter.cancel();
    this.#training?.stop();
    this.#training = null;
    this.#pool?.terminate();
    this.#pool = null;
  }

  async start() {
    this.announce('Loading the text…', { busy: true });
    this.#text = await lmText();
    if (this.isConnected) this.#scheduleRestart(0);
  }

  update(changed) {
    if (RESTARTS.some((name) => changed.has(name))) {
      this.#scheduleRestart(180);
      return;
    }
    if (changed.has('temperature')) {
      clearTimeout(this.#resampleTimer);
      const done = this.trackPending();
      this.#resampleTimer = setTimeout(() => this.#resample().finally(done), 150);
    }
    if (changed.has('paused')) {
      this.#applyRunState();
      if (this.state.paused && this.#training) this.announce(this.#progressText());
    }
  }

  csv() {
    return lmCsv(this.#training);
  }

  // ---- training ---------------------------------------------------------------------------

  #scheduleRestart(delay, options) {
    this.#restarter.schedule(delay, options);
  }

  /** Trains only while the reader can see it (the base class watches the screen and the tab). */
  screenChanged(onScreen) {
    this.#onScreen = onScreen;
    this.#applyRunState();
  }

  async #restart({ clear = false } = {}) {
    this.#training?.stop();
    if (!this.isConnected) return;
    this.#pool ??= new RunnerPool();
    const training = new LmTraining({ state: this.state, key: stateKey(this.state, this.lab.version), text: this.#text,
      pool: this.#pool, onUpdate: (t) => this.#onUpdate(t) });
    this.#training = training;
    this.syncControls();
    try {
      if (clear) await training.clearStored();
      const workers = poolSize(training.runs.length);
      this.announce(`Starting ${training.runs.length} runs in ${workers} worker${workers === 1 ? '' : 's'}…`,
        { busy: true });
      await training.start();
    } catch (error) {
      if (this.#training === training && error?.name !== 'AbortError') this.showError(error);
      return;
    }
    if (this.#training !== training) return;
    this.#report(true);
    if (training.finished) this.#finish();
    this.#applyRunState();
  }

  /** Trains while the reader can see it, else lets the turns in flight finish and waits. */
  #shouldRun() {
    const t = this.#training;
    return !!t?.corpus && !t.finished && !this.state.paused && this.#onScreen;
  }

  #applyRunState() {
    if (this.#shouldRun()) this.#loop();
    else if (this.#looping) this.#training?.pause();
  }

  async #loop() {
    const training = this.#training;
    if (this.#looping || !training) return;
    this.#looping = true;
    const done = this.trackPending();
    try {
      await training.run();
    } catch (error) {
      if (error?.name !== 'AbortError' && this.#training === training) this.showError(error);
    } finally {
      this.#looping = false;
      if (this.#training === training) {
        this.#report(true);
        if (training.finished) this.#finish();
      }
      done();
    }
    this.#applyRunState();
  }

  async #resample() {
    const training = this.#training;
    if (!training) return;
    try {
      // Before the sessions exist this only sets the temperature of the samples to come.
      await training.resample(this.state.temperature);
      if (this.#training === training) this.#report(true);
    } catch (error) {
      if (error?.name !== 'AbortError' && this.#training === training) this.showError(error);
    }
  }

  #onUpdate(training) {
    if (training !== this.#training) return;
    this.requestDraw();
    this.dispatchEvent(new CustomEvent('step', { bubbles: true,
      detail: { stepsDone: training.commonStep, steps: training.steps, finished: training.finished } }));
    this.#report(false);
  }

  /** The table, the samples and the readout: now when `force`, else at most every REPORT_EVERY_MS. */
  #report(force) {
    const wait = REPORT_EVERY_MS - (performance.now() - this.#lastReport);
    if (!force && wait > 0) {
      this.#reportTimer ||= setTimeout(() => {
        this.#reportTimer = 0;
        this.#report(true);
      }, wait);
      return;
    }
    clearTimeout(this.#reportTimer);
    this.#reportTimer = 0;
    this.#lastReport = performance.now();
    const training = this.#training;
    if (!training?.corpus) return;
    this.theme ??= readTheme(this);
    this.#table.replaceChildren(buildTable(training, this.theme, this.lab));
    this.#samples.replaceChildren(...buildSamples(training, this.theme));
    const quiet = !this.#looping || training.finished || this.state.paused;
    this.announce(this.#progressText(), { busy: !quiet });
  }

  #progressText() {
    const training = this.#training;
    const resumed = training.resumed
      ? `Resumed from the checkpoint at step ${training.resumedAt.toLocaleString('en-US')} saved in this browser. `
      : '';
    const speed = training.throughput;
    const rate = this.#looping && Number.isFinite(speed.charsPerSecond)
      ? ` Training at ${perSecond(speed.charsPerSecond)}.` : '';
    return resumed + summaryText(training, this.lab, { paused: this.state.paused }) + rate;
  }

  #finish() {
    this.syncControls();
    this.dispatchEvent(new CustomEvent('trained',
      { bubbles: true, detail: { results: this.results, state: { ...this.state } } }));
  }

  refreshTheme() {
    super.refreshTheme();
    this.#report(true);
  }

  // ---- drawing ----------------------------------------------------------------------------

  draw() {
    const training = this.#training?.corpus ? this.#training : null;
    const colors = palette(this.theme, training ? training.runs.filter((r) => r.seedIndex === 0).length : 1);
    const steps = this.#training?.steps ?? this.state.steps;
    drawLossChart(this, this.#canvases.loss, { training, colors, steps });
    drawShareChart(this, this.#canvases.share, { training, colors, steps });
  }
}
