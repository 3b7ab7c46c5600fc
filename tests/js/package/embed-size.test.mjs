// The one-tag embed carries the whole library, every figure and the wasm module, and every byte of it
// reaches a blog's reader. Issue #25 promised its size would not grow by more than 2 % (370 KB gzip
// before it); this guard sits at 400 KB, above the toolchains' drift and below a regression like the
// option catalogue's tables in the shipped module (+28 KB). docs/BENCHMARKS.md has the history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

test('the one-tag embed stays under 400 KB gzip', () => {
  const embed = readFileSync(join(root, 'web/dist/gatelab.embed.js'));
  const size = gzipSync(embed, { level: 9 }).length;
  assert.ok(size > 100_000, `the embed is built whole (${size} bytes gzip)`);
  assert.ok(size <= 400_000, `the embed is ${size} bytes gzip; keep once-per-call code at -Os and tables out of it`);
});
