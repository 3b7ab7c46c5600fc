// The strict-CSP page: served with `script-src 'self' 'wasm-unsafe-eval'` (no unsafe-inline,
// no unsafe-eval), the figure draws, its worker runs, and the browser reports no violation.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled, canvasStats } from '../harness.mjs';
import { STRICT_CSP } from '../../../scripts/serve.mjs';

describe('strict Content-Security-Policy', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  it('csp.html is served with the policy and the figure works under it', async () => {
    const { page, context, problems } = await openPage(session.browser);
    const response = await page.goto(session.server.url + 'demos/csp.html');
    assert.equal(response.headers()['content-security-policy'], STRICT_CSP);
    await figuresSettled(page);
    const stats = await canvasStats(page);
    assert.ok(stats.every((c) => c.distinctColors > 10), 'both canvases drawn');
    const status = await page.locator('#csp-status').textContent();
    assert.match(status, /none so far/);
    const runnerMode = await page.evaluate(
      async () => (await import('/components/runner/lab-runner.js')).sharedRunner().mode);
    assert.equal(runnerMode, 'worker', 'the worker started under the policy');
    // Changing the figure under the policy: still no violation.
    await page.locator('gatelab-exchange-plane select').selectOption('tanh');
    await figuresSettled(page);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the policy really is enforced: an inline script is refused and reported', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    const inlineRan = await page.evaluate(async () => {
      window.inlineRan = false;
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 100));
      return window.inlineRan;
    });
    assert.equal(inlineRan, false);
    assert.ok(problems.some((p) => /CSP violation/.test(p)), 'the harness sees violations, so "none" above means none');
    assert.match(await page.locator('#csp-status').textContent(), /violations on this page: 1 /);
    await context.close();
  });
});
