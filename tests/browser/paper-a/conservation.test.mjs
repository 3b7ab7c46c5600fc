// <gatelab-conservation> in real Chromium under the strict CSP: it draws after coming into view; the
// balance drift after the same time η·T is smaller at the smaller step for ReGLU, Bilinear and symmetric
// (docs/MATH.md §A14) and not for SwiGLU; the drift is the library's own (trainer.balanceDrift on the
// same trainer rebuilt on the page); the law is written in plain words; the optimizer menu works by
// keyboard; 320 px in dark mode; no page errors.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, screenshotPath } from '../harness.mjs';
import { assertDrawn, cornerLuminance, figurePage, overflow, pressOnSelect } from './fixture.mjs';

const TAG = 'gatelab-conservation';

describe('<gatelab-conservation>', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('drift falls with the step where the symmetry holds, not for SwiGLU; numbers are the library’s', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG}></${TAG}>`, TAG);
    const stats = await assertDrawn(page, TAG);
    assert.equal(stats.length, 2, 'two canvases');
    const r = await page.locator(TAG).evaluate((el) => el.result);
    const last = r.rates.length - 1;
    for (const name of ['reglu', 'bilinear', 'symmetric']) {
      assert.ok(r.drift[name][last] < r.drift[name][0], `${name}: ${r.drift[name][0]} → ${r.drift[name][last]}`);
      assert.ok(r.drift[name][last] < 0.2 * r.drift[name][0],
        `${name} falls about as η: ${Object.values(r.drift[name])}`);
    }
    assert.ok(r.drift.swiglu[last] > 10 * r.drift.reglu[last],
      `SwiGLU keeps drifting: ${Object.values(r.drift.swiglu)}`);
    // The same run rebuilt on the page: ReGLU at the smallest step.
    const direct = await page.evaluate(async ([eta, steps]) => {
      const { sharedLab } = await import('/components/base/shared-lab.js');
      const lab = await sharedLab();
      const t = lab.createTrainer({ kind: 'gated', activation: 'relu', hidden: 6, seed: 1, loss: 'cross_entropy',
        optimizer: 'sgd', learningRate: eta, batchSize: 0, evalEvery: steps,
        data: { task: 'circle', count: 200, noise: 0.1, seed: 1 } });
      t.step(steps);
      const drift = t.balanceDrift();
      t.dispose();
      return drift;
    }, [r.rates[last], r.steps[last]]);
    assert.equal(direct, r.drift.reglu[last]);
    assert.equal(r.trace.balance[0].length, 6, 'one balance per unit');
    const law = page.locator(`${TAG} p.law`);
    assert.equal(await law.isVisible(), true);
    assert.match(await law.textContent(),
      /gradient flow .* never changes any unit's balance .*SwiGLU has no such symmetry/);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      /ReGLU [\d.]+( × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)? → [\d.]+/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the optimizer menu works by keyboard; 320 px dark', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG}></${TAG}>`, TAG,
      { viewport: { width: 320, height: 700 }, colorScheme: 'dark' });
    assert.equal(await pressOnSelect(page, TAG, 'Optimizer'), 'momentum');
    assert.equal(await page.locator(TAG).getAttribute('optimizer'), 'momentum');
    const r = await page.locator(TAG).evaluate((el) => el.result);
    assert.equal(r.rates[0], 0.04);
    assert.ok(Object.values(r.drift.reglu).every(Number.isFinite));
    await assertDrawn(page, TAG);
    assert.ok(await cornerLuminance(page, TAG) < 60, 'dark canvas');
    const fit = await overflow(page, TAG);
    assert.deepEqual([fit.page, fit.figure, fit.parts], [0, 0, 0], JSON.stringify(fit));
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-a-conservation-320-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
