// A blog on one origin loading the figures from another, CORS-enabled origin (a package CDN):
// two real servers (scripts/serve.mjs twice, the "CDN" with --cors headers). The runner still
// starts its module worker, through a same-origin blob: bootstrap, for the one-file embed and
// for the unbundled components; under a policy without blob: workers it falls back to the main
// thread (one reported violation, the figure still draws); with `worker-src blob:` it runs in
// the worker again.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../../scripts/serve.mjs';
import { startSession, openPage, figuresSettled, canvasStats } from '../harness.mjs';

function post(script, { csp } = {}) {
  return {
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A blog post</title>\
<link rel="icon" href="/demos/favicon.svg">
<script type="module" src="${script}"></script></head>
<body><main><h1>A post</h1><gatelab-exchange-plane activation="gelu" seed="3">From a CDN.</gatelab-exchange-plane>\
</main></body></html>`,
    headers: csp ? { 'Content-Security-Policy': csp } : {},
  };
}

describe('figures loaded from another origin', () => {
  let session;
  let cdn;
  const routes = {};
  before(async () => {
    cdn = await startServer({ port: 0, cors: true });
    const embed = `${cdn.url}dist/gatelab.embed.js`;
    const cdnOrigin = cdn.url.replace(/\/$/, '');
    const policy = `default-src 'self'; script-src 'self' ${cdnOrigin} 'wasm-unsafe-eval'; `
      + `connect-src 'self' ${cdnOrigin}; style-src 'self'`;
    Object.assign(routes, {
      '/blog/embed.html': post(embed),
      '/blog/components.html': post(`${cdn.url}components/index.js`),
      '/blog/strict.html': post(embed, { csp: policy }),
      '/blog/strict-blob.html': post(embed, { csp: `${policy}; worker-src 'self' blob:` }),
    });
    session = await startSession({ routes });
  });
  after(async () => {
    await session?.close();
    await cdn?.close();
  });

  /** Opens a blog page, waits for its figure and reads the runner the figure uses. */
  async function open(path, moduleUrl) {
    const opened = await openPage(session.browser);
    const workers = [];
    opened.page.on('worker', (worker) => workers.push(worker.url()));
    await opened.page.goto(session.server.url + path.slice(1));
    await figuresSettled(opened.page);
    const runner = await opened.page.evaluate(async (url) => {
      const module = await import(url);
      const runnerModule = module.sharedRunner ? module : await import(new URL('runner/lab-runner.js', url).href);
      const args = { activation: 'gelu', seed: 11, trials: 3 };
      const shared = runnerModule.sharedRunner();
      const inShared = await shared.run('exchangeGaps', args);
      const onMain = await new runnerModule.LabRunner({ worker: false }).run('exchangeGaps', args);
      return { mode: shared.mode, same: JSON.stringify(inShared) === JSON.stringify(onMain) };
    }, moduleUrl);
    return { ...opened, workers, runner };
  }

  it('the one-file embed from the CDN trains in a worker started from a blob: bootstrap', async () => {
    const { page, context, problems, workers, runner } = await open('/blog/embed.html',
      `${cdn.url}dist/gatelab.embed.js`);
    assert.deepEqual(runner, { mode: 'worker', same: true });
    const origin = session.server.url.replace(/\/$/, '');
    assert.ok(workers.length >= 1 && workers.every((url) => url.startsWith('blob:' + origin)),
      `workers: ${workers}`);
    assert.ok((await canvasStats(page)).every((c) => c.distinctColors > 10), 'the figure drew');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the unbundled components from the CDN do too (the wasm is fetched with CORS)', async () => {
    const { context, problems, runner } = await open('/blog/components.html', `${cdn.url}components/index.js`);
    assert.deepEqual(runner, { mode: 'worker', same: true });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a policy without blob: workers falls back to the main thread; the figure still draws', async () => {
    const { page, context, problems, runner } = await open('/blog/strict.html', `${cdn.url}dist/gatelab.embed.js`);
    assert.deepEqual(runner, { mode: 'main', same: true });
    assert.ok((await canvasStats(page)).every((c) => c.distinctColors > 10), 'the figure drew');
    const refused = (p) => /worker-src|script-src|Refused to create a worker|blob:/.test(p);
    assert.ok(problems.length >= 1 && problems.every(refused),
      problems.join('\n'));
    await context.close();
  });

  it('`worker-src blob:` in that policy brings the worker back, with no violation', async () => {
    const { context, problems, runner } = await open('/blog/strict-blob.html', `${cdn.url}dist/gatelab.embed.js`);
    assert.deepEqual(runner, { mode: 'worker', same: true });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
