// Builds the one-tag embed: the JS API, every figure and the wasm module (inlined) in one
// ES module (web/dist/gatelab.embed.js). Skipped when no input is newer than the output.
// First it copies <gatelab-lm>'s text beside it: the first maxChars bytes of the corpus
// (data/lm/README.md; the length is the lm-figure table's, through lm-preset.js) to
// web/dist/lm-text.txt, which the figure fetches relative to its module.
import { build } from 'esbuild';
import { existsSync, statSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'web/components/embed.js');
const out = join(root, 'web/dist/gatelab.embed.js');
const wasmPath = join(root, 'web/dist/gatelab_wasm.wasm');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const { LM_PRESET } = await import('../web/components/paper-a/lm/lm-preset.js');
const lmText = readFileSync(join(root, 'data/lm/sotu-1790-1880.txt')).subarray(0, LM_PRESET.settings.maxChars);
const lmTextOut = join(root, 'web/dist/lm-text.txt');
if (!existsSync(lmTextOut) || !readFileSync(lmTextOut).equals(lmText)) {
  mkdirSync(dirname(lmTextOut), { recursive: true });
  writeFileSync(lmTextOut, lmText);
  console.log(`bundle: wrote ${lmTextOut} (${lmText.length} bytes)`);
}

if (!existsSync(entry)) process.exit(0);
const inputs = Math.max(newestMtime(join(root, 'web/lib')), newestMtime(join(root, 'web/components')),
  ...[wasmPath, join(root, 'web/dist/gatelab_wasm.mjs')].map((path) => statSync(path).mtimeMs));
if (existsSync(out) && statSync(out).mtimeMs >= inputs) process.exit(0);

// The embed uses the loader with the wasm inlined (the base64 of its gzip, from the module the
// build links once for every use) in place of the one that fetches gatelab_wasm.wasm, so one
// script tag is the whole install.
const inlineWasmLoader = {
  name: 'inline-wasm-loader',
  setup(b) {
    b.onResolve({ filter: /\/wasm-loader\.js$/ }, () => ({ path: join(root, 'web/lib/core/wasm-loader.inline.js') }));
    b.onResolve({ filter: /^gatelab:wasm-gzip-base64$/ }, () => ({ path: wasmPath, namespace: 'gatelab-wasm' }));
    b.onLoad({ filter: /.*/, namespace: 'gatelab-wasm' }, () => {
      const packed = gzipSync(readFileSync(wasmPath), { level: 9 }).toString('base64');
      return { contents: `export default ${JSON.stringify(packed)};`, loader: 'js' };
    });
  },
};
// Inside the bundle import.meta.url is web/dist/gatelab.embed.js: the figure's text is beside it.
const embedTextUrl = {
  name: 'embed-lm-text-url',
  setup(b) {
    b.onResolve({ filter: /\/lm-text-url\.js$/ },
      () => ({ path: join(root, 'web/components/paper-a/lm/lm-text-url.embed.js') }));
  },
};

await build({
  entryPoints: [entry],
  outfile: out,
  bundle: true,
  format: 'esm',
  minify: true,
  // Module scripts and module workers are always decoded as UTF-8, so σ, λ and ‖ need no \u escapes.
  charset: 'utf8',
  target: 'es2022',
  plugins: [inlineWasmLoader, embedTextUrl],
  external: ['node:*'],
  logLevel: 'warning',
});
console.log(`bundle: wrote ${out}`);
