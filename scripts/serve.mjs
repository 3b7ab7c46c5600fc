// A dependency-free static server for the demo site: the repository's web/ folder at /, and
// KaTeX's dist folder at /vendor/katex/. It binds 127.0.0.1 only, sends correct MIME types
// (application/wasm matters: without it streaming compilation falls back to a slower path),
// refuses paths that leave the served folders, and sends the strict Content-Security-Policy on
// the CSP demo page. The same site is also served under /gatelab@<version>/ (the package's
// version), the pinned path share links point to (docs/EMBEDDING.md). `--cors` adds the headers
// a package CDN sends, so a page on another origin can load the embed and start its worker.
// Run: `node scripts/serve.mjs [--port N] [--cors]` (PORT env also works; 0 = any free port), or
// import { startServer } for tests.
import { createServer } from 'node:http';
import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, dirname, extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The package version; the site is served pinned under /gatelab@<version>/ as well. */
export const VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
export const PINNED_PREFIX = `/gatelab@${VERSION}/`;

/** URL prefix -> folder on disk. The first matching prefix wins. */
const MOUNTS = [
  ['/vendor/katex/', join(root, 'node_modules/katex/dist')],
  [`${PINNED_PREFIX}vendor/katex/`, join(root, 'node_modules/katex/dist')],
  [PINNED_PREFIX, join(root, 'web')],
  ['/', join(root, 'web')],
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.d.ts': 'text/plain; charset=utf-8',
};

/** The policy the CSP demo page is served with: no inline script, no eval, same origin only. */
export const STRICT_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Pages served under STRICT_CSP. A dedicated worker takes its policy from its own response,
 *  so JavaScript files get it too: that proves the worker path also runs under the policy. */
function needsStrictCsp(urlPath, ext) {
  const path = urlPath.startsWith(PINNED_PREFIX) ? `/${urlPath.slice(PINNED_PREFIX.length)}` : urlPath;
  return path === '/demos/csp.html' || ext === '.js' || ext === '.mjs';
}

/** What a package CDN sends so that other origins may fetch (and import) the files. */
const CORS_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' };

/** Maps a URL path to a file inside one of the mounts, or null when it would escape it. */
export function resolvePath(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  for (const [prefix, dir] of MOUNTS) {
    if (!decoded.startsWith(prefix)) continue;
    const file = resolve(dir, '.' + sep + decoded.slice(prefix.length));
    if (file !== dir && !file.startsWith(dir + sep)) return null;
    return file;
  }
  return null;
}

function send(res, status, text, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

async function handle(req, res, { cors, routes }) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    return;
  }
  const urlPath = new URL(req.url, 'http://127.0.0.1').pathname;
  const route = Object.hasOwn(routes, urlPath) ? routes[urlPath] : null;
  if (route) {
    const body = Buffer.from(route.body);
    res.writeHead(200, { 'Content-Type': route.type ?? MIME['.html'], 'Content-Length': body.length,
      'Cache-Control': 'no-cache', ...(cors ? CORS_HEADERS : {}), ...route.headers });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  if (urlPath === '/') {
    send(res, 302, 'see /demos/\n', { Location: '/demos/' });
    return;
  }
  let file = resolvePath(urlPath);
  if (!file) {
    send(res, 403, 'forbidden\n');
    return;
  }
  let info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    if (!urlPath.endsWith('/')) {
      // One leading slash only: "//host/dir" must not become a redirect to another host.
      send(res, 301, 'moved\n', { Location: `/${urlPath.replace(/^\/+/, '')}/` });
      return;
    }
    file = join(file, 'index.html');
    info = await stat(file).catch(() => null);
  }
  if (!info?.isFile()) {
    send(res, 404, 'not found\n');
    return;
  }
  const ext = file.endsWith('.d.ts') ? '.d.ts' : extname(file).toLowerCase();
  const headers = {
    'Content-Type': MIME[ext] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  if (needsStrictCsp(urlPath, ext)) headers['Content-Security-Policy'] = STRICT_CSP;
  if (cors) Object.assign(headers, CORS_HEADERS);
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).on('error', () => res.destroy()).pipe(res);
}

/**
 * Starts the server on 127.0.0.1.
 * @param {{ port?: number, cors?: boolean, routes?: Record<string, { body: string, type?: string,
 *   headers?: object }> }} [options] port 0 picks a free port; cors: send a CDN's CORS headers;
 *   routes: extra pages at fixed paths (tests serve pages of a "blog" with them).
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export function startServer({ port = 8080, cors = false, routes = {} } = {}) {
  const server = createServer((req, res) => {
    handle(req, res, { cors, routes }).catch(() => {
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
    });
  });
  return new Promise((resolveStart, rejectStart) => {
    server.once('error', rejectStart);
    server.listen(port, '127.0.0.1', () => {
      const actual = server.address().port;
      resolveStart({
        url: `http://127.0.0.1:${actual}/`,
        port: actual,
        close: () => new Promise((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
      });
    });
  });
}

function portFromCommandLine(argv, env) {
  const i = argv.indexOf('--port');
  const text = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--port='))?.slice(7) ?? env.PORT;
  if (text === undefined) return 8080;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`serve: port must be an integer in 0..65535, got ${JSON.stringify(text)}`);
  }
  return port;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const argv = process.argv.slice(2);
    const { url } = await startServer({ port: portFromCommandLine(argv, process.env), cors: argv.includes('--cors') });
    console.log(`GateLab demos: ${url}demos/`);
  } catch (error) {
    console.error(error.code === 'EADDRINUSE' ? `serve: port ${error.port} is in use; try --port 0` : error.message);
    process.exit(2);
  }
}
