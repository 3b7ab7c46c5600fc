// <gatelab-exchange kind="gated" activation="silu" rank="1" seed="1">
//
// The exchange symmetry of docs/MATH.md §A7 on a real layer. Left: one output of a random layer
// over a plane of inputs x = (a, b, 1) (the constant third feature plays the bias), computed
// by one forward call over the whole n × n grid. The toggle swaps Q and K (layer.exchanged())
// and the picture changes (a gated layer with a nonlinear σ) or does not (the symmetric form,
// or σ = identity). Right: f_{K,Q} − f_{Q,K} on the same colour scale: what the swap changes.
// The readout gives the exchange gap of the library (lab.symmetry.exchangeGap) over the plane.
// The λ dial (symmetrize, gated only, docs/MATH.md §A11) moves the gated layer towards the
// exchange-symmetric symgated form: the swap changes (1 − λ) of what it changed at λ = 0.
import { GateLabFigure } from '../base/gatelab-figure.js';
import { createButton, createRange, createReseedButton, createSelect, syncActivationSelect } from '../base/controls.js';
import { maxAbs } from '../plot/axes.js';
import { drawHeatmap } from '../plot/heatmap.js';
import { drawRing } from '../plot/marks.js';
import { formatNumber } from '../base/format.js';
import { activationDisplayName, kindLabel, paperAKindNames, layerLabel } from '../base/labels.js';
import { attachGridProbe, createProbeLine } from '../base/grid-probe.js';
import { addJsonExport, linspace } from '../base/figure-extras.js';
import { createLambdaRange, lambdaWhy, syncLambdaRange } from './lambda-dial.js';

const D_IN = 3;
const D_OUT = 3;
const SUBSCRIPT = ['₁', '₂', '₃'];

const STYLES = `
.plots canvas.plane, .plots canvas.diff { aspect-ratio: 1.12; }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
}
button[aria-pressed="true"] { background: var(--gl-accent); border-color: var(--gl-accent); color: var(--gl-bg); }
`;

export class GateLabExchange extends GateLabFigure {
  static description = 'One output of a random layer over an input plane, and what swapping Q ↔ K changes.';
  static events = {};
  static styles = STYLES;
  static schema = {
    kind: { type: 'enum', default: 'gated', values: paperAKindNames() },
    activation: { type: 'enum', default: 'silu', values: (el) => el.lab?.activations ?? null },
    beta: { type: 'number', default: 1, min: 0.05, max: 10 },
    rank: { type: 'integer', default: 1, min: 1, max: D_IN },
    units: { type: 'integer', default: 6, min: 1, max: 64 },
    output: { type: 'integer', default: 0, min: 0, max: D_OUT - 1 },
    exchanged: { type: 'boolean', default: false },
    symmetrize: { type: 'number', default: 0, min: 0, max: 1 },
    extent: { type: 'number', default: 2.5, min: 0.5, max: 10 },
    n: { type: 'integer', default: 72, min: 16, max: 160 },
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  };

  #controls = null;
  #result = null;   // { n, axis, original, swapped, diff, scale, gap, params, options } from the library
  #shown = null;    // the grid drawn on the left: the target, or a frame of the transition
  #probe = null;
  #probeText = null;
  #planeArea = null;

  /** The last computation: { gap, scale, n, parameterCount } (gap null for an MLP). */
  get result() {
    const r = this.#result;
    return r ? { gap: r.gap, scale: r.scale, n: r.n, parameterCount: r.parameterCount } : null;
  }

  build({ plots, controls, exportGroup }) {
    const plane = this.createCanvas({ name: 'plane',
      label: 'Heatmap of one output of the layer over the input plane. Arrow keys read its values.' });
    this.createCanvas({ name: 'diff', label: 'Heatmap of what swapping Q and K changes in that output' });
    this.#probeText = createProbeLine(plots);
    this.#probe = attachGridProbe(plane, {
      size: () => this.#result?.n ?? this.state.n,
      plot: () => this.#planeArea,
      onChange: () => {
        this.#showProbe();
        this.requestDraw();
      },
    });
    const swap = createButton({
      text: 'Swap Q ↔ K', part: 'button swap',
      onClick: () => this.setState({ exchanged: !this.state.exchanged }, 'user'),
    });
    const kind = createSelect({
      label: 'Layer', value: this.state.kind,
      options: paperAKindNames().map((value) => ({ value,
        text: value === 'mlp' ? `${kindLabel(value)} (no query)` : kindLabel(value) })),
      onChange: (value) => this.setState({ kind: value }, 'user'),
    });
    const activation = createSelect({
      label: 'σ', options: [], value: this.state.activation,
      onChange: (value) => this.setState({ activation: value }, 'user'),
    });
    const rank = createSelect({
      label: 'Rank r', value: String(this.state.rank),
      options: [1, 2, 3].map((r) => ({ value: String(r), text: r === 3 ? '3 (full)' : String(r) })),
      onChange: (value) => this.setState({ rank: Number(value) }, 'user'),
    });
    const output = createSelect({
      label: 'Output', value: String(this.state.output),
      options: [0, 1, 2].map((o) => ({ value: String(o), text: `f${o + 1}` })),
      onChange: (value) => this.setState({ output: Number(value) }, 'user'),
    });
    const beta = createRange({
      label: 'β', min: 0.1, max: 5, step: 0.1, value: 1, format: (v) => v.toFixed(1),
      onInput: (value) => this.setState({ beta: value }, 'user'),
    });
    const lambda = createLambdaRange((value) => this.setState({ symmetrize: value }, 'user'));
    const reseed = createReseedButton(this, { text: 'New random layer' });
    controls.append(swap, kind.element, activation.element, beta.element, rank.element, output.element,
      lambda.element, reseed);
    this.#controls = { swap, kind, activation, beta, rank, output, lambda, reseed };
    addJsonExport(this, exportGroup, () => this.weights());
  }

  syncControls() {
    const { swap, kind, activation, beta, rank, output, lambda, reseed } = this.#controls;
    syncActivationSelect(activation.select, this.lab, this.state.activation);
    kind.select.value = this.state.kind;
    rank.select.value = String(this.state.rank);
    rank.element.hidden = this.state.kind === 'mlp';
    output.select.value = String(this.state.output);
    beta.set(this.state.beta);
    beta.element.hidden = this.state.activation !== 'swish';
    const mlp = this.state.kind === 'mlp';
    swap.disabled = mlp;
    swap.setAttribute('aria-pressed', String(this.state.exchanged && !mlp));
    swap.title = mlp ? 'An MLP has no query: there is nothing to swap' : 'Swap the query and key factors of every unit';
    reseed.title = `Seed ${this.state.seed}: draw a new random layer`;
    syncLambdaRange(lambda, this.state.symmetrize, this.state.kind === 'gated');
  }

  async start() {
    this.#compute();
  }

  update(changed) {
    if (changed.size === 1 && changed.has('exchanged')) {
      this.#showSwap();
      return;
    }
    this.#compute();
  }

  /** The layer's parameters and options as JSON-able data, or null before the first drawing. */
  weights() {
    const r = this.#result;
    if (!r) return null;
    return { options: r.options, exchanged: this.state.exchanged, input: '(a, b, 1)', ...r.params };
  }

  #layerOptions() {
    const { kind, activation, beta, rank, units, seed } = this.state;
    return { kind, activation, ...(activation === 'swish' ? { beta } : {}), dIn: D_IN, hidden: units, dOut: D_OUT,
      rank: kind === 'mlp' ? 1 : rank, seed, ...(kind === 'gated' ? { symmetrize: this.state.symmetrize } : {}) };
  }

  /** One forward call over the n² plane for the layer and, unless an MLP, for its exchanged twin. */
  #compute() {
    const { n, extent, output } = this.state;
    const axis = linspace(-extent, extent, n);
    const x = new Float32Array(n * n * D_IN);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const o = (i * n + j) * D_IN;
        x[o] = axis[i];
        x[o + 1] = axis[j];
        x[o + 2] = 1;
      }
    }
    const options = this.#layerOptions();
    let layer = null;
    let twin = null;
    try {
      layer = this.lab.createLayer(options);
      const pick = (y) => Float32Array.from({ length: n * n }, (_, k) => y[k * D_OUT + output]);
      const original = pick(layer.forward(x, n * n));
      let swapped = original;
      let gap = null;
      if (options.kind !== 'mlp') {
        twin = layer.exchanged();
        swapped = pick(twin.forward(x, n * n));
        gap = this.lab.symmetry.exchangeGap(layer, x, n * n);
      }
      const diff = Float32Array.from(original, (v, k) => swapped[k] - v);
      const params = layer.getParams();
      this.#result = { n, axis, original, swapped, diff, gap, scale: Math.max(maxAbs(original), maxAbs(swapped)),
        params, options: layer.options, parameterCount: layer.parameterCount, extent, output };
    } catch (error) {
      this.showError(error);
      return;
    } finally {
      layer?.dispose();
      twin?.dispose();
    }
    this.finishAnimation();
    this.#shown = this.#target();
    this.#showProbe();
    this.announce(this.#summary());
    this.requestDraw();
  }

  #target() {
    const r = this.#result;
    return this.state.exchanged && r.options.kind !== 'mlp' ? r.swapped : r.original;
  }

  /** The toggle: morph the left picture from what is shown to the other layer's output. */
  #showSwap() {
    const r = this.#result;
    if (!r) return;
    const target = this.#target();
    const from = this.#shown.slice();
    const frame = from.slice();
    this.#shown = frame;
    this.animate(360, (t) => {
      if (t >= 1) {
        this.#shown = target;
        return;
      }
      const e = t * t * (3 - 2 * t);
      for (let k = 0; k < frame.length; k++) frame[k] = from[k] + e * (target[k] - from[k]);
    });
    this.#showProbe();
    this.announce(this.#summary());
  }

  #summary() {
    const r = this.#result;
    const { activation, kind, exchanged, rank } = this.state;
    const name = activationDisplayName(activation, this.lab);
    if (kind === 'mlp') {
      return `MLP with σ = ${name}: f(x) = σ(x Kᵀ) V has keys but no query, so there is nothing to swap. `
        + `Largest |f${r.output + 1}| on the plane: ${formatNumber(r.scale)}.`;
    }
    const linear = this.lab.activationInfo(activation).linear;
    const why = kind === 'symmetric'
      ? `The symmetric form scores x Q_jᵀ K_j xᵀ = x K_jᵀ Q_j xᵀ, so the swap changes nothing, whatever σ.`
      : linear
        ? `σ is linear, so σ(a)·b = σ(b)·a and the gated layer keeps the symmetry.`
        : `${name} is not linear: σ(x·q)·(x·k) ≠ σ(x·k)·(x·q), so the swap changes the gated layer.`;
    const lambda = kind === 'gated' ? this.state.symmetrize : 0;
    const layer = layerLabel({ kind, activation, rank, symmetrize: lambda }, this.lab);
    return `${exchanged ? 'Showing the layer with Q and K swapped. ' : ''}Exchange gap ‖f(K,Q) − f(Q,K)‖ / ‖f(Q,K)‖ `
      + `over the ${r.n}² points of the plane (${layer}, seed ${this.state.seed}): `
      + `${formatNumber(r.gap)}. ${lambdaWhy(lambda, linear) ?? why}`;
  }

  #showProbe() {
    const cell = this.#probe?.cell;
    const r = this.#result;
    if (!cell || !r || cell.i >= r.n || cell.j >= r.n) {
      this.#probeText.textContent = 'Point at the left heatmap, or focus it and use the arrow keys, to read f.';
      return;
    }
    const k = cell.i * r.n + cell.j;
    const at = `a = ${formatNumber(r.axis[cell.i])}, b = ${formatNumber(r.axis[cell.j])}`;
    this.#probeText.textContent = r.options.kind === 'mlp'
      ? `f${r.output + 1}(${at}) = ${formatNumber(r.original[k])}`
      : `f${r.output + 1}(${at}): Q,K ${formatNumber(r.original[k])}; K,Q ${formatNumber(r.swapped[k])}; `
        + `difference ${formatNumber(r.diff[k])}`;
  }

  draw() {
    const [planeCanvas, diffCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const r = this.#result;
    if (!r) return;
    const theme = this.theme;
    const half = (2 * r.extent) / (2 * (r.n - 1));
    const range = [-r.extent - half, r.extent + half];
    const mlp = r.options.kind === 'mlp';
    const swapped = this.state.exchanged && !mlp;
    {
      const { ctx, width, height } = this.beginCanvas(planeCanvas);
      const fontSize = this.fontSizeFor(width);
      const { plot, xScale, yScale } = drawHeatmap(ctx, { x: 0, y: 0, w: width, h: height }, {
        grid: this.#shown, rows: r.n, cols: r.n, xRange: range, yRange: range, scale: r.scale, theme, fontSize,
        xLabel: 'a', yLabel: 'b', barLabel: `f${SUBSCRIPT[r.output]}`, xIsRow: true, yUp: true,
      });
      this.#planeArea = plot;
      this.#drawProbe(ctx, xScale, yScale, fontSize);
      ctx.font = `600 ${fontSize + 1}px ${theme.font}`;
      ctx.fillStyle = swapped ? theme.accent : theme.fg;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      const f = `f${SUBSCRIPT[r.output]}`;
      ctx.fillText(mlp ? `MLP ${f}(a, b, 1)` : swapped ? `${f} with Q ↔ K swapped` : `${f}(a, b, 1)`, plot.x, 2);
    }
    {
      const { ctx, width, height } = this.beginCanvas(diffCanvas);
      const fontSize = this.fontSizeFor(width);
      const { plot } = drawHeatmap(ctx, { x: 0, y: 0, w: width, h: height }, {
        grid: r.diff, rows: r.n, cols: r.n, xRange: range, yRange: range, scale: r.scale, theme, fontSize,
        xLabel: 'a', yLabel: 'b', barLabel: 'Δ', xIsRow: true, yUp: true,
      });
      ctx.font = `600 ${fontSize + 1}px ${theme.font}`;
      ctx.fillStyle = theme.fg;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(mlp ? 'nothing to swap' : 'swapped − original', plot.x, 2);
      if (!mlp && maxAbs(r.diff) <= 1e-6 * Math.max(1, r.scale)) {
        ctx.save();
        ctx.font = `${fontSize + 1}px ${theme.font}`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillStyle = theme.muted;
        ctx.fillText('zero everywhere', plot.x + plot.w / 2, plot.y + plot.h / 2);
        ctx.restore();
      }
    }
  }

  #drawProbe(ctx, xScale, yScale, fontSize) {
    const cell = this.#probe.cell;
    const r = this.#result;
    if (!cell || cell.i >= r.n || cell.j >= r.n) return;
    drawRing(ctx, xScale(r.axis[cell.i]), yScale(r.axis[cell.j]), Math.max(4, fontSize * 0.45), { theme: this.theme });
  }

  csv() {
    const r = this.#result;
    const columns = ['a', 'b', 'f_QK', 'f_KQ', 'difference'];
    if (!r) return { columns, rows: [] };
    const rows = [];
    for (let i = 0; i < r.n; i++) {
      for (let j = 0; j < r.n; j++) {
        const k = i * r.n + j;
        rows.push([r.axis[i], r.axis[j], r.original[k], r.options.kind === 'mlp' ? '' : r.swapped[k],
          r.options.kind === 'mlp' ? '' : r.diff[k]]);
      }
    }
    rows.push(['exchange_gap', '', '', '', r.gap ?? '']);
    return { columns, rows };
  }
}
