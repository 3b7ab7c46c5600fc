// Dark mode, theming and small screens: the figure follows prefers-color-scheme, takes the
// page's --gatelab-* properties, and a 320 px wide phone shows every page without horizontal
// overflow, with the figure inside the viewport.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled, canvasStats, screenshotPath } from '../harness.mjs';

const FIGURE = 'gatelab-exchange-plane';

/** The figure's computed background and the colour of its heatmap canvas's top-left pixel. */
function backgrounds(page) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const canvas = el.shadowRoot.querySelector('canvas');
    const [r, g, b] = canvas.getContext('2d').getImageData(1, 1, 1, 1).data;
    return { page: getComputedStyle(document.body).backgroundColor, figure: getComputedStyle(el).backgroundColor,
      canvasCorner: [r, g, b] };
  }, FIGURE);
}

const luminance = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

describe('theming and layout', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('dark mode changes the page, the figure and its canvases', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const light = await backgrounds(page);
    const lightPixels = await canvasStats(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(
      ([sel, before]) => getComputedStyle(document.querySelector(sel)).backgroundColor !== before,
      [FIGURE, light.figure]);
    await figuresSettled(page);
    const dark = await backgrounds(page);
    assert.notEqual(dark.page, light.page);
    assert.notEqual(dark.figure, light.figure);
    assert.ok(luminance(light.canvasCorner) > 200, `light canvas ${light.canvasCorner}`);
    assert.ok(luminance(dark.canvasCorner) < 60, `dark canvas ${dark.canvasCorner}`);
    assert.notEqual((await canvasStats(page))[0].hash, lightPixels[0].hash);
    await page.locator(FIGURE).screenshot({ path: screenshotPath('figure-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('takes --gatelab-* properties from the page and exposes ::part()', async () => {
    const { page, context } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/embed.html');
    await figuresSettled(page);
    const result = await page.evaluate(() => {
      const [plain, warm] = document.querySelectorAll('gatelab-exchange-plane');
      return {
        plainAccent: plain.theme.accent, warmAccent: warm.theme.accent,
        warmStops: warm.theme.colormap.length,
        readoutStyle: getComputedStyle(warm.shadowRoot.querySelector('[part~="readout"]')).fontStyle,
      };
    });
    assert.notEqual(result.warmAccent, result.plainAccent);
    assert.equal(result.warmStops, 3);
    assert.equal(result.readoutStyle, 'italic');
    await context.close();
  });

  for (const path of ['demos/index.html', 'demos/paper-a.html', 'demos/embed.html', 'demos/csp.html']) {
    it(`${path} fits a 320 px wide screen`, async () => {
      const { page, context, problems } = await openPage(session.browser, { viewport: { width: 320, height: 640 } });
      await page.goto(session.server.url + path);
      await figuresSettled(page);
      const layout = await page.evaluate((sel) => ({
        scrollWidth: document.documentElement.scrollWidth,
        figures: [...document.querySelectorAll(sel)].map((el) => {
          const box = el.getBoundingClientRect();
          const canvases = [...el.shadowRoot.querySelectorAll('canvas')].map((c) => c.getBoundingClientRect());
          const controls = [...el.shadowRoot.querySelectorAll('select, input, button')]
            .filter((c) => c.checkVisibility()).map((c) => c.getBoundingClientRect());
          return { left: box.left, right: box.right, parts: [...canvases, ...controls].map((b) => [b.left, b.right]) };
        }),
      }), FIGURE);
      assert.ok(layout.scrollWidth <= 320, `page is ${layout.scrollWidth} px wide`);
      for (const figure of layout.figures) {
        assert.ok(figure.left >= 0 && figure.right <= 320, `figure spans ${figure.left}..${figure.right}`);
        for (const [left, right] of figure.parts) assert.ok(left >= figure.left - 0.5 && right <= figure.right + 0.5);
      }
      await page.screenshot({ path: screenshotPath(`320px-${path.replace(/\W+/g, '_')}`), fullPage: true });
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  it('resizing the container redraws the canvases at the new size and devicePixelRatio', async () => {
    const opened = await openPage(session.browser, { viewport: { width: 900, height: 800 } });
    const { page, context } = opened;
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const wide = (await canvasStats(page))[0];
    await page.setViewportSize({ width: 400, height: 800 });
    await page.waitForFunction((w) => document.querySelector('gatelab-exchange-plane').shadowRoot
      .querySelector('canvas').width !== w, wide.width);
    await figuresSettled(page);
    const narrow = (await canvasStats(page))[0];
    assert.ok(narrow.width < wide.width);
    assert.ok(narrow.distinctColors > 10);
    await context.close();

    const hiDpi = await session.browser.newContext({ viewport: { width: 900, height: 800 }, deviceScaleFactor: 2 });
    const page2 = await hiDpi.newPage();
    await page2.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page2);
    const ratio = await page2.evaluate(() => {
      const canvas = document.querySelector('gatelab-exchange-plane').shadowRoot.querySelector('canvas');
      return canvas.width / canvas.getBoundingClientRect().width;
    });
    assert.ok(Math.abs(ratio - 2) < 0.02, `backing store ${ratio}× CSS size`);
    await hiDpi.close();
  });
});
