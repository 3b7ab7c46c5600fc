// `npm run bench -- --browser`: the same table measured in headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core). GateLab's wasm rows come from the C++
// benchmarks built as browser modules and from its JS API; the peers from TF.js and ONNX
// Runtime Web loaded by the page from node_modules (bench/browser/server.mjs). Native rows
// do not exist in a browser; size rows are the same files as in Node.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { bundleTf } from '../bundle.mjs';
import { benchesFor, NATIVE_ONLY, normalizeRow, parseOutput } from '../source-gatelab.mjs';
import { JS_COLUMNS } from '../suite/index.mjs';
import { startBenchServer } from './server.mjs';

// The core clock (for the peak) from the native bench_peak: a page cannot measure it.
function nativeClockGhz(root) {
  const exe = join(root, process.env.GATELAB_NATIVE_BUILD ?? 'build/native', 'bench/bench_peak');
  if (!existsSync(exe)) return 0;
  const run = spawnSync(exe, ['--json', '--quick'], { encoding: 'utf8' });
  try {
    return parseOutput(run.stdout).clock_ghz ?? 0;
  } catch {
    return 0;
  }
}

const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const browserSource = {
  name: 'chromium',
  columns: [{ key: 'wasm', label: 'wasm', wasm: true }, ...JS_COLUMNS],

  async run({ root, quick, only, log }) {
    const { chromium } = await import('playwright-core');
    await bundleTf(root, 'browser');
    const wasmBuild = join(root, process.env.GATELAB_WASM_BUILD ?? 'build/wasm');
    const server = await startBenchServer({ root, wasmBuild });
    const profile = mkdtempSync(join(tmpdir(), 'gatelab-bench-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
    try {
      const page = context.pages()[0] ?? await context.newPage();
      page.on('console', (message) => log(`[chromium] ${message.text()}`));
      page.on('pageerror', (error) => log(`[chromium] page error: ${error.message}`));
      await page.goto(`${server.url}bench/browser/page.html`);
      await page.waitForFunction(() => window.benchReady === true, null, { timeout: 30000 });
      const benches = benchesFor(only).filter((b) => !NATIVE_ONLY.has(b));
      const result = await page.evaluate((options) => window.runBench(options), { quick, benches, only });
      log(`browser: ${result.userAgent}; crossOriginIsolated = ${result.crossOriginIsolated}`);
      const rows = [...result.rows];
      for (const [bench, stdout] of Object.entries(result.cpp)) {
        try {
          const out = parseOutput(stdout);
          for (const row of out.rows ?? []) {
            for (const r of normalizeRow(row, out.bench ?? bench)) {
              rows.push({ column: 'wasm', bench: out.bench ?? bench, ...r });
            }
          }
        } catch (error) {
          log(`warning: chromium ${bench} printed no usable JSON (${error.message})`);
        }
      }
      return { rows, meta: { browser: result.userAgent, clockGhz: nativeClockGhz(root) } };
    } finally {
      await context.close();
      await server.close();
      rmSync(profile, { recursive: true, force: true });
    }
  },
};
