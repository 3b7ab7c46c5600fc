// The λ dial (symmetrize, docs/MATH.md §A11) of <gatelab-exchange> and <gatelab-exchange-plane> in
// real Chromium under the strict CSP: the attribute sets the slider and the readout, the slider
// moved by keyboard sets the attribute, λ = 1 makes the exchange gap exactly 0 (the library's
// number), an out-of-range value falls back to the default with a warning, a layer that is not
// gated disables the dial with a note, and the URL carries λ.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession } from '../harness.mjs';
import { figurePage, hashParams, settled } from './fixture.mjs';

/** The dial's slider value, its visible readout, whether it is disabled and whether its note shows. */
function dial(page, tag) {
  return page.locator(tag).first().evaluate((el) => {
    const label = [...el.shadowRoot.querySelectorAll('label.control')].find((l) => l.textContent.includes('λ'));
    const input = label.querySelector('input[type=range]');
    const note = label.querySelector('.control-note');
    return { value: input.value, shown: label.querySelector('output').textContent, disabled: input.disabled,
      note: !note.hidden && note.checkVisibility() };
  });
}

/** Focuses the dial and presses `key`; waits for the figure to settle. */
async function pressOnDial(page, tag, key) {
  await page.locator(`${tag} label:has-text("λ") input[type=range]`).first().focus();
  await page.keyboard.press(key);
  await settled(page, tag);
}

describe('the λ dial', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('<gatelab-exchange>: attribute ⇄ slider ⇄ readout; λ = 1 gives a gap of 0; bad values fall back', async () => {
    const TAG = 'gatelab-exchange';
    const { page, context, problems } = await figurePage(session, `<${TAG} symmetrize="0.25" seed="3"></${TAG}>`, TAG);
    const warnings = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    const el = page.locator(TAG);
    assert.deepEqual(await dial(page, TAG), { value: '0.25', shown: '0.25', disabled: false, note: false });
    assert.match(await el.evaluate((e) => e.readoutText), /\(SwiGLU, λ = 0\.25, seed 3\): \d/);
    const quarter = await el.evaluate((e) => e.result.gap);
    assert.ok(quarter > 0.01, `gap at λ = 0.25: ${quarter}`);
    assert.equal(await el.evaluate((e) => e.weights().options.symmetrize), 0.25);

    await el.evaluate((e) => e.setAttribute('symmetrize', '1'));
    await settled(page, TAG);
    assert.deepEqual(await dial(page, TAG), { value: '1', shown: '1', disabled: false, note: false });
    assert.equal(await el.evaluate((e) => e.result.gap), 0);
    assert.match(await el.evaluate((e) => e.readoutText), /\(symgated \(SiLU\), seed 3\): 0\. At λ = 1/);
    // The same number straight from the library.
    const direct = await page.evaluate(async () => {
      const { sharedLab } = await import('/components/base/shared-lab.js');
      const lab = await sharedLab();
      const layer = lab.createLayer({ ...document.querySelector('gatelab-exchange').weights().options });
      const x = Float32Array.from({ length: 30 }, (_, i) => Math.sin(i + 1));
      const gap = lab.symmetry.exchangeGap(layer, x, 10);
      layer.dispose();
      return gap;
    });
    assert.equal(direct, 0);

    await el.evaluate((e) => {
      window.changes = [];
      e.addEventListener('change', (ev) => window.changes.push(ev.detail.changed));
    });
    await pressOnDial(page, TAG, 'ArrowLeft');
    assert.deepEqual(await page.evaluate(() => window.changes), [['symmetrize']]);
    assert.equal(await el.getAttribute('symmetrize'), '0.95');
    assert.equal((await dial(page, TAG)).shown, '0.95');
    assert.ok(await el.evaluate((e) => e.result.gap) > 0);

    for (const bad of ['1.5', '-0.1', 'half']) {
      await el.evaluate((e, v) => e.setAttribute('symmetrize', v), bad);
      await settled(page, TAG);
      assert.equal(await el.evaluate((e) => e.symmetrize), 0, `symmetrize="${bad}" falls back to 0`);
      assert.deepEqual(await dial(page, TAG), { value: '0', shown: '0', disabled: false, note: false });
    }
    assert.ok(warnings.some((w) => /symmetrize="1.5" is not a number in 0..1/.test(w)), warnings.join('\n'));
    const thrown = await el.evaluate((e) => {
      try {
        e.symmetrize = 2;
        return null;
      } catch (error) {
        return error.name;
      }
    });
    assert.equal(thrown, 'RangeError');

    await el.evaluate((e) => Object.assign(e, { symmetrize: 0.5, kind: 'symmetric' }));
    await settled(page, TAG);
    assert.deepEqual(await dial(page, TAG), { value: '0.5', shown: '0.5', disabled: true, note: true });
    assert.equal(await el.evaluate((e) => e.weights().options.symmetrize), 0, 'a symmetric layer is made without λ');
    assert.doesNotMatch(await el.evaluate((e) => e.readoutText), /λ/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('<gatelab-exchange-plane>: the gated gap and the plane follow λ; keyboard; URL', async () => {
    const TAG = 'gatelab-exchange-plane';
    const { page, context, problems } = await figurePage(session, `<${TAG} id="xp" url-state></${TAG}>`, TAG,
      { hash: '#xp.symmetrize=1' });
    const el = page.locator(TAG);
    assert.equal(await el.evaluate((e) => e.symmetrize), 1);
    assert.deepEqual(await dial(page, TAG), { value: '1', shown: '1', disabled: false, note: false });
    const gaps = await el.evaluate((e) => e.gaps);
    assert.equal(gaps.gated, 0);
    assert.match(await el.evaluate((e) => e.readoutText),
      /\(gated: symgated \(SiLU\); symmetric: symmetric \(SiLU\)\): gated 0, symmetric /);
    const plane = () => el.evaluate((e) => e.toCSV().trim().split(/\r\n/).slice(1)
      .filter((l) => l.startsWith('plane,')).map((l) => Math.abs(Number(l.split(',')[3]))));
    assert.equal(Math.max(...await plane()), 0, 'at λ = 1 the swap changes nothing anywhere on the plane');

    await pressOnDial(page, TAG, 'Home');
    assert.equal(await el.getAttribute('symmetrize'), '0');
    assert.equal((await hashParams(page)).get('xp.symmetrize'), null, 'the default leaves the URL');
    const g = await plane();
    const zero = await el.evaluate((e) => e.gaps.gated);
    assert.ok(zero > 0.01, `gap at λ = 0: ${zero}`);
    await pressOnDial(page, TAG, 'PageUp');
    const lambda = Number(await el.getAttribute('symmetrize'));
    assert.ok(lambda > 0 && lambda < 1, `PageUp moved λ to ${lambda}`);
    assert.equal((await hashParams(page)).get('xp.symmetrize'), String(lambda));
    const scaled = await plane();
    const worst = Math.max(...g.map((v, i) => Math.abs(scaled[i] - (1 - lambda) * v)));
    assert.ok(worst < 1e-5 * Math.max(...g), `the plane is (1 − λ)·g (worst ${worst})`);
    assert.match(await el.evaluate((e) => e.readoutText),
      new RegExp(`\\(gated: SwiGLU, λ = ${lambda}; symmetric: symmetric \\(SiLU\\)\\): gated \\d`));
    assert.deepEqual(problems, []);
    await context.close();
  });
});
