// Shared set-up of the paper-B figure tests (tests/browser/paper-b/*.test.mjs): a page served
// under the strict Content-Security-Policy (demos/csp.html) whose content is replaced by the
// markup under test, and small readers of a figure's pixels.
import { openPage, figuresSettled } from '../harness.mjs';

/** Opens csp.html, swaps its <main> for `markup` (fixed test strings) and waits for `tag` to settle. */
export async function figurePage(session, markup, tag, options) {
  const opened = await openPage(session.browser, options);
  await opened.page.goto(session.server.url + 'demos/csp.html');
  await figuresSettled(opened.page);
  await opened.page.evaluate((html) => {
    const main = document.querySelector('main');
    main.replaceChildren();
    const template = document.createElement('template');
    template.innerHTML = html;
    main.append(template.content);
  }, markup);
  await figuresSettled(opened.page, tag);
  return opened;
}

/** Waits until every figure matching tag has settled again. */
export function settled(page, tag) {
  return page.evaluate((sel) => Promise.all([...document.querySelectorAll(sel)].map((el) => el.settled())), tag);
}

/** The RGB of the pixel at (fx, fy) (fractions of the size) of canvas `index` of the first `tag`. */
export function pixelAt(page, tag, index, fx, fy) {
  return page.evaluate(([sel, i, x, y]) => {
    const canvas = document.querySelector(sel).shadowRoot.querySelectorAll('canvas')[i];
    const data = canvas.getContext('2d')
      .getImageData(Math.floor(canvas.width * x), Math.floor(canvas.height * y), 1, 1).data;
    return [data[0], data[1], data[2]];
  }, [tag, index, fx, fy]);
}

/** How far the figure and its canvases overflow their box (0 when they fit). */
export function overflow(page, tag) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const box = el.getBoundingClientRect();
    const canvases = [...el.shadowRoot.querySelectorAll('canvas')].map((c) => c.getBoundingClientRect());
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      figure: Math.max(0, box.right - document.documentElement.clientWidth),
      canvases: Math.max(0, ...canvases.map((c) => c.right - box.right)),
      width: box.width,
    };
  }, tag);
}
