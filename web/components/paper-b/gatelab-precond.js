// <gatelab-precond form="paper" u1="0.9" u2="0.3" v1="-0.4" v2="0.7" eta="2" steps="4" seed="4">
//
// docs/MATH.md §B5 made visible for d = 2, rank 1. The paper's preconditioner P = D + uvᵀ + vuᵀ is
// symmetric but not positive definite in general; the variant D + uuᵀ always is (D = I here).
// Left: the query's energy landscape (as in <gatelab-energy>), its T steps under P (solid) and
// under P = I (dashed), and, shaded around the start, the gradient directions g that P turns
// uphill (gᵀPg < 0: empty while P is positive definite). Top right: the spectrum of P as V (for
// the paper's form; U for the variant) is scaled by s, with the current P at s = 1, and where
// the smallest eigenvalue crosses 0. Bottom right: the energy per step under P and under I.
// Every number is the library's: att.preconditioner(), att.spectrum(), att.energyGrid(),
// att.trajectory(), att.energyTrace().
import { CemFigure, createStepRanges } from './cem-figure.js';
import { createButton, createRange, createSelect } from '../base/controls.js';
import { formatNumber } from '../base/format.js';
import { withAlpha } from '../base/theme.js';
import { extent } from '../plot/axes.js';
import { drawChart } from '../plot/chart.js';
import { drawArrow } from '../plot/marks.js';
import { richText } from '../plot/text.js';
import { drawLandscape, drawPath, drawStepDots, drawTokens } from './plane-marks.js';
import { createPlaneAttention, DEFAULT_TOKENS, descentDirection, firstRise, pathOf, setFactors, tokensOf, traceOf,
  TOKENS_PATTERN } from './cem-kit.js';

const DEFAULTS = { u1: 0.9, u2: 0.3, v1: -0.4, v2: 0.7 };
const SWEEP = 81;
const SWEEP_MAX = 2.5;
const EXTENT = 3;
const G = 80;

const STYLES = `
.plots canvas.landscape { aspect-ratio: 1.16; }
.plots canvas.spectrum, .plots canvas.trace { aspect-ratio: 1.75; }
@container (min-width: 640px) {
  .plots { grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr); }
  .plots canvas.landscape { grid-row: span 2; }
  .plots canvas.spectrum, .plots canvas.trace { aspect-ratio: 1.42; }
}
`;

export class GateLabPrecond extends CemFigure {
  static description = "The preconditioner's spectrum and what an indefinite P does to the descent.";
  static events = { computed: 'The spectrum and both descents were computed: detail { result, state }.' };
  static styles = STYLES;
  static schema = {
    form: { type: 'enum', default: 'paper', values: ['paper', 'psd'] },
    u1: { type: 'number', default: DEFAULTS.u1, min: -2, max: 2 },
    u2: { type: 'number', default: DEFAULTS.u2, min: -2, max: 2 },
    v1: { type: 'number', default: DEFAULTS.v1, min: -2, max: 2 },
    v2: { type: 'number', default: DEFAULTS.v2, min: -2, max: 2 },
    eta: { type: 'number', default: 2, min: 0.05, max: 3 },
    steps: { type: 'integer', default: 4, min: 1, max: 12 },
    tokens: { type: 'string', default: DEFAULT_TOKENS, pattern: TOKENS_PATTERN },
    seed: { type: 'integer', default: 4, min: 0, max: 4294967295 },
  };

  #controls = null;
  #result = null;

  /**
   * The last computation: { spectrum, minEigenvalue, positiveDefinite, energies, plainEnergies, crossing, descent },
   * or null.
   */
  get result() {
    const r = this.#result;
    return r ? { spectrum: Array.from(r.spectrum), minEigenvalue: r.spectrum[0], positiveDefinite: r.spectrum[0] > 0,
      energies: Array.from(r.energies), plainEnergies: Array.from(r.plainEnergies), crossing: r.crossing,
      descent: Array.from(r.descent) } : null;
  }

  build({ controls }) {
    this.createCanvas({ name: 'landscape',
      label: 'Energy landscape of the query with its steps under P and under the identity, '
        + 'and the gradient directions P turns uphill' });
    this.createCanvas({ name: 'spectrum',
      label: 'Eigenvalues of P as one factor is scaled, and where the smallest crosses zero' });
    this.createCanvas({ name: 'trace', label: 'Energy of the query after each step, under P and under the identity' });
    const form = createSelect({
      label: 'P', value: this.state.form,
      options: [{ value: 'paper', text: 'paper: I + uvᵀ + vuᵀ' }, { value: 'psd', text: 'positive definite: I + uuᵀ' }],
      onChange: (value) => this.setState({ form: value }, 'user'),
    });
    const slider = (name, text) => createRange({
      label: text, min: -2, max: 2, step: 0.05, value: this.state[name], format: (v) => v.toFixed(2),
      onInput: (value) => this.setState({ [name]: value }, 'user'),
    });
    const u1 = slider('u1', 'u₁');
    const u2 = slider('u2', 'u₂');
    const v1 = slider('v1', 'v₁');
    const v2 = slider('v2', 'v₂');
    const { eta, steps } = createStepRanges(this);
    const reflect = createButton({
      text: 'Reflect the gradient', part: 'button reflect',
      title: 'Set u = ĝ and v = −ĝ (ĝ the unit gradient at the start): '
        + 'P = I − 2ĝĝᵀ turns the first step exactly uphill',
      onClick: () => this.reflectGradient(),
    });
    const reset = createButton({
      text: 'Reset u, v', part: 'button reset',
      onClick: () => this.setState({ ...DEFAULTS }, 'user'),
    });
    controls.append(form.element, u1.element, u2.element, v1.element, v2.element, eta.element, steps.element,
      reflect, reset);
    this.#controls = { form, u1, u2, v1, v2, eta, steps, reflect };
  }

  syncControls() {
    const c = this.#controls;
    c.form.select.value = this.state.form;
    for (const name of ['u1', 'u2', 'v1', 'v2', 'eta', 'steps']) c[name].set(this.state[name]);
    c.v1.element.hidden = c.v2.element.hidden = this.state.form !== 'paper';
    c.reflect.hidden = this.state.form !== 'paper';
  }

  /** u = ĝ, v = −ĝ with ĝ the unit gradient of the query's energy at its start (paper's form). */
  reflectGradient() {
    const r = this.#result;
    if (!r) return;
    const [gx, gy] = [-r.descent[0], -r.descent[1]];
    const norm = Math.hypot(gx, gy) || 1;
    const round = (v) => Math.round(v * 20) / 20;
    this.setState({ form: 'paper', u1: round(gx / norm), u2: round(gy / norm), v1: round(-gx / norm),
      v2: round(-gy / norm) }, 'user');
  }

  /** The factors u, v of the sliders, with v (u for the variant) scaled by s; p stays the library's (D = I). */
  #factors(scale = 1) {
    const { form, u1, u2, v1, v2 } = this.state;
    if (form === 'paper') return { U: [u1, u2], V: [scale * v1, scale * v2] };
    return { U: [scale * u1, scale * u2] };
  }

  compute() {
    const { form, eta, steps, seed } = this.state;
    const h = tokensOf(this.state.tokens);
    const n = h.length / 2;
    const q = n - 1;
    const common = { heads: 1, steps, eta, beta: 0, diagonal: 'none', seed };
    const att = createPlaneAttention(this.lab, { ...common, precond: form, factors: this.#factors() });
    const plain = createPlaneAttention(this.lab, { ...common, precond: 'none' });
    try {
      const P = att.preconditioner();
      const spectrum = att.spectrum();
      const grid = att.energyGrid(h, n, q, { min: -EXTENT, max: EXTENT, G });
      const path = pathOf(att.trajectory(h, n), n, 2, q, steps);
      const plainPath = pathOf(plain.trajectory(h, n), n, 2, q, steps);
      const energies = traceOf(att.energyTrace(h, n), q, steps);
      const plainEnergies = traceOf(plain.energyTrace(h, n), q, steps);
      const descent = descentDirection(att, h, n, q);
      // The spectrum along the ray V → s·V (U → s·U for the variant), from the library.
      const s = Float32Array.from({ length: SWEEP }, (_, k) => -SWEEP_MAX + (2 * SWEEP_MAX * k) / (SWEEP - 1));
      const low = new Float32Array(SWEEP);
      const high = new Float32Array(SWEEP);
      s.forEach((scale, k) => {
        setFactors(att, this.#factors(scale));
        const values = att.spectrum();
        low[k] = values[0];
        high[k] = values[1];
      });
      setFactors(att, this.#factors());
      // Where λ_min crosses 0 nearest to s = 1 (linear interpolation between samples).
      let crossing = null;
      for (let k = 1; k < SWEEP; k++) {
        if ((low[k - 1] > 0) !== (low[k] > 0)) {
          const at = s[k - 1] + ((s[k] - s[k - 1]) * low[k - 1]) / (low[k - 1] - low[k]);
          if (crossing === null || Math.abs(at - 1) < Math.abs(crossing - 1)) crossing = at;
        }
      }
      this.#result = { h, n, P, spectrum, grid, path, plainPath, energies, plainEnergies, descent,
        sweep: { s, low, high }, crossing, form };
    } finally {
      att.dispose();
      plain.dispose();
    }
  }

  summary() {
    const r = this.#result;
    const [l1, l2] = r.spectrum;
    const P = r.P;
    const matrix = `P = [[${formatNumber(P[0])}, ${formatNumber(P[1])}], `
      + `[${formatNumber(P[2])}, ${formatNumber(P[3])}]]`;
    const definite = l1 > 0 ? 'positive definite' : l1 === 0 ? 'singular' : 'indefinite: some steps climb';
    const factor = r.form === 'paper' ? 'v' : 'u';
    const where = r.crossing === null ? `it stays positive definite for every scale of ${factor}`
      : `along s·${factor} it stops being positive definite at s = ${formatNumber(r.crossing)}`;
    const trend = (energies) => {
      const rise = firstRise(energies);
      return rise < 0 ? 'falls at every step' : `rises at step ${rise}`;
    };
    return `${matrix}, eigenvalues ${formatNumber(l1)} and ${formatNumber(l2)}: ${definite}; ${where}. `
      + `The query’s energy ${Array.from(r.energies, (e) => formatNumber(e)).join(' → ')} `
      + `under P ${trend(r.energies)}; `
      + `under P = I it ${trend(r.plainEnergies)}.`;
  }

  draw() {
    const r = this.#result;
    if (!r) return;
    const [landscape, spectrum, trace] = this.shadowRoot.querySelectorAll('canvas');
    this.#drawLandscape(landscape, r);
    this.#drawSpectrum(spectrum, r);
    this.#drawTrace(trace, r);
  }

  #drawLandscape(canvas, r) {
    const { ctx, width, height } = this.beginCanvas(canvas);
    const theme = this.theme;
    const fontSize = this.fontSizeFor(width);
    const { plot, xScale, yScale } = drawLandscape(ctx, { x: 0, y: 0, w: width, h: height }, {
      grid: r.grid, G, lo: -EXTENT, hi: EXTENT, theme, fontSize, xLabel: 'y₁', yLabel: 'y₂', barLabel: 'ε',
    });
    const [x0, y0] = [xScale(r.path[0]), yScale(r.path[1])];
    ctx.save();
    ctx.beginPath();
    ctx.rect(plot.x, plot.y, plot.w, plot.h);
    ctx.clip();
    // The directions w with wᵀPw < 0, as wedges around the start.
    const radius = plot.w * 0.3;
    const P = r.P;
    ctx.fillStyle = withAlpha(theme.accent2, 0.28);
    ctx.strokeStyle = withAlpha(theme.accent2, 0.8);
    ctx.lineWidth = 1;
    const samples = 360;
    ctx.beginPath();
    for (let k = 0; k < samples; k++) {
      const a0 = (2 * Math.PI * k) / samples;
      const a1 = (2 * Math.PI * (k + 1)) / samples;
      const am = (a0 + a1) / 2;
      const [wx, wy] = [Math.cos(am), Math.sin(am)];
      if (wx * (P[0] * wx + P[1] * wy) + wy * (P[2] * wx + P[3] * wy) >= 0) continue;
      ctx.moveTo(x0, y0);
      ctx.arc(x0, y0, radius, -a0, -a1, true);  // canvas y points down: negate the angles
      ctx.closePath();
    }
    ctx.fill();
    // Paths: under I (dashed), under P (solid).
    drawPath(ctx, r.plainPath, xScale, yScale, { theme, fontSize, color: theme.fg, width: 1.6, dash: [5, 4] });
    drawPath(ctx, r.path, xScale, yScale, { theme, fontSize, color: theme.accent, width: 2.4 });
    if (r.path.length >= 4) {
      drawArrow(ctx, x0, y0, xScale(r.path[2]), yScale(r.path[3]),
        { color: theme.accent, width: 3, head: 11, halo: withAlpha(theme.bg, 0.9) });
    }
    ctx.restore();
    drawTokens(ctx, r.h, r.n, xScale, yScale, { theme, fontSize });
    richText(ctx, 'Steps under P (solid) and I (dashed)', plot.x, 2,
      { theme, fontSize: fontSize + 1, baseline: 'top' });
    if (r.spectrum[0] < 0) {
      richText(ctx, 'shaded: directions P turns uphill', plot.x + 4, plot.y + plot.h - 6,
        { theme, fontSize, color: theme.fg, baseline: 'bottom' });
    }
  }

  #drawSpectrum(canvas, r) {
    const { ctx, width, height } = this.beginCanvas(canvas);
    const theme = this.theme;
    const fontSize = this.fontSizeFor(width);
    const { s, low, high } = r.sweep;
    const factor = r.form === 'paper' ? 'v' : 'u';
    const { plot, xScale, yScale } = drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
      series: [{ x: s, y: high, color: theme.accent2, width: 2 }, { x: s, y: low, color: theme.accent, width: 2.5 }],
      xDomain: [-SWEEP_MAX, SWEEP_MAX], yDomain: extent([low, high], { include: [0, 1] }), theme, fontSize,
      xLabel: r.crossing === null ? `scale s of ${factor}`
        : `scale s of ${factor} (λ = 0 at s = ${formatNumber(r.crossing)})`,
      title: `Eigenvalues of P as ${factor} → s·${factor}`,
    });
    ctx.save();
    ctx.beginPath();
    ctx.rect(plot.x, plot.y, plot.w, plot.h);
    ctx.clip();
    // Below zero: not positive definite.
    const zero = yScale(0);
    ctx.fillStyle = withAlpha(theme.accent2, 0.1);
    ctx.fillRect(plot.x, zero, plot.w, plot.y + plot.h - zero);
    ctx.strokeStyle = theme.fg;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(plot.x, Math.round(zero) + 0.5);
    ctx.lineTo(plot.x + plot.w, Math.round(zero) + 0.5);
    ctx.stroke();
    // The current P (s = 1), and the crossing.
    ctx.setLineDash([4, 4]);
    ctx.strokeStyle = theme.muted;
    ctx.beginPath();
    ctx.moveTo(Math.round(xScale(1)) + 0.5, plot.y);
    ctx.lineTo(Math.round(xScale(1)) + 0.5, plot.y + plot.h);
    ctx.stroke();
    ctx.setLineDash([]);
    for (const [value, color] of [[r.spectrum[0], theme.accent], [r.spectrum[1], theme.accent2]]) {
      ctx.fillStyle = color;
      ctx.strokeStyle = theme.bg;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(xScale(1), yScale(value), Math.max(4, fontSize * 0.38), 0, 2 * Math.PI);
      ctx.stroke();
      ctx.fill();
    }
    if (r.crossing !== null) {
      const cx = xScale(r.crossing);
      ctx.strokeStyle = theme.fg;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(cx, zero, 5, 0, 2 * Math.PI);
      ctx.stroke();
    }
    ctx.restore();
    // Direct labels at the right end of each line.
    const end = SWEEP - 1;
    const [yLow, yHigh] = [yScale(low[end]), yScale(high[end])];
    const apart = Math.abs(yLow - yHigh) < fontSize * 1.2 ? fontSize * 0.7 : 0;
    const right = plot.x + plot.w - 4;
    const inside = (y) => Math.max(plot.y + fontSize, Math.min(plot.y + plot.h, y));
    richText(ctx, 'largest λ', right, inside(yHigh - 4 - (yHigh <= yLow ? apart : -apart)),
      { theme, fontSize, color: theme.accent2, align: 'right', baseline: 'bottom', halo: true });
    richText(ctx, 'smallest λ', right, inside(yLow - 4 + (yHigh <= yLow ? apart : -apart)),
      { theme, fontSize, color: theme.accent, align: 'right', baseline: 'bottom', halo: true });

    richText(ctx, 'not positive definite', plot.x + 6, plot.y + plot.h - 4,
      { theme, fontSize, color: theme.muted, baseline: 'bottom', halo: true });
  }

  #drawTrace(canvas, r) {
    const { ctx, width, height } = this.beginCanvas(canvas);
    const theme = this.theme;
    const fontSize = this.fontSizeFor(width);
    const x = Array.from(r.energies, (_, t) => t);
    const { xScale, yScale } = drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
      series: [{ x, y: r.plainEnergies, color: theme.fg, width: 1.6, dash: [5, 4] },
        { x, y: r.energies, color: theme.accent, width: 2.5 }],
      xDomain: [0, Math.max(1, r.energies.length - 1)], yDomain: extent([r.energies, r.plainEnergies]),
      theme, fontSize, xLabel: 'step t', title: 'Energy per step (dashed: P = I)',
    });
    drawStepDots(ctx, r.energies, xScale, yScale, { theme });
  }

  csv() {
    const columns = ['series', 'index', 'x', 'y', 'value'];
    const rows = [];
    const r = this.#result;
    if (!r) return { columns, rows };
    rows.push(['P', 0, 0, 0, r.P[0]], ['P', 1, 0, 1, r.P[1]], ['P', 2, 1, 0, r.P[2]], ['P', 3, 1, 1, r.P[3]]);
    rows.push(['eigenvalue', 0, '', '', r.spectrum[0]], ['eigenvalue', 1, '', '', r.spectrum[1]]);
    r.sweep.s.forEach((s, k) => rows.push(['sweep', k, s, r.sweep.low[k], r.sweep.high[k]]));
    r.energies.forEach((e, t) => rows.push(['step_P', t, r.path[2 * t], r.path[2 * t + 1], e]));
    r.plainEnergies.forEach((e, t) => rows.push(['step_I', t, r.plainPath[2 * t], r.plainPath[2 * t + 1], e]));
    return { columns, rows };
  }
}
