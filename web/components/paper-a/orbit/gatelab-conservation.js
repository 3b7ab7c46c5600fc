// <gatelab-conservation optimizer="sgd" layer="reglu" rung="0" seed="1">
//
// The conserved quantity of the inverse-scaling symmetry (docs/MATH.md §A14): each unit's balance
// ‖q_j‖² − ‖k_j‖². Left: its drift (trainer.balanceDrift, the RMS over units of the change) after the
// same training time η·T at six step sizes η, on log–log axes, for ReGLU, Bilinear and symmetric
// (which have the symmetry: the drift falls with η, as gradient flow conserves it exactly) and SwiGLU
// (no symmetry, no law: it does not fall); for gradient descent, momentum or Adam. Right: the per-unit
// balance (trainer.balance) over one run. The law is named in plain words under the plots. Training
// runs in the worker (runner/symmetry-tasks.js, task 'conservation').
import { GateLabFigure } from '../../base/gatelab-figure.js';
import { createReseedButton, createSelect, setSelectOptions } from '../../base/controls.js';
import { formatNumber } from '../../base/format.js';
import { palette } from '../../base/figure-extras.js';
import { extent } from '../../plot/axes.js';
import { drawChart } from '../../plot/chart.js';
import { WorkerRun } from '../../runner/worker-run.js';
import { conservationLaw, LAYER_NAMES, layerOptions, logValueTicks, orbitLayerLabel } from './orbit-kit.js';

const STYLES = `
.plots canvas.drift, .plots canvas.balance { aspect-ratio: 1.3; }
.plots p.law { margin: 0; padding: 0.6em 0.8em; border-left: 3px solid var(--gl-accent); }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  .plots p.law { grid-column: 1 / -1; }
}
`;

/** Each optimizer's largest step; the ladder halves it RUNGS − 1 times while the steps double (η·T fixed). */
const LARGEST = { sgd: 0.4, momentum: 0.04, adam: 0.04 };
const OPTIMIZER_NAMES = { sgd: 'gradient descent', momentum: 'momentum (0.9)', adam: 'Adam' };
const RUNGS = 6;
const BASE_STEPS = 10;
const FLOOR = 1e-9;

export function ratesOf(optimizer) {
  return Array.from({ length: RUNGS }, (_, i) => LARGEST[optimizer] / 2 ** i);
}

export class GateLabConservation extends GateLabFigure {
  static description = 'The balance ‖q_j‖² − ‖k_j‖² under training: '
    + 'conserved as the step shrinks where a symmetry holds.';
  static events = { computed: 'detail: { result, state }' };
  static styles = STYLES;
  static schema = {
    optimizer: { type: 'enum', default: 'sgd', values: Object.keys(LARGEST) },
    layer: { type: 'enum', default: 'reglu', values: LAYER_NAMES },
    rung: { type: 'integer', default: 0, min: 0, max: RUNGS - 1 },
    task: { type: 'enum', default: 'circle',
      values: (el) => el.lab?.datasets.tasks.filter((t) => t !== 'user') ?? null },
    hidden: { type: 'integer', default: 6, min: 2, max: 12 },
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  };

  #controls = null;
  #result = null;
  #run = new WorkerRun(this);

  /** The worker's result: { rates, steps, drift: { layer: Float64Array }, diverged, trace: { step, balance } }. */
  get result() {
    return this.#result ? structuredClone(this.#result) : null;
  }

  build({ plots, controls }) {
    this.createCanvas({ name: 'drift', label: 'Balance drift against step size, log–log, for four layers' });
    this.createCanvas({ name: 'balance', label: 'Per-unit balance over one training run' });
    const law = document.createElement('p');
    law.className = 'law';
    law.setAttribute('part', 'law');
    law.textContent = conservationLaw(null);
    plots.append(law);
    const set = (patch) => this.setState(patch, 'user');
    const optimizer = createSelect({ label: 'Optimizer',
      options: Object.entries(OPTIMIZER_NAMES).map(([value, text]) => ({ value, text })),
      value: this.state.optimizer, onChange: (value) => set({ optimizer: value }) });
    const layer = createSelect({ label: 'Run shown', options: layerOptions(null), value: this.state.layer,
      onChange: (value) => set({ layer: value }) });
    const rung = createSelect({ label: 'at step η', options: [], value: String(this.state.rung),
      onChange: (value) => set({ rung: Number(value) }) });
    const reseed = createReseedButton(this, { text: 'New seed' });
    controls.append(optimizer.element, layer.element, rung.element, reseed);
    this.#controls = { optimizer, layer, rung, reseed, law };
  }

  syncControls() {
    const { optimizer, layer, rung, reseed, law } = this.#controls;
    const s = this.state;
    optimizer.select.value = s.optimizer;
    const names = layerOptions(this.lab);
    if (layer.select.options[0]?.textContent !== names[0].text) {
      setSelectOptions(layer.select, names, s.layer);
      law.textContent = conservationLaw(this.lab);
    }
    layer.select.value = s.layer;
    setSelectOptions(rung.select, ratesOf(s.optimizer).map((eta, i) => ({ value: String(i), text: formatNumber(eta) })),
      String(s.rung));
    reseed.title = `Seed ${s.seed}: new initial weights and data`;
  }

  async start() {
    this.#compute();
  }

  update() {
    this.#compute();
    this.requestDraw();
  }

  #compute() {
    const s = this.state;
    const args = { data: { task: s.task, count: 200, noise: 0.1, seed: s.seed }, hidden: s.hidden, seed: s.seed,
      optimizer: s.optimizer, rates: ratesOf(s.optimizer), baseSteps: BASE_STEPS, layer: s.layer, rung: s.rung };
    return this.#run.run('conservation', args, {
      progress: (f) => `Training ${LAYER_NAMES.length} layers at ${RUNGS} step sizes… ${Math.round(100 * f)} %`,
      onResult: (result) => {
        this.#result = result;
        this.announce(this.#summary());
        this.requestDraw();
        this.dispatchEvent(new CustomEvent('computed', { detail: { result: this.result, state: { ...this.state } } }));
      },
    });
  }

  #summary() {
    const r = this.#result;
    const n = formatNumber;
    const [big, small] = [0, RUNGS - 1];
    const line = (name) => `${orbitLayerLabel(name, this.lab)} ${n(r.drift[name][big])} → ${n(r.drift[name][small])}`
      + (r.diverged[name].some(Boolean) ? ' (some runs diverged)' : '');
    return `${OPTIMIZER_NAMES[this.state.optimizer]}: the balance drift after the same time η·T, from η = `
      + `${n(r.rates[big])} to η = ${n(r.rates[small])}: ${LAYER_NAMES.map(line).join('; ')}. `
      + 'Where the symmetry holds the drift falls with the step (gradient flow conserves the balance); '
      + 'SwiGLU has no such law.';
  }

  draw() {
    const [driftCanvas, balanceCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const theme = this.theme;
    const s = this.state;
    const r = this.#result;
    const colors = palette(theme, LAYER_NAMES.length);
    const rates = ratesOf(s.optimizer);
    {
      const { ctx, width, height } = this.beginCanvas(driftCanvas);
      const fontSize = this.fontSizeFor(width);
      const x = rates.map(Math.log10);
      const lines = r ? LAYER_NAMES.map((name) => Float64Array.from(r.drift[name], (v) => Math.max(v, FLOOR))) : [];
      const [lo, hi] = r ? extent(lines, { log: true, pad: 0.1 }) : [-4, 0];
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [x.at(-1) - 0.1, x[0] + 0.1], yDomain: [lo, hi], yLog: true,
        xTicks: logValueTicks([rates.at(-1), rates[2], rates[0]], formatNumber),
        theme, fontSize, xLabel: 'step size η (log)', yLabel: 'drift of ‖q‖² − ‖k‖² (log)',
        title: `Drift after the same time η·T: ${OPTIMIZER_NAMES[s.optimizer]}`,
        series: lines.map((y, i) => ({ x, y, color: colors[i], width: LAYER_NAMES[i] === s.layer ? 3 : 2,
          dash: LAYER_NAMES[i] === 'swiglu' ? [7, 4] : undefined, dots: true })),
        dots: r ? [{ x: x[s.rung], y: lines[LAYER_NAMES.indexOf(s.layer)][s.rung], color: theme.fg }] : [],
        legend: LAYER_NAMES.map((name, i) => ({
          label: orbitLayerLabel(name, this.lab) + (name === 'swiglu' ? ' (no law)' : ''),
          color: colors[i], dash: name === 'swiglu' ? [7, 4] : undefined })),
      });
    }
    {
      const { ctx, width, height } = this.beginCanvas(balanceCanvas);
      const fontSize = this.fontSizeFor(width);
      const t = r?.trace;
      const units = t?.balance.length ? t.balance[0].length : 0;
      const perUnit = Array.from({ length: units }, (_, j) => Float64Array.from(t.balance, (b) => b[j]));
      const unitColors = palette(theme, Math.max(units, 1));
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [0, t?.step.at(-1) || 1], yDomain: units ? extent(perUnit, { include: [0] }) : [-1, 1],
        theme, fontSize, xLabel: 'step', yLabel: '‖q_j‖² − ‖k_j‖²',
        title: `${orbitLayerLabel(s.layer, this.lab)}, η = ${formatNumber(rates[s.rung])}: each unit’s balance`,
        series: perUnit.map((y, j) => ({ x: t.step, y, color: unitColors[j], width: 2 })),
      });
    }
  }

  csv() {
    const r = this.#result;
    const rows = [];
    if (r) {
      for (const name of LAYER_NAMES) {
        r.rates.forEach((eta, i) => rows.push(['drift', name, eta, r.steps[i], r.drift[name][i], '']));
      }
      r.trace.step.forEach((step, k) => r.trace.balance[k].forEach((b, j) => rows.push(['balance', this.state.layer,
        r.rates[this.state.rung], step, b, j])));
    }
    return { columns: ['series', 'layer', 'eta', 'step', 'value', 'unit'], rows };
  }
}
