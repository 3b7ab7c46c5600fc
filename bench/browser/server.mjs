// The server of the browser benchmark: the demo site of scripts/serve.mjs (startServer) for
// GateLab itself (/lib/, /dist/ …), behind a small front that adds, same-origin, only what
// the benchmark page needs and the site does not serve:
//   /bench/…          bench/ of this repository (the page and the shared suite)
//   /bench-build/tf/  build/bench/ (the esbuild bundle of TF.js, bench/bundle.mjs)
//   /bench-build/cpp/ <wasm build>/bench/web/ (the C++ benchmarks as browser modules)
//   /bench-vendor/P/  node_modules/P/dist/ for the TF.js wasm backend and ONNX Runtime Web
//   /bench-data/      data/lm/ (the language model's corpus)
// Every other path is passed through to the site. Every response gets COOP/COEP, so the page
// is cross-origin isolated: Chromium's performance.now() then ticks in 5 µs instead of
// 100 µs steps (TF.js and ORT are still told to use one thread). Binds 127.0.0.1 only.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';

const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

const MIME = { '.html': 'text/html; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8' };

function mounts(root, wasmBuild) {
  return [
    ['/bench-build/tf/', join(root, 'build/bench')],
    ['/bench-build/cpp/', join(wasmBuild, 'bench/web')],
    ['/bench-vendor/@tensorflow/tfjs-backend-wasm/', join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist')],
    ['/bench-vendor/onnxruntime-web/', join(root, 'node_modules/onnxruntime-web/dist')],
    ['/bench-data/', join(root, 'data/lm')],
    ['/bench/', join(root, 'bench')],
  ];
}

/** The file for a URL path under one of the mounts; null if none matches, false if it escapes. */
function fileFor(table, path) {
  for (const [prefix, dir] of table) {
    if (!path.startsWith(prefix)) continue;
    let rest;
    try {
      rest = decodeURIComponent(path.slice(prefix.length));
    } catch {
      return false;
    }
    const file = resolve(dir, `.${sep}${rest}`);
    return file.startsWith(dir + sep) && !rest.includes('\0') ? file : false;
  }
  return null;
}

/**
 * Starts the site and the front. @returns {Promise<{ url: string, close: () => Promise<void> }>}
 * @param {{ root: string, wasmBuild: string }} options
 */
export async function startBenchServer({ root, wasmBuild }) {
  const site = await startServer({ port: 0 });
  const table = mounts(root, wasmBuild);
  const front = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    const file = fileFor(table, path);
    if (file === null) {  // the site's own path
      const upstream = request(`${site.url.replace(/\/$/, '')}${req.url}`, { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode, { ...answer.headers, ...ISOLATION });
          answer.pipe(res);
        });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
      return;
    }
    const info = file && await stat(file).catch(() => null);
    if (!info?.isFile()) {
      res.writeHead(file === false ? 403 : 404, { 'Content-Type': 'text/plain', ...ISOLATION }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Content-Length': info.size, 'Cache-Control': 'no-cache', ...ISOLATION });
    createReadStream(file).pipe(res);
  });
  await new Promise((done, fail) => {
    front.once('error', fail);
    front.listen(0, '127.0.0.1', done);
  });
  return {
    url: `http://127.0.0.1:${front.address().port}/`,
    async close() {
      await new Promise((done) => {
        front.close(() => done());
        front.closeAllConnections();
      });
      await site.close();
    },
  };
}
