// <gatelab-gp length="16" length-scale="0.5" noise="0.1" train-steps="300" eta="0.25" eval-steps="0" seed="1">
//
// In-context GP regression, live (docs/MATH.md §B7). Four small CEM transformers (tied
// attention with a shared diagonal + tied gated MLP, the same width and depth) with T = 1, 2,
// 4 and 8 recursive steps per layer train in the worker on fresh GP sequences. Top: one held-
// out sequence position by position — the true y_t, the exact GP posterior band (mean ± 2 sd,
// the best any model can do from the pairs before t) and each model's prediction of y_t.
// Below: the RMSE by context length on held-out sequences beside the posterior's and the
// context mean's, and the training loss. Every number comes from the library (lab.gp).
// Test-time recursion: `eval-steps` evaluates the trained models at another T′ (a model trained
// at T = 1 run at T′ = 4) without retraining; `eta` sets the step size η they train with, and
// `learn-eta` lets each layer learn its own (docs/MATH.md §B14).
import { GateLabFigure } from '../base/gatelab-figure.js';
import {
  createButton, createCheckbox, createRange, createReseedButton, createSelect, setSelectOptions,
} from '../base/controls.js';
import { sharedRunner } from '../runner/lab-runner.js';
import { gpPreview } from '../runner/gp-tasks.js';
import { runTracked } from '../runner/worker-run.js';
import { formatNumber } from '../base/format.js';
import { extent } from '../plot/axes.js';
import { drawChart } from '../plot/chart.js';
import { palette } from '../base/figure-extras.js';

export const GP_DEPTHS = [1, 2, 4, 8];
// The η menu (an `eta` attribute off it is added to the menu) and the T′ menu, 0 = as trained.
const ETA_CHOICES = [1 / 16, 1 / 8, 1 / 4, 1 / 2, 1];
const EVAL_CHOICES = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const CHUNK = 5;         // AdamW steps per worker call between redraws
const EVAL_COUNT = 32;   // held-out sequences of the RMSE panel
let nextId = 1;

const STYLES = `
.plots canvas.predictions { aspect-ratio: 2.1; grid-column: 1 / -1; }
.plots canvas.rmse, .plots canvas.loss { aspect-ratio: 1.4; }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
}
`;

/** η as a reader writes it: 1/4 for the menu's values, else the number. */
function etaText(eta) {
  return eta < 1 && Number.isInteger(1 / eta) ? `1/${1 / eta}` : formatNumber(eta);
}

function etaOptions(eta) {
  const values = ETA_CHOICES.includes(eta) ? ETA_CHOICES : [...ETA_CHOICES, eta].sort((a, b) => a - b);
  return values.map((v) => ({ value: String(v), text: etaText(v) }));
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** The readout's η: the fixed one, or each model's learned ones (stepSizes: attention, MLP, per block). */
function etaReadout({ eta, learnEta }, models) {
  if (!learnEta) return `η = ${etaText(eta)}`;
  const slot = (m, k) => formatNumber(mean(m.stepSizes.filter((_, i) => i % 2 === k)));
  return `η learned from ${etaText(eta)}, now (attention / MLP, mean over blocks) `
    + models.map((m) => `T = ${m.steps} ${slot(m, 0)} / ${slot(m, 1)}`).join(', ');
}

/**
 * The colour of depth index i: accent-2 (T = 1) … accent (T = 8), the categorical palette's
 * colours between. A ramp from one accent to the other made T = 4 and T = 8 look alike.
 */
function depthColor(theme, i) {
  const [accent, accent2, ...others] = palette(theme, GP_DEPTHS.length);
  return [accent2, ...others, accent][i];
}

export class GateLabGp extends GateLabFigure {
  static description = 'In-context GP regression: CEM transformers with T = 1, 2, 4, 8 trained live '
    + 'against the exact posterior.';
  static events = { step: 'Training progressed: detail { stepsDone, steps, finished }.',
    trained: 'The training steps are done: detail { results, state }.' };
  static styles = STYLES;
  static schema = {
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
    sequence: { type: 'integer', default: 1, min: 0, max: 4294967295 },
    length: { type: 'integer', default: 16, min: 4, max: 32 },
    dx: { type: 'integer', default: 1, min: 1, max: 4 },
    lengthScale: { type: 'number', default: 0.5, min: 0.05, max: 5 },
    noise: { type: 'number', default: 0.1, min: 0.01, max: 1 },
    trainSteps: { type: 'integer', default: 300, min: 0, max: 5000 },
    eta: { type: 'number', default: 0.25, min: 0.01, max: 1 },
    learnEta: { type: 'boolean', default: false },
    evalSteps: { type: 'integer', default: 0, min: 0, max: 8 },
    highlight: { type: 'enum', default: '2', values: GP_DEPTHS.map(String) },
    paused: { type: 'boolean', default: false },
  };

  #controls = null;
  // { id, abort, display, baselines,
  //   models: [{ steps, parameters, losses: number[], evalSteps, stamp, prediction, … }] };
  // display and baselines come from the exact GP at once (gpPreview), models once the worker has built them.
  #run = null;
  #training = false;
  #suspended = false; // out of the page: the training loop stops after its chunk

  /**
   * The latest numbers: { stepsDone, evalSteps, baselines, models: [{ steps, parameters, rmse, rmseByPosition,
   * diverged, stepSizes }] } or null; rmse and rmseByPosition are those at evalSteps (0: as trained).
   */
  get results() {
    const r = this.#run;
    if (!r?.models) return null;
    return structuredClone({ stepsDone: Math.min(...r.models.map((m) => m.stepsDone)), evalSteps: r.models[0].evalSteps,
      baselines: r.baselines, models: r.models.map(({ steps, parameters, rmse, rmseByPosition, diverged, stepSizes }) =>
        ({ steps, parameters, rmse, rmseByPosition, diverged, stepSizes })) });
  }

  build({ controls }) {
    this.createCanvas({ name: 'predictions',
      label: 'Predictions of each y_t against the GP posterior band, by position' });
    this.createCanvas({ name: 'rmse', label: 'Held-out RMSE by context length for each recursion depth T' });
    this.createCanvas({ name: 'loss', label: 'Training loss of each model' });
    const highlight = createSelect({ label: 'Highlight', value: this.state.highlight,
      options: GP_DEPTHS.map((t) => ({ value: String(t), text: `T = ${t}` })),
      onChange: (value) => this.setState({ highlight: value }, 'user') });
    const evalSteps = createSelect({ label: 'Evaluate at', value: String(this.state.evalSteps),
      options: EVAL_CHOICES.map((t) => ({ value: String(t), text: t ? `T′ = ${t}` : 'as trained' })),
      onChange: (value) => this.setState({ evalSteps: Number(value) }, 'user') });
    const eta = createSelect({ label: 'Step η', value: String(this.state.eta), options: etaOptions(this.state.eta),
      onChange: (value) => this.setState({ eta: Number(value) }, 'user') });
    const learnEta = createCheckbox({ label: 'Learn η', checked: this.state.learnEta,
      onChange: (checked) => this.setState({ learnEta: checked }, 'user') });
    const lengthScale = createRange({ label: 'Length-scale ℓ', min: 0.1, max: 2, step: 0.05,
      value: this.state.lengthScale,
      format: (v) => v.toFixed(2), onInput: (value) => this.setState({ lengthScale: value }, 'user') });
    const noise = createRange({ label: 'Noise σ', min: 0.01, max: 0.5, step: 0.01, value: this.state.noise,
      format: (v) => v.toFixed(2), onInput: (value) => this.setState({ noise: value }, 'user') });
    const pause = createButton({ text: 'Pause', part: 'button pause',
      onClick: () => this.setState({ paused: !this.state.paused }, 'user') });
    const sequence = createReseedButton(this, { text: 'New sequence', part: 'button sequence', name: 'sequence' });
    const restart = createReseedButton(this,
      { text: 'Retrain', title: 'New initial weights and training data', part: 'button restart' });
    controls.append(highlight.element, evalSteps.element, eta.element, learnEta.element, lengthScale.element,
      noise.element, pause, sequence, restart);
    this.#controls = { highlight, evalSteps, eta, learnEta, lengthScale, noise, pause, sequence, restart };
  }

  syncControls() {
    const c = this.#controls;
    c.highlight.select.value = this.state.highlight;
    c.evalSteps.select.value = String(this.state.evalSteps);
    const etaMenu = etaOptions(this.state.eta);
    const shown = Array.from(c.eta.select.options, (o) => o.value).join();
    if (shown !== etaMenu.map((o) => o.value).join()) setSelectOptions(c.eta.select, etaMenu, String(this.state.eta));
    c.eta.select.value = String(this.state.eta);
    c.learnEta.input.checked = this.state.learnEta;
    c.lengthScale.set(this.state.lengthScale);
    c.noise.set(this.state.noise);
    // Done training: nothing to pause (raising train-steps trains on and brings the button back).
    const finished = this.#finished();
    c.pause.textContent = finished ? 'Finished' : this.state.paused ? 'Resume' : 'Pause';
    c.pause.disabled = finished;
    c.pause.setAttribute('aria-pressed', String(this.state.paused && !finished));
    c.restart.title = `Seed ${this.state.seed}: new initial weights and training data`;
  }

  /** Draws the data and the exact posterior at once; the models build and train behind it (settled() waits). */
  async start() {
    this.#restart();
  }

  update(changed) {
    const has = (...names) => names.some((n) => changed.has(n));
    if (has('seed', 'length', 'dx', 'lengthScale', 'noise', 'eta', 'learnEta')) {
      this.#restart();
      return;
    }
    if (has('evalSteps')) this.#evaluate();
    if (has('sequence')) this.#newSequence();
    if (has('trainSteps', 'paused')) this.#train();
    this.requestDraw();
  }

  suspend() {
    this.#suspended = true;
  }

  resume({ released }) {
    this.#suspended = false;
    if (released || !this.#run) this.#restart();
    else this.#train();
  }

  /** Frees the models in the worker; resume() trains them again from the start. */
  release() {
    this.#stop();
  }

  #options() {
    const { seed, length, dx, lengthScale, noise, eta, learnEta } = this.state;
    return { family: 'cem', diagonal: 'shared', dx, length, lengthScale, noiseStd: noise, d: 16, layers: 2, heads: 2,
      hidden: 32, eta, learnEta, batch: 8, lr: 0.003, warmup: 20, seed };
  }

  /** True when every model has its trainSteps (or diverged). */
  #finished() {
    const models = this.#run?.models;
    return !!models && models.every((m) => m.stepsDone >= this.state.trainSteps || m.diverged);
  }

  #stop() {
    const run = this.#run;
    if (!run) return;
    run.abort.abort();
    sharedRunner().run('gpStop', { id: run.id }).catch(() => {});
    this.#run = null;
  }

  #restart() {
    this.#stop();
    const data = { options: this.#options(), sequenceSeed: this.state.sequence,
      evalSeed: (this.state.seed + 7919) >>> 0, evalCount: EVAL_COUNT };
    // The sequence, its posterior and the baselines are exact GP algebra: drawn now, on the page.
    const { display, baselines } = gpPreview(this.lab.gp, data);
    const run = { id: `gp-${nextId++}`, abort: new AbortController(), display, baselines };
    this.#run = run;
    this.syncControls();
    this.requestDraw();
    return runTracked(this, async () => {
      const creating = (f) => this.announce(
        `Creating the models (T = ${GP_DEPTHS.join(', ')})… ${Math.round(100 * f)} %`, { busy: true });
      creating(0);
      const r = await sharedRunner().run('gpStart',
        { id: run.id, ...data, depths: GP_DEPTHS, evalSteps: this.state.evalSteps },
        { signal: run.abort.signal, onProgress: creating });
      if (this.#run !== run) return;
      Object.assign(run, r, { models: r.models.map((m) => ({ ...m, losses: Array.from(m.losses) })) });
      this.syncControls();
      // Changed while starting:
      if (run.models[0].evalSteps !== this.state.evalSteps) this.#evaluate();
      if (run.display.seed !== this.state.sequence) this.#newSequence();
      this.requestDraw();
      await this.#train();
    });
  }

  /** Trains in chunks until trainSteps, unless paused; one loop at a time. */
  async #train() {
    const run = this.#run;
    if (!run?.models || this.#training) {
      if (run?.models) this.announce(this.#summary());
      return;
    }
    this.#training = true;
    this.syncControls();
    await runTracked(this, async () => {
      const training = () => run.models.some((m) => m.stepsDone < this.state.trainSteps && !m.diverged);
      while (this.#run === run && !this.state.paused && !this.#suspended && training()) {
        const until = this.state.trainSteps;
        const r = await sharedRunner().run('gpStep', { id: run.id, steps: CHUNK, until,
          from: run.models.map((m) => m.losses.length) }, { signal: run.abort.signal });
        if (this.#run !== run) return;
        r.models.forEach((m, i) => {
          const { losses, evalSteps: _evalSteps, stamp: _stamp, prediction: _prediction,
            rmseByPosition: _rmseByPosition, rmse: _rmse, stepSizes: _stepSizes, ...rest } = m;
          run.models[i].losses.push(...losses);
          Object.assign(run.models[i], rest);
          this.#takeEvaluation(run.models[i], m);
        });
        this.announce(this.#summary(), { busy: true });
        this.requestDraw();
        this.#step(run);
      }
      if (this.#run === run && !this.#suspended) {
        this.announce(this.#summary());
        this.dispatchEvent(new CustomEvent('trained',
          { bubbles: true, detail: { results: this.results, state: { ...this.state } } }));
      }
    }, { onEnd: () => {
      this.#training = false;
      this.syncControls();
    } });
  }

  #step(run) {
    const stepsDone = Math.min(...run.models.map((m) => m.stepsDone));
    this.dispatchEvent(new CustomEvent('step', { bubbles: true,
      detail: { stepsDone, steps: this.state.trainSteps, finished: this.#finished() } }));
  }

  /** Re-evaluates the trained models at evalSteps (test-time recursion); training goes on as it was. */
  async #evaluate() {
    const run = this.#run;
    if (!run?.models) return;  // still starting: #restart evaluates once the models exist
    await runTracked(this, async () => {
      const r = await sharedRunner().run('gpEvaluate', { id: run.id, evalSteps: this.state.evalSteps },
        { signal: run.abort.signal });
      if (this.#run !== run) return;
      r.models.forEach((e, i) => this.#takeEvaluation(run.models[i], e));
      this.announce(this.#summary(), { busy: this.#training });
      this.requestDraw();
    });
  }

  /**
   * Takes a worker evaluation into model m unless it is stale: at a T′ no longer asked for, or
   * older (by stamp) than the one shown, as when a training chunk and a re-evaluation cross.
   */
  #takeEvaluation(m, e) {
    if (e.evalSteps !== this.state.evalSteps || e.stamp < m.stamp) return;
    const { evalSteps, stamp, prediction, rmseByPosition, rmse, stepSizes } = e;
    Object.assign(m, { evalSteps, stamp, prediction, rmseByPosition, rmse, stepSizes });
  }

  async #newSequence() {
    const run = this.#run;
    if (!run?.models) return;
    await runTracked(this, async () => {
      const r = await sharedRunner().run('gpSequence', { id: run.id, sequenceSeed: this.state.sequence },
        { signal: run.abort.signal });
      if (this.#run !== run) return;
      run.display = r.display;
      r.predictions.forEach((p, i) => (run.models[i].prediction = p));
      this.requestDraw();
    });
  }

  #summary() {
    const run = this.#run;
    const step = Math.min(...run.models.map((m) => m.stepsDone));
    const models = run.models
      .map((m) => `T = ${m.steps} ${formatNumber(m.rmse)}${m.diverged ? ' (diverged)' : ''}`).join(', ');
    const at = run.models[0].evalSteps;
    return `Step ${step} of ${this.state.trainSteps}${this.state.paused ? ' (paused)' : ''}. `
      + `Held-out RMSE on ${EVAL_COUNT} `
      + `sequences${at ? `, every model evaluated at T′ = ${at}` : ''}: ${models}; exact GP posterior `
      + `${formatNumber(run.baselines.posterior.rmse)} (the best possible), `
      + `context mean ${formatNumber(run.baselines.contextMean.rmse)}. `
      + `${run.models[0].parameters} parameters per model; ${etaReadout(this.state, run.models)}.`;
  }

  draw() {
    const run = this.#run;
    if (!run) return;
    const models = run.models ?? [];  // none yet: the data, the posterior and the baselines alone
    const [predCanvas, rmseCanvas, lossCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const theme = this.theme;
    const n = this.state.length;
    const positions = Float32Array.from({ length: n }, (_, t) => t);
    const hi = GP_DEPTHS.indexOf(Number(this.state.highlight));
    const styled = (i, extra) => ({ color: depthColor(theme, i), width: i === hi ? 3 : 1.5, alpha: i === hi ? 1 : 0.8,
      ...extra });
    const at = models[0]?.evalSteps ?? 0;
    const legend = models.map((m, i) => ({ label: at ? `T = ${m.steps} → ${at}` : `T = ${m.steps}`,
      color: depthColor(theme, i), width: i === hi ? 3 : 1.5 }));
    const atTitle = at ? `, evaluated at T′ = ${at}` : '';
    {
      const { ctx, width, height } = this.beginCanvas(predCanvas);
      const d = run.display;
      const sd = Array.from(d.variance, Math.sqrt);
      const lo = Float32Array.from(d.mean, (m, t) => m - 2 * sd[t]);
      const up = Float32Array.from(d.mean, (m, t) => m + 2 * sd[t]);
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [-0.5, n - 0.5], yDomain: extent([lo, up, d.y, ...models.map((m) => m.prediction)]), theme,
        fontSize: this.fontSizeFor(width), xLabel: 'position t (the model has seen the pairs before t)', yLabel: 'y',
        title: `Held-out sequence ${d.seed}: predictions of y_t${atTitle}`,
        bands: [{ x: positions, lo, hi: up, color: theme.muted, alpha: 0.2 }],
        series: [{ x: positions, y: d.mean, color: theme.fg, width: 1.5, dash: [5, 4] },
          { x: positions, y: d.contextMean, color: theme.muted, width: 1.2, dash: [2, 3] },
          ...models.map((m, i) => ({ x: positions, y: m.prediction, ...styled(i) }))],
        dots: Array.from(d.y, (y, t) => ({ x: t, y, color: theme.fg, r: 3.5 })),
        legend: [{ label: 'true y_t', color: theme.fg, fill: true },
          { label: 'GP posterior ± 2 sd', color: theme.fg, dash: [5, 4] },
          { label: 'context mean', color: theme.muted, dash: [2, 3] }, ...legend],
      });
    }
    {
      const { ctx, width, height } = this.beginCanvas(rmseCanvas);
      const b = run.baselines;
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [-0.5, n - 0.5], yDomain: extent([b.posterior.byPosition, b.contextMean.byPosition,
          ...models.map((m) => m.rmseByPosition)], { include: [0] }),
        theme, fontSize: this.fontSizeFor(width), xLabel: 'context length t',
        title: `Held-out RMSE (${EVAL_COUNT} sequences)${atTitle}`,
        series: [{ x: positions, y: b.posterior.byPosition, color: theme.fg, width: 1.5, dash: [5, 4] },
          { x: positions, y: b.contextMean.byPosition, color: theme.muted, width: 1.2, dash: [2, 3] },
          ...models.map((m, i) => ({ x: positions, y: m.rmseByPosition, ...styled(i) }))],
        legend: [{ label: 'GP posterior', color: theme.fg, dash: [5, 4] },
          { label: 'context mean', color: theme.muted, dash: [2, 3] }],
      });
    }
    {
      const { ctx, width, height } = this.beginCanvas(lossCanvas);
      // A running mean over 10 steps: single steps of 8 sequences are noisy.
      const smooth = (v) => Float32Array.from(v, (_, i) => {
        const from = Math.max(0, i - 9);
        let s = 0;
        for (let k = from; k <= i; k++) s += v[k];
        return s / (i - from + 1);
      });
      const curves = models.map((m) => smooth(m.losses));
      const steps = Math.max(1, ...curves.map((c) => c.length));
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [0, Math.max(steps, this.state.trainSteps)], yDomain: extent(curves, { include: [0] }), theme,
        fontSize: this.fontSizeFor(width), xLabel: 'step', title: 'Training MSE (10-step mean)',
        series: curves.map((c, i) => ({ x: Float32Array.from(c, (_, k) => k + 1), y: c, ...styled(i) })),
        legend: legend.map((l, i) => ({ ...l, label: `T = ${models[i].steps}` })),  // training runs at the trained T
      });
    }
  }

  csv() {
    const rows = [];
    const run = this.#run;
    if (!run?.models) return { columns: ['series', 'T', 'x', 'value'], rows };
    const d = run.display;
    d.y.forEach((v, t) => rows.push(['y', '', t, v]));
    d.mean.forEach((v, t) => rows.push(['posterior_mean', '', t, v]));
    d.variance.forEach((v, t) => rows.push(['posterior_variance', '', t, v]));
    d.contextMean.forEach((v, t) => rows.push(['context_mean', '', t, v]));
    run.baselines.posterior.byPosition.forEach((v, t) => rows.push(['rmse_posterior', '', t, v]));
    run.baselines.contextMean.byPosition.forEach((v, t) => rows.push(['rmse_context_mean', '', t, v]));
    for (const m of run.models) {
      m.prediction.forEach((v, t) => rows.push(['prediction', m.steps, t, v]));
      m.rmseByPosition.forEach((v, t) => rows.push(['rmse', m.steps, t, v]));
      m.losses.forEach((v, k) => rows.push(['train_mse', m.steps, k + 1, v]));
      m.stepSizes.forEach((v, k) => rows.push([k % 2 ? 'eta_mlp' : 'eta_attention', m.steps, k >> 1, v]));
    }
    return { columns: ['series', 'T', 'x', 'value'], rows };
  }
}
