// <gatelab-tying layer="attention" d="6" heads="2" eta="1" seed="1">
//
// docs/MATH.md §B2 and §B3 made visible: one gradient step of a CEM layer IS a standard layer with tied
// weights. Top: the weights. A tied CEM attention has W_Q and W_K (2d² parameters); the standard
// attention it equals (lab.cem.asStandardAttention) has four matrices (4d²), with W_V = W_K and
// W_O = η W_Qᵀ. For the MLP: W and U (2dM) against W_gate = W, W_up = U, W_down = η Wᵀ (3dM,
// lab.cem.asGatedMlp). Bottom: the same random tokens through both; the outputs agree to float
// rounding. The "untie" slider moves W_V and W_O (W_down) off the tie by seeded noise, and the
// outputs part: the freedom the standard layer pays its extra parameters for.
import { CemFigure } from './cem-figure.js';
import {
  createRange, createReseedButton, createSelect, setSelectOptions, syncActivationSelect,
} from '../base/controls.js';
import { formatNumber } from '../base/format.js';
import { normalArray } from '../base/seeded-random.js';
import { maxAbs } from '../plot/axes.js';
import { drawMatrix } from '../plot/matrix-view.js';
import { richText, richTextWidth } from '../plot/text.js';

// The canvases' heights follow their content (see #drawSections); these are first guesses.
const STYLES = `
.plots canvas.weights { aspect-ratio: 1.05; }
.plots canvas.outputs { aspect-ratio: 1.45; }
@container (min-width: 560px) {
  .plots canvas.weights { aspect-ratio: 2.6; }
  .plots canvas.outputs { aspect-ratio: 3.2; }
}
`;

function divisors(d) {
  return Array.from({ length: d }, (_, k) => k + 1).filter((k) => d % k === 0);
}

export class GateLabTying extends CemFigure {
  static description = 'A tied CEM layer and the standard layer with tied weights it equals.';
  static events = { computed: 'Both layers were compared: detail { result, state }.' };
  static styles = STYLES;
  static schema = {
    layer: { type: 'enum', default: 'attention', values: ['attention', 'mlp'] },
    d: { type: 'integer', default: 6, min: 2, max: 12 },
    heads: { type: 'integer', default: 2, min: 1, max: 12 },
    units: { type: 'integer', default: 8, min: 2, max: 16 },
    activation: { type: 'enum', default: 'silu', values: (el) => el.lab?.activations ?? null },
    eta: { type: 'number', default: 1, min: 0.1, max: 2 },
    n: { type: 'integer', default: 6, min: 2, max: 12 },
    untie: { type: 'number', default: 0, min: 0, max: 1 },
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  };

  /** heads must divide d: the largest divisor of d not above the requested heads. */
  static normalize(state) {
    const heads = divisors(state.d).filter((k) => k <= state.heads).at(-1) ?? 1;
    return heads === state.heads ? state : { ...state, heads };
  }

  #controls = null;
  #result = null;

  /** The last computation: { tiedParameters, standardParameters, maxDifference, tieHolds }, or null. */
  get result() {
    const r = this.#result;
    return r ? { tiedParameters: r.tiedCount, standardParameters: r.standardCount, maxDifference: r.maxDiff,
      tieHolds: r.tieHolds } : null;
  }

  build({ controls }) {
    this.createCanvas({ name: 'weights',
      label: 'Weight matrices of the tied CEM layer and of the standard layer it equals' });
    this.createCanvas({ name: 'outputs',
      label: 'The same tokens through both layers: inputs, the two outputs and their difference' });
    const layer = createSelect({
      label: 'Layer', value: this.state.layer,
      options: [{ value: 'attention', text: 'Attention (B2)' }, { value: 'mlp', text: 'Gated MLP (B3)' }],
      onChange: (value) => this.setState({ layer: value }, 'user'),
    });
    const d = createRange({
      label: 'Width d', min: 2, max: 12, step: 1, value: this.state.d, format: String,
      onInput: (value) => this.setState({ d: value }, 'user'),
    });
    const heads = createSelect({
      label: 'Heads', value: String(this.state.heads), options: [],
      onChange: (value) => this.setState({ heads: Number(value) }, 'user'),
    });
    const hidden = createRange({
      label: 'Hidden M', min: 2, max: 16, step: 1, value: this.state.units, format: String,
      onInput: (value) => this.setState({ units: value }, 'user'),
    });
    const activation = createSelect({
      label: 'φ', value: this.state.activation, options: [],
      onChange: (value) => this.setState({ activation: value }, 'user'),
    });
    const eta = createRange({
      label: 'Step η', min: 0.1, max: 2, step: 0.05, value: this.state.eta, format: (v) => v.toFixed(2),
      onInput: (value) => this.setState({ eta: value }, 'user'),
    });
    const untie = createRange({
      label: 'Untie', min: 0, max: 1, step: 0.05, value: this.state.untie,
      format: (v) => (v === 0 ? 'tied' : v.toFixed(2)),
      onInput: (value) => this.setState({ untie: value }, 'user'),
    });
    const reseed = createReseedButton(this, { text: 'New weights and tokens' });
    controls.append(layer.element, d.element, heads.element, hidden.element, activation.element, eta.element,
      untie.element, reseed);
    this.#controls = { layer, d, heads, hidden, activation, eta, untie, reseed };
  }

  syncControls() {
    const { layer, d, heads, hidden, activation, eta, untie, reseed } = this.#controls;
    const s = this.state;
    layer.select.value = s.layer;
    d.set(s.d);
    const options = divisors(s.d).map((k) => ({ value: String(k), text: `${k} (d_h = ${s.d / k})` }));
    if ([...heads.select.options].map((o) => o.value).join() !== options.map((o) => o.value).join()) {
      setSelectOptions(heads.select, options, String(s.heads));
    }
    heads.select.value = String(s.heads);
    hidden.set(s.units);
    syncActivationSelect(activation.select, this.lab, s.activation);
    eta.set(s.eta);
    untie.set(s.untie);
    heads.element.hidden = s.layer !== 'attention';
    hidden.element.hidden = s.layer !== 'mlp';
    activation.element.hidden = s.layer !== 'mlp';
    untie.element.querySelector('.control-label').textContent = s.layer === 'mlp' ? 'Untie W_down' : 'Untie W_V, W_O';
    reseed.title = `Seed ${s.seed}: draw new weights and tokens`;
  }

  compute() {
    const { layer, d, heads, units: hidden, activation, eta, n, untie, seed } = this.state;
    const cem = this.lab.cem;
    const h = normalArray(n * d, (seed ^ 0x68e31da4) >>> 0);
    const tied = layer === 'attention' ? cem.createAttention({ d, heads, eta, seed })
      : cem.createMlp({ d, hidden, activation, eta, seed });
    let standard = null;
    try {
      standard = layer === 'attention' ? cem.asStandardAttention(tied) : cem.asGatedMlp(tied);
      const tiedParams = tied.getParams();
      let standardParams = standard.getParams();
      // The tie, checked on the library's own numbers: exact equality, element by element.
      // scaled(matrix, rows, k): entry k of η·matrixᵀ, rounded to float as the library computes it.
      const scaled = (matrix, rows, k) => Math.fround(Math.fround(eta) * matrix[(k % rows) * d + Math.floor(k / rows)]);
      const tieHolds = layer === 'attention'
        ? standardParams.WV.every((v, k) => v === tiedParams.WK[k])
          && standardParams.WO.every((v, k) => v === scaled(tiedParams.WQ, d, k))
        : standardParams.Wdown.every((v, k) => v === scaled(tiedParams.W, hidden, k));
      if (untie > 0) {
        const noise = (length, salt) => normalArray(length, (seed * 31 + salt) >>> 0)
          .map((v) => (untie * v) / Math.sqrt(d));
        if (layer === 'attention') {
          const WV = standardParams.WV.map((v, k, a) => v + noise(a.length, 1)[k]);
          const noiseO = noise(standardParams.WO.length, 2);
          standard.setParams({ WV, WO: standardParams.WO.map((v, k) => v + eta * noiseO[k]) });
        } else {
          const noiseD = noise(standardParams.Wdown.length, 3);
          standard.setParams({ Wdown: standardParams.Wdown.map((v, k) => v + eta * noiseD[k]) });
        }
        standardParams = standard.getParams();
      }
      const yCem = tied.forward(h, n);
      const update = standard.forward(h, n);
      const yStd = update.map((v, k) => h[k] + v);
      const diff = yCem.map((v, k) => v - yStd[k]);
      this.#result = {
        layer, d, hidden, n, h, yCem, yStd, diff, tiedParams, standardParams, eta, untie,
        tiedCount: tied.parameterCount, standardCount: standard.parameterCount,
        maxDiff: maxAbs(diff), tieHolds: tieHolds && untie === 0,
      };
    } finally {
      tied.dispose();
      standard?.dispose();
    }
  }

  summary() {
    const r = this.#result;
    const attention = r.layer === 'attention';
    const counts = attention
      ? `tied CEM attention ${r.tiedCount} parameters (2d²), the standard attention it equals ${r.standardCount} (4d²)`
      : `tied CEM MLP ${r.tiedCount} parameters (2dM), the gated MLP it equals ${r.standardCount} (3dM)`;
    const tie = attention ? 'W_V = W_K and W_O = η W_Qᵀ' : 'W_gate = W, W_up = U and W_down = η Wᵀ';
    if (r.untie === 0) {
      const agree = r.maxDiff === 0 ? 'are bit for bit the same'
        : `differ by at most ${formatNumber(r.maxDiff)} (float rounding)`;
      return `d = ${r.d}${attention ? '' : `, M = ${r.hidden}`}: ${counts}. `
        + `${tie} hold exactly, and on n = ${r.n} random `
        + `tokens the two outputs ${agree}.`;
    }
    return `d = ${r.d}: ${counts}. Untied by ${formatNumber(r.untie)}: `
      + `${attention ? 'W_V and W_O' : 'W_down'} moved off the tie, `
      + `and the outputs now differ by up to ${formatNumber(r.maxDiff)}, `
      + 'freedom the standard layer pays its extra parameters for.';
  }

  draw() {
    const r = this.#result;
    if (!r) return;
    const [weightsCanvas, outputsCanvas] = this.shadowRoot.querySelectorAll('canvas');
    this.#drawWeights(weightsCanvas, r);
    this.#drawOutputs(outputsCanvas, r);
  }

  /**
   * Lays out sections of matrix tiles (a heading, then tiles left to right, wrapping) with the
   * largest cell size that fits the canvas, and draws them.
   */
  #drawSections(canvas, sections, scale) {
    const { ctx, width, height } = this.beginCanvas(canvas);
    const theme = this.theme;
    const fontSize = this.fontSizeFor(width);
    const pad = 4;
    const textWidth = (text, weight = '') => richTextWidth(ctx, text, { theme, fontSize, weight });
    // Sections sit side by side when they fit, else one under the other; tiles inside a
    // section flow left to right and wrap.
    const layout = (cell) => {
      const placed = [];
      const tileWidth = (tile) => Math.max(tile.cols * cell, textWidth(tile.title, '600'),
        tile.note ? textWidth(tile.note) : 0);
      const tileGap = Math.max(1.4 * cell, fontSize);
      const sectionGap = 2.5 * fontSize;
      let lineX = pad;
      let lineY = pad;
      let lineHeight = 0;
      for (const section of sections) {
        const heading = textWidth(section.heading, '600') > width - 2 * pad ? section.short : section.heading;
        const widths = section.tiles.map(tileWidth);
        const tiles = widths.reduce((a, b) => a + b, 0) + tileGap * (widths.length - 1);
        const full = Math.max(tiles, textWidth(heading, '600'));
        let left = lineX === pad ? pad : lineX + sectionGap;
        if (left > pad && left + full > width - pad) {
          lineY += lineHeight;
          lineHeight = 0;
          left = pad;
        }
        placed.push({ heading, x: left, y: lineY });
        let y = lineY + 1.5 * fontSize + 1.3 * fontSize + 4;  // heading, then tile titles
        let x = left;
        let rowHeight = 0;
        let right = left;
        section.tiles.forEach((tile, k) => {
          const w = widths[k];
          if (x > left && x + w > width - pad) {
            y += rowHeight + 1.3 * fontSize + 4;
            x = left;
            rowHeight = 0;
          }
          placed.push({ tile, x: x + (w - tile.cols * cell) / 2, y });
          right = Math.max(right, x + w);
          x += w + tileGap;
          rowHeight = Math.max(rowHeight, tile.rows * cell + (tile.note ? 1.4 * fontSize : 0) + 6);
        });
        const bottom = y + rowHeight + 0.6 * fontSize;
        lineHeight = Math.max(lineHeight, bottom - lineY);
        lineX = Math.max(right, left + textWidth(heading, '600'));
      }
      return { placed, height: lineY + lineHeight };
    };
    // The largest cell whose layout stays within a height budget (from the width only), then
    // the canvas takes the layout's height, so nothing is clipped and nothing is left empty.
    const budget = Math.max(220, Math.min(0.6 * width, 520));
    let cell = 22;
    let plan = layout(cell);
    while (cell > 3 && plan.height > budget) plan = layout(--cell);
    const wanted = Math.ceil(plan.height + pad);
    if (Math.abs(wanted - height) > 2) canvas.style.aspectRatio = `${Math.round(width)} / ${wanted}`;
    for (const item of plan.placed) {
      if (item.heading) {
        richText(ctx, item.heading, item.x, item.y, { theme, fontSize, baseline: 'top', weight: '600' });
        continue;
      }
      const { tile } = item;
      drawMatrix(ctx, { x: item.x, y: item.y, cell, values: tile.values, rows: tile.rows, cols: tile.cols, scale, theme,
        fontSize, title: tile.title, outline: tile.tone, note: tile.note });
    }
  }

  #drawWeights(canvas, r) {
    const theme = this.theme;
    const attention = r.layer === 'attention';
    const square = (values, title, tone, note = '') => ({ values, rows: r.d, cols: r.d, title, tone, note });
    const tall = (values, title, tone, note = '') => ({ values, rows: r.hidden, cols: r.d, title, tone, note });
    const untied = r.untie > 0;
    const sections = attention ? [
      { heading: `Tied CEM attention: 2d² = ${r.tiedCount} parameters`, short: `Tied: 2d² = ${r.tiedCount}`,
        tiles: [square(r.tiedParams.WQ, 'W_Q', theme.accent), square(r.tiedParams.WK, 'W_K', theme.accent2)] },
      { heading: `Standard attention: 4d² = ${r.standardCount} parameters`, short: `Standard: 4d² = ${r.standardCount}`,
        tiles: [square(r.standardParams.WQ, 'W_Q', theme.accent, '= W_Q'),
          square(r.standardParams.WK, 'W_K', theme.accent2, '= W_K'),
          square(r.standardParams.WV, 'W_V', theme.accent2, untied ? '≠ W_K' : '= W_K'),
          square(r.standardParams.WO, 'W_O', theme.accent, untied ? '≠ η W_Qᵀ' : '= η W_Qᵀ')] },
    ] : [
      { heading: `Tied CEM MLP: 2dM = ${r.tiedCount} parameters`, short: `Tied: 2dM = ${r.tiedCount}`,
        tiles: [tall(r.tiedParams.W, 'W', theme.accent), tall(r.tiedParams.U, 'U', theme.accent2)] },
      { heading: `Gated MLP: 3dM = ${r.standardCount} parameters`, short: `Gated: 3dM = ${r.standardCount}`,
        tiles: [tall(r.standardParams.Wgate, 'W_gate', theme.accent, '= W'),
          tall(r.standardParams.Wup, 'W_up', theme.accent2, '= U'),
          { values: r.standardParams.Wdown, rows: r.d, cols: r.hidden, title: 'W_down', tone: theme.accent,
            note: untied ? '≠ η Wᵀ' : '= η Wᵀ' }] },
    ];
    const all = sections.flatMap((s) => s.tiles.map((t) => t.values));
    this.#drawSections(canvas, sections, maxAbs(...all));
  }

  #drawOutputs(canvas, r) {
    const theme = this.theme;
    const attention = r.layer === 'attention';
    const tile = (values, title, tone, note = '') => ({ values, rows: r.n, cols: r.d, title, tone, note });
    const sections = [{
      heading: `Outputs for ${r.n} random tokens (a row each)`, short: `Outputs, ${r.n} tokens`,
      tiles: [tile(r.h, 'tokens h'), tile(r.yCem, 'CEM: h − η∇ε', theme.accent),
        tile(r.yStd, attention ? 'h + Attn(h)' : 'h + MLP(h)', theme.accent2),
        tile(r.diff, 'difference', null, r.maxDiff === 0 ? 'exactly 0' : `max ${formatNumber(r.maxDiff)}`)],
    }];
    this.#drawSections(canvas, sections, maxAbs(r.h, r.yCem, r.yStd));
  }

  csv() {
    const columns = ['matrix', 'row', 'column', 'value'];
    const rows = [];
    const r = this.#result;
    if (!r) return { columns, rows };
    const push = (name, values, cols) => values.forEach((v, k) => rows.push([name, Math.floor(k / cols), k % cols, v]));
    const attention = r.layer === 'attention';
    for (const [name, values] of Object.entries(r.tiedParams)) {
      push(`tied.${name}`, values, attention || name !== 'Wdown' ? r.d : r.hidden);
    }
    for (const [name, values] of Object.entries(r.standardParams)) {
      push(`standard.${name}`, values, name === 'Wdown' ? r.hidden : r.d);
    }
    push('tokens', r.h, r.d);
    push('output.cem', r.yCem, r.d);
    push('output.standard', r.yStd, r.d);
    push('output.difference', r.diff, r.d);
    return { columns, rows };
  }
}
