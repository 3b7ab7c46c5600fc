// The demo server (scripts/serve.mjs) over plain HTTP: MIME types, the strict CSP header,
// refused traversal, 404s and the free-port start the browser tests rely on.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startServer, resolvePath, STRICT_CSP } from '../../../scripts/serve.mjs';

/** A raw GET that does not normalise the path (fetch() would resolve "..") */
function rawGet(port, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('scripts/serve.mjs', () => {
  let server;
  before(async () => {
    server = await startServer({ port: 0 });
  });
  after(() => server.close());

  it('binds 127.0.0.1 on a free port when asked for port 0', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.notEqual(server.port, 0);
  });

  it('serves each file type with its MIME type', async () => {
    const cases = [
      ['/demos/index.html', 'text/html; charset=utf-8'],
      ['/components/index.js', 'text/javascript; charset=utf-8'],
      ['/dist/gatelab_wasm.mjs', 'text/javascript; charset=utf-8'],
      ['/dist/gatelab_wasm.wasm', 'application/wasm'],
      ['/demos/site.css', 'text/css; charset=utf-8'],
      ['/demos/favicon.svg', 'image/svg+xml'],
      ['/vendor/katex/katex.min.css', 'text/css; charset=utf-8'],
      ['/vendor/katex/fonts/KaTeX_Main-Regular.woff2', 'font/woff2'],
    ];
    for (const [path, type] of cases) {
      const res = await rawGet(server.port, path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], type, path);
      assert.equal(Number(res.headers['content-length']), res.body.length, path);
    }
  });

  it('sends the strict Content-Security-Policy on the CSP page and on scripts only', async () => {
    assert.equal((await rawGet(server.port, '/demos/csp.html')).headers['content-security-policy'], STRICT_CSP);
    assert.equal((await rawGet(server.port, '/components/runner/lab-worker.js')).headers['content-security-policy'],
      STRICT_CSP);
    assert.equal((await rawGet(server.port, '/demos/index.html')).headers['content-security-policy'], undefined);
    assert.match(STRICT_CSP, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.doesNotMatch(STRICT_CSP, /'unsafe-eval'|'unsafe-inline'/);
  });

  it('refuses paths that leave the served folders', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/demos/%2e%2e/%2e%2e/package.json',
      '/vendor/katex/%2e%2e/%2e%2e/package.json', '/demos/..%5c..%5cpackage.json', '/%00', '/%E0%A4%A']) {
      const res = await rawGet(server.port, path);
      assert.ok([400, 403, 404].includes(res.status), `${path} -> ${res.status}`);
      assert.doesNotMatch(res.body.toString(), /"name": "gatelab"/, path);
    }
    assert.equal(resolvePath('/../../etc/passwd'), null);
    assert.equal(resolvePath('/vendor/katex/../../../package.json'), null);
  });

  it('redirects a folder without its slash, serves its index, 404s what is missing, allows only GET/HEAD', async () => {
    const redirect = await rawGet(server.port, '/demos');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, '/demos/');
    assert.equal((await rawGet(server.port, '/demos/')).status, 200);
    for (const path of ['//demos', '//evil.example/demos', '/demos//']) {
      const location = (await rawGet(server.port, path)).headers.location;
      assert.ok(location === undefined || /^\/(?!\/)/.test(location), `${path} -> ${location}`);
    }
    assert.equal((await rawGet(server.port, '/demos/nope.html')).status, 404);
    const post = await new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/demos/', method: 'POST' }, resolve);
      req.end();
    });
    assert.equal(post.statusCode, 405);
  });
});
