// <gatelab-energy> in real Chromium, under the strict CSP: it renders with no console error,
// controls and the keyboard change state, attribute and pixels, tokens can be dragged and moved
// by keyboard, it fits 320 px, follows dark mode, mirrors attributes ⇄ state and the URL hash,
// and exports its numbers.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled, canvasStats, screenshotPath } from '../harness.mjs';
import { figurePage, settled, pixelAt, overflow } from './fixture.mjs';

const TAG = 'gatelab-energy';
const MARKUP = '<gatelab-energy id="energy">Energy of the query over the token plane.</gatelab-energy>';

describe('<gatelab-energy>', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('renders with the library’s numbers; a control change changes pixels, state and attribute', async () => {
    const { page, context, problems } = await figurePage(session, MARKUP, TAG);
    const stats = await canvasStats(page, TAG);
    assert.equal(stats.length, 2, 'landscape and trace');
    for (const canvas of stats) assert.ok(canvas.distinctColors > 10, `canvas is not blank (${canvas.distinctColors})`);
    const readout = await page.locator(TAG).evaluate((el) => el.readoutText);
    assert.match(readout, /Energy of the query h₃ before and after each of T = 3 steps: .*falls at every step/);
    // The figure's energies are the library's: recompute them in the page through lab.cem.
    const check = await page.locator(TAG).evaluate(async (el) => {
      const { createPlaneAttention, parseTokens } = await import('/components/paper-b/cem-kit.js');
      const att = createPlaneAttention(el.lab, { heads: 1, steps: 3, eta: 1.5, beta: 0, diagonal: 'none',
        precond: 'none', seed: 4 });
      const h = parseTokens(el.tokens);
      const trace = att.energyTrace(h, 4);
      att.dispose();
      return { mine: Array.from(trace.slice(3 * 4, 4 * 4)), shown: el.result.energies };
    });
    assert.deepEqual(check.shown, check.mine);
    await page.evaluate(() => {
      window.changes = [];
      document.querySelector('gatelab-energy').addEventListener('change', (e) => window.changes.push(e.detail));
    });
    const select = page.locator(`${TAG} label:has-text("Preconditioner") select`);
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('precond'), 'paper');
    const after = await canvasStats(page, TAG);
    assert.notEqual(after[0].hash, stats[0].hash, 'the landscape changed');
    const changes = await page.evaluate(() => window.changes);
    assert.deepEqual(changes.map((c) => [c.changed, c.source]), [[['precond'], 'user']]);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText), /smallest eigenvalue/);
    // A range by keyboard: T.
    const steps = page.locator(`${TAG} label:has-text("Steps T") input`);
    await steps.focus();
    await page.keyboard.press('ArrowRight');
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).evaluate((el) => el.steps), 4);
    assert.equal((await page.locator(TAG).evaluate((el) => el.result.energies)).length, 5);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('draws the library\'s parameters and its −∇ε: drawParams for diag, U and V, energyGradient', async () => {
    const { page, context, problems } = await figurePage(session,
      '<gatelab-energy heads="2" diagonal="per-head" precond="paper"></gatelab-energy>', TAG);
    const check = await page.locator(TAG).evaluate(async (el) => {
      const { parseTokens } = await import('/components/paper-b/cem-kit.js');
      const att = el.lab.cem.createAttention({ d: 2, heads: 2, steps: 3, eta: 1.5, diagonal: 'per-head',
        precond: 'paper', precondRank: 1, seed: 4 });
      att.drawParams(['diag', 'precond.U', 'precond.V'], { seed: 4, scale: 0.7 });
      const h = parseTokens(el.tokens);
      const gradient = att.energyGradient(h, 4, 3, h.slice(6, 8));
      const trace = att.energyTrace(h, 4);
      const minEigenvalue = att.minEigenvalue();
      att.dispose();
      return { result: el.result, energies: Array.from(trace.slice(3 * 4, 4 * 4)), minEigenvalue,
        descent: Array.from(gradient, (g) => -g) };
    });
    assert.deepEqual(check.result.energies, check.energies);
    assert.equal(check.result.minEigenvalue, check.minEigenvalue);
    assert.deepEqual(check.result.descent, check.descent);
    assert.ok(check.descent.some((v) => v !== 0));
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('tokens are dragged with the pointer and moved with the keyboard', async () => {
    const { page, context, problems } = await figurePage(session, MARKUP, TAG);
    const canvas = page.locator(`${TAG} canvas.landscape`);
    const area = await page.locator(TAG).evaluate((el) => el.plotArea);
    const tokens = await page.locator(TAG).evaluate((el) => el.result.tokens);
    // Token coordinates → CSS pixels inside the canvas. The pointer is aimed through the locator
    // at every step (hover scrolls the canvas into view and finds it where it is now), never at
    // page coordinates measured before a layout change.
    const inCanvas = (x, y) => ({ x: area.x + ((x + area.extent) / (2 * area.extent)) * area.w,
      y: area.y + ((area.extent - y) / (2 * area.extent)) * area.h });
    const before = await canvasStats(page, TAG);
    const start = inCanvas(tokens[0], tokens[1]);
    await canvas.hover({ position: start });
    await page.mouse.down();
    for (let k = 1; k <= 5; k++) await canvas.hover({ position: { x: start.x + 8 * k, y: start.y + 6 * k } });
    await page.mouse.up();
    await settled(page, TAG);
    const moved = await page.locator(TAG).evaluate((el) => el.result.tokens);
    const perPixel = (2 * area.extent) / area.w;
    assert.ok(Math.abs(moved[0] - (tokens[0] + 40 * perPixel)) < 0.05, `x ${tokens[0]} → ${moved[0]}`);
    assert.ok(Math.abs(moved[1] - (tokens[1] - 30 * perPixel)) < 0.05, `y ${tokens[1]} → ${moved[1]}`);
    assert.deepEqual(moved.slice(2), tokens.slice(2), 'the other tokens stay');
    assert.equal(await page.locator(TAG).getAttribute('tokens'), await page.locator(TAG).evaluate((el) => el.tokens));
    assert.notEqual((await canvasStats(page, TAG))[0].hash, before[0].hash);
    // Keyboard: focus the plane, pick the query with [ (from h₀), move it right twice and down once.
    await canvas.focus();
    await page.keyboard.press('[');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await settled(page, TAG);
    const keyed = await page.locator(TAG).evaluate((el) => el.result.tokens);
    assert.ok(Math.abs(keyed[6] - (tokens[6] + 0.2)) < 1e-6 && Math.abs(keyed[7] - (tokens[7] - 0.5)) < 1e-6,
      `query moved to ${keyed.slice(6)}`);
    const probe = await page.locator(`${TAG} [part~="probe"]`).textContent();
    assert.match(probe, /Selected the query h₃ at \(0\.6, 0\.2\)/);
    assert.equal(await page.locator(`${TAG} [part~="probe"]`).getAttribute('aria-live'), 'polite');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits a 320 px wide screen and follows dark mode', async () => {
    const { page, context, problems } = await figurePage(session, MARKUP, TAG,
      { viewport: { width: 320, height: 800 }, colorScheme: 'dark' });
    const o = await overflow(page, TAG);
    assert.equal(o.page, 0, 'no horizontal scroll');
    assert.equal(o.canvases, 0, 'canvases inside the figure');
    const [r, g, b] = await pixelAt(page, TAG, 1, 0.98, 0.02);
    assert.ok(r + g + b < 150, `dark background (${r}, ${g}, ${b})`);
    const controls = await page.locator(TAG).evaluate((el) => [
      ...el.shadowRoot.querySelectorAll('select, input, button')]
      .filter((c) => c.checkVisibility())
      .map((c) => ({ name: (c.labels?.[0]?.textContent ?? c.textContent).trim(),
        right: c.getBoundingClientRect().right })));
    for (const c of controls) {
      assert.ok(c.name.length > 0, 'every control has an accessible name');
      assert.ok(c.right <= 320, `${c.name} fits (${c.right})`);
    }
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-b-energy-320-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('attributes and properties mirror the state; bad values fall back or throw', async () => {
    const { page, context, problems } = await figurePage(session,
      '<gatelab-energy heads="2" diagonal="shared" steps="2" seed="7" tokens="1,1 -1,0.5 0,-1"></gatelab-energy>', TAG);
    const state = await page.locator(TAG).evaluate((el) => ({ ...el.state }));
    assert.equal(state.heads, 2);
    assert.equal(state.diagonal, 'shared');
    assert.equal(state.seed, 7);
    assert.equal((await page.locator(TAG).evaluate((el) => el.result.tokens)).length, 6, 'three tokens');
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText), /query h₂ .* T = 2 steps.*2 heads/);
    await page.locator(TAG).evaluate((el) => el.setAttribute('eta', '0.25'));
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).evaluate((el) => el.eta), 0.25);
    await page.locator(TAG).evaluate((el) => { el.beta = 2; });
    assert.equal(await page.locator(TAG).getAttribute('beta'), '2');
    const warnings = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.locator(TAG).evaluate((el) => {
      el.setAttribute('heads', '3');
      el.setAttribute('tokens', '1,1');
      el.setAttribute('precond', 'spd');
    });
    await settled(page, TAG);
    const fallback = await page.locator(TAG)
      .evaluate((el) => ({ heads: el.heads, tokens: el.tokens, precond: el.precond }));
    assert.deepEqual(fallback, { heads: 1, tokens: '-1.6,1.1 1.4,1.5 0.9,-1.5 0.4,0.7', precond: 'none' });
    assert.ok(warnings.some((w) => /heads="3" is not an integer in 1..2/.test(w)), warnings.join('\n'));
    const thrown = await page.locator(TAG).evaluate((el) => {
      try {
        el.steps = 99;
        return null;
      } catch (error) {
        return `${error.name}: ${error.message}`;
      }
    });
    assert.match(thrown, /RangeError: gatelab-energy.steps: expected an integer in 1..12/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('mirrors its state to the URL, and exports CSV and PNG', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(`${session.server.url}demos/csp.html#energy.steps=5&energy.seed=9`);
    await figuresSettled(page);
    await page.evaluate(() => {
      const main = document.querySelector('main');
      const figure = document.createElement('gatelab-energy');
      figure.id = 'energy';
      figure.setAttribute('url-state', '');
      main.replaceChildren(figure);
    });
    await figuresSettled(page, TAG);
    assert.deepEqual(await page.locator(TAG).evaluate((el) => [el.steps, el.seed]), [5, 9], 'read from the hash');
    await page.locator(TAG).evaluate((el) => el.setState({ heads: 2 }, 'user'));
    await settled(page, TAG);
    assert.match(await page.evaluate(() => location.hash), /energy\.heads=2/);
    const csv = await page.locator(TAG).evaluate((el) => el.toCSV());
    const lines = csv.trim().split('\r\n');
    assert.equal(lines[0], 'series,index,y1,y2,energy');
    assert.equal(lines.filter((l) => l.startsWith('grid,')).length, 96 * 96);
    assert.equal(lines.filter((l) => l.startsWith('step,')).length, 6);
    const png = await page.locator(TAG).evaluate(async (el) => (await el.toPNG()).size);
    assert.ok(png > 5000, `PNG of ${png} bytes`);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
