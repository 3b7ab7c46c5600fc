// <gatelab-race> in real Chromium, under the strict CSP: it trains in the worker (the loss goes
// down), and the same settings and seed give bit-identical curves in the browser and in Node —
// run by run against lab.createTrainer, and over seeds against lab.race(); the reader's own
// points (pointer, keyboard, pasted CSV) train; a divergence is explained in words; 320 px,
// dark mode, attributes ⇄ URL, and PNG / CSV / JSON export.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, canvasStats, positionIn, screenshotPath } from '../harness.mjs';
import { cornerLuminance, exportAll, figurePage, hashParams, overflow, settled } from './fixture.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const TAG = 'gatelab-race';
const METRICS = ['trainLoss', 'testLoss', 'trainAccuracy', 'testAccuracy'];

describe('<gatelab-race>', () => {
  let session;
  let lab;
  before(async () => {
    session = await startSession();
    lab = await loadGateLab();
  });
  after(() => session?.close());

  it('trains (the loss goes down) and gives the same curves as lab.createTrainer and lab.race in Node', async () => {
    const markup = `<${TAG} task="xor" steps="200" seeds="2" seed="3" learning-rate="0.03" `
      + `models="mlp:relu,gated:silu,gated:identity"></${TAG}>`;
    const { page, context, problems } = await figurePage(session, markup, TAG);
    const results = await page.locator(TAG).evaluate((el) => {
      const r = el.results;
      // Typed arrays survive evaluate() as plain objects; send arrays.
      const plain = (o) => Object.fromEntries(Object.entries(o)
        .map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v) : v]));
      return { finished: r.finished, stepsDone: r.stepsDone, models: r.models.map((m) => ({
        label: m.label, hidden: m.hidden, parameters: m.parameters, options: m.options,
        curves: Object.fromEntries(Object.entries(m.curves)
          .map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v) : plain(v)])),
        runs: m.runs.map((run) => plain(run.records)) })) };
    });
    assert.equal(results.finished, true);
    assert.equal(results.stepsDone, 200);
    assert.deepEqual(results.models.map((m) => m.label), ['MLP (ReLU)', 'SwiGLU', 'Bilinear']);
    for (const m of results.models) {
      const loss = m.curves.testLoss.mean;
      assert.equal(m.curves.step.length, 101, 'records every ceil(200 / 100) = 2 steps');
      assert.ok(loss.at(-1) < 0.7 * loss[0], `${m.label}: test loss ${loss[0]} → ${loss.at(-1)}`);
      assert.ok(m.curves.testAccuracy.mean.at(-1) > 0.8);
    }
    // Run by run: the same options in Node give the same records, bit for bit.
    for (const m of results.models) {
      m.options.forEach((options, s) => {
        assert.equal(options.seed, 3 + s);
        assert.equal(options.data.seed, 3 + s);
        const trainer = lab.createTrainer(options);
        trainer.step(200);
        const history = trainer.history();
        trainer.dispose();
        for (const name of ['step', ...METRICS]) {
          assert.deepEqual(m.runs[s][name], Array.from(history[name]), `${m.label} seed ${s} ${name}`);
        }
      });
    }
    // Over seeds: the figure's bands equal lab.race() with the same settings.
    const race = lab.race({ data: { task: 'xor', seed: 3 }, seed: 3, steps: 200, seeds: 2, learningRate: 0.03,
      models: [{ kind: 'mlp', activation: 'relu' }, { kind: 'gated', activation: 'silu' }, 'bilinear'] });
    race.models.forEach((expected, i) => {
      const got = results.models[i];
      assert.equal(got.hidden, expected.hidden);
      assert.equal(got.parameters, expected.parameters);
      assert.deepEqual(got.curves.step, Array.from(expected.curves.step));
      for (const metric of METRICS) {
        for (const stat of ['mean', 'std', 'min', 'max']) {
          assert.deepEqual(got.curves[metric][stat], Array.from(expected.curves[metric][stat]),
            `${expected.label} ${metric} ${stat}`);
        }
      }
    });
    const stats = await canvasStats(page, TAG);
    for (const canvas of stats) assert.ok(canvas.distinctColors > 8, 'every canvas drew');
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      new RegExp(String.raw`^After 200 steps on xor \(2 seeds, seed 3\), test accuracy \(mean ± std\): `
        + String.raw`MLP \(ReLU\) 0\.\d{3} ± 0\.\d{3}, SwiGLU`));
    assert.equal(await page.locator(`${TAG} .results tbody tr`).count(), 3);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('races symmetrised models ("gated:silu:1") under the library\'s names, as lab.race does', async () => {
    const markup = `<${TAG} task="xor" steps="40" seeds="1" seed="2" `
      + `models="gated:silu,gated:silu:1,mlp:relu:0.5"></${TAG}>`;
    const { page, context, problems } = await figurePage(session, markup, TAG);
    const results = await page.locator(TAG).evaluate((el) => ({ finished: el.results.finished,
      models: el.results.models.map((m) => ({
      label: m.label, symmetrize: m.symmetrize, lambdas: m.options.map((o) => o.symmetrize),
      testLoss: Array.from(m.curves.testLoss.mean) })) }));
    assert.equal(results.finished, true);
    // 'mlp:relu:0.5' is dropped: symmetrize applies to the gated kind only.
    assert.deepEqual(results.models.map((m) => [m.label, m.symmetrize, m.lambdas]),
      [['SwiGLU', 0, [0]], ['symgated (SiLU)', 1, [1]]]);
    const race = lab.race({ data: { task: 'xor', seed: 2 }, seed: 2, steps: 40, seeds: 1,
      models: [{ kind: 'gated', activation: 'silu' }, { kind: 'gated', activation: 'silu', symmetrize: 1 }] });
    race.models.forEach((expected, i) => {
      assert.deepEqual(results.models[i].testLoss, Array.from(expected.curves.testLoss.mean));
    });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('your own points: drawn with the pointer and the keyboard, or pasted as CSV, and trained on', async () => {
    const { page, context, problems } = await figurePage(session,
      `<${TAG} task="user" steps="60" seeds="1" models="gated:silu,mlp:relu"></${TAG}>`, TAG);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      /Draw at least 4 points of both classes \(you have 0\)/);
    const data = page.locator(`${TAG} canvas.data`);
    // Two +1 points by pointer, then two −1 points by keyboard (C switches the class). Each click
    // goes through the locator: it scrolls the canvas into view and aims at where it is now.
    await data.click({ position: await positionIn(data, 0.3, 0.35) });
    await data.click({ position: await positionIn(data, 0.7, 0.7) });
    await data.focus();
    await page.keyboard.press('c');
    await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowUp');
    await page.keyboard.press('Enter');
    await settled(page, TAG);
    const points = await page.locator(TAG).evaluate((el) => el.userPoints);
    assert.deepEqual(points.map((p) => p.label).sort(), [-1, -1, 1, 1]);
    assert.match(await page.locator(TAG).getAttribute('points'), /^[\w-]{4}\.[\w-]{4}$/);
    assert.equal(await page.locator(TAG).evaluate((el) => el.results?.finished), true, 'four points train');
    // Click the first point again: it is removed.
    await data.click({ position: await positionIn(data, 0.3, 0.35) });
    await settled(page, TAG);
    assert.equal((await page.locator(TAG).evaluate((el) => el.userPoints)).length, 3);
    // Paste CSV: a header, six rows (one junk), scaled to fit.
    await page.locator(`${TAG} textarea`)
      .fill('x,y,label\n3,0,1\n-3,0,-1\n0,3,1\n0,-3,0\nfoo,bar,1\n1.5,1.5,1\n-1.5,-1.5,-1');
    await page.locator(`${TAG} button`, { hasText: 'Use pasted points' }).click();
    await settled(page, TAG);
    const pasted = await page.locator(TAG).evaluate((el) => el.userPoints);
    assert.equal(pasted.length, 6);
    assert.ok(pasted.every((p) => Math.abs(p.x) <= 1.5 && Math.abs(p.y) <= 1.5));
    assert.match(await page.locator(`${TAG} .editor`).textContent(),
      /Using 6 pasted points \(2 rows skipped; scaled by 0\.475/);
    const r = await page.locator(TAG).evaluate((el) => ({ finished: el.results.finished,
      n: el.results.models[0].options[0].data.points.y.length }));
    assert.deepEqual(r, { finished: true, n: 6 });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a divergence is detected and explained in words, and nothing is drawn as NaN', async () => {
    const { page, context, problems } = await figurePage(session,
      `<${TAG} task="xor" noise="0.05" loss="mse" optimizer="sgd" learning-rate="50" steps="100" seeds="2" seed="3" `
        + `models="gated:relu2,gated:silu"></${TAG}>`, TAG);
    const summary = await page.locator(TAG).evaluate((el) => ({
      readout: el.readoutText,
      runs: el.results.models.map((m) => m.runs.map((run) => run.divergence?.message ?? null)),
      finite: el.results.models.every((m) => Object.values(m.curves)
        .every((c) => (ArrayBuffer.isView(c) ? [c] : Object.values(c)).every((a) => a.every(Number.isFinite)))),
    }));
    assert.ok(summary.runs[0].every(Boolean), 'gated ReLU² diverged in every run');
    assert.match(summary.runs[0][0], /the learning rate 50 is too large for this model; try <= \d/);
    assert.match(summary.readout,
      /gated \(ReLU²\): 2 of 2 runs diverged \(.*learning rate 50 is too large.*\); the library rolled each back/);
    assert.equal(summary.finite, true, 'the curves hold the last good values, never NaN');
    assert.match(await page.locator(`${TAG} .results td.diverged`).first().textContent(), /2 of 2 runs diverged/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits 320 px in dark mode; controls, attributes and the URL agree; exports PNG, CSV and JSON', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG} id="race" url-state></${TAG}>`, TAG,
      { viewport: { width: 320, height: 700 }, colorScheme: 'dark',
        hash: '#race.steps=100&race.seeds=1&race.models=gated:silu,mlp:relu&race.task=circle' });
    const el = page.locator(TAG);
    assert.deepEqual(await el.evaluate((e) => [e.task, e.steps, e.seeds, e.models]),
      ['circle', 100, 1, 'gated:silu,mlp:relu']);
    const fit = await overflow(page, TAG);
    assert.deepEqual([fit.page, fit.figure, fit.parts], [0, 0, 0], JSON.stringify(fit));
    assert.ok(await cornerLuminance(page, TAG, 1) < 60, 'dark canvas');
    const before = await canvasStats(page, TAG);
    const task = el.locator('label:has-text("Data set") select');
    await task.selectOption('gaussians');
    await settled(page, TAG);
    assert.equal(await el.getAttribute('task'), 'gaussians');
    assert.equal((await hashParams(page)).get('race.task'), 'gaussians');
    const after = await canvasStats(page, TAG);
    assert.notEqual(after[0].hash, before[0].hash, 'new data drawn');
    await el.locator('label:has-text("SwiGLU") input').uncheck();
    await settled(page, TAG);
    assert.equal(await el.getAttribute('models'), 'mlp:relu');
    await el.screenshot({ path: screenshotPath('paper-a-race-320-dark') });
    const out = await exportAll(page, TAG, { json: true });
    const lines = out.csv.trim().split(/\r\n/);
    assert.equal(lines[0], 'model,seed,step,train_loss,test_loss,train_accuracy,test_accuracy');
    assert.ok(lines.some((l) => l.startsWith('MLP (ReLU),0,100,')));
    assert.ok(lines.some((l) => l.startsWith('MLP (ReLU),mean,100,')));
    assert.equal(out.json.models.length, 1);
    assert.equal(out.json.models[0].runs[0].stepsDone, 100);
    assert.equal(out.json.models[0].runs[0].K.length, out.json.models[0].hidden * 3);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
