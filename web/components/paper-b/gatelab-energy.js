// <gatelab-energy tokens="-1.6,1.1 1.4,1.5 0.9,-1.5 0.4,0.7" eta="1.5" steps="3" seed="4">
//
// docs/MATH.md §B1, §B2, §B4–§B6 made visible in a 2-D token space (d = 2). A few context tokens h₀ … h_{n−2}
// and the query token h_{n−1} (the last one: it is its own context too). Left: the energy
// ε(y | h₀ … h_{n−1}) of the query's variable y over the plane, as a heatmap with contours,
// evaluated by the library over the whole grid in one call (att.energyGrid); the query's T
// gradient steps y ← y − η P ∇ε as a path (att.trajectory), the first one as an arrow. Right: the
// energy at each step (att.energyTrace). Tokens can be dragged, or moved with the arrow keys
// once the plane has focus ([ and ] pick the token). W_Q, W_K come from the library's seeded
// initialisation; the diagonal and the preconditioner (which the library starts at 0 and at
// P = I) are drawn from the same seed.
import { CemFigure, createStepRanges } from './cem-figure.js';
import { createProbeLine } from '../base/grid-probe.js';
import { createButton, createRange, createReseedButton, createSelect, setSelectOptions } from '../base/controls.js';
import { formatNumber, subscript } from '../base/format.js';
import { withAlpha } from '../base/theme.js';
import { extent } from '../plot/axes.js';
import { drawChart } from '../plot/chart.js';
import { drawArrow } from '../plot/marks.js';
import { richText } from '../plot/text.js';
import { drawLandscape, drawPath, drawStepDots, drawTokens } from './plane-marks.js';
import { createPlaneAttention, DEFAULT_TOKENS, descentDirection, firstRise, formatTokens, pathOf, tokensOf, traceOf,
  TOKENS_PATTERN } from './cem-kit.js';

const DRAG_RESOLUTION = 48;
const DIAGONAL_LABELS = { none: 'none', 'per-head': 'one per head', shared: 'shared' };
const PRECOND_LABELS = { none: 'none (P = I)', paper: 'paper: D + UVᵀ + VUᵀ', psd: 'positive definite: D + UUᵀ' };

const STYLES = `
.plots canvas.landscape { aspect-ratio: 1.16; touch-action: none; cursor: crosshair; }
.plots canvas.landscape.grab { cursor: grab; }
.plots canvas.landscape.grabbing { cursor: grabbing; }
.plots canvas.trace { aspect-ratio: 1.8; }
@container (min-width: 640px) {
  .plots { grid-template-columns: minmax(0, 1.3fr) minmax(0, 1fr); }
  .plots canvas.trace { aspect-ratio: 1.05; }
}
`;

export class GateLabEnergy extends CemFigure {
  static description = "A query token's energy landscape over a 2-D token plane and its gradient steps.";
  static events = { computed: 'The landscape and path were computed: detail { result, state }.' };
  static styles = STYLES;
  static schema = {
    tokens: { type: 'string', default: DEFAULT_TOKENS, pattern: TOKENS_PATTERN },
    beta: { type: 'number', default: 0, min: 0, max: 8 },
    eta: { type: 'number', default: 1.5, min: 0.02, max: 4 },
    steps: { type: 'integer', default: 3, min: 1, max: 12 },
    heads: { type: 'integer', default: 1, min: 1, max: 2 },
    diagonal: { type: 'enum', default: 'none', values: ['none', 'per-head', 'shared'] },
    precond: { type: 'enum', default: 'none', values: ['none', 'paper', 'psd'] },
    extent: { type: 'number', default: 3, min: 1, max: 6 },
    resolution: { type: 'integer', default: 96, min: 16, max: 200 },
    seed: { type: 'integer', default: 4, min: 0, max: 4294967295 },
  };

  #controls = null;
  #att = null;
  #attKey = '';
  #result = null;     // { h, n, grid, G, path, energies, lambda, descent, beta, extent }
  #selected = null;   // index of the token the keyboard moves (null = the query)
  #drag = null;       // pointer drag: { index, pointerId, pending: { x, y } | null, frame }
  #area = null;       // { plot, xScale, yScale } of the last drawing
  #probeText = null;
  #canvas = null;

  /** The last computation: { tokens, energies, path, minEigenvalue, beta, descent } (library numbers), or null. */
  get result() {
    const r = this.#result;
    if (!r) return null;
    return { tokens: Array.from(r.h), energies: Array.from(r.energies), path: Array.from(r.path),
      minEigenvalue: r.lambda, beta: r.beta, descent: r.descent ? Array.from(r.descent) : null };
  }

  /** Where the last drawing put the token plane: { x, y, w, h } in CSS pixels of the landscape canvas, and extent. */
  get plotArea() {
    return this.#area ? { ...this.#area.plot, extent: this.state.extent } : null;
  }

  get #tokens() {
    return tokensOf(this.state.tokens);
  }

  get #selectedIndex() {
    const n = this.#tokens.length / 2;
    return this.#selected === null || this.#selected >= n ? n - 1 : this.#selected;
  }

  build({ plots, controls }) {
    this.#canvas = this.createCanvas({ name: 'landscape',
      label: 'Energy landscape of the query token over the token plane, '
        + 'with the context tokens and the query’s gradient steps. '
        + 'Focus it and use the arrow keys to move a token; [ and ] pick the token.' });
    this.createCanvas({ name: 'trace', label: 'The query’s energy after each gradient step' });
    this.#probeText = createProbeLine(plots);
    this.#attachPointer(this.#canvas);
    this.#attachKeyboard(this.#canvas);

    const token = createSelect({
      label: 'Move token', options: [], value: '',
      onChange: (value) => {
        this.#selected = Number(value);
        this.#showProbe();
        this.requestDraw();
      },
    });
    const beta = createRange({
      label: 'β', min: 0, max: 4, step: 0.05, value: this.state.beta,
      // "auto": the library's β in use (1/√d_h), once a computation has given it.
      format: (v) => (v === 0 ? `auto${this.#result ? ` ${formatNumber(this.#result.beta)}` : ''}` : v.toFixed(2)),
      onInput: (value) => this.setState({ beta: value }, 'user'),
    });
    const { eta, steps } = createStepRanges(this);
    const heads = createSelect({
      label: 'Heads', value: String(this.state.heads),
      options: [{ value: '1', text: '1 (d_h = 2)' }, { value: '2', text: '2 (d_h = 1)' }],
      onChange: (value) => this.setState({ heads: Number(value) }, 'user'),
    });
    const diagonal = createSelect({
      label: 'Diagonal', value: this.state.diagonal,
      options: Object.entries(DIAGONAL_LABELS).map(([value, text]) => ({ value, text })),
      onChange: (value) => this.setState({ diagonal: value }, 'user'),
    });
    const precond = createSelect({
      label: 'Preconditioner', value: this.state.precond,
      options: Object.entries(PRECOND_LABELS).map(([value, text]) => ({ value, text })),
      onChange: (value) => this.setState({ precond: value }, 'user'),
    });
    const reseed = createReseedButton(this, { text: 'New weights' });
    const reset = createButton({
      text: 'Reset tokens', part: 'button reset',
      onClick: () => this.setState({ tokens: DEFAULT_TOKENS }, 'user'),
    });
    controls.append(token.element, beta.element, eta.element, steps.element, heads.element, diagonal.element,
      precond.element, reseed, reset);
    this.#controls = { token, beta, eta, steps, heads, diagonal, precond, reseed };
  }

  syncControls() {
    const { token, beta, eta, steps, heads, diagonal, precond, reseed } = this.#controls;
    const n = this.#tokens.length / 2;
    const options = Array.from({ length: n },
      (_, i) => ({ value: String(i), text: i === n - 1 ? `h${subscript(i)} (query)` : `h${subscript(i)}` }));
    if (token.select.options.length !== n) setSelectOptions(token.select, options, String(this.#selectedIndex));
    token.select.value = String(this.#selectedIndex);
    beta.set(this.state.beta);
    eta.set(this.state.eta);
    steps.set(this.state.steps);
    heads.select.value = String(this.state.heads);
    diagonal.select.value = this.state.diagonal;
    precond.select.value = this.state.precond;
    reseed.title = `Seed ${this.state.seed}: draw new weights W_Q, W_K (and diagonal, preconditioner)`;
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#drag = null;
  }

  #layer() {
    const { heads, steps, eta, beta, diagonal, precond, seed } = this.state;
    const key = JSON.stringify([heads, steps, eta, beta, diagonal, precond, seed]);
    if (!this.#att || this.#attKey !== key) {
      this.#att?.dispose();
      this.#att = null;
      this.#att = createPlaneAttention(this.lab, { heads, steps, eta, beta, diagonal, precond, seed });
      this.#attKey = key;
    }
    return this.#att;
  }

  compute() {
    const att = this.#layer();
    const h = this.#tokens;
    const n = h.length / 2;
    const q = n - 1;
    const { extent, steps } = this.state;
    // While a token is dragged the landscape follows at a coarser grid; the full one comes on release.
    const G = this.#drag ? Math.min(this.state.resolution, DRAG_RESOLUTION) : this.state.resolution;
    const grid = att.energyGrid(h, n, q, { min: -extent, max: extent, G });
    const path = pathOf(att.trajectory(h, n), n, 2, q, steps);
    const energies = traceOf(att.energyTrace(h, n), q, steps);
    const lambda = att.minEigenvalue();
    const descent = this.state.precond === 'none' ? null : descentDirection(att, h, n, q);
    this.#result = { h, n, grid, G, path, energies, lambda, descent, beta: att.beta, extent };
    this.#controls.beta.set(this.state.beta);  // the "auto" text shows the β in use
    this.#showProbe();
  }

  summary() {
    const { energies, lambda, beta, n } = this.#result;
    const { eta, steps, precond, heads } = this.state;
    const rise = firstRise(energies);
    const chain = Array.from(energies, (e) => formatNumber(e)).join(' → ');
    const trend = rise < 0 ? 'it falls at every step' : `it rises at step ${rise}`;
    const p = precond === 'none' ? 'P = I'
      : `P ${precond === 'paper' ? '= D + UVᵀ + VUᵀ' : '= D + UUᵀ'} with smallest eigenvalue ${formatNumber(lambda)} `
        + `(${lambda > 0 ? 'positive definite' : 'indefinite: a step can climb'})`;
    return `Energy of the query h${subscript(n - 1)} before and after each of T = ${steps} steps: ${chain}; ${trend}. `
      + `β = ${formatNumber(beta)}${this.state.beta === 0 ? ' (1/√d_h)' : ''}, η = ${formatNumber(eta)}, `
      + `${heads} head${heads > 1 ? 's' : ''}, ${p}.`;
  }

  #showProbe() {
    if (!this.#probeText) return;
    const h = this.#tokens;
    const n = h.length / 2;
    const i = this.#selectedIndex;
    const what = i === n - 1 ? `the query h${subscript(i)}` : `h${subscript(i)}`;
    this.#probeText.textContent = `Selected ${what} at (${formatNumber(h[2 * i])}, ${formatNumber(h[2 * i + 1])}). `
      + 'Drag a token, or focus the plane and use the arrow keys (Shift: larger steps); [ and ] pick another token.';
  }

  // ---- moving tokens ---------------------------------------------------------------------

  #moveToken(index, x, y) {
    const h = this.#tokens.slice();
    const limit = this.state.extent;
    h[2 * index] = Math.max(-limit, Math.min(limit, x));
    h[2 * index + 1] = Math.max(-limit, Math.min(limit, y));
    this.setState({ tokens: formatTokens(h) }, 'user');
  }

  #tokenAt(event) {
    const area = this.#area;
    if (!area) return { index: -1 };
    const box = this.#canvas.getBoundingClientRect();
    const [px, py] = [event.clientX - box.left, event.clientY - box.top];
    const h = this.#tokens;
    let best = -1;
    let distance = Infinity;
    for (let i = 0; i < h.length / 2; i++) {
      const d = Math.hypot(area.xScale(h[2 * i]) - px, area.yScale(h[2 * i + 1]) - py);
      if (d < distance) [best, distance] = [i, d];
    }
    const data = { x: area.xScale.invert(px), y: area.yScale.invert(py) };
    return { index: distance <= 16 ? best : -1, data };
  }

  #attachPointer(canvas) {
    canvas.addEventListener('pointerdown', (event) => {
      const { index } = this.#tokenAt(event);
      if (index < 0) return;
      event.preventDefault();
      this.#drag = { index, pointerId: event.pointerId, pending: null, frame: 0 };
      this.#selected = index;
      canvas.setPointerCapture?.(event.pointerId);
      canvas.classList.add('grabbing');
      this.syncControls();
      this.#showProbe();
      this.requestDraw();
    });
    canvas.addEventListener('pointermove', (event) => {
      const hit = this.#tokenAt(event);
      const drag = this.#drag;
      if (drag && event.pointerId === drag.pointerId) {
        // At most one recomputation per animation frame, with the latest position.
        if (hit.data) drag.pending = hit.data;
        drag.frame ||= requestAnimationFrame(() => {
          drag.frame = 0;
          if (drag.pending && this.#drag === drag) this.#moveToken(drag.index, drag.pending.x, drag.pending.y);
          drag.pending = null;
        });
        return;
      }
      canvas.classList.toggle('grab', hit.index >= 0);
    });
    const end = (event) => {
      const drag = this.#drag;
      if (!drag || event.pointerId !== drag.pointerId) return;
      cancelAnimationFrame(drag.frame);
      if (drag.pending) this.#moveToken(drag.index, drag.pending.x, drag.pending.y);
      this.#drag = null;
      canvas.classList.remove('grabbing');
      canvas.releasePointerCapture?.(event.pointerId);
      this.update();  // the full-resolution landscape
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
  }

  #attachKeyboard(canvas) {
    canvas.tabIndex = 0;
    canvas.addEventListener('keydown', (event) => {
      const n = this.#tokens.length / 2;
      const i = this.#selectedIndex;
      if (event.key === '[' || event.key === ']') {
        event.preventDefault();
        this.#selected = (i + (event.key === ']' ? 1 : n - 1)) % n;
        this.syncControls();
        this.#showProbe();
        this.requestDraw();
        return;
      }
      const step = event.shiftKey ? 0.5 : 0.1;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      const h = this.#tokens;
      this.#moveToken(i, h[2 * i] + move[0], h[2 * i + 1] + move[1]);
    });
    canvas.addEventListener('focus', () => this.requestDraw());
    canvas.addEventListener('blur', () => this.requestDraw());
  }

  // ---- drawing -----------------------------------------------------------------------------

  draw() {
    const r = this.#result;
    if (!r) return;
    const [landscape, traceCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const theme = this.theme;
    {
      const { ctx, width, height } = this.beginCanvas(landscape);
      const fontSize = this.fontSizeFor(width);
      const area = drawLandscape(ctx, { x: 0, y: 0, w: width, h: height }, {
        grid: r.grid, G: r.G, lo: -r.extent, hi: r.extent, theme, fontSize,
        xLabel: 'y₁', yLabel: 'y₂', barLabel: 'ε',
      });
      const { plot, xScale, yScale } = area;
      this.#area = { plot, xScale, yScale };
      ctx.save();
      ctx.beginPath();
      ctx.rect(plot.x, plot.y, plot.w, plot.h);
      ctx.clip();
      this.#drawPath(ctx, r, xScale, yScale, fontSize);
      ctx.restore();
      if (r.descent) {
        richText(ctx, 'dashed: the step without P, −η∇ε', plot.x + 4, plot.y + plot.h - 6,
          { theme, fontSize, color: theme.fg, baseline: 'bottom', halo: true });
      }
      const focused = this.shadowRoot.activeElement === landscape;
      const selected = focused || this.#drag ? this.#selectedIndex : -1;
      drawTokens(ctx, r.h, r.n, xScale, yScale, { theme, fontSize, selected });
      ctx.font = `${fontSize + 1}px ${theme.font}`;
      ctx.fillStyle = theme.fg;
      ctx.textBaseline = 'top';
      const steps = this.state.steps;
      ctx.fillText(`ε(y | h₀ … h${subscript(r.n - 1)}) and ${steps} step${steps > 1 ? 's' : ''}`, plot.x, 2);
    }
    {
      const { ctx, width, height } = this.beginCanvas(traceCanvas);
      const fontSize = this.fontSizeFor(width);
      const x = Array.from(r.energies, (_, t) => t);
      const { xScale, yScale } = drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
        series: [{ x, y: r.energies, color: theme.accent, width: 2.5 }],
        xDomain: [0, Math.max(1, r.energies.length - 1)], yDomain: extent([r.energies]), theme, fontSize,
        xLabel: 'step t', yLabel: 'ε(yᵗ)', title: 'Energy of the query after each step',
      });
      drawStepDots(ctx, r.energies, xScale, yScale, { theme, radius: Math.max(3.5, fontSize * 0.33) });
      const rise = firstRise(r.energies);
      ctx.save();
      if (rise > 0) {
        ctx.font = `${fontSize}px ${theme.font}`;
        ctx.fillStyle = theme.accent2;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'bottom';
        ctx.fillText('rises', xScale(rise), yScale(r.energies[rise]) - 8);
      }
      ctx.restore();
    }
  }

  /** The query's steps: the path, its first step as an arrow, and −η∇ε dashed when P ≠ I. */
  #drawPath(ctx, r, xScale, yScale, fontSize) {
    const theme = this.theme;
    const [x0, y0] = [xScale(r.path[0]), yScale(r.path[1])];
    if (r.descent) {
      const eta = this.state.eta;
      drawArrow(ctx, x0, y0, xScale(r.path[0] + eta * r.descent[0]), yScale(r.path[1] + eta * r.descent[1]),
        { color: theme.accent2, width: 1.8, head: 8, dash: [4, 3], halo: withAlpha(theme.bg, 0.8) });
    }
    const points = drawPath(ctx, r.path, xScale, yScale, { theme, fontSize, color: theme.fg, end: true });
    if (points.length > 1) {
      drawArrow(ctx, x0, y0, points[1][0], points[1][1],
        { color: theme.fg, width: 3, head: 11, halo: withAlpha(theme.bg, 0.9) });
    }
  }

  csv() {
    const columns = ['series', 'index', 'y1', 'y2', 'energy'];
    const rows = [];
    const r = this.#result;
    if (!r) return { columns, rows };
    for (let i = 0; i < r.n; i++) rows.push(['token', i, r.h[2 * i], r.h[2 * i + 1], '']);
    for (let t = 0; t < r.energies.length; t++) rows.push(['step', t, r.path[2 * t], r.path[2 * t + 1], r.energies[t]]);
    const { G, extent } = r;
    for (let row = 0; row < G; row++) {
      for (let c = 0; c < G; c++) {
        const u = -extent + (2 * extent * c) / (G - 1);
        const v = -extent + (2 * extent * row) / (G - 1);
        rows.push(['grid', row * G + c, u, v, r.grid[row * G + c]]);
      }
    }
    return { columns, rows };
  }
}
