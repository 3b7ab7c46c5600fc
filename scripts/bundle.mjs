// Builds the one-tag embed: the JS API, every figure and the single-file wasm module in one
// ES module (web/dist/gatelab.embed.js). Skipped when no input is newer than the output.
import { build } from 'esbuild';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'web/components/embed.js');
const out = join(root, 'web/dist/gatelab.embed.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(entry)) process.exit(0);
const inputs = Math.max(newestMtime(join(root, 'web/lib')), newestMtime(join(root, 'web/components')),
  statSync(join(root, 'web/dist/gatelab_wasm_single.mjs')).mtimeMs);
if (existsSync(out) && statSync(out).mtimeMs >= inputs) process.exit(0);

// The embed uses the loader of the single-file module (wasm inlined as base64) in place of
// the one that fetches gatelab_wasm.wasm, so one script tag is the whole install.
const inlineWasmLoader = {
  name: 'inline-wasm-loader',
  setup(b) {
    b.onResolve({ filter: /\/wasm-loader\.js$/ }, () => ({ path: join(root, 'web/lib/core/wasm-loader.single.js') }));
  },
};

await build({
  entryPoints: [entry],
  outfile: out,
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  plugins: [inlineWasmLoader],
  external: ['node:*'],
  logLevel: 'warning',
});
console.log(`bundle: wrote ${out}`);
