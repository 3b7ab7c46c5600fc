// <gatelab-gp> in real Chromium under the strict CSP: four models (T = 1, 2, 4, 8) train in the
// worker and their held-out RMSE is bit-identical to the same sessions trained with lab.gp in
// Node; every canvas draws; the highlight and a new sequence change the picture and the
// attributes; the CSV carries every series; a bad attribute falls back to its default. Test-time
// recursion: the eta and learn-eta attributes reach the sessions (bit-identical to lab.gp), and
// eval-steps re-evaluates the trained models at T′ without retraining, from the keyboard. A
// reader sees the data and the posterior as soon as it comes into view, then the step counter,
// and no Pause button once training is done.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled, canvasStats, screenshotPath } from '../harness.mjs';
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
        models: r.models.map((m) => ({ steps: m.steps, parameters: m.parameters, rmse: m.rmse,
          byPosition: Array.from(m.rmseByPosition) })) };
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
      new RegExp(String.raw`^Step 40 of 40\. Held-out RMSE on 32 sequences: `
        + String.raw`T = 1 [\d.]+, T = 2 [\d.]+, T = 4 [\d.]+, T = 8 [\d.]+; exact GP posterior`));
    await page.locator(TAG).screenshot({ path: screenshotPath('gatelab-gp') });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('draws the data and the posterior before its models train, shows progress, says Finished when done', async () => {
    // Off screen first, so the moment it comes into view is the test's to choose. 2,000 steps
    // keep it training through the checks on any machine; train-steps lowered ends it.
    const markup = `<div class="spacer"></div><${TAG} length="12" train-steps="2000" seed="4"></${TAG}>`;
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    await page.evaluate((html) => {
      const main = document.querySelector('main');
      const template = document.createElement('template');
      template.innerHTML = html;
      main.replaceChildren(template.content);
      main.querySelector('.spacer').style.height = '3000px';  // a script may style; the strict CSP refuses style=""
      scrollTo(0, 0);
      const el = main.querySelector('gatelab-gp');
      // At the first drawing: what the canvases show and how far training is.
      el.addEventListener('ready', () => {
        const [predictions] = el.shadowRoot.querySelectorAll('canvas');
        const { data } = predictions.getContext('2d').getImageData(0, 0, predictions.width, predictions.height);
        const colors = new Set();
        for (let i = 0; i < data.length; i += 64) colors.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        el.atReady = { colors: colors.size, stepsDone: el.results?.stepsDone ?? 0 };
      });
      el.steps = [];
      el.addEventListener('step', ({ detail }) => el.steps.push(detail.stepsDone));
    }, markup);
    const figure = page.locator(TAG);
    assert.equal(await figure.evaluate((el) => el.lab), null, 'off screen: not started');
    await figure.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('gatelab-gp').atReady, null, { timeout: 60_000 });
    const atReady = await figure.evaluate((el) => el.atReady);
    assert.ok(atReady.colors > 6, `the first drawing shows the data and the posterior (${atReady.colors} colours)`);
    assert.ok(atReady.stepsDone < 2000, 'drawn before training ends');
    assert.equal(await figure.locator('[part~="poster"]').isVisible(), false, 'the poster is gone');
    // Progress: a busy readout with a step counter, and `step` events that count up.
    await page.waitForFunction(() => document.querySelector('gatelab-gp').steps.length >= 2, null,
      { timeout: 120_000 });
    const busy = figure.locator('[part~="readout"] .busy');
    assert.equal(await busy.isVisible(), true, 'the progress is shown');
    assert.match(await busy.textContent(), /^Creating the models|^Step \d+ of 2000\./);
    const steps = await figure.evaluate((el) => el.steps);
    assert.ok(steps[1] > steps[0] && steps.at(-1) < 2000, steps.join());
    const pause = figure.locator('button[part~="pause"]');
    assert.equal(await pause.textContent(), 'Pause');
    // Fewer steps than done: training stops, and the button no longer offers to pause.
    await figure.evaluate((el) => new Promise((resolve) => {
      el.addEventListener('trained', resolve, { once: true });
      el.trainSteps = 10;
    }));
    await settled(page, TAG);
    assert.equal(await pause.textContent(), 'Finished');
    assert.equal(await pause.isDisabled(), true);
    await figure.evaluate((el) => (el.trainSteps = el.results.stepsDone + 10));
    await page.waitForFunction(() => document.querySelector('gatelab-gp').shadowRoot
      .querySelector('[part~="pause"]').textContent === 'Pause');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('highlight and a new sequence redraw and reflect; CSV has every series; bad attributes fall back', async () => {
    const markup = `<${TAG} length="8" train-steps="10" seed="1" dx="oops"></${TAG}>`;
    const { page, context, problems } = await figurePage(session, markup, TAG);
    const figure = page.locator(TAG);
    assert.equal(await figure.evaluate((el) => el.dx), 1, 'dx="oops" fell back to 1');
    const before = await canvasStats(page, TAG);
    const select = figure.getByLabel('Highlight');
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
    const names = ['y', 'posterior_mean', 'posterior_variance', 'context_mean', 'prediction', 'rmse', 'train_mse'];
    for (const name of names) {
      assert.ok(series.has(name), name);
    }
    assert.equal(csv.split('\n').filter((l) => l.startsWith('prediction,8,')).length, 8);
    assert.equal(csv.split('\n').filter((l) => l.startsWith('eta_attention,8,')).length, 2, 'η of both blocks');
    assert.deepEqual(problems.filter((p) => !/dx="oops"/.test(p)), []);
    await context.close();
  });

  it('eta reaches the sessions; eval-steps re-evaluates without retraining; learn-eta learns η; all by keyboard',
    async () => {
    const markup = `<${TAG} length="8" train-steps="10" seed="2" eta="0.125"></${TAG}>`;
    const { page, context, problems } = await figurePage(session, markup, TAG);
    const figure = page.locator(TAG);
    const evalSelect = figure.getByLabel('Evaluate at');
    const etaSelect = figure.getByLabel('Step η');
    const learnBox = figure.getByLabel('Learn η');
    assert.equal(await evalSelect.inputValue(), '0');
    assert.equal(await etaSelect.inputValue(), '0.125');
    assert.equal(await learnBox.isChecked(), false);
    const options = { family: 'cem', diagonal: 'shared', dx: 1, length: 8, lengthScale: 0.5, noiseStd: 0.1, d: 16,
      layers: 2, heads: 2, hidden: 32, eta: 0.125, batch: 8, lr: 0.003, warmup: 20, seed: 2 };
    const held = lab.gp.sample(options, 2 + 7919, 32);
    // lab.gp in Node: each T trained 10 steps, evaluated at evalSteps; RMSE by position and η.
    const expected = (o, evalSteps) => [1, 2, 4, 8].map((steps) => {
      const s = lab.gp.createSession({ ...o, steps });
      s.train(10);
      s.setEvalSteps(evalSteps);
      const out = { byPosition: Array.from(rmseByPosition(held.map((seq) => s.predict(seq)), held).byPosition),
        stepSizes: Array.from(s.stepSizes()) };
      s.dispose();
      return out;
    });
    const read = () => figure.evaluate((el) => {
      const r = el.results;
      return { stepsDone: r.stepsDone, evalSteps: r.evalSteps, readout: el.readoutText,
        models: r.models.map((m) => ({ byPosition: Array.from(m.rmseByPosition),
          stepSizes: Array.from(m.stepSizes) })) };
    });
    const asTrained = await read();
    assert.equal(asTrained.evalSteps, 0);
    assert.deepEqual(asTrained.models, expected(options, 0), 'eta="0.125" trained the sessions');
    assert.match(asTrained.readout, /; η = 1\/8\.$/);
    const before = await canvasStats(page, TAG);
    await figure.evaluate((el) => {
      el.trainedCount = 0;
      el.addEventListener('trained', () => el.trainedCount++);
    });

    // Test-time recursion from the keyboard: as trained → T′ = 1 … 4, no retraining.
    await evalSelect.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    await settled(page, TAG);
    assert.equal(await figure.getAttribute('eval-steps'), '4');
    const at4 = await read();
    assert.equal(at4.evalSteps, 4);
    assert.equal(at4.stepsDone, 10);
    assert.deepEqual(at4.models, expected(options, 4), 'the trained models evaluated at T′ = 4');
    assert.match(at4.readout,
      /^Step 10 of 10\. Held-out RMSE on 32 sequences, every model evaluated at T′ = 4: T = 1 /);
    assert.notEqual(at4.readout, asTrained.readout);
    const after = await canvasStats(page, TAG);
    assert.notEqual(after[1].hash, before[1].hash, 'the RMSE panel shows T′ = 4');
    assert.equal(after[2].hash, before[2].hash, 'the training curves are untouched');
    assert.equal(await figure.evaluate((el) => el.trainedCount), 0, 'no training ran');
    // The Share links carry the new attributes.
    await figure.locator('button[part~="share"]').click();
    const script = await figure.locator('dialog[open] textarea').nth(1).inputValue();
    assert.match(script, /<gatelab-gp [^>]*eta="0\.125"[^>]*eval-steps="4"/);
    await page.keyboard.press('Escape');
    await evalSelect.selectOption('0');
    await settled(page, TAG);
    assert.deepEqual(await read(), asTrained, 'back to the as-trained numbers, bit for bit');

    // η from the keyboard retrains with the new step size.
    await etaSelect.focus();
    await page.keyboard.press('ArrowDown');
    await settled(page, TAG);
    assert.equal(await figure.getAttribute('eta'), '0.25');
    assert.deepEqual((await read()).models, expected({ ...options, eta: 0.25 }, 0));
    assert.equal(await figure.evaluate((el) => el.trainedCount), 1, 'trained again');

    // Learn η: each CEM layer's η is a parameter, as in lab.gp.
    await learnBox.focus();
    await page.keyboard.press('Space');
    await settled(page, TAG);
    assert.equal(await figure.getAttribute('learn-eta'), '');
    const learned = await read();
    assert.deepEqual(learned.models, expected({ ...options, eta: 0.25, learnEta: true }, 0));
    assert.ok(learned.models.every((m) => m.stepSizes.some((eta) => eta !== 0.25)), 'η moved');
    assert.match(learned.readout,
      /η learned from 1\/4, now \(attention \/ MLP, mean over blocks\) T = 1 [\d.]+ \/ [\d.]+,/);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
