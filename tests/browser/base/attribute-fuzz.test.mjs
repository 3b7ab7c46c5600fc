// Attributes are untrusted input: every registered figure gets hundreds of random
// attribute strings — junk, out-of-range numbers, markup — in real Chromium. No uncaught error,
// nothing from an attribute becomes markup, and each figure still draws with good attributes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage } from '../harness.mjs';

describe('random attributes on every custom element', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('are refused or parsed, never executed or injected', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/embed.html');
    const report = await page.evaluate(async () => {
      const { FIGURES } = await import('/components/index.js');
      let seed = 20261129;
      const random = () => {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        return seed / 4294967296;
      };
      const pick = (list) => list[Math.floor(random() * list.length)];
      const junk = ['', ' ', '-1', '0', '1e309', 'NaN', 'Infinity', '-0', '3.5', '99999999999', 'true', 'null',
        '<img src=x id=injected onerror="window.pwned=1">', '"><script>window.pwned=1</script>', 'javascript:alert(1)',
        '\u0000', 'a'.repeat(5000), 'relu', 'gated', 'silu', '__proto__', 'constructor', '{"a":1}', '1,2,3'];
      window.pwned = 0;
      const host = document.querySelector('main') ?? document.body;
      const tags = Object.keys(FIGURES);
      let sets = 0;
      for (const tag of tags) {
        const el = document.createElement(tag);
        host.append(el);
        const names = [...(el.constructor.observedAttributes ?? []), 'id', 'class', 'style', 'hidden', 'onclick',
          'foo'];
        for (let i = 0; i < 120; i++) {
          el.setAttribute(pick(names), pick(junk));
          sets++;
        }
        el.scrollIntoView();
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 1500));
      const injected = [...document.querySelectorAll('gatelab-figure, *')].some((n) => n.id === 'injected')
        || tags.some((tag) => [...document.querySelectorAll(tag)]
          .some((el) => el.shadowRoot?.querySelector('#injected, script')));
      return { tags, sets, pwned: window.pwned, injected };
    });
    assert.ok(report.tags.length >= 1, 'figures are registered');
    assert.ok(report.sets >= 100 * report.tags.length);
    assert.equal(report.pwned, 0, 'no attribute ran as code');
    assert.equal(report.injected, false, 'no attribute became markup');
    const uncaught = problems.filter((p) => p.startsWith('page error'));
    assert.deepEqual(uncaught, [], 'no uncaught error');
    await context.close();
  });
});
