// Download sizes: GateLab's wasm binary, its JS glue and the one-file embed (wasm inlined),
// raw and gzip -9, beside the wasm binaries TF.js's wasm backend and ONNX Runtime Web ship
// (what a page loads on top of their JS). Targets: wasm ≤ 250 KB gzip, embed ≤ 350 KB gzip.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);

function sizes(path) {
  const bytes = readFileSync(path);
  return { raw: bytes.length / 1024, gzip: gzipSync(bytes, { level: 9 }).length / 1024 };
}

function peerFile(pkg, file) {
  try {
    const path = join(dirname(require.resolve(pkg)), file);
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

export const sizesSource = {
  name: 'sizes',
  columns: [{ key: 'wasm', label: 'wasm', wasm: true }],

  async run({ root, log }) {
    const rows = [];
    const add = (column, op, shape, path) => {
      if (!path || !existsSync(path)) {
        log(`note: ${path ?? op} missing; size row left out`);
        return;
      }
      const s = sizes(path);
      rows.push({ column, bench: 'size', op, shape, unit: 'KB', value: s.raw });
      rows.push({ column, bench: 'size', op, shape, unit: 'KB gzip', value: s.gzip });
    };
    const dist = join(root, 'web/dist');
    add('wasm', 'size_wasm', 'wasm binary', join(dist, 'gatelab_wasm.wasm'));
    add('tfjs-wasm', 'size_wasm', 'wasm binary',
      peerFile('@tensorflow/tfjs-backend-wasm', 'tfjs-backend-wasm-simd.wasm'));
    add('ort-wasm', 'size_wasm', 'wasm binary', peerFile('onnxruntime-web', 'ort-wasm-simd-threaded.wasm'));
    add('wasm', 'size_glue', 'JS glue (.mjs)', join(dist, 'gatelab_wasm.mjs'));
    add('wasm', 'size_embed', 'single-file embed', join(dist, 'gatelab.embed.js'));
    return { rows, meta: {} };
  },
};
