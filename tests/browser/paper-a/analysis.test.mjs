// <gatelab-rank>, <gatelab-census> and <gatelab-interactions> in real Chromium, under the
// strict CSP: their numbers are the library's and behave as docs/MATH.md §A3/§A9 and the interaction
// identities say; controls change state and pixels; 320 px; dark mode; URL; exports.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, canvasStats, screenshotPath } from '../harness.mjs';
import {
  assertDrawn, cornerLuminance, exportAll, figurePage, hashParams, overflow, pressOnSelect, settled,
} from './fixture.mjs';

describe('<gatelab-rank>', () => {
  const TAG = 'gatelab-rank';
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('the error falls with r and vanishes at r* ≤ d; the rows are lab.rankApprox’s; the slider moves r', async () => {
    const { page, context, problems } = await figurePage(session,
      `<${TAG} d-in="6" activation="silu" seed="2"></${TAG}>`, TAG);
    await assertDrawn(page, TAG);
    const rows = await page.locator(TAG).evaluate((el) => el.rows);
    // §A6: r pairs keep r positive and r negative eigenvalues, so a generic d = 6 layer is exact
    // before r = d (at r* = max over units of max(#positive, #negative) eigenvalues ≥ ⌈d/2⌉).
    const exactAt = rows.length;
    assert.ok(exactAt >= 3 && exactAt < 6, `exact at r* = ${exactAt}`);
    assert.deepEqual(rows.map((r) => r.rank), Array.from({ length: exactAt }, (_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i].error < rows[i - 1].error);
    assert.ok(rows.at(-1).error < 1e-5 && rows.at(-1).exact);
    assert.ok(rows.slice(0, -1).every((r) => !r.exact));
    for (const r of rows) {
      assert.ok(r.energy >= r.onePerPairEnergy - 1e-6, 'the best truncation keeps at least the one-per-pair energy');
    }
    assert.ok(rows.at(-1).onePerPairError > 1e-3, 'one eigenvalue per pair is not yet exact at r*');
    assert.equal(rows[0].parameters, 4 * (2 * 6 + 2), 'rank 1: a gated MLP’s count m(2d + dOut)');
    const direct = await page.evaluate(async () => {
      const { sharedLab } = await import('/components/base/shared-lab.js');
      return (await sharedLab()).rankApprox({ activation: 'silu', dIn: 6, hidden: 4, dOut: 2, seed: 2, inputs: 256 });
    });
    assert.deepEqual(rows, direct);
    const before = await canvasStats(page, TAG);
    const slider = page.locator(`${TAG} input[type=range]`);
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('rank'), '3');
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      /^Rank r = 3 of d = 6.*exact from r = \d on/);
    const after = await canvasStats(page, TAG);
    assert.notEqual(after[0].hash, before[0].hash);
    assert.notEqual(after[1].hash, before[1].hash);
    assert.equal(await pressOnSelect(page, TAG, 'Width d'), '8');
    const wide = await page.locator(TAG).evaluate((el) => el.rows);
    assert.ok(wide.length >= 4 && wide.length <= 8 && wide.at(-1).exact, `d = 8: exact at r* = ${wide.length}`);
    assert.equal(await slider.getAttribute('max'), String(wide.length), 'the slider stops at r*');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits 320 px in dark mode; URL; exports', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG} id="rk" url-state></${TAG}>`, TAG,
      { viewport: { width: 320, height: 700 }, colorScheme: 'dark', hash: '#rk.rank=2&rk.d-in=4' });
    const [rank, dIn, exactAt] = await page.locator(TAG).evaluate((el) => [el.rank, el.dIn, el.rows.length]);
    assert.deepEqual([rank, dIn], [2, 4]);
    assert.ok(exactAt >= 2 && exactAt <= 4);
    const fit = await overflow(page, TAG);
    assert.deepEqual([fit.page, fit.figure, fit.parts], [0, 0, 0], JSON.stringify(fit));
    assert.ok(await cornerLuminance(page, TAG) < 60);
    await page.locator(TAG).evaluate((el) => { el.rank = 3; });
    await settled(page, TAG);
    assert.equal((await hashParams(page)).get('rk.rank'), '3');
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-a-rank-320-dark') });
    const out = await exportAll(page, TAG);
    const lines = out.csv.trim().split(/\r\n/);
    assert.equal(lines[0],
      'rank,relative_error,energy_kept,one_per_pair_error,one_per_pair_energy_kept,exact,parameters,flops_per_token');
    assert.equal(lines.length, exactAt + 1);
    assert.equal(lines.at(-1).split(',')[5], '1', 'the last row is exact');
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('<gatelab-census>', () => {
  const TAG = 'gatelab-census';
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('measured equals predicted for every kind and activation; the table selects the spectrum', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG} id="cs" url-state></${TAG}>`, TAG,
      { hash: '#cs.rank=2' });
    await assertDrawn(page, TAG);
    const rows = await page.locator(TAG).evaluate((el) => el.rows);
    assert.equal(rows.length, 33);
    for (const r of rows) {
      assert.equal(r.rank, r.kind === 'mlp' ? 1 : 2, 'an MLP has no rank');
      assert.equal(r.measured, r.predicted, `${r.kind} ${r.activation}: ${r.explanation}`);
      if (r.exchangeApplicable) assert.equal(r.exchangeMeasured, r.exchangePredicted);
    }
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText), /^33 of 33 layers/);
    assert.equal(await page.locator(`${TAG} tbody tr`).count(), 33);
    const before = await canvasStats(page, TAG);
    await page.locator(`${TAG} tbody tr[data-key="symmetric:relu"] button`).click();
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('selected'), 'symmetric:relu');
    assert.equal((await hashParams(page)).get('cs.selected'), 'symmetric:relu');
    assert.equal(await page.locator(`${TAG} tr[aria-selected="true"]`).getAttribute('data-key'), 'symmetric:relu');
    assert.notEqual((await canvasStats(page, TAG))[1].hash, before[1].hash, 'the spectrum changed');
    const out = await exportAll(page, TAG);
    assert.equal(out.csv.split(/\r\n/)[0].split(',')[0], 'kind');
    assert.equal(out.csv.trim().split(/\r\n/).length, 34);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits 320 px in dark mode; the rank select works by keyboard', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG}></${TAG}>`, TAG,
      { viewport: { width: 320, height: 700 }, colorScheme: 'dark' });
    const fit = await overflow(page, TAG);
    assert.deepEqual([fit.page, fit.figure, fit.parts], [0, 0, 0], JSON.stringify(fit));
    assert.ok(await cornerLuminance(page, TAG) < 60);
    assert.equal(await pressOnSelect(page, TAG, 'Rank r'), '2');
    assert.equal(await page.locator(TAG).getAttribute('rank'), '2');
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-a-census-320-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('<gatelab-interactions>', () => {
  const TAG = 'gatelab-interactions';
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('a trained bilinear layer: sym(B) is the exchange quotient and reproduces the output exactly', async () => {
    const { page, context, problems } = await figurePage(session, `<${TAG} id="ia" url-state></${TAG}>`, TAG);
    await assertDrawn(page, TAG);
    const w = await page.locator(TAG).evaluate((el) => el.interactions);
    assert.ok(w.weightBased.rawAsymmetry > 0.01, 'the raw matrix is not symmetric');
    assert.ok(w.weightBased.exchangeGap < 1e-6, 'both layers have the same sym(B)');
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        assert.ok(Math.abs(w.swapped.raw[i * 3 + j] - w.weightBased.raw[j * 3 + i]) < 1e-5,
          'swapping Q and K transposes B');
      }
    }
    assert.equal(w.weightBased.exact, true);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText), /^Bilinear trained on circle for 400 steps/);
    // Probe a point by keyboard and pin it: x·M·xᵀ equals the output there.
    const canvas = page.locator(`${TAG} canvas.plane`);
    await canvas.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await settled(page, TAG);
    const probe = await page.locator(TAG).getAttribute('probe');
    assert.match(probe, /^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/);
    assert.ok((await hashParams(page)).get('ia.probe'), 'the pinned point is in the URL');
    const local = await page.locator(TAG).evaluate((el) => el.interactions.local);
    assert.ok(Math.abs(local.quadratic - local.output) < 1e-4 * (1 + Math.abs(local.output)),
      `${local.quadratic} vs ${local.output}`);
    assert.match(await page.locator(`${TAG} [part~="probe"]`).textContent(), /\(pinned\): x·M·xᵀ = .*\(exact\)/);
    const out = await exportAll(page, TAG, { json: true });
    assert.match(out.csv, /^matrix,row,column,value\r\nraw,x,x,/);
    assert.match(out.csv, /\r\neffective_at_probe,/);
    assert.equal(out.json.layer.kind, 'gated');
    assert.equal(out.json.Q.length, 8 * 3);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a random gated SiLU layer: the matrix at a point is exact there; controls; 320 px dark', async () => {
    const { page, context, problems } = await figurePage(session,
      `<${TAG} source="random" kind="gated" activation="silu" probe="0.5,-0.7"></${TAG}>`, TAG,
      { viewport: { width: 320, height: 700 }, colorScheme: 'dark' });
    const w = await page.locator(TAG).evaluate((el) => el.interactions);
    assert.equal(w.weightBased.exact, false);
    assert.ok(w.local.exact);
    assert.ok(Math.abs(w.local.quadratic - w.local.output) < 1e-5 * (1 + Math.abs(w.local.output)));
    const fit = await overflow(page, TAG);
    assert.deepEqual([fit.page, fit.figure, fit.parts], [0, 0, 0], JSON.stringify(fit));
    assert.ok(await cornerLuminance(page, TAG) < 60);
    const before = await canvasStats(page, TAG);
    assert.equal(await pressOnSelect(page, TAG, 'Output u'), '1');
    assert.equal(await page.locator(TAG).getAttribute('output'), '1');
    assert.notEqual((await canvasStats(page, TAG))[0].hash, before[0].hash);
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-a-interactions-320-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
