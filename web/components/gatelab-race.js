// <gatelab-race task="xor" models="mlp:relu,gated:silu,gated:identity" steps="500" seeds="3" seed="0">
//
// Issue 4's training race: the standard MLP, the symmetric rank-1 form, gated forms and the
// bilinear layer trained side by side at an equal parameter budget (or Shazeer's ⅔ width) on
// one 2-D task, over several seeds, in the worker. Live: train (dashed) and test (solid) loss
// with a band over seeds, accuracy, and each model's decision boundary; a results table. Data:
// the library's tasks or the reader's own points (click or keys to draw, or paste CSV). A run
// that diverges is rolled back by the library and explained here in words (never grey). The
// same attributes, seed included, give the same curves as lab.race() in Node.
import { GateLabFigure } from './gatelab-figure.js';
import { sharedRunner } from './lab-runner.js';
import { formatNumber } from './format.js';
import { drawChart, extent, logTicks } from './plot-kit.js';
import { addJsonExport, layerLabel, palette } from './figure-extras.js';
import { classColor, drawBoundaryPanel, drawPoints } from './boundary-map.js';
import { attachPointEditor } from './point-editor.js';
import { RaceSession } from './race-session.js';
import { buildRaceControls, syncRaceControls, TASK_LABELS } from './race-controls.js';
import { coordOf, decodePoints, encodePoints, MAX_POINTS, parsePointsCsv, pointArrays, POINT_EXTENT, POINTS_PATTERN } from './user-points.js';

const GRID = 40;
const EXTENT = POINT_EXTENT;
const MODEL_LIST = /^(mlp|symmetric|gated):[a-z0-9_]{1,20}(,(mlp|symmetric|gated):[a-z0-9_]{1,20}){0,15}$/;

const STYLES = `
.plots canvas.data { aspect-ratio: 1.05; }
.plots canvas.loss { aspect-ratio: 0.95; }
.plots canvas.accuracy { aspect-ratio: 1.5; }
.plots canvas.boundaries { grid-column: 1 / -1; aspect-ratio: 2; }
@container (min-width: 600px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  .plots canvas.data { aspect-ratio: 1; }
  .plots canvas.loss { aspect-ratio: 1; }
  .plots canvas.accuracy { grid-column: 1 / -1; aspect-ratio: 3.4; }
}
canvas.data:focus-visible { outline-offset: 0; }
.editor { margin: 6px 0 0; min-height: 1.45em; color: var(--gl-muted); }
.controls { align-items: stretch; }
.group { border: 1px solid var(--gl-grid); border-radius: 8px; padding: 4px 10px 8px; margin: 0;
  display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: center; align-content: flex-start;
  flex: 1 1 260px; min-width: 0; }
.group input[type=range] { width: 7.5em; }
.group legend { color: var(--gl-muted); font-size: 0.9em; padding: 0 4px; }
.checks { display: flex; flex-wrap: wrap; gap: 2px 12px; flex-basis: 100%; }
.check { display: inline-flex; align-items: center; gap: 5px; min-height: 30px; }
.check input { min-height: 0; width: 1.05em; height: 1.05em; accent-color: var(--gl-accent); }
.paste { flex-basis: 100%; }
.paste textarea { font: 0.9em ui-monospace, monospace; color: var(--gl-fg); background: var(--gl-bg);
  border: 1px solid var(--gl-muted); border-radius: 6px; width: 100%; min-width: 0; resize: vertical; }
.results { overflow-x: auto; margin-top: 10px; }
.results table { border-collapse: collapse; width: 100%; font-size: 0.9em; font-variant-numeric: tabular-nums; }
.results th, .results td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--gl-grid); white-space: nowrap; }
.results .swatch { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; margin-right: 6px; vertical-align: -0.05em; }
.results .diverged { color: var(--gl-accent); white-space: normal; font-size: 0.95em; padding-left: 2em; }
`;

export class GateLabRace extends GateLabFigure {
  static styles = STYLES;
  static schema = {
    task: { type: 'enum', default: 'xor', values: Object.keys(TASK_LABELS) },
    teacher: { type: 'string', default: 'gated:relu', pattern: /^(mlp|symmetric|gated):[a-z0-9_]{1,20}$/ },
    points: { type: 'string', default: '', pattern: POINTS_PATTERN },
    count: { type: 'integer', default: 200, min: 20, max: 2000 },
    noise: { type: 'number', default: 0.1, min: 0, max: 2 },
    split: { type: 'number', default: 0.5, min: 0.05, max: 0.95 },
    batch: { type: 'integer', default: 32, min: 0, max: 1024 },
    loss: { type: 'enum', default: 'cross_entropy', values: ['cross_entropy', 'mse'] },
    optimizer: { type: 'enum', default: 'adam', values: ['adam', 'momentum', 'sgd'] },
    learningRate: { type: 'number', default: 0.01, min: 1e-5, max: 100 },
    steps: { type: 'integer', default: 500, min: 10, max: 20000 },
    seeds: { type: 'integer', default: 3, min: 1, max: 8 },
    seed: { type: 'integer', default: 0, min: 0, max: 4294967295 },
    models: { type: 'string', default: 'mlp:relu,symmetric:relu,gated:relu,gated:gelu,gated:silu,gated:sigmoid,gated:identity',
      pattern: MODEL_LIST },
    width: { type: 'enum', default: 'budget', values: ['budget', 'shazeer'] },
    budget: { type: 'integer', default: 128, min: 16, max: 4096 },
    mlpHidden: { type: 'integer', default: 32, min: 2, max: 256 },
  };

  #ui = null;
  #session = null;
  #paused = false;
  #restartTimer = 0;
  #restartDone = null;
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
    const s = this.#session;
    if (!s?.runs) return null;
    return {
      stepsDone: s.stepsDone, finished: s.finished,
      models: s.models.map((m, i) => ({ ...m, curves: s.curves(i),
        runs: s.runs[i].map((r) => ({ records: r.records, divergence: r.divergence })), options: s.options[i] })),
    };
  }

  /** The user points of the `points` attribute, as { x, y, label } in data coordinates. */
  get userPoints() {
    return decodePoints(this.state.points);
  }

  build({ plots, controls, exportGroup }) {
    const data = this.createCanvas({ name: 'data', label: 'The data set. With your points: click to add or remove a point, or use the arrow keys and Enter.' });
    this.createCanvas({ name: 'loss', label: 'Train and test loss against training steps, per model' });
    this.createCanvas({ name: 'accuracy', label: 'Test accuracy against training steps, per model' });
    this.createCanvas({ name: 'boundaries', label: 'Decision boundary of every model' });
    this.#editorText = document.createElement('p');
    this.#editorText.className = 'editor';
    this.#editorText.setAttribute('aria-live', 'polite');
    this.#table = document.createElement('div');
    this.#table.className = 'results';
    this.#table.setAttribute('part', 'table');
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

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#session?.dispose();
    this.#session = null;
    this.#trainingDone?.();
  }

  connectedCallback() {
    super.connectedCallback();
    if (this.lab && !this.#session) this.#scheduleRestart(0);
  }

  async start() {
    this.#scheduleRestart(0);
  }

  update() {
    this.#scheduleRestart(180);
  }

  /** The weights of every model and seed (from the worker), with the race's settings. */
  async weights() {
    const s = this.#session;
    if (!s?.runs) return null;
    const weights = await s.weights();
    return { figure: 'gatelab-race', state: { ...this.state }, stepsDone: s.stepsDone,
      models: s.models.map((m, i) => ({ ...m, runs: weights[i] })) };
  }

  // ---- training ---------------------------------------------------------------------------

  #scheduleRestart(delay) {
    clearTimeout(this.#restartTimer);
    this.#restartDone ??= this.trackPending();
    this.#restartTimer = setTimeout(() => {
      const done = this.#restartDone;
      this.#restartDone = null;
      this.#restart().finally(done);
    }, delay);
  }

  #request() {
    const st = this.state;
    const models = st.models.split(',').map((key) => {
      const [kind, activation] = key.split(':');
      return { kind, activation };
    }).filter((m) => this.lab.activations.includes(m.activation));
    const data = { task: st.task, count: st.count, noise: st.noise, trainFraction: st.split, seed: st.seed };
    if (st.task === 'teacher') {
      const [kind, activation] = st.teacher.split(':');
      data.teacher = { kind, activation: this.lab.activations.includes(activation) ? activation : 'relu' };
    }
    if (st.task === 'user') data.points = pointArrays(this.userPoints);
    return {
      models: models.length ? models : [{ kind: 'gated', activation: 'silu' }],
      widthRule: st.width, budget: st.budget, mlpHidden: st.mlpHidden, seeds: st.seeds,
      train: { seed: st.seed, loss: st.loss, optimizer: st.optimizer, learningRate: st.learningRate,
        batchSize: st.batch, evalEvery: Math.max(1, Math.ceil(st.steps / 100)) },
      data, gridSize: GRID, extent: EXTENT,
    };
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
    const session = new RaceSession({ runner: sharedRunner(), request: this.#request(), steps: this.state.steps,
      onUpdate: (s) => this.#onProgress(s) });
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
      this.#train(s).catch((error) => {
        if (this.#session !== s) return;
        if (error?.name === 'SessionLost') this.#scheduleRestart(0);
        else this.showError(error);
      });
    }
    this.syncControls();
  }

  #onProgress(session) {
    if (session !== this.#session) return;
    this.requestDraw();
    this.dispatchEvent(new CustomEvent('step', { bubbles: true,
      detail: { stepsDone: session.stepsDone, steps: session.steps, finished: session.finished } }));
    const now = performance.now();
    if (now - this.#lastAnnounce > 1000) {
      this.#lastAnnounce = now;
      this.announce(`Training ${session.models.length} models × ${this.state.seeds} seeds on ${TASK_LABELS[this.state.task]}: `
        + `step ${session.stepsDone} of ${session.steps}.`, { busy: true });
      this.#renderTable();
    }
  }

  #finish(session) {
    this.#renderTable();
    this.syncControls();
    this.announce(this.#summary(session));
    this.requestDraw();
    this.dispatchEvent(new CustomEvent('computed', { bubbles: true, detail: { results: this.results, state: { ...this.state } } }));
  }

  #summary(s) {
    const st = this.state;
    const finals = s.models.map((m, i) => {
      const c = s.curves(i);
      return { label: layerLabel(m.kind, m.activation), acc: c.testAccuracy.mean.at(-1), std: c.testAccuracy.std.at(-1), loss: c.testLoss.mean.at(-1) };
    });
    const best = finals.reduce((a, b) => (b.loss < a.loss ? b : a));
    const list = finals.map((f) => `${f.label} ${fixed3(f.acc)} ± ${fixed3(f.std)}`).join(', ');
    return `After ${s.stepsDone} steps on ${TASK_LABELS[st.task]} (${st.seeds} seed${st.seeds > 1 ? 's' : ''}, seed ${st.seed}), `
      + `test accuracy (mean ± std): ${list}. Lowest test loss: ${best.label} (${formatNumber(best.loss)}).`
      + this.#divergenceText(s);
  }

  /** Every model with a diverged run, in words. */
  #divergenceText(s) {
    const parts = [];
    s.models.forEach((m, i) => {
      const diverged = s.runs[i].filter((r) => r.divergence);
      if (!diverged.length) return;
      parts.push(` ${layerLabel(m.kind, m.activation)}: ${diverged.length} of ${s.runs[i].length} runs diverged (${diverged[0].divergence.message}); `
        + 'the library rolled each back to its last good step, and its curves stop there.');
    });
    return parts.join('');
  }

  // ---- user points -------------------------------------------------------------------------

  #setPoints(points, note = '') {
    this.#pasteNote = note;
    this.setState({ points: encodePoints(points) }, 'user');
    this.#showEditor();
  }

  #usePasted(text) {
    const parsed = parsePointsCsv(text);
    if (!parsed.points.length) {
      this.announce(`No points found in the pasted text (${parsed.skipped} rows skipped): use rows like “0.5, -0.2, 1”.`);
      return;
    }
    const notes = [];
    if (parsed.skipped) notes.push(`${parsed.skipped} rows skipped`);
    if (parsed.scaled !== 1) notes.push(`scaled by ${formatNumber(parsed.scaled)} to fit ±${EXTENT}`);
    if (parsed.truncated) notes.push(`only the first ${MAX_POINTS} kept`);
    this.#setPoints(parsed.points, `Using ${parsed.points.length} pasted points${notes.length ? ` (${notes.join('; ')})` : ''}.`);
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
      ? `Cursor at (${formatNumber(coordOf(cursor.i))}, ${formatNumber(coordOf(cursor.j))}); Enter adds a ${cls} point, `
        + `Delete removes the nearest, C switches the class. ${n} points.`
      : `${this.#pasteNote ? `${this.#pasteNote} ` : ''}${n} of at most ${MAX_POINTS} points. Click the data to add a ${cls} point (click a point to remove it), `
        + 'or focus it and use the arrow keys and Enter.';
  }

  // ---- drawing ----------------------------------------------------------------------------

  draw() {
    const [dataCanvas, lossCanvas, accCanvas, boundaryCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const theme = this.theme;
    const s = this.#session?.runs ? this.#session : null;
    const colors = palette(theme, s?.models.length ?? 1);
    this.#drawData(dataCanvas, s);
    {
      const { ctx, width, height } = this.beginCanvas(lossCanvas);
      const fontSize = this.fontSizeFor(width);
      const curves = s ? s.models.map((_, i) => s.curves(i)) : [];
      // A diverged run's last records can be astronomically large: the range stops at a few times
      // the largest starting loss, and such curves leave the top of the plot (marked by a dot).
      const ceiling = 4 * Math.max(1, ...curves.map((c) => c.testLoss.max[0]).filter(Number.isFinite));
      const all = curves.flatMap((c) => [c.testLoss.max, c.trainLoss.mean, c.testLoss.min])
        .map((a) => Float32Array.from(a, (v) => Math.min(v, ceiling)));
      const [lo, hi] = extent(all, { log: true, include: [1] });
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [0, this.#session?.steps ?? this.state.steps], yDomain: [lo, hi], yLog: true,
        yTicks: logTicks(lo, hi, 4).length >= 2 ? logTicks(lo, hi, 4) : fineLogTicks(lo, hi),
        theme, fontSize, xLabel: 'step', title: this.state.loss === 'mse' ? 'Loss (mean squared, log)' : 'Loss (cross-entropy, log)',
        bands: curves.map((c, i) => ({ x: c.step, lo: c.testLoss.min, hi: c.testLoss.max, color: colors[i], alpha: 0.14 })),
        series: curves.flatMap((c, i) => [
          { x: c.step, y: c.trainLoss.mean, color: colors[i], width: 1.2, dash: [4, 3] },
          { x: c.step, y: c.testLoss.mean, color: colors[i], width: 2.2 }]),
        dots: this.#divergenceDots(s, curves, 'testLoss', colors),
        legend: s ? [...s.models.map((m, i) => ({ label: layerLabel(m.kind, m.activation), color: colors[i], width: 3 })),
          { label: 'test', color: theme.muted }, { label: 'train', color: theme.muted, dash: [4, 3], width: 1.2 }] : [],
      });
      if (!s) this.#drawNotice(ctx, width, height, fontSize);
    }
    {
      const { ctx, width, height } = this.beginCanvas(accCanvas);
      const fontSize = this.fontSizeFor(width);
      const curves = s ? s.models.map((_, i) => s.curves(i)) : [];
      const lo = Math.min(0.45, ...curves.map((c) => Math.min(...c.testAccuracy.min)));
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [0, this.#session?.steps ?? this.state.steps], yDomain: [Math.max(0, lo - 0.03), 1.02], theme, fontSize,
        xLabel: 'step', title: 'Test accuracy (band: min–max)',
        bands: curves.map((c, i) => ({ x: c.step, lo: c.testAccuracy.min, hi: c.testAccuracy.max, color: colors[i], alpha: 0.14 })),
        series: curves.map((c, i) => ({ x: c.step, y: c.testAccuracy.mean, color: colors[i], width: 2.2 })),
        dots: this.#divergenceDots(s, curves, 'testAccuracy', colors),
      });
    }
    this.#drawBoundaries(boundaryCanvas, s, colors);
  }

  /** A dot where each diverged model's first diverged run stopped. */
  #divergenceDots(s, curves, metric, colors) {
    if (!s) return [];
    const dots = [];
    s.runs.forEach((row, i) => {
      const run = row.find((r) => r.divergence);
      if (!run) return;
      const last = run.records.step.length - 1;
      if (last < 0) return;
      dots.push({ x: run.records.step[last], y: run.records[metric][last], color: colors[i], r: 5 });
    });
    return dots;
  }

  #drawNotice(ctx, width, height, fontSize) {
    if (!this.#notice) return;
    ctx.save();
    ctx.font = `${fontSize}px ${this.theme.font}`;
    ctx.fillStyle = this.theme.accent;
    ctx.textAlign = 'center';
    const words = this.#notice.split(' ');
    let line = '';
    let y = height / 2 - fontSize;
    for (const word of words) {
      if (ctx.measureText(`${line} ${word}`).width > width - 40 && line) {
        ctx.fillText(line, width / 2, y);
        line = word;
        y += 1.4 * fontSize;
      } else line = line ? `${line} ${word}` : word;
    }
    ctx.fillText(line, width / 2, y);
    ctx.restore();
  }

  #drawData(canvas, s) {
    const { ctx, width, height } = this.beginCanvas(canvas);
    const theme = this.theme;
    const fontSize = this.fontSizeFor(width);
    const user = this.state.task === 'user';
    const title = user ? 'Your points (● train, ○ test)' : `Data, seed ${this.state.seed} (● train, ○ test)`;
    const side = Math.min(width - 8, height - 2.8 * fontSize);
    const plot = { x: (width - side) / 2, y: 1.6 * fontSize, w: side, h: side };
    this.#dataArea = plot;
    ctx.font = `600 ${fontSize}px ${theme.font}`;
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(title, plot.x, 2, plot.w);
    ctx.strokeStyle = theme.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let v = -1; v <= 1; v++) {
      const px = plot.x + ((v + EXTENT) / (2 * EXTENT)) * plot.w;
      const py = plot.y + ((EXTENT - v) / (2 * EXTENT)) * plot.h;
      ctx.moveTo(px, plot.y);
      ctx.lineTo(px, plot.y + plot.h);
      ctx.moveTo(plot.x, py);
      ctx.lineTo(plot.x + plot.w, py);
    }
    ctx.stroke();
    ctx.strokeStyle = theme.muted;
    ctx.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);
    let data = s?.data ?? null;
    if (user && (!s || this.#session.request.data.task !== 'user' || s.request.data.points.y.length !== this.userPoints.length)) {
      data = pointArrays(this.userPoints);
      data = { xTrain: data.x, yTrain: data.y };
    }
    drawPoints(ctx, plot, { data, extent: EXTENT, theme, radius: Math.max(2.5, side / 90) });
    const cursor = this.#editor?.cursor;
    if (user && cursor) {
      const px = plot.x + ((coordOf(cursor.i) + EXTENT) / (2 * EXTENT)) * plot.w;
      const py = plot.y + ((EXTENT - coordOf(cursor.j)) / (2 * EXTENT)) * plot.h;
      ctx.strokeStyle = classColor(theme, this.#drawLabel);
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(px - 9, py);
      ctx.lineTo(px + 9, py);
      ctx.moveTo(px, py - 9);
      ctx.lineTo(px, py + 9);
      ctx.stroke();
    }
    ctx.font = `${fontSize - 1}px ${theme.font}`;
    ctx.fillStyle = theme.muted;
    ctx.fillText(`[−${EXTENT}, ${EXTENT}]²`, plot.x, plot.y + plot.h + 4);
  }

  #drawBoundaries(canvas, s, colors) {
    const models = s?.models ?? [];
    const box = canvas.getBoundingClientRect();
    const columns = Math.max(2, Math.min(Math.max(1, models.length), Math.floor(box.width / 135) || 2));
    const rows = Math.max(1, Math.ceil(Math.max(1, models.length) / columns));
    const panelW = box.width / columns;
    const fontSize = this.fontSizeFor(box.width);
    const ratio = (columns * panelW) / (rows * (panelW + 2.9 * fontSize));
    const wanted = ratio.toFixed(2);
    if (this.#boundaryAspect !== wanted) {
      this.#boundaryAspect = wanted;
      canvas.style.aspectRatio = wanted;
    }
    const { ctx, width, height } = this.beginCanvas(canvas);
    const cellH = height / rows;
    const scale = this.state.loss === 'mse' ? 1.2 : 4;
    models.forEach((m, i) => {
      const [c, r] = [i % columns, Math.floor(i / columns)];
      const diverged = s.runs[i].filter((run) => run.divergence);
      const last = s.runs[i][0].records;
      const acc = last.testAccuracy.at(-1);
      const note = diverged.length ? `diverged: ${diverged.length}/${s.runs[i].length} runs (step ${diverged[0].divergence.step})`
        : `${m.hidden} units · ${m.parameters} params · test acc ${formatNumber(acc)}`;
      drawBoundaryPanel(ctx, { x: c * panelW + 4, y: r * cellH + 2, w: panelW - 8, h: cellH - 4 }, {
        grid: s.grids[i], size: GRID, extent: EXTENT, scale, theme: this.theme, fontSize: fontSize - 1,
        data: s.data, title: layerLabel(m.kind, m.activation), note, noteColor: diverged.length ? this.theme.accent : undefined,
      });
      ctx.fillStyle = colors[i];
      ctx.fillRect(c * panelW + 4, r * cellH + 2 + 1.35 * (fontSize - 1) - 3, panelW - 8, 2);
    });
  }

  #renderTable() {
    const s = this.#session?.runs ? this.#session : null;
    if (!s) {
      this.#table.replaceChildren();
      return;
    }
    const colors = palette(this.theme ?? { accent: '#c2410c', accent2: '#1d5fd6', bg: '#fff' }, s.models.length);
    const table = document.createElement('table');
    const caption = document.createElement('caption');
    caption.className = 'visually-hidden';
    caption.textContent = 'Final values per model, mean ± std over seeds';
    const head = table.createTHead().insertRow();
    for (const h of ['model', 'width', 'params', 'train loss', 'test loss', 'test accuracy']) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      head.append(th);
    }
    const body = table.createTBody();
    s.models.forEach((m, i) => {
      const c = s.curves(i);
      const tr = body.insertRow();
      const name = tr.insertCell();
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = colors[i];
      name.append(swatch, layerLabel(m.kind, m.activation));
      const pm = (band) => `${fixed3(band.mean.at(-1))} ± ${fixed3(band.std.at(-1))}`;
      for (const text of [m.hidden, m.parameters, pm(c.trainLoss), pm(c.testLoss), pm(c.testAccuracy)]) {
        tr.insertCell().textContent = String(text);
      }
      // A divergence gets its own row under the model, in words.
      const diverged = s.runs[i].filter((r) => r.divergence);
      if (diverged.length) {
        const note = body.insertRow().insertCell();
        note.colSpan = 6;
        note.className = 'diverged';
        note.textContent = `${diverged.length} of ${s.runs[i].length} runs diverged: ${diverged[0].divergence.message}`;
      }
    });
    table.prepend(caption);
    this.#table.replaceChildren(table);
  }

  csv() {
    const columns = ['model', 'seed', 'step', 'train_loss', 'test_loss', 'train_accuracy', 'test_accuracy'];
    const rows = [];
    const s = this.#session;
    if (!s?.runs) return { columns, rows };
    s.models.forEach((m, i) => {
      s.runs[i].forEach((run, k) => {
        const r = run.records;
        for (let j = 0; j < r.step.length; j++) {
          rows.push([m.label, k, r.step[j], r.trainLoss[j], r.testLoss[j], r.trainAccuracy[j], r.testAccuracy[j]]);
        }
      });
      const c = s.curves(i);
      for (const stat of ['mean', 'std', 'min', 'max']) {
        for (let j = 0; j < c.step.length; j++) {
          rows.push([m.label, stat, c.step[j], c.trainLoss[stat][j], c.testLoss[stat][j], c.trainAccuracy[stat][j], c.testAccuracy[stat][j]]);
        }
      }
    });
    return { columns, rows };
  }
}

/** Three decimals for the table, or a short scientific form for a diverged run's huge values. */
function fixed3(v) {
  return Math.abs(v) < 1000 ? v.toFixed(3) : formatNumber(v);
}

/** Log ticks for a range narrower than a decade: a few round values, labelled plainly. */
function fineLogTicks(lo, hi) {
  const out = [];
  for (let k = 0; k < 4; k++) {
    const t = lo + ((hi - lo) * (k + 0.5)) / 4;
    const v = Number((10 ** t).toPrecision(2));
    out.push({ value: Math.log10(v), label: formatNumber(v) });
  }
  return out;
}
