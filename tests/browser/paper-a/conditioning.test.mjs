// <gatelab-conditioning> in real Chromium under the strict CSP: it draws before its runs finish and shows
// their progress; its six models have the race's equal parameter count; every condition number it shows
// is lab.symmetry.ntk's on the trainer's weights (checked against a direct call in the page, at step 0
// and at the last checkpoint, and in the readout's text); the task select works by keyboard; it fits
// 320 px in dark mode; CSV export; no page error.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled, screenshotPath } from '../harness.mjs';
import { assertDrawn, cornerLuminance, exportAll, figurePage, overflow, pressOnSelect } from './fixture.mjs';

const TAG = 'gatelab-conditioning';
const MODELS = ['MLP (ReLU)', 'Bilinear', 'ReGLU', 'SwiGLU', 'symgated (SiLU)', 'symmetric (SiLU)'];

describe('<gatelab-conditioning>', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('draws at once, shows progress, then six equal-size models whose κ are the library’s', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    // Watch the figure from the moment it exists: when it first drew, and every readout it gave.
    await page.evaluate((tag) => {
      window.seen = { readouts: [], readyWith: null, computed: 0 };
      const main = document.querySelector('main');
      main.replaceChildren();
      const el = document.createElement(tag);
      el.setAttribute('steps', '240');
      el.addEventListener('ready', () => (window.seen.readyWith = el.results.length));
      el.addEventListener('computed', () => window.seen.computed++);
      main.append(el);
      const poll = () => {
        const text = el.readoutText;
        if (text && text !== window.seen.readouts.at(-1)) window.seen.readouts.push(text);
        if (window.seen.computed < 6 || /Training/.test(text)) requestAnimationFrame(poll);
      };
      poll();
    }, TAG);
    await page.locator(TAG).evaluate(async (el) => {
      await el.ready;
      await el.settled();
    });
    const seen = await page.evaluate(() => window.seen);
    assert.ok(seen.readyWith !== null && seen.readyWith < 6, `first drawn with ${seen.readyWith} of 6 models done`);
    assert.equal(seen.computed, 6);
    assert.ok(seen.readouts.some((t) => /^Training \S.* \(model \d of 6\) and measuring its NTK… \d+ %$/.test(t)),
      seen.readouts.join('\n'));
    await assertDrawn(page, TAG);

    const results = await page.locator(TAG).evaluate((el) => el.results);
    assert.deepEqual(results.map((r) => r.label), MODELS);
    assert.equal(new Set(results.map((r) => r.parameters)).size, 1, 'equal parameters');
    assert.equal(results[0].parameters, 168);
    for (const r of results) {
      assert.equal(r.ntkRows, 6);
      assert.equal(r.kappa.step[0], 0);
      assert.equal(r.kappa.step.at(-1), 240);
      assert.ok(r.kappa.value.every((k) => k >= 1 && Number.isFinite(k)), `${r.label}: 1 ≤ κ < ∞`);
    }

    // SwiGLU's κ at step 0 and at the end, straight from the library with the figure's own options.
    const direct = await page.evaluate(async ({ options, every, ntkRows }) => {
      const { sharedLab } = await import('/components/base/shared-lab.js');
      const { conditioningInputs } = await import('/components/runner/conditioning-tasks.js');
      const { formatNumber } = await import('/components/base/format.js');
      const lab = await sharedLab();
      const trainer = lab.createTrainer(options);
      const w0 = trainer.weights();
      const layer = lab.createLayer({ ...w0.layer, seed: 0 });
      const { x, rows } = conditioningInputs(trainer.data(), w0.layer.dIn, ntkRows);
      const kappa = () => {
        const w = trainer.weights();
        layer.setParams({ Q: Float32Array.from(w.Q), K: Float32Array.from(w.K), V: Float32Array.from(w.V) });
        return lab.symmetry.ntk(layer, x, rows).conditionNumber;
      };
      const first = kappa();
      while (trainer.stepsDone < 240) trainer.step(every);
      const last = kappa();
      trainer.dispose();
      layer.dispose();
      return { first, last, shown: formatNumber(first) };
    }, { options: results[3].options, every: results[3].kappa.step[1], ntkRows: results[3].ntkRows });
    assert.equal(direct.first, results[3].kappa.value[0]);
    assert.equal(direct.last, results[3].kappa.value.at(-1));
    const readout = await page.locator(TAG).evaluate((el) => el.readoutText);
    assert.ok(readout.includes(`SwiGLU (${results[3].hidden} units, 168 parameters): κ ${direct.shown} at step 0`),
      readout);
    assert.match(readout, /Lowest train loss at step \d+: .+; at step 240: /);

    // Keyboard: the task select moves to the next task and the runs start again on it.
    const task = await pressOnSelect(page, TAG, 'Task', 'ArrowDown');
    assert.notEqual(task, 'xor');
    assert.equal(await page.locator(TAG).getAttribute('task'), task);
    const again = await page.locator(TAG).evaluate((el) => el.results);
    assert.equal(again.length, 6);
    assert.ok(again.every((r) => r.options.data.task === task));

    const { csv } = await exportAll(page, TAG);
    assert.match(csv, /^model,parameters,series,step,value/);
    assert.match(csv, /SwiGLU,168,ntk_condition_number,0,/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits 320 px in dark mode', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG} steps="60" task="circle"></${TAG}>`, TAG,
      { viewport: { width: 320, height: 700 }, colorScheme: 'dark' });
    await assertDrawn(page, TAG);
    assert.ok(await cornerLuminance(page, TAG) < 60, 'dark canvas');
    const fit = await overflow(page, TAG);
    assert.deepEqual([fit.page, fit.figure, fit.parts], [0, 0, 0], JSON.stringify(fit));
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-a-conditioning-320-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
