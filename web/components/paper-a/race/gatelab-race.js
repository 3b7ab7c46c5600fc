// <gatelab-race task="xor" models="mlp:relu,gated:silu,gated:identity" steps="500" seeds="3" seed="0">
//
// The training race of paper A: the standard MLP, the symmetric rank-1 form, gated forms and the
// bilinear layer trained side by side at an equal parameter budget (or Shazeer's ⅔ width) on
// one 2-D task, over several seeds, in the worker. Live: train (dashed) and test (solid) loss
// with a band over seeds, accuracy, and each model's decision boundary; a results table. Data:
// the library's tasks or the reader's own points (click or keys to draw, or paste CSV). A run
// that diverges is rolled back by the library and explained here in words (never grey). The
// same attributes, seed included, give the same curves as lab.race() in Node.
//
// This file is the element: its parts, its lifecycle, the training session's restarts and
// pauses, and the point editor's wiring. The rest lives beside it: race-schema.js (attributes
// and the worker request), race-styles.js (CSS), race-controls.js (the controls),
// race-session.js (the live session in the worker), race-charts.js (drawing),
// race-report.js (results table and spoken summary) and race-export.js (results, JSON, CSV,
// pasted points).
import { GateLabFigure } from '../../base/gatelab-figure.js';
import { Restarter } from '../../base/restart.js';
import { sharedRunner } from '../../runner/lab-runner.js';
import { formatNumber } from '../../base/format.js';
import { addJsonExport, palette } from '../../base/figure-extras.js';
import { attachPointEditor } from './point-editor.js';
import { RaceSession } from './race-session.js';
import { buildRaceControls, syncRaceControls } from './race-controls.js';
import { coordOf, decodePoints, encodePoints, MAX_POINTS, parsePointsCsv } from './user-points.js';
import { EXTENT, RACE_SCHEMA, raceRequest } from './race-schema.js';
import { RACE_STYLES } from './race-styles.js';
import { drawAccuracyChart, drawBoundaryPanels, drawDataPanel, drawLossChart } from './race-charts.js';
import { buildResultsTable, progressText, raceSummary } from './race-report.js';
import { pastedPointsNote, raceCsv, raceResults, raceWeights } from './race-export.js';

export class GateLabRace extends GateLabFigure {
  static description = 'MLP, symmetric, gated and bilinear layers trained side by side on a 2-D task, live.';
  static events = {
    step: 'Training progressed: detail { stepsDone, steps, finished }.',
    computed: 'Every run has finished: detail { results, state }.',
  };
  static styles = RACE_STYLES;
  static schema = RACE_SCHEMA;

  #ui = null;
  #session = null;
  #paused = false;
  #restarter = new Restarter(this, () => this.#restart());
  #trainingDone = null;
  #notice = '';          // why nothing trains (bad user data), shown instead of curves
  #editor = null;
  #editorText = null;
  #drawLabel = 1;
  #dataArea = null;
  #table = null;
  #lastAnnounce = 0;
  #boundaryAspect = '';
  #pasteNote = '';

  /** What the race has computed: models, per-run options and records, and the curves over seeds. */
  get results() {
    return raceResults(this.#session);
  }

  /** The user points of the `points` attribute, as { x, y, label } in data coordinates. */
  get userPoints() {
    return decodePoints(this.state.points);
  }

  build({ plots, controls, exportGroup }) {
    const data = this.createCanvas({ name: 'data',
      label: 'The data set. With your points: click to add or remove a point, or use the arrow keys and Enter.' });
    this.createCanvas({ name: 'loss', label: 'Train and test loss against training steps, per model' });
    this.createCanvas({ name: 'accuracy', label: 'Test accuracy against training steps, per model' });
    this.createCanvas({ name: 'boundaries', label: 'Decision boundary of every model' });
    this.#editorText = document.createElement('p');
    this.#editorText.className = 'editor';
    this.#editorText.setAttribute('aria-live', 'polite');
    this.#table = document.createElement('div');
    this.#table.className = 'results';
    this.#table.setAttribute('part', 'table');
    // A scroll region on a phone: focusable, so the keyboard can scroll it.
    this.#table.tabIndex = 0;
    this.#table.setAttribute('role', 'region');
    this.#table.setAttribute('aria-label', 'Race results per model');
    plots.after(this.#editorText, this.#table);
    this.#editor = attachPointEditor(data, {
      extent: EXTENT,
      plot: () => this.#dataArea,
      enabled: () => this.state.task === 'user',
      points: () => this.userPoints,
      label: () => this.#drawLabel,
      onAdd: (p) => this.#setPoints([...this.userPoints, p]),
      onRemove: (i) => this.#setPoints(this.userPoints.filter((_, k) => k !== i)),
      onToggleClass: () => {
        this.#drawLabel = -this.#drawLabel;
        this.#ui.drawClass.select.value = String(this.#drawLabel);
        this.#showEditor();
      },
      onCursor: () => {
        this.#showEditor();
        this.requestDraw();
      },
    });
    this.#ui = buildRaceControls(controls, {
      set: (patch) => this.setState(patch, 'user'),
      state: () => this.state,
      togglePause: () => this.#togglePause(),
      restart: () => this.#scheduleRestart(0),
      clearPoints: () => this.#setPoints([]),
      usePasted: (text) => this.#usePasted(text),
    });
    this.#ui.drawClass.select.addEventListener('change', () => {
      this.#drawLabel = Number(this.#ui.drawClass.select.value);
      this.#showEditor();
    });
    addJsonExport(this, exportGroup, () => this.weights());
  }

  syncControls() {
    syncRaceControls(this.#ui, this.state, { paused: this.#paused, finished: !!this.#session?.finished });
    this.#editor.sync();
    this.#showEditor();
  }

  /** Out of the page: training pauses after its chunk (the reader's own pause stays as it is). */
  suspend() {
    this.#restarter.cancel();
    if (this.#session?.runs && !this.#paused) this.#session.pause();
  }

  /** Back: training goes on from the step it reached, or starts again once released. */
  resume({ released }) {
    const s = this.#session;
    if (released || !s) return this.#scheduleRestart(0);
    if (this.#restarter.pending) return this.#scheduleRestart(0);  // a restart was pending
    if (s.runs && !this.#paused && !s.finished) this.#resumeTraining(s);
  }

  /** Frees the trainers in the worker. */
  release() {
    this.#session?.dispose();
    this.#session = null;
    this.#trainingDone?.();
    this.#restarter.cancel();
  }

  async start() {
    this.#scheduleRestart(0);
  }

  update() {
    this.#scheduleRestart(180);
  }

  /** The weights of every model and seed (from the worker), with the race's settings. */
  async weights() {
    return raceWeights(this.#session, this.state);
  }

  csv() {
    return raceCsv(this.#session);
  }

  // ---- training ---------------------------------------------------------------------------

  #scheduleRestart(delay) {
    this.#restarter.schedule(delay);
  }

  async #restart() {
    this.#session?.dispose();
    this.#session = null;
    this.#trainingDone?.();
    this.#paused = false;
    this.#notice = '';
    if (this.state.task === 'user') {
      const points = this.userPoints;
      const classes = new Set(points.map((p) => p.label));
      if (points.length < 4 || classes.size < 2) {
        this.#notice = `Draw at least 4 points of both classes (you have ${points.length}), or paste CSV rows.`;
        this.announce(this.#notice);
        this.#renderTable();
        this.syncControls();
        this.requestDraw();
        return;
      }
    }
    const session = new RaceSession({ runner: sharedRunner(),
      request: raceRequest(this.state, this.lab.activations, this.userPoints),
      steps: this.state.steps, stats: this.lab.stats, onUpdate: (s) => this.#onProgress(s) });
    this.#session = session;
    this.syncControls();
    try {
      await session.start();
      if (this.#session !== session) return;
      await this.#train(session);
    } catch (error) {
      if (this.#session !== session || error?.name === 'AbortError') return;
      // The worker died and the runner moved to the main thread: the trainers went with it.
      if (error?.name === 'SessionLost') return this.#scheduleRestart(0);
      if (error?.name === 'GateLabError') {
        // Settings the library refuses (e.g. a split that leaves no test point): say so plainly.
        this.#notice = `These settings cannot train: ${error.message}`;
        this.announce(this.#notice);
        this.requestDraw();
      } else {
        this.showError(error);
      }
    }
  }

  async #train(session) {
    if (session.finished) return this.#finish(session);
    this.#trainingDone?.();
    const done = this.trackPending();
    this.#trainingDone = done;
    try {
      await session.run();
    } finally {
      done();
      if (this.#trainingDone === done) this.#trainingDone = null;
    }
    if (this.#session === session && session.finished) this.#finish(session);
  }

  #togglePause() {
    const s = this.#session;
    if (!s?.runs || s.finished) return;
    this.#paused = !this.#paused;
    if (this.#paused) {
      s.pause();
      this.announce(`Paused at step ${s.stepsDone} of ${s.steps}.`);
    } else {
      this.#resumeTraining(s);
    }
    this.syncControls();
  }

  #resumeTraining(s) {
    this.#train(s).catch((error) => {
      if (this.#session !== s) return;
      if (error?.name === 'SessionLost') this.#scheduleRestart(0);
      else this.showError(error);
    });
  }

  #onProgress(session) {
    if (session !== this.#session) return;
    this.requestDraw();
    this.dispatchEvent(new CustomEvent('step', { bubbles: true,
      detail: { stepsDone: session.stepsDone, steps: session.steps, finished: session.finished } }));
    const now = performance.now();
    if (now - this.#lastAnnounce > 1000) {
      this.#lastAnnounce = now;
      this.announce(progressText(session, this.state), { busy: true });
      this.#renderTable();
    }
  }

  #finish(session) {
    this.#renderTable();
    this.syncControls();
    this.announce(raceSummary(session, this.state, this.lab));
    this.requestDraw();
    this.dispatchEvent(new CustomEvent('computed',
      { bubbles: true, detail: { results: this.results, state: { ...this.state } } }));
  }

  #renderTable() {
    const s = this.#session?.runs ? this.#session : null;
    if (s) this.#table.replaceChildren(buildResultsTable(s, this.theme, this.lab));
    else this.#table.replaceChildren();
  }

  // ---- user points -------------------------------------------------------------------------

  #setPoints(points, note = '') {
    this.#pasteNote = note;
    this.setState({ points: encodePoints(points) }, 'user');
    this.#showEditor();
  }

  #usePasted(text) {
    const parsed = parsePointsCsv(text);
    const outcome = pastedPointsNote(parsed);
    if (outcome.error) this.announce(outcome.error);
    else this.#setPoints(parsed.points, outcome.note);
  }

  #showEditor() {
    if (!this.#editorText) return;
    if (this.state.task !== 'user') {
      this.#editorText.textContent = '';
      return;
    }
    const cursor = this.#editor?.cursor;
    const n = this.userPoints.length;
    const cls = this.#drawLabel > 0 ? '+1' : '−1';
    this.#editorText.textContent = cursor
      ? `Cursor at (${formatNumber(coordOf(cursor.i))}, ${formatNumber(coordOf(cursor.j))}); `
        + `Enter adds a ${cls} point, `
        + `Delete removes the nearest, C switches the class. ${n} points.`
      : `${this.#pasteNote ? `${this.#pasteNote} ` : ''}${n} of at most ${MAX_POINTS} points. `
        + `Click the data to add a ${cls} point (click a point to remove it), `
        + 'or focus it and use the arrow keys and Enter.';
  }

  // ---- drawing ----------------------------------------------------------------------------

  draw() {
    const [dataCanvas, lossCanvas, accCanvas, boundaryCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const s = this.#session?.runs ? this.#session : null;
    const colors = palette(this.theme, s?.models.length ?? 1);
    const steps = this.#session?.steps ?? this.state.steps;
    this.#dataArea = drawDataPanel(this, dataCanvas, { session: s, user: this.state.task === 'user',
      seed: this.state.seed,
      userPoints: this.userPoints, cursor: this.#editor?.cursor, drawLabel: this.#drawLabel });
    drawLossChart(this, lossCanvas, { session: s, colors, steps, loss: this.state.loss, notice: this.#notice });
    drawAccuracyChart(this, accCanvas, { session: s, colors, steps });
    this.#boundaryAspect = drawBoundaryPanels(this, boundaryCanvas,
      { session: s, colors, loss: this.state.loss, aspect: this.#boundaryAspect });
  }
}
