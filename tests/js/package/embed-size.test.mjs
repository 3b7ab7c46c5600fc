// The one-tag embed carries the whole library, every figure and the wasm module, and every byte of it
// reaches a blog's reader. Its target is 350 KB gzip (bench/targets.mjs). Since the wasm is inlined as
// the base64 of its gzip it is ~299 KB; this guard sits at 330 KB, above the toolchains' drift and
// below a regression like the option catalogue's tables in the shipped module (+28 KB) or a return
// to plain base64 (+71 KB). docs/BENCHMARKS.md has the history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

test('the one-tag embed stays under 330 KB gzip', () => {
  const embed = readFileSync(join(root, 'web/dist/gatelab.embed.js'));
  const size = gzipSync(embed, { level: 9 }).length;
  assert.ok(size > 100_000, `the embed is built whole (${size} bytes gzip)`);
  assert.ok(size <= 330_000,
    `the embed is ${size} bytes gzip; keep the wasm gzipped inside, once-per-call code at -Os, tables out of it`);
});
