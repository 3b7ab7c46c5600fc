// <gatelab-tying> in real Chromium, under the strict CSP: tied and standard layers side by side
// with their parameter counts and equal outputs; controls change state and pixels; untying makes
// the outputs differ; 320 px, dark mode, attributes ⇄ state, export.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, canvasStats, screenshotPath } from '../harness.mjs';
import { figurePage, settled, pixelAt, overflow } from './fixture.mjs';

const TAG = 'gatelab-tying';

describe('<gatelab-tying>', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('shows the tie holding: counts 2d² and 4d², outputs equal; a control change redraws', async () => {
    const { page, context, problems } = await figurePage(session, '<gatelab-tying></gatelab-tying>', TAG);
    const result = await page.locator(TAG).evaluate((el) => el.result);
    assert.equal(result.tiedParameters, 2 * 36);
    assert.equal(result.standardParameters, 4 * 36);
    assert.equal(result.tieHolds, true);
    assert.ok(result.maxDifference < 1e-5, `outputs differ by ${result.maxDifference}`);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      /72 parameters \(2d²\).*144 \(4d²\)\. W_V = W_K and W_O = η W_Qᵀ hold exactly/);
    const before = await canvasStats(page, TAG);
    for (const canvas of before) assert.ok(canvas.distinctColors > 10);
    const layer = page.locator(`${TAG} label:has-text("Layer") select`);
    await layer.focus();
    await page.keyboard.press('ArrowDown');
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('layer'), 'mlp');
    const mlp = await page.locator(TAG).evaluate((el) => el.result);
    assert.deepEqual([mlp.tiedParameters, mlp.standardParameters], [2 * 6 * 8, 3 * 6 * 8]);
    assert.equal(mlp.tieHolds, true);
    const after = await canvasStats(page, TAG);
    assert.notEqual(after[0].hash, before[0].hash);
    assert.equal(await page.locator(`${TAG} label:has-text("Heads")`).isVisible(), false, 'heads hidden for the MLP');
    assert.equal(await page.locator(`${TAG} label:has-text("Hidden M")`).isVisible(), true);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('untying W_V and W_O by keyboard makes the outputs differ', async () => {
    const { page, context, problems } = await figurePage(session, '<gatelab-tying eta="0.7"></gatelab-tying>', TAG);
    const before = await canvasStats(page, TAG);
    const untie = page.locator(`${TAG} label:has-text("Untie") input`);
    await untie.focus();
    for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowRight');
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('untie'), '0.3');
    const result = await page.locator(TAG).evaluate((el) => el.result);
    assert.equal(result.tieHolds, false);
    assert.ok(result.maxDifference > 0.01, `outputs now differ by ${result.maxDifference}`);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      /Untied by 0\.3: W_V and W_O moved off the tie/);
    const after = await canvasStats(page, TAG);
    assert.notEqual(after[1].hash, before[1].hash, 'the outputs changed');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits 320 px, follows dark mode, mirrors attributes, exports', async () => {
    const { page, context, problems } = await figurePage(session,
      '<gatelab-tying d="8" heads="3" seed="5"></gatelab-tying>', TAG,
      { viewport: { width: 320, height: 800 }, colorScheme: 'dark' });
    const o = await overflow(page, TAG);
    assert.deepEqual([o.page, o.canvases], [0, 0]);
    const [r, g, b] = await pixelAt(page, TAG, 0, 0.99, 0.99);
    assert.ok(r + g + b < 150, `dark background (${r}, ${g}, ${b})`);
    // heads = 3 does not divide d = 8: normalised to the largest divisor below, 2.
    assert.deepEqual(await page.locator(TAG).evaluate((el) => [el.d, el.heads, el.seed]), [8, 2, 5]);
    assert.equal(await page.locator(TAG).getAttribute('heads'), '3', 'the attribute keeps what the page wrote');
    await page.locator(TAG).evaluate((el) => { el.d = 12; el.heads = 4; });
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('d'), '12');
    assert.equal((await page.locator(TAG).evaluate((el) => el.result)).tiedParameters, 2 * 144);
    await page.locator(TAG).evaluate((el) => { el.layer = 'mlp'; el.units = 12; });
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('units'), '12');
    assert.equal((await page.locator(TAG).evaluate((el) => el.result)).tiedParameters, 2 * 12 * 12);
    assert.equal(await page.locator(TAG).isVisible(), true, 'the figure stays visible');
    const csv = await page.locator(TAG).evaluate((el) => el.toCSV());
    assert.ok(csv.startsWith('matrix,row,column,value'));
    assert.ok(csv.includes('standard.Wdown,') && csv.includes('tied.U,') && csv.includes('output.difference,'));
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-b-tying-320-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
