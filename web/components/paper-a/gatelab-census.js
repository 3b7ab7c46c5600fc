// <gatelab-census rank="1" d-in="4" units="3" d-out="3" seed="1" selected="gated:silu">
//
// The symmetry census of docs/MATH.md §A9. For each kind × activation the library counts the
// continuous symmetries of a random layer as the null-space dimension of the Jacobian of its
// outputs with respect to its parameters over random inputs, and beside it the count the
// algebra predicts, and checks the discrete exchange symmetry (lab.census, in the worker).
// Bars: measured (filled) and predicted (line) per activation and kind. Right: the selected
// row's Jacobian spectrum, where the gap between kept and null directions is plain to see.
// Below: the full table; its rows select the spectrum.
import { OPTIONS } from '../../lib/catalogue.js';
import { GateLabFigure } from '../base/gatelab-figure.js';
import { createButton, createReseedButton, createSelect } from '../base/controls.js';
import { WorkerRun } from '../runner/worker-run.js';
import { formatNumber } from '../base/format.js';
import { linearTicks, logTicks } from '../plot/axes.js';
import { drawBars, drawChart } from '../plot/chart.js';
import { onlyChanged, palette } from '../base/figure-extras.js';
import {
  activationLabel, activationShortLabel, kindActivationPattern, kindLabel, paperAKindNames, layerLabel,
} from '../base/labels.js';


const STYLES = `
.plots canvas.bars { aspect-ratio: 1.5; }
.plots canvas.spectrum { aspect-ratio: 1.5; }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 1.35fr) minmax(0, 1fr); }
  .plots canvas.bars, .plots canvas.spectrum { aspect-ratio: 1.25; }
}
.table-wrap {
  max-height: 22em; overflow: auto; margin-top: 10px; border: 1px solid var(--gl-grid); border-radius: 6px;
}
table { border-collapse: collapse; width: 100%; font-size: 0.9em; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--gl-grid); white-space: nowrap; }
thead th { position: sticky; top: 0; background: var(--gl-bg); z-index: 1; }
tr[aria-selected="true"] td { background: color-mix(in srgb, var(--gl-accent) 16%, transparent); }
td button { min-height: 26px; padding: 1px 8px; }
.bad { color: var(--gl-accent); font-weight: 600; }
`;

export class GateLabCensus extends GateLabFigure {
  static description = 'Measured against predicted continuous symmetries, for every layer kind and activation.';
  static events = {};
  static styles = STYLES;
  static schema = {
    rank: { type: 'integer', default: 1, min: 1, max: 2 },
    // The layer's defaults are lab.census's, the core's (web/lib/catalogue.js); the limits keep it drawable.
    dIn: { type: 'integer', default: OPTIONS.census.dIn.default, min: 2, max: 6 },
    units: { type: 'integer', default: OPTIONS.census.hidden.default, min: 1, max: 6 },
    dOut: { type: 'integer', default: OPTIONS.census.dOut.default, min: 1, max: 4 },
    seed: { type: 'integer', default: OPTIONS.census.seed.default, min: 0, max: 4294967295 },
    selected: { type: 'string', default: 'gated:silu', pattern: new RegExp(`^${kindActivationPattern()}$`) },
  };

  #controls = null;
  #rows = null;
  #table = null;
  #run = new WorkerRun(this);

  /** The census rows (lab.census) last computed, or null. */
  get rows() {
    return this.#rows ? this.#rows.map((r) => ({ ...r, spectrum: r.spectrum.slice() })) : null;
  }

  build({ plots, controls }) {
    this.createCanvas({ name: 'bars',
      label: 'Bar chart: measured and predicted number of continuous symmetries per layer' });
    this.createCanvas({ name: 'spectrum', label: 'Singular values of the Jacobian of the selected layer' });
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap';
    wrap.setAttribute('part', 'table');
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', 'Census table');
    this.#table = document.createElement('table');
    wrap.append(this.#table);
    plots.after(wrap);
    const rank = createSelect({
      label: 'Rank r', value: String(this.state.rank),
      options: [{ value: '1', text: '1' }, { value: '2', text: '2' }],
      onChange: (value) => this.setState({ rank: Number(value) }, 'user'),
    });
    const selected = createSelect({
      label: 'Spectrum of', options: [], value: this.state.selected,
      onChange: (value) => this.setState({ selected: value }, 'user'),
    });
    const reseed = createReseedButton(this, { text: 'New random layers' });
    controls.append(rank.element, selected.element, reseed);
    this.#controls = { rank, selected, reseed };
  }

  syncControls() {
    const { rank, selected, reseed } = this.#controls;
    rank.select.value = String(this.state.rank);
    const keys = this.#rows?.map((r) => `${r.kind}:${r.activation}`) ?? [];
    if (selected.select.options.length !== keys.length) {
      selected.select.replaceChildren(...keys.map((k) => new Option(this.#label(k), k)));
    }
    selected.select.value = this.state.selected;
    reseed.title = `Seed ${this.state.seed}: new random layers and inputs`;
    for (const tr of this.#table.querySelectorAll('tbody tr')) {
      tr.setAttribute('aria-selected', String(tr.dataset.key === this.state.selected));
    }
  }

  #label(key) {
    const [kind, activation] = key.split(':');
    return layerLabel({ kind, activation }, this.lab);
  }

  async start() {
    await this.#compute();
  }

  update(changed) {
    if (onlyChanged(changed, 'selected')) this.#show();
    else this.#compute();
  }

  #compute() {
    const { rank, dIn, units, dOut, seed } = this.state;
    return this.#run.run('census', { kinds: paperAKindNames(), ranks: [rank], dIn, hidden: units, dOut, seed }, {
      progress: (f) => `Measuring the Jacobians… ${Math.round(100 * f)} %`,
      onResult: (rows) => {
        this.#rows = rows;
        this.#fillTable();
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

  #selectedRow() {
    return this.#rows?.find((r) => `${r.kind}:${r.activation}` === this.state.selected) ?? null;
  }

  #summary() {
    const rows = this.#rows;
    if (!rows) return '';
    const agree = rows.filter((r) => r.measured === r.predicted).length;
    const row = this.#selectedRow();
    const head = `${agree} of ${rows.length} layers (d = ${this.state.dIn}, ${this.state.units} units, `
      + `rank ${this.state.rank}): measured null-space dimension = predicted count.`;
    if (!row) return head;
    const exchange = !row.exchangeApplicable ? 'no Q ↔ K exchange (an MLP has no query)'
      : `exchange Q ↔ K ${row.exchangeMeasured ? 'holds' : 'broken'} (gap ${formatNumber(row.exchangeGap)}; predicted `
        + `${row.exchangePredicted ? 'to hold' : 'broken'})`;
    return `${head} ${this.#label(this.state.selected)}: ${row.measured} continuous symmetries measured, `
      + `${row.predicted} predicted (${row.explanation}); ${exchange}.`;
  }

  #fillTable() {
    const head = ['', 'layer', 'σ', 'params', 'measured', 'predicted', 'exchange Q ↔ K', 'gap (decades)'];
    const thead = document.createElement('thead');
    const hr = thead.insertRow();
    for (const h of head) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      hr.append(th);
    }
    const tbody = document.createElement('tbody');
    for (const r of this.#rows) {
      const key = `${r.kind}:${r.activation}`;
      const tr = tbody.insertRow();
      tr.dataset.key = key;
      const show = createButton({ text: 'show', title: `Show the Jacobian spectrum of ${this.#label(key)}`,
        onClick: () => this.setState({ selected: key }, 'user') });
      const cells = [kindLabel(r.kind, this.lab), activationLabel(r.activation, this.lab), r.parameters, r.measured,
        r.predicted, r.exchangeApplicable ? (r.exchangeMeasured ? 'holds' : 'broken') : 'n/a',
        formatNumber(r.gapDecades)];
      tr.insertCell().append(show);
      cells.forEach((text, i) => {
        const td = tr.insertCell();
        td.textContent = String(text);
        if (i === 3 && r.measured !== r.predicted) td.className = 'bad';
      });
      tr.cells[1].title = r.explanation;
    }
    this.#table.replaceChildren(thead, tbody);
  }

  draw() {
    const [barsCanvas, spectrumCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const rows = this.#rows;
    if (!rows) return;
    const theme = this.theme;
    const activations = [...new Set(rows.map((r) => r.activation))];
    const kinds = paperAKindNames();
    const colors = palette(theme, 3);
    const kindColors = { mlp: colors[2], symmetric: colors[1], gated: colors[0] };
    const value = (kind, field) => activations.map(
      (a) => rows.find((r) => r.kind === kind && r.activation === a)?.[field] ?? NaN);
    const selected = this.#selectedRow();
    {
      const { ctx, width, height } = this.beginCanvas(barsCanvas);
      const fontSize = this.fontSizeFor(width);
      const top = Math.max(...rows.map((r) => Math.max(r.measured, r.predicted))) + 1;
      drawBars(ctx, { x: 0, y: 0, w: width, h: height }, {
        categories: activations.map((a) => activationShortLabel(a, this.lab)), theme, fontSize, yDomain: [0, top],
        yTicks: linearTicks(0, top, 4).filter((t) => Number.isInteger(t.value)),
        highlight: selected ? activations.indexOf(selected.activation) : -1,
        groups: kinds.map((k) => ({ label: kindLabel(k, this.lab), color: kindColors[k],
          values: value(k, 'measured') })),
        marks: kinds.map((k, i) => ({ label: i === 0 ? 'predicted' : '', color: theme.fg,
          values: value(k, 'predicted'), group: i })),
        title: 'Continuous symmetries',
      });
    }
    if (selected) {
      const { ctx, width, height } = this.beginCanvas(spectrumCanvas);
      const fontSize = this.fontSizeFor(width);
      const s = selected.spectrum;
      const floor = 1e-17;
      const x = Array.from(s, (_, i) => i + 1);
      const y = Array.from(s, (v) => Math.max(floor, v));
      const kept = Array.from(s, (v, i) => (i < selected.jacobianRank ? y[i] : NaN));
      const dropped = Array.from(s, (v, i) => (i >= selected.jacobianRank - 1 ? y[i] : NaN));
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [0.5, s.length + 0.5], yDomain: [-17.3, 0.4], yLog: true, theme, fontSize,
        yTicks: [{ value: -17, label: '≤10⁻¹⁷' }, ...logTicks(-15, 0, 4)],
        xTicks: linearTicks(1, s.length, width < 360 ? 4 : 6).filter((t) => Number.isInteger(t.value)),
        xLabel: 'singular value index', yLabel: 'σᵢ / σ₁ (log)',
        title: `${this.#label(this.state.selected)}: ${selected.measured} null directions`,
        series: [{ x, y: kept, color: kindColors[selected.kind], width: 2, dots: true },
          { x, y: dropped, color: theme.muted, width: 1.5, dash: [4, 3], dots: true }],
        vlines: [{ x: selected.jacobianRank + 0.5, color: theme.fg, dash: [3, 3], width: 1 }],
        legend: [{ label: `rank ${selected.jacobianRank}`, color: kindColors[selected.kind] },
          { label: `null space: ${selected.measured}`, color: theme.muted, dash: [4, 3] }],
      });
    }
  }

  csv() {
    const columns = ['kind', 'activation', 'rank', 'parameters', 'jacobian_rank', 'measured', 'predicted',
      'exchange_applicable', 'exchange_predicted', 'exchange_measured', 'exchange_gap', 'gap_decades', 'explanation'];
    const rows = (this.#rows ?? []).map((r) => [r.kind, r.activation, r.rank, r.parameters, r.jacobianRank,
      r.measured, r.predicted, r.exchangeApplicable, r.exchangePredicted, r.exchangeMeasured, r.exchangeGap,
      r.gapDecades, r.explanation]);
    return { columns, rows };
  }
}
