// <gatelab-conditioning task="xor" budget="168" steps="600" optimizer="sgd" learning-rate="0.5" seed="1">
//
// The 2026 explanation of why gating helps (GLU lowers the condition number of the NTK, so gradient
// descent trains faster; arXiv 2605.20749) put beside paper A's, on the same runs. Six layers with the
// same parameter count (the race's budget rule, docs/MATH.md §T6) learn one race task: the FFN (MLP,
// ReLU), Bilinear, ReGLU, SwiGLU, symgated SiLU (§A11) and the symmetric form σ(ab) with SiLU (§A4).
// Top: the condition number κ = λ_1 / λ_k of each layer's empirical NTK on its first training inputs
// (§A22), over training, on a log axis; on six inputs by default, because on (x, y, 1) Bilinear's kernel
// has rank at most 6 and more inputs would make its κ infinite. Below, on the same step axis: the train loss. Does the
// better-conditioned model pull ahead early, and do the loss curves cross? Every κ and loss is the
// library's (lab.symmetry.ntk on the trainer's current weights, lab.createTrainer's history), computed
// in the worker one model at a time (runner/conditioning-tasks.js), each drawn as it arrives.
import { GateLabFigure } from '../base/gatelab-figure.js';
import { createReseedButton, createSelect } from '../base/controls.js';
import { palette } from '../base/figure-extras.js';
import { formatNumber } from '../base/format.js';
import { extent, logTicks } from '../plot/axes.js';
import { drawChart } from '../plot/chart.js';
import { WorkerRun } from '../runner/worker-run.js';
import { sharedRunner } from '../runner/lab-runner.js';
import { CONDITIONING_MODELS } from '../runner/conditioning-tasks.js';

const TASKS = ['circle', 'xor', 'gaussians', 'spiral', 'checkerboard', 'teacher'];
const OPTIMIZERS = ['sgd', 'momentum', 'adam'];
const OPTIMIZER_TEXT = { sgd: 'gradient descent', momentum: 'momentum', adam: 'Adam' };
// Six lines: each model also has its own dash, so two that overlap still show through each other.
const DASHES = [[], [9, 4], [2, 3], [9, 3, 2, 3], [14, 4], [4, 4]];
// NTK checkpoints per run (step 0 and then every steps / CHECKPOINTS steps).
const CHECKPOINTS = 30;

const STYLES = `
.plots canvas.kappa, .plots canvas.loss { aspect-ratio: 1.25; }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  .plots canvas.kappa, .plots canvas.loss { aspect-ratio: 1.1; }
}
`;

export class GateLabConditioning extends GateLabFigure {
  static description = 'The condition number of the empirical NTK over training, with the train loss on the same '
    + 'steps, for an FFN, Bilinear, ReGLU, SwiGLU, symgated SiLU and σ(ab) at equal parameters on one race task.';
  static events = {
    computed: 'A model finished: detail { model, index, done, total }; the last one also fires with done = total.',
  };
  static styles = STYLES;
  static schema = {
    task: { type: 'enum', default: 'xor', values: TASKS },
    budget: { type: 'integer', default: 168, min: 28, max: 1024 },
    steps: { type: 'integer', default: 600, min: 30, max: 6000 },
    optimizer: { type: 'enum', default: 'sgd', values: OPTIMIZERS },
    learningRate: { type: 'number', default: 0.5, min: 0.0001, max: 10 },
    // Six: on inputs (x, y, 1) Bilinear's kernel has rank ≤ 6 however many points (docs/MATH.md §A22).
    rows: { type: 'integer', default: 6, min: 2, max: 256 },
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  };

  #controls = null;
  #results = [];     // one conditioningModel result per model that has finished, in CONDITIONING_MODELS order
  #progress = null;  // { index, fraction } while training, null when done
  #run = new WorkerRun(this);

  /** Everything computed so far (copies), or an empty list before the first model arrives. */
  get results() {
    return structuredClone(this.#results);
  }

  build({ controls }) {
    this.createCanvas({ name: 'kappa',
      label: 'NTK condition number of every model against training steps (log scale)' });
    this.createCanvas({ name: 'loss', label: 'Train loss of every model against training steps (log scale)' });
    const task = createSelect({
      label: 'Task', options: TASKS.map((t) => ({ value: t, text: t })), value: this.state.task,
      onChange: (value) => this.setState({ task: value }, 'user'),
    });
    const optimizer = createSelect({
      label: 'Optimizer', options: OPTIMIZERS.map((o) => ({ value: o, text: OPTIMIZER_TEXT[o] })),
      value: this.state.optimizer, onChange: (value) => this.setState({ optimizer: value }, 'user'),
    });
    const reseed = createReseedButton(this, { text: 'New seed' });
    controls.append(task.element, optimizer.element, reseed);
    this.#controls = { task, optimizer, reseed };
  }

  syncControls() {
    const { task, optimizer, reseed } = this.#controls;
    task.select.value = this.state.task;
    optimizer.select.value = this.state.optimizer;
    reseed.title = `Seed ${this.state.seed}: new data and initial weights`;
  }

  async start() {
    // Not awaited: the axes draw at once, and each model's curves as it arrives.
    this.#compute();
  }

  update() {
    this.#compute();
  }

  /** The models one after the other in the worker; a state change cancels the run and starts again. */
  #compute() {
    const { task, budget, steps, optimizer, learningRate, rows, seed } = this.state;
    const every = Math.max(1, Math.round(steps / CHECKPOINTS));
    const args = { budget, task, seed, steps, every, rows, optimizer, learningRate, batchSize: 0 };
    this.#results = [];
    this.#progress = { index: 0, fraction: 0 };
    this.requestDraw();
    return this.#run.start(async (signal) => {
      const total = CONDITIONING_MODELS.length;
      for (let index = 0; index < total; index++) {
        this.#progress = { index, fraction: 0 };
        this.#announceProgress();
        const result = await sharedRunner().run('conditioningModel', { ...args, model: CONDITIONING_MODELS[index] }, {
          signal,
          onProgress: (fraction) => {
            this.#progress = { index, fraction };
            this.#announceProgress();
          },
        });
        this.#results.push(result);
        this.requestDraw();
        this.dispatchEvent(new CustomEvent('computed', { bubbles: true,
          detail: { model: result.label, index, done: index + 1, total } }));
      }
      this.#progress = null;
      this.announce(this.#summary());
      this.requestDraw();
    });
  }

  #announceProgress() {
    const { index, fraction } = this.#progress;
    const total = CONDITIONING_MODELS.length;
    const name = this.lab.layerLabel(CONDITIONING_MODELS[index]);
    this.announce(`Training ${name} (model ${index + 1} of ${total}) and measuring its NTK… `
      + `${Math.round(100 * fraction)} %`, { busy: true });
  }

  /** The readout: κ at the start and the end, the loss, who leads early and at the end. */
  #summary() {
    const r = this.#results;
    const { task, optimizer, steps } = this.state;
    const first = (values) => values[0];
    const last = (values) => values[values.length - 1];
    const lines = r.map((m) => `${m.label} (${m.hidden} units, ${m.parameters} parameters): `
      + `κ ${formatNumber(first(m.kappa.value))} at step 0, ${formatNumber(last(m.kappa.value))} `
      + `at step ${last(m.kappa.step)}; train loss ${formatNumber(last(m.loss.trainLoss))}`
      + `${m.divergence ? ' (diverged)' : ''}`);
    const bestConditioned = [...r].sort((a, b) => first(a.kappa.value) - first(b.kappa.value))[0];
    const early = leaderAt(r, Math.round(steps / 10));
    const end = leaderAt(r, steps);
    const crossed = early && end && early.label !== end.label;
    return `Task ${task}, ${OPTIMIZER_TEXT[optimizer]}, ${steps} steps; NTK on ${r[0]?.ntkRows} training inputs. `
      + `${lines.join('. ')}. Best conditioned at step 0: ${bestConditioned?.label}. Lowest train loss at step `
      + `${early?.step}: ${early?.label}; at step ${end?.step}: ${end?.label}`
      + `${crossed ? ', so the loss curves cross.' : ', the same model: no crossing at the top.'}`;
  }

  draw() {
    const [kappaCanvas, lossCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const theme = this.theme;
    const colors = palette(theme, CONDITIONING_MODELS.length);
    const { steps } = this.state;
    const r = this.#results;
    const legend = r.map((m, i) => ({ label: m.label, color: colors[i], width: 3, dash: DASHES[i] }));
    const p = this.#progress;
    const total = CONDITIONING_MODELS.length;
    const waiting = p ? `Training model ${p.index + 1} of ${total}… ${Math.round(100 * p.fraction)} %` : '';
    {
      const { ctx, width, height } = this.beginCanvas(kappaCanvas);
      const fontSize = this.fontSizeFor(width);
      const [lo, hi] = extent(r.map((m) => m.kappa.value), { log: true, include: [1, 10] });
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [0, steps], yDomain: [lo, hi], yLog: true, yTicks: logTicks(lo, hi, 5), theme, fontSize,
        xLabel: 'step', yLabel: 'κ = λ₁ / λₖ (log)', title: 'Condition number of the NTK',
        series: r.map((m, i) => ({ x: m.kappa.step, y: m.kappa.value, color: colors[i], width: 2.2, dash: DASHES[i] })),
        legend,
      });
      if (waiting) drawNote(ctx, theme, waiting, width, height, fontSize);
    }
    {
      const { ctx, width, height } = this.beginCanvas(lossCanvas);
      const fontSize = this.fontSizeFor(width);
      const [lo, hi] = extent(r.map((m) => m.loss.trainLoss), { log: true, include: [0.1, 1] });
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [0, steps], yDomain: [lo, hi], yLog: true, yTicks: logTicks(lo, hi, 4), theme, fontSize,
        xLabel: 'step', yLabel: 'train loss (log)', title: 'Train loss, same steps',
        series: r.map((m, i) => ({ x: m.loss.step, y: m.loss.trainLoss, color: colors[i], width: 2.2,
          dash: DASHES[i] })),
        legend,
      });
      if (waiting) drawNote(ctx, theme, waiting, width, height, fontSize);
    }
  }

  csv() {
    const rows = [];
    for (const m of this.#results) {
      const add = (series, steps, values) => steps.forEach((step, i) =>
        rows.push([m.label, m.parameters, series, step, values[i]]));
      add('ntk_condition_number', m.kappa.step, m.kappa.value);
      add('ntk_largest_eigenvalue', m.kappa.step, m.kappa.largest);
      add('train_loss', m.loss.step, m.loss.trainLoss);
    }
    return { columns: ['model', 'parameters', 'series', 'step', 'value'], rows };
  }
}

/** The model with the lowest train loss at the last record at or before `step` (null before any). */
function leaderAt(results, step) {
  let best = null;
  for (const m of results) {
    let i = -1;
    for (let k = 0; k < m.loss.step.length && m.loss.step[k] <= step; k++) i = k;
    if (i < 0 || !Number.isFinite(m.loss.trainLoss[i])) continue;
    const loss = m.loss.trainLoss[i];
    if (!best || loss < best.loss) best = { label: m.label, loss, step: m.loss.step[i] };
  }
  return best;
}

/** A line of text in the middle of a chart: what is still being computed. */
function drawNote(ctx, theme, text, width, height, fontSize) {
  ctx.save();
  ctx.fillStyle = theme.muted;
  ctx.font = `${fontSize}px ${theme.font}`;
  ctx.textAlign = 'center';
  ctx.fillText(text, width / 2, height * 0.55);
  ctx.restore();
}
