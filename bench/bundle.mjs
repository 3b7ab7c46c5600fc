// Bundles bench/suite/tf-entry.mjs (TF.js core + gradients + cpu and wasm backends) with
// esbuild into the build folder: build/bench/tf-node.cjs for Node, build/bench/tf-browser.mjs
// for the Chromium page. Rebuilt only when missing or older than the installed packages.
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENTRY = 'bench/suite/tf-entry.mjs';

/** Returns the bundle's path; platform 'node' or 'browser'. */
export async function bundleTf(root, platform) {
  const dir = join(root, 'build/bench');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, platform === 'node' ? 'tf-node.cjs' : 'tf-browser.mjs');
  const inputs = [join(root, ENTRY), join(root, 'node_modules/@tensorflow/tfjs-core/package.json'),
    join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/package.json')];
  if (existsSync(out) && inputs.every((f) => statSync(f).mtimeMs <= statSync(out).mtimeMs)) return out;
  const { build } = await import('esbuild');
  // Built beside and renamed into place: two test files may bundle at once on a fresh clone, and a
  // reader must never require a half-written bundle ("Unexpected end of input").
  const partial = `${out}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(root, ENTRY)],
    outfile: partial,
    bundle: true,
    platform,
    format: platform === 'node' ? 'cjs' : 'esm',
    // The ES sources ("module"), not the prebuilt CommonJS bundles without gradients.
    mainFields: platform === 'node' ? ['module', 'main'] : ['browser', 'module', 'main'],
    target: 'es2020',
    logLevel: 'error',
  });
  renameSync(partial, out);
  return out;
}
