// <gatelab-gp> in real Chromium under the strict CSP: four models (T = 1, 2, 4, 8) train in the
// worker and their held-out RMSE is bit-identical to the same sessions trained with lab.gp in
// Node; every canvas draws; the highlight and a new sequence change the picture and the
// attributes; the CSV carries every series; a bad attribute falls back to its default.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, canvasStats, screenshotPath } from '../harness.mjs';
import { figurePage, settled } from './fixture.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';
import { rmseByPosition } from '../../../web/components/runner/gp-tasks.js';

const TAG = 'gatelab-gp';

describe('<gatelab-gp>', () => {
  let session;
  let lab;
  before(async () => {
    session = await startSession();
    lab = await loadGateLab();
  });
  after(() => session?.close());

  it('trains T = 1, 2, 4, 8 in the worker, bit-identical to lab.gp in Node', async () => {
    const markup = `<${TAG} length="10" train-steps="40" seed="3" sequence="2" length-scale="0.4"></${TAG}>`;
    const { page, context, problems } = await figurePage(session, markup, TAG);
    const results = await page.locator(TAG).evaluate((el) => {
      const r = el.results;
      return { stepsDone: r.stepsDone, posterior: r.baselines.posterior.rmse,
        models: r.models.map((m) => ({ steps: m.steps, parameters: m.parameters, rmse: m.rmse, byPosition: Array.from(m.rmseByPosition) })) };
    });
    assert.equal(results.stepsDone, 40);
    assert.deepEqual(results.models.map((m) => m.steps), [1, 2, 4, 8]);
    // The same sessions in Node: same options, same seeds, same held-out set.
    const options = { family: 'cem', diagonal: 'shared', dx: 1, length: 10, lengthScale: 0.4, noiseStd: 0.1, d: 16,
      layers: 2, heads: 2, hidden: 32, eta: 0.25, batch: 8, lr: 0.003, warmup: 20, seed: 3 };
    const held = lab.gp.sample(options, 3 + 7919, 32);
    for (const m of results.models) {
      const s = lab.gp.createSession({ ...options, steps: m.steps });
      s.train(40);
      const expected = rmseByPosition(held.map((seq) => s.predict(seq)), held);
      assert.equal(m.parameters, s.parameterCount);
      s.dispose();
      assert.deepEqual(m.byPosition, Array.from(expected.byPosition), `T = ${m.steps}`);
      assert.ok(m.rmse >= results.posterior * 0.98, 'no model beats the GP posterior');
    }
    for (const canvas of await canvasStats(page, TAG)) assert.ok(canvas.distinctColors > 6, 'every canvas drew');
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      /^Step 40 of 40\. Held-out RMSE on 32 sequences: T = 1 [\d.]+, T = 2 [\d.]+, T = 4 [\d.]+, T = 8 [\d.]+; exact GP posterior/);
    await page.locator(TAG).screenshot({ path: screenshotPath('gatelab-gp') });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('highlight and a new sequence redraw and reflect; CSV has every series; bad attributes fall back', async () => {
    const markup = `<${TAG} length="8" train-steps="10" seed="1" dx="oops"></${TAG}>`;
    const { page, context, problems } = await figurePage(session, markup, TAG);
    const figure = page.locator(TAG);
    assert.equal(await figure.evaluate((el) => el.dx), 1, 'dx="oops" fell back to 1');
    const before = await canvasStats(page, TAG);
    const select = page.locator(`${TAG} select`);
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await settled(page, TAG);
    assert.equal(await figure.getAttribute('highlight'), '4');
    const after = await canvasStats(page, TAG);
    assert.notEqual(after[0].hash, before[0].hash, 'the highlighted line changed');
    await page.locator(`${TAG} button[part~="sequence"]`).click();
    await settled(page, TAG);
    assert.equal(await figure.getAttribute('sequence'), '2');
    const third = await canvasStats(page, TAG);
    assert.notEqual(third[0].hash, after[0].hash, 'a new sequence is drawn');
    assert.equal(third[1].hash, after[1].hash, 'the held-out RMSE panel does not depend on the shown sequence');
    const csv = await figure.evaluate((el) => el.toCSV());
    const series = new Set(csv.split('\n').slice(1).map((line) => line.split(',')[0]));
    for (const name of ['y', 'posterior_mean', 'posterior_variance', 'context_mean', 'prediction', 'rmse', 'train_mse']) {
      assert.ok(series.has(name), name);
    }
    assert.equal(csv.split('\n').filter((l) => l.startsWith('prediction,8,')).length, 8);
    assert.deepEqual(problems.filter((p) => !/dx="oops"/.test(p)), []);
    await context.close();
  });
});
