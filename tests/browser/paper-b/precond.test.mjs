// <gatelab-precond> in real Chromium, under the strict CSP: the spectrum of P follows u and v;
// reflecting the gradient makes P indefinite and the energy rise; the positive-definite form never
// crosses zero; 320 px, dark mode, attributes ⇄ state, export.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, canvasStats, screenshotPath } from '../harness.mjs';
import { figurePage, settled, pixelAt, overflow } from './fixture.mjs';

const TAG = 'gatelab-precond';

describe('<gatelab-precond>', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('starts positive definite; a slider changes the spectrum and the pixels', async () => {
    const { page, context, problems } = await figurePage(session, '<gatelab-precond></gatelab-precond>', TAG);
    const first = await page.locator(TAG).evaluate((el) => el.result);
    // P = I + uvᵀ + vuᵀ: eigenvalues 1 + u·v ± |u||v|.
    const [u, v] = [[0.9, 0.3], [-0.4, 0.7]];
    const dot = u[0] * v[0] + u[1] * v[1];
    const norms = Math.hypot(...u) * Math.hypot(...v);
    assert.ok(Math.abs(first.spectrum[0] - (1 + dot - norms)) < 1e-5, String(first.spectrum));
    assert.ok(Math.abs(first.spectrum[1] - (1 + dot + norms)) < 1e-5);
    assert.equal(first.positiveDefinite, true);
    assert.ok(Math.abs(first.crossing - 1 / (norms - dot)) < 0.01, `crossing at ${first.crossing}`);
    assert.ok(first.energies.every((e, t) => t === 0 || e < first.energies[t - 1]), 'falls at every step');
    // The plain step's direction is the library's −∇ε at the query's start (energyGradient).
    const gradient = await page.locator(TAG).evaluate(async (el) => {
      const { parseTokens } = await import('/components/paper-b/cem-kit.js');
      const att = el.lab.cem.createAttention({ d: 2, steps: 4, eta: 2, seed: 4 });
      const h = parseTokens(el.tokens);
      const g = att.energyGradient(h, 4, 3, h.slice(6, 8));
      att.dispose();
      return Array.from(g);
    });
    assert.deepEqual(first.descent, gradient.map((g) => -g));
    const before = await canvasStats(page, TAG);
    assert.equal(before.length, 3);
    for (const canvas of before) assert.ok(canvas.distinctColors > 10);
    const v2 = page.locator(`${TAG} label:has-text("v₂") input`);
    await v2.focus();
    for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowRight');
    await settled(page, TAG);
    assert.equal(await page.locator(TAG).getAttribute('v2'), '0.9');
    const next = await page.locator(TAG).evaluate((el) => el.result);
    assert.equal(next.positiveDefinite, false, `λ_min = ${next.minEigenvalue}`);
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText), /indefinite/);
    const after = await canvasStats(page, TAG);
    assert.notEqual(after[1].hash, before[1].hash, 'the spectrum plot changed');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('reflecting the gradient makes P indefinite and the energy climb; the psd form never does', async () => {
    const { page, context, problems } = await figurePage(session, '<gatelab-precond></gatelab-precond>', TAG);
    await page.locator(`${TAG} button:has-text("Reflect the gradient")`).click();
    await settled(page, TAG);
    const reflected = await page.locator(TAG).evaluate((el) => el.result);
    assert.ok(reflected.minEigenvalue < -0.8, `λ_min = ${reflected.minEigenvalue}`);
    assert.ok(reflected.energies[1] > reflected.energies[0], `energy rose: ${reflected.energies.slice(0, 2)}`);
    assert.ok(reflected.plainEnergies[1] < reflected.plainEnergies[0], 'while P = I descends');
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      /under P rises at step 1; under P = I it falls/);
    const form = page.locator(`${TAG} label:has-text("P") select`).first();
    await form.selectOption('psd');
    await settled(page, TAG);
    const psd = await page.locator(TAG).evaluate((el) => el.result);
    assert.equal(psd.positiveDefinite, true);
    assert.equal(psd.crossing, null, 'I + s²uuᵀ stays positive definite for every s');
    assert.ok(psd.energies.every((e, t) => t === 0 || e < psd.energies[t - 1]));
    assert.equal(await page.locator(`${TAG} label:has-text("v₁")`).isVisible(), false, 'no v for the psd form');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits 320 px, follows dark mode, mirrors attributes, exports', async () => {
    const { page, context, problems } = await figurePage(session,
      '<gatelab-precond u1="1" u2="0" v1="-1" v2="0" eta="0.5" steps="6"></gatelab-precond>', TAG,
      { viewport: { width: 320, height: 800 }, colorScheme: 'dark' });
    const o = await overflow(page, TAG);
    assert.deepEqual([o.page, o.canvases], [0, 0]);
    const [r, g, b] = await pixelAt(page, TAG, 2, 0.99, 0.02);
    assert.ok(r + g + b < 150, `dark background (${r}, ${g}, ${b})`);
    const result = await page.locator(TAG).evaluate((el) => el.result);
    assert.ok(Math.abs(result.spectrum[0] + 1) < 1e-5 && Math.abs(result.spectrum[1] - 1) < 1e-5, 'P = I − 2e₁e₁ᵀ');
    assert.equal(result.energies.length, 7);
    await page.locator(TAG).evaluate((el) => { el.u2 = 0.5; });
    assert.equal(await page.locator(TAG).getAttribute('u2'), '0.5');
    const thrown = await page.locator(TAG).evaluate((el) => {
      try {
        el.u1 = 5;
        return null;
      } catch (error) {
        return error.name;
      }
    });
    assert.equal(thrown, 'RangeError');
    const csv = await page.locator(TAG).evaluate((el) => el.toCSV());
    assert.ok(csv.startsWith('series,index,x,y,value'));
    assert.equal(csv.split('\r\n').filter((l) => l.startsWith('sweep,')).length, 81);
    await page.locator(TAG).screenshot({ path: screenshotPath('paper-b-precond-320-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
