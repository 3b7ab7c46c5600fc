// Accessibility as axe-core (the engine behind Lighthouse's and the browsers' audits) judges it:
// every page of web/demos, with every figure started and drawn (their shadow DOM included), in
// the light and the dark scheme, and a figure's Share dialog open, has no violation of impact
// "serious" or "critical" (contrast, names of controls and regions, keyboard access to scroll
// boxes, ARIA use). Moderate and minor findings are listed in the test's output, not failed on.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startSession, openPage, figuresSettled, root } from '../harness.mjs';
import { FIGURES } from '../../../web/components/index.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ALL = Object.keys(FIGURES).join(', ');
// Query or hash a page needs: a figure for the iframe page, short trainings for the articles.
const SETTINGS = {
  'frame.html': '?figure=gatelab-race&steps=40&seeds=1',
  'paper-a.html': '#race.steps=40&race.seeds=1&lm.steps=50&lm.seeds=1&conditioning.steps=60',
  'paper-b.html': '#gp.train-steps=20',
};
const PAGES = readdirSync(join(root, 'web/demos')).filter((f) => f.endsWith('.html')).sort();

/** axe's violations on the page as it is now: [{ id, impact, help, targets }]. */
async function violations(page) {
  await page.evaluate(AXE);  // through the debugger protocol: a strict CSP does not apply
  const result = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map((n) => n.target.join(' >> ')) }));
}

function assertNoSerious(found, where) {
  const minor = found.filter((v) => !['serious', 'critical'].includes(v.impact));
  const list = (vs, say) => vs.map(say).join('; ');
  if (minor.length) console.log(`${where}: ${list(minor, (v) => `${v.impact} ${v.id} (${v.targets.length})`)}`);
  const serious = found.filter((v) => ['serious', 'critical'].includes(v.impact));
  assert.deepEqual(serious, [], `${where}: ${list(serious, (v) => `${v.id}: ${v.help} at ${v.targets.join(', ')}`)}`);
}

describe('accessibility (axe-core)', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('covers every page of web/demos', () => {
    const known = ['index.html', 'paper-a.html', 'paper-b.html', 'frame.html'];
    assert.ok(PAGES.length >= 6 && known.every((p) => PAGES.includes(p)),
      PAGES.join());
  });

  for (const file of PAGES) {
    for (const colorScheme of ['light', 'dark']) {
      it(`demos/${file}, ${colorScheme}: no serious or critical violation`, async () => {
        const { page, context, problems } = await openPage(session.browser, { colorScheme });
        await page.goto(`${session.server.url}demos/${file}${SETTINGS[file] ?? ''}`);
        await figuresSettled(page, ALL);
        await page.evaluate(() => document.fonts.ready);
        assertNoSerious(await violations(page), `${file} (${colorScheme})`);
        assert.deepEqual(problems, []);
        await context.close();
      });
    }
  }

  it('a figure\'s open Share dialog: no serious or critical violation', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(`${session.server.url}demos/csp.html`);
    await figuresSettled(page);
    await page.locator('gatelab-exchange-plane button[part~="share"]').click();
    await page.locator('gatelab-exchange-plane dialog[open]').waitFor();
    assertNoSerious(await violations(page), 'the Share dialog');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
