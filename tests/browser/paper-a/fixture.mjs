// Shared set-up of the paper-A figure tests (tests/browser/paper-a/*.test.mjs): a page served
// under the strict Content-Security-Policy (demos/csp.html) whose content is replaced by the
// markup under test, and the checks every figure goes through: pixels, layout at 320 px, dark
// mode, attributes ⇄ state ⇄ URL, and the PNG / CSV / JSON exports.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage, figuresSettled, canvasStats } from '../harness.mjs';

/** Opens csp.html (with an optional #hash), swaps its <main> for `markup` and waits for `tag`. */
export async function figurePage(session, markup, tag, { hash = '', ...options } = {}) {
  const opened = await openPage(session.browser, options);
  await opened.page.goto(session.server.url + 'demos/csp.html' + hash);
  await figuresSettled(opened.page);
  await opened.page.evaluate((html) => {
    const main = document.querySelector('main');
    main.replaceChildren();
    const template = document.createElement('template');
    template.innerHTML = html;  // fixed test strings
    main.append(template.content);
  }, markup);
  await settledAll(opened.page, tag);
  return opened;
}

/** Scrolls each figure matching `tag` into view in turn and waits until it has drawn and settled. */
export async function settledAll(page, tag) {
  for (const figure of await page.locator(tag).all()) {
    await figure.scrollIntoViewIfNeeded();
    await figure.evaluate(async (el) => {
      await customElements.whenDefined(el.localName);
      await el.ready;
      await el.settled();
    });
  }
}

/** Waits until the first figure matching `tag` has settled again. */
export function settled(page, tag) {
  return page.locator(tag).first().evaluate((el) => el.settled());
}

/** Every canvas of the figure has drawn something (more than a handful of colours). */
export async function assertDrawn(page, tag, index = 0) {
  const stats = await canvasStats(page, tag, index);
  assert.ok(stats.length >= 1);
  for (const canvas of stats) {
    assert.ok(canvas.width >= 100 && canvas.height >= 60, `canvas ${canvas.width}×${canvas.height}`);
    assert.ok(canvas.distinctColors > 8, `canvas is not blank (${canvas.distinctColors} colours)`);
  }
  return stats;
}

/** Focuses the select labelled `label` inside the figure and presses `key`; returns the new value. */
export async function pressOnSelect(page, tag, label, key = 'ArrowDown') {
  const select = page.locator(`${tag} label:has-text("${label}") select`).first();
  await select.focus();
  await page.keyboard.press(key);
  await settled(page, tag);
  return select.inputValue();
}

/** How far the page, the figure and its parts overflow at the current viewport (0 = fits). */
export function overflow(page, tag) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const box = el.getBoundingClientRect();
    const parts = [...el.shadowRoot.querySelectorAll('canvas, select, input, button, textarea')]
      .filter((c) => c.checkVisibility()).map((c) => c.getBoundingClientRect());
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      figure: Math.max(0, box.right - document.documentElement.clientWidth, -box.left),
      parts: Math.max(0, ...parts.map((c) => Math.max(c.right - box.right, box.left - c.left))),
      width: box.width,
    };
  }, tag);
}

/** Luminance of the top-left pixel of canvas `index` of the figure. */
export function cornerLuminance(page, tag, index = 0) {
  return page.evaluate(([sel, i]) => {
    const canvas = document.querySelector(sel).shadowRoot.querySelectorAll('canvas')[i];
    const [r, g, b] = canvas.getContext('2d').getImageData(1, 1, 1, 1).data;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }, [tag, index]);
}

/** Clicks the export buttons; returns { png: Buffer, csv: string, json: object | null, names }. */
export async function exportAll(page, tag, { json = false } = {}) {
  const figure = page.locator(tag).first();
  const grab = async (text) => {
    const download = page.waitForEvent('download');
    await figure.locator('button', { hasText: new RegExp(`^${text}$`) }).click();
    const file = await download;
    return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
  };
  const png = await grab('PNG');
  const csv = await grab('CSV');
  const out = { png: png.bytes, csv: csv.bytes.toString('utf8'), json: null, names: [png.name, csv.name] };
  if (json) {
    const file = await grab('JSON');
    out.json = JSON.parse(file.bytes.toString('utf8'));
    out.names.push(file.name);
  }
  assert.equal(png.bytes.subarray(1, 4).toString('latin1'), 'PNG');
  assert.ok(png.bytes.length > 5000, `PNG of ${png.bytes.length} bytes`);
  for (const name of out.names) assert.match(name, new RegExp(`^${tag}_.*\\.(png|csv|json)$`));
  return out;
}

/** The hash parameters of the page's URL. */
export async function hashParams(page) {
  return new URLSearchParams(new URL(page.url()).hash.slice(1));
}
