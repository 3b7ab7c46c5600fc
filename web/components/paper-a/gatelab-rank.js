// <gatelab-rank activation="relu" d-in="8" units="4" d-out="2" rank="1" seed="1">
//
// docs/MATH.md §A3 → §A4: a random full bilinear attention MLP (every unit's score matrix
// A_j = Q_jᵀK_j of full rank d) and its best rank-r approximations (§A6, §A18): each unit keeps
// the r largest positive and the r most negative eigenvalues of its symmetrised A_j, since one
// (q, k) pair carries one of each. The rows run r = 1 … r*, the first rank at which that is exact
// (lab.rankApprox, in the worker). Left: the output error, the discarded share of the score
// matrices' energy, and the older one-eigenvalue-per-pair truncation as a labelled comparison.
// Right: parameters and FLOPs per token against r; r = 1 is a gated MLP's count.
import { GateLabFigure } from '../base/gatelab-figure.js';
import { createRange, createReseedButton, createSelect, syncActivationSelect } from '../base/controls.js';
import { WorkerRun } from '../runner/worker-run.js';
import { formatNumber } from '../base/format.js';
import { activationDisplayName } from '../base/labels.js';
import { linearTicks, logTicks } from '../plot/axes.js';
import { drawBars, drawChart } from '../plot/chart.js';
import { onlyChanged } from '../base/figure-extras.js';

const FLOOR = 1e-7;

const STYLES = `
.plots canvas.error, .plots canvas.cost { aspect-ratio: 1.35; }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
}
`;

export class GateLabRank extends GateLabFigure {
  static description = 'A full bilinear attention MLP and its best rank-r approximations.';
  static events = {};
  static styles = STYLES;
  static schema = {
    activation: { type: 'enum', default: 'relu', values: (el) => el.lab?.activations ?? null },
    dIn: { type: 'integer', default: 8, min: 2, max: 16 },
    units: { type: 'integer', default: 4, min: 1, max: 32 },
    dOut: { type: 'integer', default: 2, min: 1, max: 8 },
    rank: { type: 'integer', default: 1, min: 1, max: 16 },
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  };

  static normalize(state) {
    return state.rank > state.dIn ? { ...state, rank: state.dIn } : state;
  }

  #controls = null;
  #rows = null;
  #run = new WorkerRun(this);

  /**
   * The library's rows { rank, error, parameters, flops, energy, onePerPairError,
   * onePerPairEnergy, exact } for r = 1 … r* (the first exact rank), or null.
   */
  get rows() {
    return this.#rows ? this.#rows.map((r) => ({ ...r })) : null;
  }

  build({ controls }) {
    this.createCanvas({ name: 'error', label: 'Approximation error against the rank r' });
    this.createCanvas({ name: 'cost', label: 'Parameters and FLOPs per token against the rank r' });
    const rank = createRange({
      label: 'Rank r', min: 1, max: this.state.dIn, step: 1, value: this.state.rank, format: (v) => String(v),
      onInput: (value) => this.setState({ rank: value }, 'user'),
    });
    const activation = createSelect({
      label: 'σ', options: [], value: this.state.activation,
      onChange: (value) => this.setState({ activation: value }, 'user'),
    });
    const dIn = createSelect({
      label: 'Width d', value: String(this.state.dIn),
      options: [2, 3, 4, 6, 8, 12, 16].map((d) => ({ value: String(d), text: String(d) })),
      onChange: (value) => this.setState({ dIn: Number(value) }, 'user'),
    });
    const reseed = createReseedButton(this, { text: 'New random layer' });
    controls.append(rank.element, activation.element, dIn.element, reseed);
    this.#controls = { rank, activation, dIn, reseed };
  }

  syncControls() {
    const { rank, activation, dIn, reseed } = this.#controls;
    // Past r* every rank is exact: the slider stops there once the rows are known.
    rank.input.max = String(this.#rows ? this.#rows.length : this.state.dIn);
    rank.set(Math.min(this.state.rank, Number(rank.input.max)));
    syncActivationSelect(activation.select, this.lab, this.state.activation);
    if (![...dIn.select.options].some((o) => o.value === String(this.state.dIn))) {
      dIn.select.append(new Option(String(this.state.dIn), String(this.state.dIn)));
    }
    dIn.select.value = String(this.state.dIn);
    reseed.title = `Seed ${this.state.seed}: draw a new random full layer`;
  }

  async start() {
    await this.#compute();
  }

  update(changed) {
    if (onlyChanged(changed, 'rank')) this.#show();
    else this.#compute();
  }

  #compute() {
    const { activation, dIn, units, dOut, seed } = this.state;
    this.announce('Approximating the full layer at every rank…', { busy: true });
    return this.#run.run('rankApprox', { activation, dIn, hidden: units, dOut, seed, inputs: 256 }, {
      onResult: (rows) => {
        this.#rows = rows;
        this.syncControls();
        this.#show();
      },
    });
  }

  /** The summary and the drawing of the rows already computed. */
  #show() {
    this.announce(this.#summary());
    this.requestDraw();
  }

  #summary() {
    const rows = this.#rows;
    if (!rows) return '';
    const { rank, dIn, units, activation } = this.state;
    const row = rows[Math.min(rank, rows.length) - 1];
    const exactAt = rows.at(-1).rank;
    const what = row.rank === 1 ? ' (the symmetric rank-1 form: a gated MLP’s parameter count)'
      : row.exact ? ' (exact: the full layer itself)' : '';
    const name = activationDisplayName(activation, this.lab);
    return `Rank r = ${row.rank} of d = ${dIn}${what}, ${units} units, σ = ${name}: `
      + `relative output error ${formatNumber(row.error)} `
      + `(one eigenvalue per pair: ${formatNumber(row.onePerPairError)}), `
      + `keeping ${formatNumber(100 * row.energy)} % of the score matrices’ energy; ${row.parameters} parameters and `
      + `${row.flops} FLOPs per token. The best rank-r layer is exact from r = ${exactAt} on.`;
  }

  draw() {
    const [errorCanvas, costCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const rows = this.#rows;
    if (!rows) return;
    const theme = this.theme;
    const ranks = rows.map((r) => r.rank);
    const selected = Math.min(this.state.rank, rows.length);
    {
      const { ctx, width, height } = this.beginCanvas(errorCanvas);
      const fontSize = this.fontSizeFor(width);
      const error = rows.map((r) => Math.max(FLOOR, r.error));
      const lost = rows.map((r) => Math.max(FLOOR, 1 - r.energy));
      const onePerPair = rows.map((r) => Math.max(FLOOR, r.onePerPairError));
      const top = Math.max(1, ...error, ...lost, ...onePerPair);
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [0.6, rows.length + 0.4], yDomain: [Math.log10(FLOOR) - 0.2, Math.log10(top) + 0.2], yLog: true,
        xTicks: linearTicks(1, rows.length, Math.min(rows.length, width < 360 ? 4 : 8))
          .filter((t) => Number.isInteger(t.value)),
        yTicks: [{ value: Math.log10(FLOOR), label: '0' },
          ...logTicks(-6, Math.log10(top), 4).filter((t) => t.value > -7)],
        theme, fontSize, xLabel: 'rank r', yLabel: 'relative (log)',
        title: `Error of the rank-r layer (exact at r = ${rows.at(-1).rank})`,
        series: [{ x: ranks, y: error, color: theme.accent, width: 2.5, dots: true },
          { x: ranks, y: lost, color: theme.accent2, width: 2, dash: [6, 4], dots: true },
          { x: ranks, y: onePerPair, color: theme.muted, width: 1.5, dash: [2, 3], dots: true }],
        vlines: [{ x: selected, color: theme.fg, dash: [3, 3], width: 1 }],
        dots: [{ x: selected, y: error[selected - 1], color: theme.accent }],
        legend: [{ label: 'output error', color: theme.accent, width: 2.5 },
          { label: 'score energy dropped', color: theme.accent2, dash: [6, 4] },
          { label: 'one eigenvalue per pair', color: theme.muted, dash: [2, 3] }],
      });
    }
    {
      const { ctx, width, height } = this.beginCanvas(costCanvas);
      const fontSize = this.fontSizeFor(width);
      const params = rows.map((r) => r.parameters);
      const flops = rows.map((r) => r.flops);
      const top = Math.max(...flops, ...params) * 1.08;
      drawBars(ctx, { x: 0, y: 0, w: width, h: height }, {
        categories: ranks.map(String), highlight: selected - 1, theme, fontSize, xLabel: 'rank r',
        groups: [{ label: 'parameters', color: theme.accent, values: params },
          { label: 'FLOPs / token', color: theme.accent2, values: flops }],
        yDomain: [0, top], title: 'Cost of the rank-r layer',
      });
    }
  }

  csv() {
    const rows = (this.#rows ?? []).map((r) => [r.rank, r.error, r.energy, r.onePerPairError, r.onePerPairEnergy,
      r.exact ? 1 : 0, r.parameters, r.flops]);
    return { columns: ['rank', 'relative_error', 'energy_kept', 'one_per_pair_error', 'one_per_pair_energy_kept',
      'exact', 'parameters', 'flops_per_token'], rows };
  }
}
