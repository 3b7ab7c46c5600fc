// Nothing is cut off: on every page of the site at 1280, 375 and 320 px, nothing overflows the
// page's width, and the only boxes that clip content wider than they are (overflow-x other than
// visible, scrollWidth > clientWidth) are designated scroll regions a keyboard can reach: overflow-x auto or scroll,
// tabindex 0, a role and a name (tables in and outside the figures, display equations on a
// phone). At 1280 px the article's tables and equations fit without scrolling. Code wraps.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled } from '../harness.mjs';
import { FIGURES } from '../../../web/components/index.js';

// Short trainings: the race's and the language model's tables appear after their first steps.
const PAGES = ['demos/index.html',
  'demos/paper-a.html#race.steps=40&race.seeds=1&lm.steps=50&lm.seeds=1&conditioning.steps=60',
  'demos/paper-b.html#gp.train-steps=20', 'demos/embed.html', 'demos/csp.html'];
const WIDTHS = [1280, 375, 320];
const ALL = Object.keys(FIGURES).join(', ');

/** Every box (shadow roots included) whose content is wider than it, and how it is marked; the page's overflow. */
function overflows(page) {
  return page.evaluate(() => {
    const found = [];
    const name = (el) => {
      const host = el.getRootNode().host;
      const self = [el.localName, el.id ? `#${el.id}` : '', ...[...el.classList].map((c) => `.${c}`)].join('');
      return host ? `${host.localName} >> ${self}` : self;
    };
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) walk(el.shadowRoot);
        if (!el.checkVisibility() || el.clientWidth <= 1) continue;  // hidden, or a 1 px visually-hidden box
        const style = getComputedStyle(el);
        // A box with visible overflow cuts nothing: what spills out is cut, or scrolled, by an
        // ancestor that clips (checked here itself) or widens the page (checked below).
        if (style.overflowX === 'visible' || el.scrollWidth <= el.clientWidth + 1) continue;
        found.push({ box: name(el), overflowX: style.overflowX, scrollWidth: el.scrollWidth,
          clientWidth: el.clientWidth,
          tabindex: el.getAttribute('tabindex'), role: el.getAttribute('role'), label: el.getAttribute('aria-label') });
      }
    };
    walk(document);
    return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, boxes: found };
  });
}

describe('nothing is cut off', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  for (const path of PAGES) {
    for (const width of WIDTHS) {
      it(`${path.split('#')[0]} at ${width} px`, async () => {
        const { page, context, problems } = await openPage(session.browser, { viewport: { width, height: 900 } });
        await page.goto(session.server.url + path);
        await page.evaluate(() => document.fonts.ready);
        await figuresSettled(page, ALL);
        const { page: pageOverflow, boxes } = await overflows(page);
        assert.equal(pageOverflow, 0, 'the page is no wider than the screen');
        for (const box of boxes) {
          const designated = ['auto', 'scroll'].includes(box.overflowX) && box.tabindex === '0' && box.role
            && box.label;
          assert.ok(designated, `${box.box} cuts its content (${box.scrollWidth} in ${box.clientWidth} px): `
            + JSON.stringify(box));
        }
        if (path.startsWith('demos/paper-a.html') && width === 320) {
          // The figures' results tables are there, and too wide for a phone: they scroll.
          const tables = ['gatelab-race >> div.results', 'gatelab-lm >> div.results',
            'gatelab-census >> div.table-wrap'];
          for (const table of tables) {
            assert.ok(boxes.some((b) => b.box === table), `${table} scrolls: ${boxes.map((b) => b.box).join(', ')}`);
          }
        }
        if (width === 1280) {
          const scrolling = boxes.filter((b) => !b.box.includes('>>')).map((b) => b.box);
          assert.deepEqual(scrolling, [], 'at 1280 px the article\'s tables and equations fit their column');
        }
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }
});
