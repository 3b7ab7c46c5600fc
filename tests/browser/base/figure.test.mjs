// <gatelab-exchange-plane> in real Chromium: keyboard control changes the pixels and the state
// (reflected to the attribute, announced by a `change` event), attributes are parsed strictly,
// properties drive it, the gaps behave as docs/MATH.md §A7 says, exports work, the URL mirrors the
// state, and figures start lazily near the viewport.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startSession, openPage, figuresSettled, canvasStats, positionIn, screenshotPath } from '../harness.mjs';

const FIGURE = 'gatelab-exchange-plane';

describe('<gatelab-exchange-plane>', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  /** A page with just the given markup and the components, served from the demo site. */
  async function fixture(markup, options) {
    const opened = await openPage(session.browser, options);
    await opened.page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(opened.page);
    await opened.page.evaluate((html) => {
      document.querySelector('main').replaceChildren();
      const template = document.createElement('template');
      template.innerHTML = html;  // test markup only, fixed strings
      document.querySelector('main').append(template.content);
    }, markup);
    await figuresSettled(opened.page);
    return opened;
  }

  it('a keyboard change of the activation changes pixels, state, attribute and fires change', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const before = await canvasStats(page);
    await page.evaluate(() => {
      window.changes = [];
      document.querySelector('gatelab-exchange-plane').addEventListener('change', (e) => window.changes.push(e.detail));
    });
    const select = page.locator(`${FIGURE} select`);
    await select.focus();
    const from = await select.inputValue();
    await page.keyboard.press('ArrowDown');
    await figuresSettled(page);
    const to = await select.inputValue();
    assert.notEqual(to, from, 'ArrowDown picked the next activation');
    const after = await canvasStats(page);
    assert.notEqual(after[0].hash, before[0].hash, 'heatmap pixels changed');
    assert.notEqual(after[1].hash, before[1].hash, 'curve pixels changed');
    const figure = page.locator(FIGURE);
    assert.equal(await figure.getAttribute('activation'), to, 'state reflected to the attribute');
    assert.equal(await figure.evaluate((el) => el.activation), to);
    const changes = await page.evaluate(() => window.changes);
    assert.equal(changes.length, 1);
    assert.deepEqual(changes[0].changed, ['activation']);
    assert.equal(changes[0].source, 'user');
    assert.equal(changes[0].state.activation, to);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the heatmap can be read cell by cell with the keyboard and the pointer', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const canvas = page.locator(`${FIGURE} canvas.plane`);
    const probe = page.locator(`${FIGURE} [part~="probe"]`);
    assert.equal(await probe.getAttribute('aria-live'), 'polite');
    const before = await canvasStats(page);
    await canvas.focus();
    await page.keyboard.press('ArrowRight');  // first press: the middle cell
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    await figuresSettled(page);
    const text = await probe.textContent();
    const expected = await page.evaluate(async () => {
      const { sharedLab } = await import('/components/base/shared-lab.js');
      const { formatNumber } = await import('/components/base/format.js');
      const lab = await sharedLab();
      const grid = lab.symmetry.exchangePlane('gelu', { min: -3, max: 3, n: 64 });
      const axis = lab.activationCurve('gelu', { min: -3, max: 3, n: 64 }).z;
      return `g(a = ${formatNumber(axis[33])}, b = ${formatNumber(axis[33])}) = ${formatNumber(grid[33 * 64 + 33])}`;
    });
    assert.equal(text, expected);
    assert.notEqual((await canvasStats(page))[0].hash, before[0].hash, 'the probe marker is drawn');
    await page.keyboard.press('Escape');
    assert.match(await probe.textContent(), /arrow keys/);
    await canvas.hover({ position: await positionIn(canvas, 0.3, 0.3) });
    assert.match(await probe.textContent(), /^g\(a = −[\d.]+, b = [\d.]+\) = /);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('every control is a labelled native control reachable with Tab', async () => {
    const { page, context } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const names = await page.locator(FIGURE).evaluate((el) => [
      ...el.shadowRoot.querySelectorAll('select, input, button')]
      .filter((c) => c.checkVisibility())
      .map((c) => (c.labels?.[0]?.textContent ?? c.textContent).trim()));
    assert.ok(names.length >= 5, names.join(' | '));
    for (const name of names) assert.ok(name.length > 0, 'control has an accessible name');
    // Tab from the page reaches the select and the buttons in order.
    const focused = [];
    await page.locator('.site-nav a').last().focus();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => {
        const inner = document.activeElement?.shadowRoot?.activeElement;
        if (!inner) return document.activeElement?.tagName.toLowerCase();
        return inner.tagName.toLowerCase() + (inner.type ? `:${inner.type}` : '');
      }));
    }
    assert.ok(focused.includes('select:select-one'), focused.join(','));
    assert.ok(focused.includes('input:range'), focused.join(','));
    assert.ok(focused.filter((f) => f === 'button:button').length >= 3, focused.join(','));
    const readout = page.locator(FIGURE).locator('[part~="readout"]');
    assert.equal(await readout.getAttribute('aria-live'), 'polite');
    await context.close();
  });

  it('the gaps follow docs/MATH.md §A7: gated > 0 unless σ is linear, symmetric ≈ 0, mlp n/a', async () => {
    const { page, context, problems } = await fixture(`
      <${FIGURE} id="silu" activation="silu" seed="5"></${FIGURE}>
      <${FIGURE} id="relu" activation="relu" seed="5"></${FIGURE}>
      <${FIGURE} id="identity" activation="identity" seed="5"></${FIGURE}>`);
    const gaps = await page.evaluate(() => Object.fromEntries(
      [...document.querySelectorAll('gatelab-exchange-plane')].map((el) => [el.id, el.gaps])));
    for (const name of ['silu', 'relu']) {
      assert.ok(gaps[name].gated > 0.01, `${name} gated gap ${gaps[name].gated}`);
      assert.ok(gaps[name].symmetric < 1e-5, `${name} symmetric gap ${gaps[name].symmetric}`);
      assert.equal(gaps[name].mlp, null);
    }
    assert.ok(gaps.identity.gated < 1e-5, `identity gated gap ${gaps.identity.gated}`);
    const readout = await page.locator('#silu').evaluate((el) => el.readoutText);
    assert.match(readout, /gated 0\.\d+|gated \d/);
    assert.match(readout, /MLP n\/a/);
    assert.match(await page.locator('#identity').evaluate((el) => el.readoutText), /is linear/);
    // Four figures have run on this page: the page fetched and compiled the module once.
    const wasmFetches = await page.evaluate(() => performance.getEntriesByType('resource')
      .filter((e) => e.name.endsWith('.wasm')).length);
    assert.equal(wasmFetches, 1, 'one shared wasm module per page');
    const labs = await page.evaluate(
      () => new Set([...document.querySelectorAll('gatelab-exchange-plane')].map((el) => el.lab)).size);
    assert.equal(labs, 1);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('rapid changes during transitions end on the same picture as a fresh figure', async () => {
    const { page, context, problems } = await fixture(`
      <${FIGURE} id="busy" activation="silu"></${FIGURE}>
      <${FIGURE} id="fresh" activation="tanh" min="-2" max="2"></${FIGURE}>`);
    await page.evaluate(async () => {
      const el = document.getElementById('busy');
      el.activation = 'relu';
      await new Promise((r) => requestAnimationFrame(r));
      el.activation = 'gelu';
      await new Promise((r) => setTimeout(r, 50));
      el.activation = 'tanh';
      el.min = -2;
      el.max = 2;
      await el.settled();
    });
    const [busy, fresh] = await Promise.all([canvasStats(page, FIGURE, 0), canvasStats(page, FIGURE, 1)]);
    assert.deepEqual(busy, fresh);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('bad attributes fall back to defaults with a warning; bad properties throw', async () => {
    const { page, context } = await openPage(session.browser);
    const warnings = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const result = await page.evaluate(async () => {
      const el = document.createElement('gatelab-exchange-plane');
      el.setAttribute('activation', '<img src=x onerror=alert(1)>');
      el.setAttribute('n', '12abc');
      el.setAttribute('min', 'Infinity');
      el.setAttribute('seed', '-4');
      el.setAttribute('max', '1e400');
      document.querySelector('main').append(el);
      el.scrollIntoView();
      await el.settled();
      const state = { ...el.state };
      el.setAttribute('activation', 'no_such_thing');
      const after = el.activation;
      let thrown = null;
      try {
        el.n = 1e9;
      } catch (error) {
        thrown = error.name;
      }
      el.n = 32;
      await el.settled();
      return { state, after, thrown, n: el.n, attr: el.getAttribute('n'),
        html: el.shadowRoot.innerHTML.includes('<img') };
    });
    assert.deepEqual(result.state, { activation: 'silu', beta: 1, min: -3, max: 3, n: 64, symmetrize: 0, seed: 1 });
    assert.equal(result.after, 'silu', 'an unknown activation falls back once the library knows the list');
    assert.equal(result.thrown, 'RangeError');
    assert.equal(result.n, 32);
    assert.equal(result.attr, '32', 'a property is reflected to its attribute');
    assert.equal(result.html, false, 'attribute text never becomes markup');
    assert.ok(warnings.some((w) => /n="12abc" is not an integer/.test(w)), warnings.join('\n'));
    await context.close();
  });

  it('exports a PNG and a CSV of the numbers behind the figure', async () => {
    const { page, context } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const figure = page.locator(FIGURE);
    const png = page.waitForEvent('download');
    await figure.locator('button', { hasText: 'PNG' }).click();
    const pngDownload = await png;
    assert.match(pngDownload.suggestedFilename(), /^gatelab-exchange-plane_gelu_.*\.png$/);
    const pngBytes = readFileSync(await pngDownload.path());
    assert.deepEqual([...pngBytes.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
    assert.ok(pngBytes.length > 5000);
    await pngDownload.saveAs(screenshotPath('export-figure'));

    const csv = page.waitForEvent('download');
    await figure.locator('button', { hasText: 'CSV' }).click();
    const text = readFileSync(await (await csv).path(), 'utf8');
    const lines = text.trim().split(/\r\n/);
    assert.equal(lines[0], 'series,x,y,value');
    assert.equal(lines.filter((l) => l.startsWith('plane,')).length, 64 * 64);
    assert.ok(lines.filter((l) => l.startsWith('ratio,')).length > 100);
    assert.match(text, /exchange_gap,gated,,\d+\.\d+/);
    assert.match(text, /exchange_gap,mlp,,\r\n/);
    // The plane's numbers are the library's own.
    const same = await page.evaluate(async () => {
      const { sharedLab } = await import('/components/base/shared-lab.js');
      const lab = await sharedLab();
      const grid = lab.symmetry.exchangePlane('gelu', { min: -3, max: 3, n: 64 });
      return [...grid.slice(0, 5)].map(String);
    });
    const firstValues = lines.filter((l) => l.startsWith('plane,')).slice(0, 5).map((l) => l.split(',')[3]);
    assert.deepEqual(firstValues, same);
    await context.close();
  });

  it('mirrors its state to the URL hash and reads it back', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/paper-a.html#plane.activation=relu&plane.seed=9');
    await figuresSettled(page);
    const figure = page.locator('#plane');
    assert.equal(await figure.evaluate((el) => el.activation), 'relu');
    assert.equal(await figure.evaluate((el) => el.seed), 9);
    await figure.locator('button', { hasText: 'New random layers' }).click();
    await figuresSettled(page);
    assert.match(page.url(), /plane\.seed=10/);
    await page.locator('button[data-activation="gelu"]').click();
    await figuresSettled(page);
    assert.match(page.url(), /plane\.activation=gelu/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('starts lazily: a figure far below the fold loads nothing until scrolled near', async () => {
    const { page, context } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const state = await page.evaluate(async () => {
      const spacer = document.createElement('div');
      spacer.style.height = '5000px';
      const el = document.createElement('gatelab-exchange-plane');
      document.querySelector('main').append(spacer, el);
      await new Promise((r) => setTimeout(r, 300));
      const before = { lab: !!el.lab, visible: el.visible };
      el.scrollIntoView();
      await el.settled();
      const after = { lab: !!el.lab, visible: el.visible };
      window.scrollTo(0, 0);
      await new Promise((r) => setTimeout(r, 300));
      return { before, after, paused: !el.visible };
    });
    assert.deepEqual(state.before, { lab: false, visible: false });
    assert.deepEqual(state.after, { lab: true, visible: true });
    assert.equal(state.paused, true, 'off screen again: paused');
    await context.close();
  });

  it('reduced motion: a change is drawn at once, without a transition', async () => {
    const { page, context } = await openPage(session.browser, { reducedMotion: 'reduce' });
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const frames = await page.evaluate(async () => {
      const el = document.querySelector('gatelab-exchange-plane');
      const canvas = el.shadowRoot.querySelector('canvas');
      let draws = 0;
      const draw = el.draw.bind(el);
      el.draw = () => { draws++; draw(); };
      el.activation = 'relu';
      await el.settled();
      return { draws, reduced: el.reducedMotion, width: canvas.width };
    });
    assert.equal(frames.reduced, true);
    assert.ok(frames.draws <= 2, `${frames.draws} draws`);
    await context.close();
  });
});
