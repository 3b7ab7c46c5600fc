// <gatelab-interactions source="trained" kind="gated" activation="identity" task="circle" steps="400" seed="1">
//
// The weight-based view of a symmetric or bilinear layer (Pearce et al. 2024, reimplemented in
// the library: lab.interactions). For an output direction u, the interaction matrix
// B_u = Σ_j (u·v_j) Q_jᵀK_j: raw (left), the raw matrix of the layer with Q and K swapped
// (middle: the transpose), and sym(B_u), the same for both layers — symmetrising is exactly
// quotienting by the exchange symmetry. Its eigen-spectrum and top eigenvectors show which
// input directions u reads. The layer is trained on a 2-D task (inputs x, y, 1; in the worker)
// or random (inputs x₁ … x_d, one output direction of four). For a layer that is not exactly
// quadratic (a nonlinear σ), the input-dependent effective matrix M_u(x) at the point under
// the cursor (or pinned with a click / Enter) is exact there: x M_u(x) xᵀ = u·f(x).
import { GateLabFigure } from '../base/gatelab-figure.js';
import { createButton, createReseedButton, createSelect, syncActivationSelect } from '../base/controls.js';
import { sharedRunner } from '../runner/lab-runner.js';
import { WorkerRun } from '../runner/worker-run.js';
import { formatNumber } from '../base/format.js';
import { kindLabel, layerLabel, queryKindNames } from '../base/labels.js';
import { maxAbs } from '../plot/axes.js';
import { drawBars } from '../plot/chart.js';
import { drawHeatmap } from '../plot/heatmap.js';
import { drawPoints, drawRing } from '../plot/marks.js';
import { drawMatrix, fitMatrix } from '../plot/matrix-view.js';
import { addJsonExport, linspace, onlyChanged, palette } from '../base/figure-extras.js';
import { attachGridProbe, createProbeLine } from '../base/grid-probe.js';

const N = 56;
const EXTENT = 1.5;
const RANDOM_OUTPUTS = 4;
const TASKS = ['circle', 'xor', 'gaussians', 'spiral', 'checkerboard', 'teacher'];

const STYLES = `
.plots canvas.plane { aspect-ratio: 1.1; }
.plots canvas.matrices { aspect-ratio: 1.1; }
.plots canvas.spectrum { aspect-ratio: 0.85; grid-column: 1 / -1; }
@container (min-width: 470px) {
  .plots canvas.spectrum { aspect-ratio: 2; }
}
@container (min-width: 640px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1.1fr); }
  .plots canvas.matrices { aspect-ratio: 1.21; }
  .plots canvas.spectrum { aspect-ratio: 3.2; }
}
`;

export class GateLabInteractions extends GateLabFigure {
  static description = 'The interaction matrices B_u of a trained or random layer, and M_u(x) at a point.';
  static events = {};
  static styles = STYLES;
  static schema = {
    source: { type: 'enum', default: 'trained', values: ['trained', 'random'] },
    kind: { type: 'enum', default: 'gated', values: queryKindNames() },
    activation: { type: 'enum', default: 'identity', values: (el) => el.lab?.activations ?? null },
    task: { type: 'enum', default: 'circle', values: TASKS },
    steps: { type: 'integer', default: 400, min: 0, max: 5000 },
    units: { type: 'integer', default: 8, min: 1, max: 32 },
    dIn: { type: 'integer', default: 4, min: 2, max: 8 },
    output: { type: 'integer', default: 0, min: 0, max: RANDOM_OUTPUTS - 1 },
    probe: { type: 'string', default: '', pattern: /^$|^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/ },
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  };

  #controls = null;
  #model = null;      // { layer options, params, data, accuracy, d, labels, plane, divergence }
  #weightBased = null;
  #swapped = null;    // the weight-based result of the Q ↔ K layer
  #local = null;      // { x, result } at the probe
  #preview = null;    // a probe under the pointer (not in the state)
  #probeText = null;
  #planeArea = null;
  #run = new WorkerRun(this);

  /** The weight-based result and, when a point is probed, the effective matrix there. */
  get interactions() {
    if (!this.#weightBased) return null;
    return { weightBased: this.#weightBased, swapped: this.#swapped, local: this.#local?.result ?? null };
  }

  build({ plots, controls, exportGroup }) {
    const plane = this.createCanvas({ name: 'plane',
      label: 'The layer’s output over the input plane. Arrow keys move a probe; Enter pins it.' });
    this.createCanvas({ name: 'matrices', label: 'Interaction matrices: raw, with Q and K swapped, and symmetrised' });
    this.createCanvas({ name: 'spectrum', label: 'Eigenvalues and top eigenvectors of the symmetrised matrix' });
    this.#probeText = createProbeLine(plots);
    attachGridProbe(plane, {
      size: () => N,
      plot: () => this.#planeArea,
      onChange: (cell) => this.#previewAt(cell),
    });
    plane.addEventListener('click', () => this.#pin());
    plane.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.#pin();
      if (event.key === 'Escape' || event.key === 'Delete') this.setState({ probe: '' }, 'user');
    });
    const c = {};
    c.source = createSelect({ label: 'Layer', value: this.state.source,
      options: [{ value: 'trained', text: 'trained on a task' }, { value: 'random', text: 'random' }],
      onChange: (v) => this.setState({ source: v }, 'user') });
    c.kind = createSelect({ label: 'Form', value: this.state.kind,
      options: queryKindNames().map((value) => ({ value, text: kindLabel(value) })),
      onChange: (v) => this.setState({ kind: v }, 'user') });
    c.activation = createSelect({ label: 'σ', options: [], value: this.state.activation,
      onChange: (v) => this.setState({ activation: v }, 'user') });
    c.task = createSelect({ label: 'Task', value: this.state.task, options: TASKS.map((t) => ({ value: t, text: t })),
      onChange: (v) => this.setState({ task: v }, 'user') });
    c.output = createSelect({ label: 'Output u', value: String(this.state.output),
      options: Array.from({ length: RANDOM_OUTPUTS }, (_, i) => ({ value: String(i), text: `e${i + 1}` })),
      onChange: (v) => this.setState({ output: Number(v) }, 'user') });
    c.reseed = createReseedButton(this, { text: 'New seed' });
    c.unpin = createButton({ text: 'Unpin point', part: 'button unpin',
      onClick: () => this.setState({ probe: '' }, 'user') });
    controls.append(c.source.element, c.kind.element, c.activation.element, c.task.element, c.output.element,
      c.reseed, c.unpin);
    this.#controls = c;
    addJsonExport(this, exportGroup, () => this.weights());
  }

  syncControls() {
    const c = this.#controls;
    c.source.select.value = this.state.source;
    c.kind.select.value = this.state.kind;
    syncActivationSelect(c.activation.select, this.lab, this.state.activation);
    c.task.select.value = this.state.task;
    c.task.element.hidden = this.state.source !== 'trained';
    c.output.select.value = String(this.state.output);
    c.output.element.hidden = this.state.source !== 'random';
    c.unpin.hidden = !this.state.probe;
    const renewed = this.state.source === 'trained' ? 'new data and initial weights' : 'a new random layer';
    c.reseed.title = `Seed ${this.state.seed}: ${renewed}`;
  }

  async start() {
    await this.#build();
  }

  update(changed) {
    if (onlyChanged(changed, 'probe')) {
      this.#computeLocal();
      this.announce(this.#summary());
      this.requestDraw();
      return;
    }
    this.#build();
  }

  /** The layer's parameters and how it was made, as JSON-able data. */
  weights() {
    const m = this.#model;
    return m ? { figure: 'gatelab-interactions', state: { ...this.state }, layer: m.options, ...m.params,
      input: m.labels.join(', ') } : null;
  }

  // ---- the layer --------------------------------------------------------------------------

  #build() {
    const { source, kind, activation, task, steps, units, dIn, seed } = this.state;
    return this.#run.start(async (signal) => {
      let model;
      if (source === 'trained') {
        this.announce(`Training a ${layerLabel({ kind, activation }, this.lab)} layer on ${task}…`, { busy: true });
        const trained = await sharedRunner().run('trainLayer', {
          options: { kind, activation, hidden: units, rank: 1, seed, learningRate: 0.03, data: { task, seed } },
          steps, gridSize: N, extent: EXTENT,
        }, { signal, onProgress: (f) => this.announce(`Training… ${Math.round(100 * f)} %`, { busy: true }) });
        const w = trained.weights;
        model = { options: { ...w.layer, seed },
          params: { Q: Float32Array.from(w.Q), K: Float32Array.from(w.K), V: Float32Array.from(w.V) },
          data: trained.data, accuracy: trained.history.testAccuracy.at(-1), steps: w.stepsDone,
          divergence: trained.divergence, d: 3, labels: ['x', 'y', '1'], dOut: 1 };
      } else {
        model = { options: { kind, activation, dIn, hidden: units, dOut: RANDOM_OUTPUTS, rank: 1, seed }, params: null,
          data: null, d: dIn, labels: Array.from({ length: dIn }, (_, i) => `x${'₁₂₃₄₅₆₇₈'[i]}`),
          dOut: RANDOM_OUTPUTS };
      }
      this.#model = model;
      this.#computeWeightBased();
      this.#computeLocal();
      this.announce(this.#summary());
      this.requestDraw();
    });
  }

  /** Runs fn(layer) on the model's layer (made fresh from its parameters) and disposes it. */
  #withLayer(fn) {
    const m = this.#model;
    const layer = this.lab.createLayer(m.options);
    try {
      if (m.params) layer.setParams(m.params);
      else m.params = layer.getParams();
      return fn(layer);
    } finally {
      layer.dispose();
    }
  }

  #direction() {
    const u = new Float32Array(this.#model.dOut);
    u[this.#model.dOut === 1 ? 0 : this.state.output] = 1;
    return u;
  }

  /** Input of the plane point (a, b): (a, b, 1) for a trained layer, (a, b, 0, …) for a random one. */
  #inputAt(a, b) {
    const x = new Float32Array(this.#model.d);
    x[0] = a;
    x[1] = b;
    if (this.state.source === 'trained') x[2] = 1;
    return x;
  }

  #computeWeightBased() {
    const u = this.#direction();
    const axis = linspace(-EXTENT, EXTENT, N);
    this.#withLayer((layer) => {
      this.#weightBased = this.lab.interactions(layer, u);
      const swapped = layer.exchanged();
      try {
        this.#swapped = this.lab.interactions(swapped, u);
      } finally {
        swapped.dispose();
      }
      // u·f over the plane, one forward call; row 0 at the top (b = +extent).
      const d = this.#model.d;
      const x = new Float32Array(N * N * d);
      for (let r = 0; r < N; r++) {
        for (let c = 0; c < N; c++) x.set(this.#inputAt(axis[c], axis[N - 1 - r]), (r * N + c) * d);
      }
      const y = layer.forward(x, N * N);
      const k = this.#model.dOut;
      const plane = Float32Array.from({ length: N * N }, (_, i) => {
        let s = 0;
        for (let o = 0; o < k; o++) s += u[o] * y[i * k + o];
        return s;
      });
      this.#model.plane = plane;
      // Colours saturate at the 90th percentile of |u·f|: a quadratic grows fast in the corners.
      const sorted = Float32Array.from(plane, Math.abs).sort();
      this.#model.scale = sorted[Math.floor(0.9 * (sorted.length - 1))] || maxAbs(plane);
      this.#model.axis = axis;
    });
  }

  /** The exact effective matrix at the probe (pinned, else previewed), or null. */
  #computeLocal() {
    const point = this.#previewPoint() ?? this.#pinnedPoint();
    if (!point || !this.#model) {
      this.#local = null;
      this.#showProbe();
      return;
    }
    const x = this.#inputAt(point[0], point[1]);
    const result = this.#withLayer((layer) => this.lab.interactions(layer, this.#direction(), x));
    this.#local = { point, pinned: !this.#previewPoint(), result };
    this.#showProbe();
  }

  #pinnedPoint() {
    if (!this.state.probe) return null;
    return this.state.probe.split(',').map(Number);
  }

  #previewPoint() {
    if (!this.#preview || !this.#model) return null;
    const axis = this.#model.axis;
    return [axis[this.#preview.i], axis[this.#preview.j]];
  }

  #previewAt(cell) {
    this.#preview = cell;
    this.#computeLocal();
    this.requestDraw();
  }

  #pin() {
    const point = this.#previewPoint();
    if (!point) return;
    this.#preview = null;
    this.setState({ probe: point.map((v) => String(Number(v.toFixed(3)))).join(',') }, 'user');
  }

  #exactEverywhere() {
    return this.lab.activationInfo(this.state.activation).linear;
  }

  #showProbe() {
    const local = this.#local;
    if (!local) {
      this.#probeText.textContent = this.#exactEverywhere()
        ? 'σ is linear: sym(B_u) is exact everywhere. Point at the plane to check x·B·xᵀ = u·f(x) at a point.'
        : 'Point at the plane (or focus it and use the arrow keys) to see the exact matrix M_u(x) there; '
          + 'click or Enter pins it.';
      return;
    }
    const [a, b] = local.point;
    const r = local.result;
    this.#probeText.textContent = `At (${formatNumber(a)}, ${formatNumber(b)})${local.pinned ? ' (pinned)' : ''}: `
      + `x·M·xᵀ = ${formatNumber(r.quadratic)}, u·f(x) = ${formatNumber(r.output)}${r.exact ? ' (exact)' : ''}.`;
  }

  #summary() {
    const m = this.#model;
    const w = this.#weightBased;
    if (!m || !w) return '';
    const name = layerLabel(this.state, this.lab);
    const what = this.state.source === 'trained'
      ? `${name} trained on ${this.state.task} for ${m.steps} steps (test accuracy ${formatNumber(m.accuracy)})`
        + (m.divergence ? `; training diverged: ${m.divergence.message}` : '')
      : `random ${name} layer, d = ${m.d}, output direction e${this.state.output + 1}`;
    const eig = Array.from(w.eigenvalues, formatNumber).join(', ');
    const exact = this.#exactEverywhere()
      ? 'σ is linear, so x·sym(B_u)·xᵀ = u·f(x) for every x.'
      : 'σ is not linear, so sym(B_u) only summarises the weights; the matrix at a point is exact there.';
    const raw = w.rawAsymmetry > 1e-6 ? `asymmetric (‖B − Bᵀ‖/‖B‖ = ${formatNumber(w.rawAsymmetry)})` : 'symmetric';
    return `${what}. Raw B_u is ${raw}; `
      + 'swapping Q and K transposes it, and both layers give the same sym(B_u) '
      + `(difference ${formatNumber(w.exchangeGap)}). `
      + `Eigenvalues of sym(B_u): ${eig}. ${exact}`;
  }

  // ---- drawing ----------------------------------------------------------------------------

  draw() {
    const [planeCanvas, matricesCanvas, spectrumCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const m = this.#model;
    const w = this.#weightBased;
    if (!m || !w) return;
    const theme = this.theme;
    {
      const { ctx, width, height } = this.beginCanvas(planeCanvas);
      const fontSize = this.fontSizeFor(width);
      const half = EXTENT / (N - 1);
      const range = [-EXTENT - half, EXTENT + half];
      const { plot, xScale, yScale } = drawHeatmap(ctx, { x: 0, y: 0, w: width, h: height }, {
        grid: m.plane, rows: N, cols: N, xRange: range, yRange: range, scale: m.scale, theme, fontSize,
        xLabel: m.labels[0], yLabel: m.labels[1], barLabel: 'u·f',
        contours: { levels: [0], width: 1.5 },
      });
      this.#planeArea = plot;
      if (m.data) drawPoints(ctx, plot, { data: m.data, extent: EXTENT + half, theme, radius: 2.2 });
      const point = this.#local?.point;
      if (point) {
        drawRing(ctx, xScale(point[0]), yScale(point[1]), 6,
          { theme, color: this.#local.pinned ? theme.accent : theme.fg });
      }
      ctx.font = `600 ${fontSize + 1}px ${theme.font}`;
      ctx.fillStyle = theme.fg;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      const heading = this.state.source === 'trained' ? 'u·f(x, y, 1)' : `f${this.state.output + 1}(x₁, x₂, 0, …)`;
      ctx.fillText(heading, plot.x, 2);
    }
    {
      const { ctx, width, height } = this.beginCanvas(matricesCanvas);
      const fontSize = this.fontSizeFor(width);
      const panels = [
        { values: w.raw, title: 'raw B_u', subtitle: 'Σⱼ (u·vⱼ) qⱼᵀkⱼ' },
        { values: this.#swapped.raw, title: 'raw, Q ↔ K', subtitle: '= B_uᵀ' },
        { values: w.matrix, title: 'sym(B_u)', subtitle: 'same for both', highlight: !this.#local },
      ];
      if (this.#local) {
        panels.push({ values: this.#local.result.matrix, title: 'M_u(x) here', subtitle: 'exact at x',
          highlight: true });
      }
      const scale = Math.max(...panels.map((p) => maxAbs(p.values)));
      const [pw, ph] = [width / 2, height / 2];
      const size = fontSize - (m.d > 5 ? 1 : 0);
      panels.forEach((p, i) => {
        const rect = { x: (i % 2) * pw + 4, y: Math.floor(i / 2) * ph + 2, w: pw - 8, h: ph - 4 };
        const at = fitMatrix(rect, { rows: m.d, cols: m.d, labels: m.labels, note: true, fontSize: size });
        drawMatrix(ctx, { ...at, values: p.values, rows: m.d, cols: m.d, scale, labels: m.labels, theme, fontSize: size,
          title: p.title, note: p.subtitle, outline: p.highlight ? theme.accent : null,
          outlineWidth: p.highlight ? 2 : 1,
          titleColor: p.highlight ? theme.accent : theme.fg, noteColor: theme.muted, showValues: true, gap: 1 });
      });
      if (panels.length === 3) {
        ctx.save();
        ctx.font = `${fontSize - 1}px ${theme.font}`;
        ctx.fillStyle = theme.muted;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        const lines = this.#exactEverywhere() ? ['σ is linear:', 'sym(B_u) is exact', 'at every x']
          : ['point at the plane', 'for the exact', 'matrix M_u(x) there'];
        lines.forEach((line, k) => ctx.fillText(line, 1.5 * pw, 1.5 * ph + (k - 1) * 1.35 * fontSize));
        ctx.restore();
      }
    }
    {
      const { ctx, width, height } = this.beginCanvas(spectrumCanvas);
      const fontSize = this.fontSizeFor(width);
      const source = this.#local?.result ?? w;
      const d = m.d;
      const vectors = Math.min(2, d);
      const colors = palette(theme, 4);
      // Side by side when wide, stacked on a phone.
      const stacked = width < 430;
      const first = stacked ? { x: 0, y: 0, w: width, h: height / 2 - 6 } : { x: 0, y: 0, w: width / 2 - 6, h: height };
      const second = stacked ? { x: 0, y: height / 2 + 6, w: width, h: height / 2 - 6 }
        : { x: width / 2 + 6, y: 0, w: width / 2 - 6, h: height };
      const eig = Array.from(source.eigenvalues);
      const top = Math.max(...eig.map(Math.abs)) * 1.1 || 1;
      drawBars(ctx, first, {
        categories: eig.map((_, i) => `λ${i + 1}`), theme, fontSize, yDomain: [-top, top],
        groups: [{ label: 'eigenvalue', color: theme.accent, values: eig }],
        title: this.#local ? 'Eigenvalues of M_u(x)' : 'Eigenvalues of sym(B_u)',
        valueText: (v) => formatNumber(v),
      });
      const groups = Array.from({ length: vectors }, (_, k) => ({
        label: `v${k + 1} (of λ${k + 1})`, color: colors[k + 1],
        values: Array.from({ length: d }, (_, c) => source.eigenvectors[k * d + c]),
      }));
      drawBars(ctx, second, {
        categories: m.labels, theme, fontSize, yDomain: [-1.05, 1.05], groups, title: 'Top eigenvectors',
      });
    }
  }

  csv() {
    const columns = ['matrix', 'row', 'column', 'value'];
    const rows = [];
    const m = this.#model;
    const w = this.#weightBased;
    if (!m || !w) return { columns, rows };
    const add = (name, values) => {
      for (let i = 0; i < m.d; i++) {
        for (let j = 0; j < m.d; j++) rows.push([name, m.labels[i], m.labels[j], values[i * m.d + j]]);
      }
    };
    add('raw', w.raw);
    add('raw_exchanged', this.#swapped.raw);
    add('sym', w.matrix);
    Array.from(w.eigenvalues).forEach((v, i) => rows.push(['eigenvalue', `λ${i + 1}`, '', v]));
    for (let k = 0; k < m.d; k++) {
      for (let c = 0; c < m.d; c++) rows.push(['eigenvector', `v${k + 1}`, m.labels[c], w.eigenvectors[k * m.d + c]]);
    }
    if (this.#local) {
      add('effective_at_probe', this.#local.result.matrix);
      rows.push(['probe', this.#local.point[0], this.#local.point[1], this.#local.result.output]);
    }
    return { columns, rows };
  }
}
