// <gatelab-exchange> and <gatelab-scaling> in real Chromium, under the strict CSP: the numbers
// follow docs/MATH.md §A7/§A8 (and are the library's own), controls change state, attribute and pixels,
// the Q ↔ K toggle changes a gated picture and leaves a symmetric one alone, 320 px, dark mode,
// attributes ⇄ state ⇄ URL, and PNG / CSV / JSON export.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, canvasStats, screenshotPath } from '../harness.mjs';
import {
  assertDrawn, cornerLuminance, exportAll, figurePage, hashParams, overflow, pressOnSelect, settled,
} from './fixture.mjs';

describe('<gatelab-exchange>', () => {
  const TAG = 'gatelab-exchange';
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('swapping Q and K changes a gated SiLU picture and leaves the symmetric one; gaps are the library’s', async () => {
    const { page, context, problems } = await figurePage(session,
      `<${TAG} id="g" kind="gated" activation="silu" seed="3"></${TAG}>`
        + `<${TAG} id="s" kind="symmetric" activation="silu" seed="3"></${TAG}>`, TAG);
    await assertDrawn(page, TAG, 0);
    const gaps = await page.evaluate(
      () => ({ g: document.getElementById('g').result.gap, s: document.getElementById('s').result.gap }));
    assert.ok(gaps.g > 0.05, `gated gap ${gaps.g}`);
    assert.ok(gaps.s < 1e-5, `symmetric gap ${gaps.s}`);
    // The same number straight from the library, on the same plane.
    const direct = await page.evaluate(async () => {
      const { sharedLab } = await import('/components/base/shared-lab.js');
      const lab = await sharedLab();
      const el = document.getElementById('g');
      const { n, extent } = el.state;
      const layer = lab.createLayer({ ...el.weights().options });
      const x = new Float32Array(n * n * 3);
      const at = (k) => -extent + (2 * extent * k) / (n - 1);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) x.set([at(i), at(j), 1], (i * n + j) * 3);
      const gap = lab.symmetry.exchangeGap(layer, x, n * n);
      layer.dispose();
      return gap;
    });
    assert.ok(Math.abs(direct - gaps.g) < 1e-6 * Math.max(1, gaps.g), `${direct} vs ${gaps.g}`);

    const [gBefore, sBefore] = [await canvasStats(page, TAG, 0), await canvasStats(page, TAG, 1)];
    for (const id of ['g', 's']) {
      await page.locator(`#${id} button`, { hasText: 'Swap Q ↔ K' }).click();
      await page.locator(`#${id}`).evaluate((el) => el.settled());
    }
    const [gAfter, sAfter] = [await canvasStats(page, TAG, 0), await canvasStats(page, TAG, 1)];
    assert.notEqual(gAfter[0].hash, gBefore[0].hash, 'the gated picture changed');
    assert.equal(await page.locator('#g').getAttribute('exchanged'), '', 'reflected as a boolean attribute');
    assert.equal(await page.locator('#g button', { hasText: 'Swap' }).getAttribute('aria-pressed'), 'true');
    // The symmetric layer's output plane is the same picture; only the title colour may differ.
    const planes = await page.evaluate(() => {
      const el = document.getElementById('s');
      const csv = el.toCSV().trim().split(/\r\n/).slice(1, -1).map((l) => l.split(',').map(Number));
      return csv.every(([, , a, b]) => Math.abs(a - b) <= 1e-6 * (1 + Math.abs(a)));
    });
    assert.ok(planes, 'symmetric: f(K,Q) = f(Q,K) at every point of the plane');
    assert.equal(sAfter[1].hash, sBefore[1].hash,
      'symmetric: the difference panel stays zero ' + JSON.stringify([sBefore, sAfter]));
    assert.match(await page.locator('#s').evaluate((el) => el.readoutText), /changes nothing, whatever σ/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('keyboard control changes state, attribute and pixels; an MLP has nothing to swap', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG}></${TAG}>`, TAG);
    const before = await canvasStats(page, TAG);
    const changes = page.evaluate(() => new Promise((resolve) => document.querySelector('gatelab-exchange')
      .addEventListener('change', (e) => resolve(e.detail), { once: true })));
    const value = await pressOnSelect(page, TAG, 'Rank r');
    assert.equal(value, '2');
    assert.equal(await page.locator(TAG).getAttribute('rank'), '2');
    assert.deepEqual((await changes).changed, ['rank']);
    assert.notEqual((await canvasStats(page, TAG))[0].hash, before[0].hash);
    await page.locator(TAG).evaluate((el) => { el.kind = 'mlp'; });
    await settled(page, TAG);
    assert.equal(await page.locator(`${TAG} button`, { hasText: 'Swap' }).isDisabled(), true);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText), /nothing to swap/);
    assert.equal(await page.locator(TAG).evaluate((el) => el.result.gap), null);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits 320 px in dark mode, mirrors its state to the URL and exports PNG, CSV and JSON', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG} id="ex" url-state></${TAG}>`, TAG,
      { viewport: { width: 320, height: 700 }, colorScheme: 'dark',
        hash: '#ex.activation=relu&ex.seed=5&ex.exchanged=true' });
    const el = page.locator(TAG);
    assert.deepEqual(await el.evaluate((e) => [e.activation, e.seed, e.exchanged]), ['relu', 5, true]);
    const fit = await overflow(page, TAG);
    assert.deepEqual([fit.page, fit.figure, fit.parts], [0, 0, 0], JSON.stringify(fit));
    assert.ok(await cornerLuminance(page, TAG) < 60, 'dark canvas');
    await el.locator('button', { hasText: 'New random layer' }).click();
    await settled(page, TAG);
    assert.equal((await hashParams(page)).get('ex.seed'), '6');
    await el.screenshot({ path: screenshotPath('paper-a-exchange-320-dark') });
    const out = await exportAll(page, TAG, { json: true });
    const lines = out.csv.trim().split(/\r\n/);
    assert.equal(lines[0], 'a,b,f_QK,f_KQ,difference');
    assert.equal(lines.length, 1 + 72 * 72 + 1);
    assert.match(lines.at(-1), /^exchange_gap,,,,\d/);
    assert.equal(out.json.options.kind, 'gated');
    assert.equal(out.json.Q.length, 6 * 3);
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('<gatelab-scaling>', () => {
  const TAG = 'gatelab-scaling';
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('ReLU keeps the symmetry for α > 0 and breaks it for α < 0; SiLU breaks both; symmetric keeps all', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG} alpha="2" activation="relu"></${TAG}>`, TAG);
    await assertDrawn(page, TAG);
    const positive = await page.locator(TAG).evaluate((el) => el.gaps);
    assert.ok(positive.gated.relu < 1e-5 && positive.gated.leaky_relu < 1e-5 && positive.gated.identity < 1e-5);
    assert.ok(positive.gated.silu > 0.01 && positive.gated.gelu > 0.01 && positive.gated.sigmoid > 0.01);
    for (const v of Object.values(positive.symmetric)) assert.ok(v < 1e-5, `symmetric gap ${v}`);
    const before = await canvasStats(page, TAG);
    await page.locator(`${TAG} button`, { hasText: 'α → −α' }).click();
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('alpha'), '-2');
    const negative = await page.locator(TAG).evaluate((el) => el.gaps);
    assert.ok(negative.gated.relu > 0.1, `ReLU at α = −2: ${negative.gated.relu}`);
    assert.ok(negative.gated.identity < 1e-5);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      /keeps the symmetry for α > 0 and loses it for α < 0/);
    const after = await canvasStats(page, TAG);
    assert.notEqual(after[1].hash, before[1].hash, 'the bars changed');
    // The curves are the library's: one point checked against lab.symmetry.scalingGap directly.
    const check = await page.evaluate(async () => {
      const { sharedLab } = await import('/components/base/shared-lab.js');
      const { scalingLayers, scalingInputs, SCALING_SHAPE } = await import('/components/runner/paper-a-tasks.js');
      const lab = await sharedLab();
      const [gated, symmetric] = scalingLayers(lab, 'silu', 1);
      const gap = lab.symmetry.scalingGap(gated, scalingInputs(1), SCALING_SHAPE.rows, -2);
      gated.dispose();
      symmetric.dispose();
      return gap;
    });
    assert.equal(negative.gated.silu, check);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the α slider works by keyboard; 320 px dark; URL; exports', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG} id="sc" url-state></${TAG}>`, TAG,
      { viewport: { width: 320, height: 700 }, colorScheme: 'dark', hash: '#sc.activation=silu' });
    assert.equal(await page.locator(TAG).evaluate((el) => el.activation), 'silu');
    const before = await canvasStats(page, TAG);
    const slider = page.locator(`${TAG} input[type=range]`);
    await slider.focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    await settled(page, TAG);
    const alpha = Number(await page.locator(TAG).getAttribute('alpha'));
    assert.ok(alpha > -0.5 && alpha < -0.2, `α moved along the log scale: ${alpha}`);
    assert.equal((await hashParams(page)).get('sc.alpha'), String(alpha));
    assert.notEqual((await canvasStats(page, TAG))[0].hash, before[0].hash);
    const fit = await overflow(page, TAG);
    assert.deepEqual([fit.page, fit.figure, fit.parts], [0, 0, 0], JSON.stringify(fit));
    assert.ok(await cornerLuminance(page, TAG) < 60, 'dark canvas');
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-a-scaling-320-dark') });
    const out = await exportAll(page, TAG);
    assert.match(out.csv, /^form,activation,alpha,scaling_gap\r\n/);
    assert.match(out.csv, /\r\ngated_at_alpha,silu,-0\.\d+,\d/);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
