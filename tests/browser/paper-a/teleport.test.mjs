// <gatelab-teleport> in real Chromium under the strict CSP: it draws after coming into view; along one
// unit's orbit the loss stays (to float rounding, docs/MATH.md §A21) while ‖∇L‖ and the next step's loss
// move, the numbers being the library's own (the same trainer rebuilt on the page gives the same bits);
// the c slider works by keyboard and reflects to the attribute; Teleport never raises what it minimises;
// SwiGLU says why it has no orbit; 320 px in dark mode; no page errors.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { figuresSettled, openPage, startSession, screenshotPath } from '../harness.mjs';
import { assertDrawn, cornerLuminance, figurePage, overflow, settled } from './fixture.mjs';

const TAG = 'gatelab-teleport';
const near = (a, b, tolerance) => Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));
const result = (page, id = null) => page.locator(id ? `#${id}` : TAG).first().evaluate((el) => el.result);

describe('<gatelab-teleport>', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('draws once in view; along the orbit the loss stays and ‖∇L‖ moves; the slider works by keyboard', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    await page.evaluate((tag) => {
      const spacer = document.createElement('div');
      spacer.style.height = '4000px';
      const figure = document.createElement(tag);
      for (const [name, value] of [['c', '1'], ['steps', '60'], ['seeds', '2']]) figure.setAttribute(name, value);
      document.querySelector('main').replaceChildren(spacer, figure);
    }, TAG);
    await page.waitForTimeout(300);
    assert.equal(await page.locator(TAG).evaluate((el) => Boolean(el.lab)), false, 'off screen: not started');
    await page.locator(TAG).scrollIntoViewIfNeeded();
    // A drawing comes once in view (axes first, while the worker trains); the budget is generous.
    await page.locator(TAG).evaluate((el) => Promise.race([el.ready, new Promise((_, reject) =>
      setTimeout(() => reject(new Error('no drawing 60 s after coming into view')), 60_000))]));
    await settled(page, TAG);
    await assertDrawn(page, TAG);
    const { orbit } = await result(page);
    assert.equal(orbit.supported, true);
    const losses = Object.values(orbit.orbit.loss);
    const norms = Object.values(orbit.orbit.gradNorm);
    assert.ok(losses.every((l) => near(l, orbit.here.loss, 1e-4)),
      `flat loss: ${Math.min(...losses)} … ${Math.max(...losses)}`);
    assert.ok(Math.max(...norms) > 1.2 * Math.min(...norms),
      `‖∇L‖ moves: ${Math.min(...norms)} … ${Math.max(...norms)}`);
    const next = Object.values(orbit.orbit.nextLoss);
    assert.ok(Math.max(...next) - Math.min(...next) > 1e-4, 'the next step’s loss moves');

    const slider = page.locator(`${TAG} label:has-text("c (log scale)") input[type=range]`);
    await slider.focus();
    await page.keyboard.press('End');
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('c'), '10');
    const moved = (await result(page)).orbit;
    assert.ok(near(moved.at.loss, moved.here.loss, 1e-4), `${moved.at.loss} vs ${moved.here.loss}`);
    assert.ok(Math.abs(moved.at.gradNorm - moved.here.gradNorm) > 1e-3 * moved.here.gradNorm,
      'the gradient norm changed');
    // The same trainer, rebuilt on the page, gives the library's numbers bit for bit.
    const direct = await page.evaluate(async () => {
      const { sharedLab } = await import('/components/base/shared-lab.js');
      const lab = await sharedLab();
      const t = lab.createTrainer({ kind: 'gated', activation: 'relu', hidden: 6, seed: 1, loss: 'cross_entropy',
        optimizer: 'sgd', learningRate: 0.3, batchSize: 0, evalEvery: 1,
        data: { task: 'xor', count: 200, noise: 0.1, seed: 1 } });
      t.step(40);
      const factors = new Float32Array(6).fill(1);
      factors[0] = 10;
      const p = t.probeOrbit(factors);
      t.dispose();
      return p;
    });
    assert.deepEqual(direct, moved.at);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText), /unit 1 at c = 10: training loss/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('Teleport lowers or keeps what it aims at, as the library reports, and keeps the loss', async () => {
    const { page, context, problems } = await figurePage(session,
      `<${TAG} id="g" goal="gradient" steps="40" seeds="1"></${TAG}>`
        + `<${TAG} id="s" steps="40" seeds="1"></${TAG}>`, TAG);
    const before = { g: (await result(page, 'g')).orbit, s: (await result(page, 's')).orbit };
    for (const id of ['g', 's']) {
      const button = page.locator(`#${id} button`, { hasText: /^Teleport/ });
      if (id === 'g') {
        await button.click();
      } else {  // by keyboard
        await button.focus();
        await page.keyboard.press('Enter');
      }
      await page.locator(`#${id}`).evaluate((el) => el.settled());
      assert.equal(await page.locator(`#${id}`).getAttribute('teleports'), '1');
    }
    const g = (await result(page, 'g')).orbit;
    const [jump] = g.jumps;
    assert.ok(jump.gradNormAfter <= jump.gradNormBefore * (1 + 1e-6),
      `‖∇L‖ ${jump.gradNormBefore} → ${jump.gradNormAfter}`);
    assert.ok(near(jump.lossAfter, jump.lossBefore, 1e-4), `loss ${jump.lossBefore} → ${jump.lossAfter}`);
    assert.equal(jump.gradNormBefore, before.g.here.gradNorm);
    assert.equal(g.here.gradNorm, jump.gradNormAfter);
    const s = (await result(page, 's')).orbit;
    assert.ok(s.here.nextLoss <= before.s.here.nextLoss * (1 + 1e-6),
      `next ${before.s.here.nextLoss} → ${s.here.nextLoss}`);
    assert.match(await page.locator('#g').evaluate((el) => el.readoutText), /After 1 teleport: loss .* ‖∇L‖/);
    // Back returns to the trained point.
    await page.locator('#g button', { hasText: 'Back' }).click();
    await page.locator('#g').evaluate((el) => el.settled());
    assert.equal((await result(page, 'g')).orbit.here.gradNorm, before.g.here.gradNorm);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('SwiGLU has no orbit: the figure says why and the library refuses; 320 px dark', async () => {
    const { page, context, problems } = await figurePage(session,
      `<${TAG} layer="swiglu" steps="40" seeds="1"></${TAG}>`,
      TAG, { viewport: { width: 320, height: 700 }, colorScheme: 'dark' });
    const { orbit, race } = await result(page);
    assert.equal(orbit.supported, false);
    assert.match(orbit.message, /not positively homogeneous/);
    const note = page.locator(`${TAG} p.note`);
    assert.equal(await note.isVisible(), true);
    assert.match(await note.textContent(), /SiLU is not positively homogeneous.*The library refuses/);
    assert.equal(race.teleported, null);
    assert.equal(race.plain.mean.length > 1, true);
    assert.equal(await page.locator(`${TAG} button`, { hasText: /^Teleport/ }).isDisabled(), true);
    await assertDrawn(page, TAG);
    assert.ok(await cornerLuminance(page, TAG, 2) < 60, 'dark canvas');
    const fit = await overflow(page, TAG);
    assert.deepEqual([fit.page, fit.figure, fit.parts], [0, 0, 0], JSON.stringify(fit));
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-a-teleport-320-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
