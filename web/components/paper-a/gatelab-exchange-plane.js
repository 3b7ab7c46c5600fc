// <gatelab-exchange-plane activation="silu" min="-3" max="3" n="64" seed="1">
//
// The proof of docs/MATH.md §A7 made visible. Left: g(a, b) = σ(a)·b − σ(b)·a over the (a, b) plane;
// exchanging Q and K in a gated unit swaps a = x·q and b = x·k, so g is exactly what the swap
// changes, and it vanishes everywhere only for a linear σ. Right: σ(z)/z, which is constant
// exactly when σ is linear. Below: the exchange gap of random layers of each kind (gated > 0
// for a nonlinear σ, symmetric ≈ 0, mlp has nothing to exchange). Every number comes from the
// library: lab.symmetry.exchangePlane, lab.activationCurve, lab.symmetry.exchangeGap.
// The λ dial (symmetrize, docs/MATH.md §A11) gives the gated layers c_λ(a, b) = (1 − λ/2)σ(a)b +
// (λ/2)σ(b)a; what the swap changes is then c_λ(a, b) − c_λ(b, a) = (1 − λ)·g(a, b), which the library
// computes (exchangePlane's symmetrize) and the figure draws on g's colour scale; the gated gap is the
// library's for layers made with that symmetrize.
import { GateLabFigure } from '../base/gatelab-figure.js';
import { createRange, createReseedButton, createSelect, syncActivationSelect } from '../base/controls.js';
import { extent, maxAbs } from '../plot/axes.js';
import { drawChart } from '../plot/chart.js';
import { drawHeatmap } from '../plot/heatmap.js';
import { drawRing } from '../plot/marks.js';
import { WorkerRun } from '../runner/worker-run.js';
import { formatNumber } from '../base/format.js';
import { activationDisplayName, layerLabel } from '../base/labels.js';
import { createLambdaRange, formatLambda, lambdaWhy, syncLambdaRange } from './lambda-dial.js';
import { attachGridProbe, createProbeLine } from '../base/grid-probe.js';

const CURVE_POINTS = 241;
const GAP_ROWS = 64;

const STYLES = `
.plots canvas.plane { aspect-ratio: 1.12; }
.plots canvas.ratio { aspect-ratio: 1.7; }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 1.12fr) minmax(0, 1fr); }
  .plots canvas.ratio { aspect-ratio: 1; }
}
`;

export class GateLabExchangePlane extends GateLabFigure {
  static description = 'g(a, b) = σ(a)·b − σ(b)·a over a plane, σ(z)/z, and the exchange gap of random layers: '
    + 'what swapping Q and K changes in a gated unit.';
  static events = { computed: 'The exchange gaps arrived: detail { gaps, state }.' };
  static styles = STYLES;
  static schema = {
    activation: { type: 'enum', default: 'silu', values: (el) => el.lab?.activations ?? null },
    beta: { type: 'number', default: 1, min: 0.05, max: 10 },
    min: { type: 'number', default: -3, min: -20, max: 20 },
    max: { type: 'number', default: 3, min: -20, max: 20 },
    n: { type: 'integer', default: 64, min: 8, max: 256 },
    symmetrize: { type: 'number', default: 0, min: 0, max: 1 },
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  };

  #controls = null;
  #target = null;     // the library's numbers: { grid, n, axis, scale, largest, range, z, ratio, lambda }
  #plane = null;      // what is drawn: the target, or a frame of the transition to it
  #gaps = null;       // exchangeGaps result
  #gapRun = new WorkerRun(this);
  #probe = null;      // the heatmap cell being read, see grid-probe.js
  #probeText = null;
  #planeArea = null;  // where the last draw put the heatmap, for the pointer

  /** [min, max] of the plane: the attributes when min < max, else the defaults. */
  get range() {
    const { min, max } = this.state;
    if (min < max) return [min, max];
    const { schema } = this.constructor;
    return [schema.min.default, schema.max.default];
  }

  /** The exchange gaps last computed: { gated, symmetric, mlp: null, rows, trials } or null. */
  get gaps() {
    return this.#gaps ? { ...this.#gaps } : null;
  }

  build({ plots, controls }) {
    const plane = this.createCanvas({ name: 'plane',
      label: 'Heatmap of g(a, b) = σ(a)·b − σ(b)·a. Arrow keys read its values.' });
    this.createCanvas({ name: 'ratio', label: 'Curve of σ(z)/z' });
    this.#probeText = createProbeLine(plots);
    this.#probe = attachGridProbe(plane, {
      size: () => this.#target?.n ?? this.state.n,
      plot: () => this.#planeArea,
      onChange: () => {
        this.#showProbe();
        this.requestDraw();
      },
    });
    const activation = createSelect({
      label: 'Activation σ', options: [], value: this.state.activation,
      onChange: (value) => this.setState({ activation: value }, 'user'),
    });
    const extent = createRange({
      label: 'Range ±', min: 0.5, max: 10, step: 0.5, value: 3, format: (v) => v.toFixed(1),
      onInput: (value) => this.setState({ min: -value, max: value }, 'user'),
    });
    const beta = createRange({
      label: 'β', min: 0.1, max: 5, step: 0.1, value: 1, format: (v) => v.toFixed(1),
      onInput: (value) => this.setState({ beta: value }, 'user'),
    });
    const lambda = createLambdaRange((value) => this.setState({ symmetrize: value }, 'user'));
    const reseed = createReseedButton(this, { text: 'New random layers' });
    controls.append(activation.element, extent.element, beta.element, lambda.element, reseed);
    this.#controls = { activation, extent, beta, lambda, reseed };
  }

  syncControls() {
    const { activation, extent, beta, lambda, reseed } = this.#controls;
    syncActivationSelect(activation.select, this.lab, this.state.activation);
    const [min, max] = this.range;
    extent.set(Math.max(Math.abs(min), Math.abs(max)));
    beta.set(this.state.beta);
    beta.element.hidden = this.state.activation !== 'swish';
    reseed.title = `Seed ${this.state.seed}: draw new random layers and inputs`;
    syncLambdaRange(lambda, this.state.symmetrize, true);
  }

  async start() {
    this.#computeCurves();
    this.#computeGaps();
  }

  update(changed) {
    const has = (...names) => names.some((name) => changed.has(name));
    try {
      if (has('activation', 'beta', 'min', 'max', 'n', 'symmetrize')) {
        this.#computeCurves({ animate: has('activation', 'beta', 'symmetrize') });
      }
    } catch (error) {
      this.showError(error);
      return;
    }
    if (has('activation', 'beta', 'seed', 'symmetrize')) this.#computeGaps();
  }

  #activationOptions() {
    return this.state.activation === 'swish' ? { beta: this.state.beta } : {};
  }

  /** The plane and the ratio curve: fast, so on the main thread with the shared module. */
  #computeCurves({ animate = false } = {}) {
    const { activation, n, symmetrize } = this.state;
    const [min, max] = this.range;
    const gridOptions = { min, max, n, ...this.#activationOptions() };
    const g = this.lab.symmetry.exchangePlane(activation, gridOptions);
    // §A11: what the swap changes at this λ, from the library; g (λ = 0) keeps the colour scale fixed.
    const plane = symmetrize
      ? this.lab.symmetry.exchangePlane(activation, { ...gridOptions, symmetrize }) : g;
    const { z, ratio } = this.lab.activationCurve(activation,
      { min, max, n: CURVE_POINTS, ...this.#activationOptions() });
    // The plane's axis values, exactly as the library spaces them (float32 linspace).
    const axis = this.lab.activationCurve(activation, { min, max, n, ...this.#activationOptions() }).z;
    const target = { grid: plane, n, axis, scale: maxAbs(g), largest: maxAbs(plane), range: [min, max], z, ratio,
      lambda: symmetrize };
    this.#target = target;
    this.#showProbe();
    const from = this.#plane;
    const sameShape = from && from.n === n && from.range[0] === min && from.range[1] === max;
    if (!animate || !sameShape) {
      this.finishAnimation();
      this.#plane = target;
      this.requestDraw();
      return;
    }
    // The transition starts from what is on screen (possibly the middle of another one).
    const [g0, r0, s0] = [from.grid.slice(), from.ratio.slice(), from.scale];
    const shown = { ...target, grid: g0.slice(), ratio: r0.slice(), scale: s0 };
    this.animate(280, (t) => {
      const e = t * t * (3 - 2 * t);
      this.#plane = t >= 1 ? target : shown;
      if (t >= 1) return;
      for (let i = 0; i < plane.length; i++) shown.grid[i] = g0[i] + e * (plane[i] - g0[i]);
      for (let i = 0; i < ratio.length; i++) shown.ratio[i] = r0[i] + e * (ratio[i] - r0[i]);
      shown.scale = s0 + e * (target.scale - s0);
    });
    // animate() first finished any earlier transition (which showed its own target); unless
    // this one already ended (reduced motion, off screen), show its start.
    if (this.#plane !== target) this.#plane = shown;
  }

  /** The exchange gaps of random layers, through the worker runner (cancels the previous run). */
  #computeGaps() {
    const { activation, beta, seed, symmetrize } = this.state;
    this.announce(`Computing the exchange gaps for ${activationDisplayName(activation, this.lab)}…`, { busy: true });
    return this.#gapRun.run('exchangeGaps', { activation, beta, seed, rows: GAP_ROWS, trials: 1, symmetrize }, {
      progress: (f) => `Computing the exchange gaps… ${Math.round(100 * f)} %`,
      onResult: (gaps) => {
        this.#gaps = gaps;
        this.announce(this.#summary());
        this.dispatchEvent(new CustomEvent('computed',
          { bubbles: true, detail: { gaps: this.gaps, state: { ...this.state } } }));
      },
    });
  }

  /** The value under the probe, or a hint; numbers straight from the library's grid. */
  #showProbe() {
    const cell = this.#probe?.cell;
    const target = this.#target;
    if (!cell || !target || cell.i >= target.n || cell.j >= target.n) {
      this.#probeText.textContent = 'Point at the heatmap, or focus it and use the arrow keys, to read g(a, b).';
      return;
    }
    const [a, b] = [target.axis[cell.i], target.axis[cell.j]];
    const what = target.lambda ? `(1 − λ)·g` : 'g';
    this.#probeText.textContent = `${what}(a = ${formatNumber(a)}, b = ${formatNumber(b)}) = `
      + `${formatNumber(target.grid[cell.i * target.n + cell.j])}`;
  }

  #summary() {
    const { activation, symmetrize } = this.state;
    const { gated, symmetric } = this.#gaps;
    const gatedName = layerLabel({ kind: 'gated', activation, symmetrize }, this.lab);
    const symmetricName = layerLabel({ kind: 'symmetric', activation }, this.lab);
    const name = activationDisplayName(activation, this.lab);
    const linear = this.lab.activationInfo(activation).linear;
    const [min, max] = this.range;
    const why = lambdaWhy(symmetrize, linear) ?? (linear
      ? `${name} is linear, so σ(z)/z is constant and the gated layer keeps the symmetry.`
      : `${name} is not linear: σ(z)/z is not constant, so swapping Q and K changes the gated layer.`);
    return `Exchange gap ‖f(Q,K) − f(K,Q)‖ / ‖f(Q,K)‖ on ${GAP_ROWS} random inputs, seed ${this.state.seed} `
      + `(gated: ${gatedName}; symmetric: ${symmetricName}): `
      + `gated ${formatNumber(gated)}, symmetric ${formatNumber(symmetric)}, MLP n/a (no query to exchange). `
      + `${why} Largest |g(a, b)| on [${formatNumber(min)}, ${formatNumber(max)}]²: ${formatNumber(this.#target.scale)}`
      + (symmetrize ? `; of (1 − λ)·g: ${formatNumber(this.#target.largest)}.` : '.');
  }

  draw() {
    const [planeCanvas, ratioCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const plane = this.#plane;
    if (!plane) return;
    const theme = this.theme;
    {
      const { ctx, width, height } = this.beginCanvas(planeCanvas);
      const fontSize = this.fontSizeFor(width);
      // Cell i is centred on the library's a_i: the image spans half a cell beyond each end.
      const half = (plane.range[1] - plane.range[0]) / (2 * (plane.n - 1));
      const extent = [plane.range[0] - half, plane.range[1] + half];
      const { plot, xScale, yScale } = drawHeatmap(ctx, { x: 0, y: 0, w: width, h: height }, {
        grid: plane.grid, rows: plane.n, cols: plane.n, xRange: extent, yRange: extent,
        scale: plane.scale, theme, fontSize, xLabel: 'a = x·q', yLabel: 'b = x·k', barLabel: 'g',
        xIsRow: true, yUp: true,
      });
      // g vanishes on the diagonal a = b for every σ.
      ctx.save();
      ctx.strokeStyle = theme.fg;
      ctx.globalAlpha = 0.45;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(xScale(plane.range[0]), yScale(plane.range[0]));
      ctx.lineTo(xScale(plane.range[1]), yScale(plane.range[1]));
      ctx.stroke();
      ctx.restore();
      this.#planeArea = plot;
      this.#drawProbe(ctx, xScale, yScale, fontSize);
      ctx.font = `${fontSize + 1}px ${theme.font}`;
      ctx.fillStyle = theme.fg;
      ctx.textBaseline = 'top';
      const title = plane.lambda ? `(1 − λ)·g(a, b), λ = ${formatLambda(plane.lambda)}` : 'g(a, b) = σ(a)·b − σ(b)·a';
      ctx.fillText(title, xScale(plane.range[0]), 2);
    }
    {
      const { ctx, width, height } = this.beginCanvas(ratioCanvas);
      const fontSize = this.fontSizeFor(width);
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        series: [{ x: plane.z, y: plane.ratio, color: theme.accent, width: 2.5 }],
        xDomain: plane.range, yDomain: extent([plane.ratio], { include: [0, 1], clip: [-2, 3] }),
        theme, fontSize, xLabel: 'z', title: `σ(z)/z for ${activationDisplayName(this.state.activation, this.lab)}`,
      });
    }
  }

  #drawProbe(ctx, xScale, yScale, fontSize) {
    const cell = this.#probe.cell;
    const target = this.#target;
    if (!cell || !target || cell.i >= target.n || cell.j >= target.n) return;
    drawRing(ctx, xScale(target.axis[cell.i]), yScale(target.axis[cell.j]), Math.max(4, fontSize * 0.45),
      { theme: this.theme });
  }

  csv() {
    const rows = [];
    if (!this.#target) return { columns: ['series', 'x', 'y', 'value'], rows };
    const { grid, n, axis, z, ratio } = this.#target;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) rows.push(['plane', axis[i], axis[j], grid[i * n + j]]);
    }
    for (let i = 0; i < z.length; i++) rows.push(['ratio', z[i], '', ratio[i]]);
    if (this.#gaps) {
      rows.push(['exchange_gap', 'gated', '', this.#gaps.gated]);
      rows.push(['exchange_gap', 'symmetric', '', this.#gaps.symmetric]);
      rows.push(['exchange_gap', 'mlp', '', '']);
    }
    return { columns: ['series', 'x', 'y', 'value'], rows };
  }
}
