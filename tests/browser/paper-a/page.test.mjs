// The paper-A article (demos/paper-a.html) in real Chromium: with no console error, no failed
// request and nothing off 127.0.0.1, every figure draws when scrolled to; the math is typeset
// with the local KaTeX; the text's buttons drive the figures and the URL follows; a link with
// figure state in its hash reproduces it; the whole article fits a 320 px phone. The landing
// page links to it. The language-model figure's caption follows the models it trains.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, canvasStats, screenshotPath, typesetMath } from '../harness.mjs';
import { hashParams, settledAll } from './fixture.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';
import { variantNamed } from '../../../web/components/paper-a/lm/lm-schema.js';

const FIGURES = ['gatelab-rank', 'gatelab-exchange', 'gatelab-exchange-plane', 'gatelab-scaling', 'gatelab-census',
  'gatelab-race', 'gatelab-interactions', 'gatelab-lm', 'gatelab-conditioning'];
// The language-model figure trains for minutes at its defaults: a short run keeps the test short (and the
// conditioning figure's six runs with it).
const SHORT_LM = 'lm.steps=50&lm.seeds=1&conditioning.steps=120';
const ALL = FIGURES.join(', ');

describe('demos/paper-a.html', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('loads cleanly, typesets its math and every figure draws', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + `demos/paper-a.html#${SHORT_LM}`, { waitUntil: 'load' });
    await page.waitForSelector('.katex-display');
    const math = await typesetMath(page, { raw: /\\\(|\$\$|\\sigma|\\frac/ });
    assert.ok(math.display >= 12, `${math.display} display equations`);
    assert.equal(math.errors, 0);
    assert.equal(math.raw, null, 'no raw TeX left');
    await settledAll(page, ALL);
    const tags = await page.evaluate((sel) => [...document.querySelectorAll(sel)].map((el) => el.localName), ALL);
    assert.deepEqual([...new Set(tags)].sort(), [...FIGURES].sort());
    for (let i = 0; i < tags.length; i++) {
      const stats = await canvasStats(page, ALL, i);
      for (const canvas of stats) {
        assert.ok(canvas.distinctColors > 8, `${tags[i]} drew (${canvas.distinctColors} colours)`);
      }
    }
    const readouts = await page.evaluate((sel) => [...document.querySelectorAll(sel)].map((el) => el.readoutText), ALL);
    for (const text of readouts) assert.doesNotMatch(text, /could not be computed|Loading…/);
    const wasm = await page.evaluate(
      () => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length);
    assert.equal(wasm, 1, 'one module for every figure of the page');
    await page.screenshot({ path: screenshotPath('demos_paper-a_html'), fullPage: true });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the text’s buttons drive the figures, the URL follows, and a link reproduces the state', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/paper-a.html#scaling.alpha=3&swap.kind=symmetric&swap.exchanged=true');
    const scaling = page.locator('#scaling');
    const swap = page.locator('#swap');
    await settledAll(page, '#scaling, #swap');
    assert.deepEqual(await scaling.evaluate((el) => [el.alpha, el.activation]), [3, 'relu']);
    assert.deepEqual(await swap.evaluate((el) => [el.kind, el.exchanged]), ['symmetric', true]);
    const before = await canvasStats(page, '#scaling');
    await page.locator('button[data-target="scaling"]', { hasText: 'ReLU, α = −2' }).click();
    await settledAll(page, '#scaling');
    assert.deepEqual(await scaling.evaluate((el) => [el.alpha, el.activation]), [-2, 'relu']);
    assert.equal((await hashParams(page)).get('scaling.alpha'), '-2');
    assert.notEqual((await canvasStats(page, '#scaling'))[0].hash, before[0].hash);
    await page.locator('button[data-target="swap"]', { hasText: 'SwiGLU' }).click();
    await settledAll(page, '#swap');
    assert.equal(await swap.evaluate((el) => el.kind), 'gated');
    assert.ok(await swap.evaluate((el) => el.result.gap) > 0.01);
    assert.equal((await hashParams(page)).get('swap.kind'), null, 'back to the default: dropped from the URL');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the language-model figure\'s caption names the chosen models; its export buttons keep their height', async () => {
    const lab = await loadGateLab();
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + `demos/paper-a.html#${SHORT_LM}`);
    const caption = page.locator('#lm-models');
    await page.locator('button[data-target="lm"]', { hasText: 'ReLU: gated, symgated, symmetric' }).click();
    const names = ['reglu', 'symgated-relu', 'symmetric-relu'].map((name) => lab.layerLabel(variantNamed(name)));
    assert.deepEqual(names, ['ReGLU', 'symgated (ReLU)', 'symmetric (ReLU)']);
    await page.waitForFunction((text) => document.getElementById('lm-models').textContent === text,
      `${names[0]}, ${names[1]} and ${names[2]}`);
    await settledAll(page, '#lm');
    assert.equal(await caption.textContent(), 'ReGLU, symgated (ReLU) and symmetric (ReLU)', 'the library loaded');
    await page.locator('#lm').evaluate((el) => (el.models = 'swiglu,bilinear'));
    await page.waitForFunction(() => document.getElementById('lm-models').textContent === 'SwiGLU and Bilinear');
    // The export buttons sit in the controls' row at a button's height, not stretched to the fieldsets'.
    const heights = await page.locator('#lm').evaluate((el) => ['export-png', 'export-csv', 'share', 'pause']
      .map((part) => el.shadowRoot.querySelector(`[part~="${part}"]`).getBoundingClientRect().height));
    for (const h of heights.slice(0, 3)) assert.ok(Math.abs(h - heights[3]) < 2, `export ${heights.join(', ')}`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('"Why does gating help?": three explanations, their figures, and the language-model study in plain words',
    async () => {
      const { page, context, problems } = await openPage(session.browser);
      await page.goto(session.server.url + `demos/paper-a.html#${SHORT_LM}`);
      const section = await page.evaluate(() => {
        const h2 = document.getElementById('why-gating');
        const parts = [];
        const inSection = (el) => el && el.localName !== 'h2' && el.localName !== 'footer';
        for (let el = h2.nextElementSibling; inSection(el); el = el.nextElementSibling) {
          parts.push(el);
        }
        return {
          heading: h2.textContent,
          h3: parts.filter((el) => el.localName === 'h3').map((el) => el.id),
          tags: parts.filter((el) => el.localName.startsWith('gatelab-')).map((el) => `${el.localName}#${el.id}`),
          toc: !!document.querySelector('.toc a[href="#why-gating"]'),
          text: parts.map((el) => el.textContent).join(' ').replace(/\s+/g, ' '),
        };
      });
      assert.equal(section.heading, 'Why does gating help? Three explanations');
      assert.deepEqual(section.h3, ['why-symmetry', 'why-training', 'why-conditioning', 'why-lm']);
      assert.deepEqual(section.tags, ['gatelab-teleport#teleport', 'gatelab-conservation#conservation',
        'gatelab-conditioning#conditioning']);
      assert.ok(section.toc, 'listed in the table of contents');
      for (const cite of ['Marcotte, Gribonval and Peyré, 2025', 'Tran et al., 2026', 'Zhao et al., 2022',
        'arXiv 2605.20749, ICML 2026', 'Against the first explanation, at this scale.']) {
        assert.ok(section.text.includes(cite), cite);
      }
      // The text's button drives the conditioning figure, and the URL follows.
      const figure = page.locator('#conditioning');
      await settledAll(page, '#conditioning');
      await page.locator('button[data-target="conditioning"]', { hasText: 'circle' }).click();
      await settledAll(page, '#conditioning');
      assert.equal(await figure.evaluate((el) => el.task), 'circle');
      assert.equal((await hashParams(page)).get('conditioning.task'), 'circle');
      assert.ok((await figure.evaluate((el) => el.results)).every((r) => r.options.data.task === 'circle'));
      assert.deepEqual(problems, []);
      await context.close();
    });

  it('fits a 320 px wide phone, every figure inside the viewport', async () => {
    const { page, context, problems } = await openPage(session.browser, { viewport: { width: 320, height: 640 } });
    await page.goto(session.server.url + `demos/paper-a.html#race.steps=100&race.seeds=1&${SHORT_LM}`);
    await settledAll(page, ALL);
    const layout = await page.evaluate((sel) => ({
      scrollWidth: document.documentElement.scrollWidth,
      figures: [...document.querySelectorAll(sel)].map((el) => {
        const box = el.getBoundingClientRect();
        const parts = [...el.shadowRoot.querySelectorAll('canvas, select, input, button, textarea')]
          .filter((c) => c.checkVisibility()).map((c) => c.getBoundingClientRect());
        return { tag: el.localName, left: box.left, right: box.right, parts: parts.map((b) => [b.left, b.right]) };
      }),
    }), ALL);
    assert.ok(layout.scrollWidth <= 320, `page is ${layout.scrollWidth} px wide`);
    for (const figure of layout.figures) {
      assert.ok(figure.left >= 0 && figure.right <= 320, `${figure.tag} spans ${figure.left}..${figure.right}`);
      for (const [left, right] of figure.parts) {
        assert.ok(left >= figure.left - 0.5 && right <= figure.right + 0.5, figure.tag);
      }
    }
    await page.screenshot({ path: screenshotPath('320px-demos_paper-a_html'), fullPage: true });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the landing page loads cleanly and links to the article', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/index.html');
    // The landing page's live figure fetches the embed and Chromium the favicon after 'load';
    // leaving before they finish aborts them (a navigation, not a fault), so let them finish.
    await page.waitForLoadState('networkidle');
    await page.locator('.card a[href="paper-a.html"]').click();
    await page.waitForURL(/paper-a\.html$/);
    assert.match(await page.title(), /Gated MLPs as symmetry-broken rank-1 bilinear attention/);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
