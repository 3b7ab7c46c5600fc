// The paper-B article (demos/paper-b.html) in real Chromium: it loads with no console error and no
// request off 127.0.0.1, its four figures draw, its math is typeset by the local KaTeX, its
// buttons drive the figures (the GP figure's test-time recursion too), the site's navigation links
// to it, and it fits a phone.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled, canvasStats, screenshotPath, typesetMath } from '../harness.mjs';
import { settled } from './fixture.mjs';

const FIGURES = 'gatelab-energy, gatelab-tying, gatelab-precond, gatelab-gp';

describe('demos/paper-b.html', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('loads cleanly, typesets its math and every figure draws', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/paper-b.html', { waitUntil: 'load' });
    await figuresSettled(page, FIGURES);
    for (const tag of FIGURES.split(', ')) {
      for (const canvas of await canvasStats(page, tag)) {
        assert.ok(canvas.width >= 100 && canvas.height >= 60, `${tag}: canvas ${canvas.width}x${canvas.height}`);
        assert.ok(canvas.distinctColors > 10, `${tag}: canvas is not blank`);
      }
    }
    const math = await typesetMath(page, { skip: `.katex, pre, ${FIGURES}`, raw: /\\\(|\$\$|\\varepsilon|\\eta/ });
    assert.ok(math.display >= 6, `${math.display} display equations`);
    assert.equal(math.errors, 0);
    assert.equal(math.raw, null, 'no raw TeX left');
    assert.equal(await page.locator('.site-nav a[aria-current="page"]').textContent(), 'Paper B');
    await page.screenshot({ path: screenshotPath('demos_paper_b_html'), fullPage: true });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('its buttons drive the figures', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/paper-b.html');
    await figuresSettled(page, FIGURES);
    await page.locator('button[data-target="energy"]', { hasText: 'two heads' }).click();
    await settled(page, 'gatelab-energy');
    assert.equal(await page.locator('#energy').evaluate((el) => el.heads), 2);
    assert.match(await page.evaluate(() => location.hash), /energy\.heads=2/, 'mirrored to the address');
    assert.match(await page.locator('#energy-events').textContent(), /Event "computed": the query's energy goes from/);
    await page.locator('button[data-target="tying"]', { hasText: 'the gated MLP' }).click();
    await settled(page, 'gatelab-tying');
    assert.equal(await page.locator('#tying').evaluate((el) => el.layer), 'mlp');
    await page.locator('button[data-target="gp"]', { hasText: 'evaluate every model at T′ = 4' }).click();
    await page.waitForFunction(() => document.getElementById('gp').evalSteps === 4);
    await page.locator('button[data-target="gp"]', { hasText: 'as trained' }).click();
    await page.waitForFunction(() => document.getElementById('gp').evalSteps === 0);
    await page.locator('button[data-action="reflect"]').click();
    await page.waitForFunction(() => document.getElementById('precond').result?.positiveDefinite === false);
    await settled(page, 'gatelab-precond');
    const result = await page.locator('#precond').evaluate((el) => el.result);
    assert.ok(result.energies[1] > result.energies[0], 'the reflected step climbs');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits a 320 px wide phone', async () => {
    const { page, context, problems } = await openPage(session.browser, { viewport: { width: 320, height: 720 } });
    await page.goto(session.server.url + 'demos/paper-b.html');
    await figuresSettled(page, FIGURES);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('every page of the site links to it', async () => {
    const { page, context } = await openPage(session.browser);
    for (const path of ['demos/index.html', 'demos/paper-a.html', 'demos/embed.html', 'demos/csp.html']) {
      await page.goto(session.server.url + path, { waitUntil: 'domcontentloaded' });
      assert.equal(await page.locator('.site-nav a[href="paper-b.html"]').count(), 1, path);
    }
    await context.close();
  });
});
