// <gatelab-scaling alpha="-0.5" activation="relu" seed="1">
//
// The inverse-scaling symmetry of docs/MATH.md §A8: Q → αQ, K → K/α. Top: for every activation, the
// scaling gap ‖f_{αQ,K/α}(X) − f(X)‖ / ‖f(X)‖ of a random gated layer as a curve over α, on an
// axis that is logarithmic in |α| on each side of zero (α < 0 left, α > 0 right); the chosen
// activation is drawn bold, its symmetric form dashed (flat at zero everywhere). ReLU is flat
// for α > 0 and broken for α < 0; SiLU, GELU… are curved; only the identity is flat on both
// sides. Below: the gaps at the chosen α, and σ(αz)/α beside σ(z), which is why. Every gap is
// the library's (lab.symmetry.scalingGap), the curves computed in the worker.
import { GateLabFigure } from '../base/gatelab-figure.js';
import { createButton, createRange, createReseedButton, createSelect, syncActivationSelect } from '../base/controls.js';
import { WorkerRun } from '../runner/worker-run.js';
import { formatNumber } from '../base/format.js';
import { activationDisplayName, activationShortLabel } from '../base/labels.js';
import { extent, logTicks } from '../plot/axes.js';
import { drawBars, drawChart } from '../plot/chart.js';
import { alphaAt, positionOf, scalingInputs, scalingLayers, SCALING_SHAPE } from '../runner/paper-a-tasks.js';

// α < 0 from −100 to −0.01, then α > 0 from 0.01 to 100; α = ±1 at p = ±101.
const POSITIONS = [...Array.from({ length: 51 }, (_, i) => -201 + 4 * i),
  ...Array.from({ length: 51 }, (_, i) => 1 + 4 * i)];
const ticksAt = (positions) => positions.map(
  (value) => ({ value, label: formatNumber(Math.round(alphaAt(value) * 100) / 100) }));
const X_TICKS = ticksAt([-201, -151, -101, -51, 51, 101, 151, 201]);
const X_TICKS_NARROW = ticksAt([-201, -101, 101, 201]);
const FLOOR = 10 ** -6.5;

const STYLES = `
.plots canvas.curves { aspect-ratio: 1.05; grid-column: 1 / -1; }
.plots canvas.bars, .plots canvas.shape { aspect-ratio: 1.3; }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  .plots canvas.curves { aspect-ratio: 2.3; }
}
`;

export class GateLabScaling extends GateLabFigure {
  static description = 'The scaling gap of every activation against α when Q → αQ and K → K/α.';
  static events = {};
  static styles = STYLES;
  static schema = {
    alpha: { type: 'number', default: -0.5, min: -100, max: 100 },
    activation: { type: 'enum', default: 'relu', values: (el) => el.lab?.activations ?? null },
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  };

  /** |α| is kept in [0.01, 100]; α = 0 (no rescaling at all) falls back to the default. */
  static normalize(state) {
    let { alpha } = state;
    if (alpha === 0) alpha = GateLabScaling.schema.alpha.default;
    else if (Math.abs(alpha) < 0.01) alpha = Math.sign(alpha) * 0.01;
    return { ...state, alpha };
  }

  #controls = null;
  #curves = null;   // scalingCurves task result
  #at = null;       // { alpha, gated: {act: gap}, symmetric: {act: gap} } at the current α
  #shape = null;    // { z, sigma, scaled } for the chosen activation
  #run = new WorkerRun(this);

  /** Gaps at the current α: { alpha, gated: { [activation]: gap }, symmetric: {…} } or null. */
  get gaps() {
    return this.#at ? structuredClone(this.#at) : null;
  }

  build({ controls }) {
    this.createCanvas({ name: 'curves', label: 'Scaling gap against α for every activation' });
    this.createCanvas({ name: 'bars', label: 'Scaling gap at the chosen α for every activation' });
    this.createCanvas({ name: 'shape', label: 'σ(αz)/α beside σ(z) for the chosen activation' });
    const alpha = createRange({
      label: 'α', min: -201, max: 201, step: 1, value: positionOf(this.state.alpha),
      format: () => formatNumber(this.state.alpha),
      onInput: (position) => {
        const p = position === 0 ? (this.state.alpha < 0 ? 1 : -1) : position;
        this.setState({ alpha: Number(alphaAt(p).toPrecision(3)) }, 'user');
      },
    });
    const flip = createButton({
      text: 'α → −α', part: 'button flip', title: 'Flip the sign of α',
      onClick: () => this.setState({ alpha: -this.state.alpha }, 'user'),
    });
    const activation = createSelect({
      label: 'σ', options: [], value: this.state.activation,
      onChange: (value) => this.setState({ activation: value }, 'user'),
    });
    const reseed = createReseedButton(this, { text: 'New random layers' });
    controls.append(alpha.element, flip, activation.element, reseed);
    this.#controls = { alpha, flip, activation, reseed };
  }

  syncControls() {
    const { alpha, activation, reseed } = this.#controls;
    alpha.set(Math.round(positionOf(this.state.alpha)));
    syncActivationSelect(activation.select, this.lab, this.state.activation);
    reseed.title = `Seed ${this.state.seed}: draw new random layers and inputs`;
  }

  async start() {
    this.#computeAt();
    this.#computeShape();
    await this.#computeCurves();
  }

  update(changed) {
    if (changed.has('seed')) this.#computeCurves();
    this.#computeAt();
    if (changed.has('alpha') || changed.has('activation')) this.#computeShape();
    this.requestDraw();
  }

  /** The curves over α for every activation: in the worker. */
  #computeCurves() {
    return this.#run.run('scalingCurves', { seed: this.state.seed, positions: POSITIONS }, {
      progress: (f) => `Computing the scaling gaps… ${Math.round(100 * f)} %`,
      onResult: (curves) => {
        this.#curves = curves;
        this.announce(this.#summary());
        this.requestDraw();
      },
    });
  }

  /** The gaps at the exact α of the state, for every activation: small, on the page. */
  #computeAt() {
    const { alpha, seed } = this.state;
    const x = scalingInputs(seed);
    const at = { alpha, gated: {}, symmetric: {} };
    for (const activation of this.lab.activations) {
      const layers = scalingLayers(this.lab, activation, seed);
      try {
        at.gated[activation] = this.lab.symmetry.scalingGap(layers[0], x, SCALING_SHAPE.rows, alpha);
        at.symmetric[activation] = this.lab.symmetry.scalingGap(layers[1], x, SCALING_SHAPE.rows, alpha);
      } finally {
        layers.forEach((l) => l.dispose());
      }
    }
    this.#at = at;
    if (this.#curves) this.announce(this.#summary());
  }

  /** σ(z) and σ(αz)/α on z ∈ [−3, 3], sampled by the library. */
  #computeShape() {
    const { alpha, activation } = this.state;
    const n = 161;
    const plain = this.lab.activationCurve(activation, { min: -3, max: 3, n });
    const lo = Math.min(-3 * alpha, 3 * alpha);
    const scaled = this.lab.activationCurve(activation, { min: lo, max: -lo, n });
    // For α < 0 the samples at αz run the other way.
    const value = Float32Array.from({ length: n }, (_, i) => scaled.value[alpha > 0 ? i : n - 1 - i] / alpha);
    this.#shape = { z: plain.z, sigma: plain.value, scaled: value };
  }

  #summary() {
    const { alpha, activation } = this.state;
    const at = this.#at;
    const info = this.lab.activationInfo(activation);
    const name = activationDisplayName(activation, this.lab);
    let why;
    if (info.linear) {
      why = `${name} is linear: σ(αa) = ασ(a) for every α, so the gated form keeps the symmetry on both sides.`;
    } else if (info.homogeneity === 1) {
      why = `${name} is positively homogeneous of degree 1: `
        + 'the gated form keeps the symmetry for α > 0 and loses it for α < 0.';
    } else if (info.homogeneity) {
      why = `${name} is homogeneous of degree ${info.homogeneity}: `
        + `it keeps q → αq, k → k/α^${info.homogeneity} for α > 0 instead, `
        + 'so this rescaling breaks it (except at α = 1).';
    } else {
      why = `${name} is not homogeneous: σ(αa) ≠ ασ(a), so the gated form loses the symmetry for every α ≠ 1.`;
    }
    return `α = ${formatNumber(alpha)}: scaling gap ‖f(αQ, K/α) − f‖ / ‖f‖ of the gated layer with ${name}: `
      + `${formatNumber(at.gated[activation])}; of the symmetric form: ${formatNumber(at.symmetric[activation])}. `
      + why;
  }

  draw() {
    const [curvesCanvas, barsCanvas, shapeCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const theme = this.theme;
    const { activation, alpha } = this.state;
    if (this.#curves) {
      const { ctx, width, height } = this.beginCanvas(curvesCanvas);
      const fontSize = this.fontSizeFor(width);
      const c = this.#curves;
      const others = this.lab.activations.filter((a) => a !== activation);
      // Log scale; a gap below 10⁻⁶ is rounding (the symmetry holds) and sits on the floor, "0".
      const floor = (values) => Float32Array.from(values, (v) => Math.max(v, FLOOR));
      const top = Math.max(1, ...Object.values(c.gated).map((v) => Math.max(...v)));
      const { plot, xScale } = drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [-205, 205], yDomain: [Math.log10(FLOOR) - 0.2, Math.log10(top) + 0.3], yLog: true,
        xTicks: width < 420 ? X_TICKS_NARROW : X_TICKS,
        yTicks: [{ value: Math.log10(FLOOR), label: '0' },
          ...logTicks(-5, Math.log10(top), 4).filter((t) => t.value > -6)],
        theme, fontSize, xLabel: 'α', yLabel: 'scaling gap (log)', title: 'Scaling gap against α',
        series: [
          ...others.map((a) => ({ x: c.positions, y: floor(c.gated[a]), color: theme.muted, width: 1, alpha: 0.45 })),
          { x: c.positions, y: floor(c.symmetric[activation]), color: theme.accent2, width: 2.5, dash: [6, 4] },
          { x: c.positions, y: floor(c.gated[activation]), color: theme.accent, width: 2.5 },
        ],
        vlines: [{ x: positionOf(alpha), color: theme.fg, dash: [3, 3], width: 1 }],
        dots: [{ x: positionOf(alpha), y: Math.max(FLOOR, this.#at.gated[activation]), color: theme.accent },
          { x: positionOf(alpha), y: Math.max(FLOOR, this.#at.symmetric[activation]), color: theme.accent2 }],
        legend: [{ label: `gated, ${activationDisplayName(activation, this.lab)}`, color: theme.accent, width: 2.5 },
          { label: 'symmetric', color: theme.accent2, dash: [6, 4], width: 2.5 },
          { label: 'gated, other σ', color: theme.muted, width: 1 }],
      });
      // The break at α = 0: no rescaling by zero.
      ctx.save();
      ctx.fillStyle = theme.bg;
      ctx.fillRect(xScale(-3), plot.y, xScale(3) - xScale(-3), plot.h);
      ctx.strokeStyle = theme.muted;
      ctx.setLineDash([2, 3]);
      ctx.beginPath();
      ctx.moveTo(xScale(0) + 0.5, plot.y);
      ctx.lineTo(xScale(0) + 0.5, plot.y + plot.h);
      ctx.stroke();
      ctx.font = `${fontSize}px ${theme.font}`;
      ctx.fillStyle = theme.muted;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'top';
      ctx.fillText('α < 0', xScale(-101), plot.y + plot.h + 6 + 1.4 * fontSize);
      ctx.fillText('α > 0', xScale(101), plot.y + plot.h + 6 + 1.4 * fontSize);
      ctx.restore();
    }
    if (this.#at) {
      const { ctx, width, height } = this.beginCanvas(barsCanvas);
      const fontSize = this.fontSizeFor(width);
      const names = this.lab.activations;
      const gated = names.map((a) => this.#at.gated[a]);
      const symmetric = names.map((a) => this.#at.symmetric[a]);
      drawBars(ctx, { x: 0, y: 0, w: width, h: height }, {
        categories: names.map((a) => activationShortLabel(a, this.lab)), theme, fontSize,
        highlight: names.indexOf(activation),
        groups: [{ label: 'gated', color: theme.accent, values: gated },
          { label: 'symmetric', color: theme.accent2, values: symmetric }],
        yDomain: extent([gated], { include: [0] }).map((v, i) => (i ? v : 0)),
        title: `Gap at α = ${formatNumber(alpha)}`,
      });
    }
    if (this.#shape) {
      const { ctx, width, height } = this.beginCanvas(shapeCanvas);
      const fontSize = this.fontSizeFor(width);
      const s = this.#shape;
      drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        xDomain: [-3, 3], yDomain: extent([s.sigma, s.scaled], { include: [0] }), theme, fontSize, xLabel: 'z',
        title: `Why: ${activationDisplayName(activation, this.lab)}`,
        series: [{ x: s.z, y: s.sigma, color: theme.muted, width: 2 },
          { x: s.z, y: s.scaled, color: theme.accent, width: 2.5, dash: [7, 4] }],
        legend: [{ label: 'σ(z)', color: theme.muted }, { label: 'σ(αz)/α', color: theme.accent, dash: [7, 4] }],
      });
    }
  }

  csv() {
    const rows = [];
    const c = this.#curves;
    if (c) {
      for (const a of this.lab.activations) {
        for (let i = 0; i < c.alphas.length; i++) rows.push(['gated', a, c.alphas[i], c.gated[a][i]]);
        for (let i = 0; i < c.alphas.length; i++) rows.push(['symmetric', a, c.alphas[i], c.symmetric[a][i]]);
      }
    }
    if (this.#at) {
      for (const a of this.lab.activations) {
        rows.push(['gated_at_alpha', a, this.#at.alpha, this.#at.gated[a]]);
        rows.push(['symmetric_at_alpha', a, this.#at.alpha, this.#at.symmetric[a]]);
      }
    }
    return { columns: ['form', 'activation', 'alpha', 'scaling_gap'], rows };
  }
}
