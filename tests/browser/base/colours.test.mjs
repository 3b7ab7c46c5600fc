// Series colours a reader can tell apart: the figures whose lines stand for models (the race's
// seven layers, the GP figure's four depths, the language-model figure's four MLPs, the conditioning
// figure's six layers) draw them in colours whose every pair differs by at least MIN_DELTA_E
// (CIEDE2000), in the light and the dark theme, as actually painted on the loss canvas (a line drawn
// at partial opacity counts as the colour it makes over the background). The colours are read off
// the canvas context's strokes, so the test sees what the figure draws, not what a table says.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled } from '../harness.mjs';
import { deltaE2000, over, parseCssColour, rgbToLab } from '../colour.mjs';

// ΔE00 ≈ 1–2 is a just-noticeable difference between two large patches side by side. Lines of
// 1.5–3 px in a legend and a plot are small marks: the difference needed to notice one grows
// several-fold as marks shrink (Stone, Szafir and Setlur 2014), and a reader has to match a line
// to its legend entry, not merely notice a difference. 20 asks for colours that differ at a
// glance in hue or lightness; the palette before this test had pairs at 6.9 (ReLU's orange and
// SwiGLU's amber), which readers reported as one colour.
const MIN_DELTA_E = 20;

const FIGURES = [
  { tag: 'gatelab-race', query: 'steps=20&seeds=1', series: 7 },
  { tag: 'gatelab-gp', query: 'train-steps=10&length=8', series: 4 },
  { tag: 'gatelab-lm', query: 'models=swiglu,symgated-silu,ffn-gelu,bilinear&seeds=1&steps=50', series: 4 },
  { tag: 'gatelab-conditioning', query: 'steps=30', series: 6 },
];

/** Records every stroke of a canvas (colour as the context normalised it, and the opacity) on the canvas. */
function recordStrokes() {
  const stroke = CanvasRenderingContext2D.prototype.stroke;
  CanvasRenderingContext2D.prototype.stroke = function recordedStroke(...args) {
    this.canvas.strokes?.push({ color: String(this.strokeStyle), alpha: this.globalAlpha });
    return stroke.apply(this, args);
  };
}

/** The loss canvas's stroke colours of one fresh drawing, without the theme's own (axes, grid, baselines). */
function seriesStrokes(page, tag) {
  return page.locator(tag).evaluate(async (el) => {
    const canvas = el.shadowRoot.querySelector('canvas.loss');
    canvas.strokes = [];
    el.requestDraw();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const ctx = document.createElement('canvas').getContext('2d');
    const normal = (c) => {
      ctx.strokeStyle = c;
      return String(ctx.strokeStyle);
    };
    const themeColours = new Set([el.theme.fg, el.theme.muted, el.theme.grid, el.theme.bg].map(normal));
    return { bg: normal(el.theme.bg), strokes: canvas.strokes.filter((s) => !themeColours.has(s.color)) };
  });
}

/** The closest pair of different series colours, each as painted over the background. */
function closestPair({ bg, strokes }) {
  const background = parseCssColour(bg);
  const seen = new Map();
  for (const { color, alpha } of strokes) {
    const [r, g, b, a] = parseCssColour(color);
    const base = `${r},${g},${b}`;
    const painted = rgbToLab(over([r, g, b], a * alpha, background));
    seen.set(`${base}@${a * alpha}`, { base, painted });
  }
  const entries = [...seen.values()];
  let worst = { deltaE: Infinity };
  for (const p of entries) {
    for (const q of entries) {
      if (p.base >= q.base) continue;
      const deltaE = deltaE2000(p.painted, q.painted);
      if (deltaE < worst.deltaE) worst = { deltaE, pair: [p.base, q.base] };
    }
  }
  return { ...worst, colours: new Set(entries.map((e) => e.base)).size };
}

describe('series colours', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('CIEDE2000 agrees with Sharma, Wu and Dalal’s test pairs', () => {
    const pairs = [[[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425], [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.5, 0], [73, 25, -18], 27.1492], [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
      [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373]];
    for (const [a, b, expected] of pairs) assert.ok(Math.abs(deltaE2000(a, b) - expected) < 1e-4, `${a} ${b}`);
  });

  for (const colorScheme of ['light', 'dark']) {
    for (const { tag, query, series } of FIGURES) {
      it(`${tag}: every two of its ${series} series differ by ΔE00 ≥ ${MIN_DELTA_E} (${colorScheme})`, async () => {
        const { page, context, problems } = await openPage(session.browser, { colorScheme });
        await context.addInitScript(recordStrokes);
        await page.goto(`${session.server.url}demos/frame.html?figure=${tag}&${query}`);
        await figuresSettled(page, tag);
        const worst = closestPair(await seriesStrokes(page, tag));
        assert.equal(worst.colours, series, `${tag} draws ${series} series colours`);
        assert.ok(worst.deltaE >= MIN_DELTA_E,
          `${tag} (${colorScheme}): ${worst.pair?.join(' and ')} differ by ΔE00 ${worst.deltaE.toFixed(1)}`);
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }
});
