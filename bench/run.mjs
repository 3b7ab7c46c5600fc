// The `npm run bench` driver. Run from the repository root after scripts/build.sh: it
// collects rows from every source module below (GateLab's native and wasm benchmarks; later
// TF.js and ONNX Runtime Web), one after another so they do not compete for cores, and
// prints one table: the same op and shape side by side per source, with each wasm column's
// GFLOP/s as a percentage of the wasm SIMD128 peak (see peak.mjs).
//
//   node bench/run.mjs [--quick] [--best] [--json]
//     --quick   tiny sizes and short timings (a smoke test of the whole pipeline)
//     --best    show the best timed batch instead of the median (on a busy machine)
//     --json    print the combined rows as JSON instead of the table
//   GATELAB_NATIVE_BUILD, GATELAB_WASM_BUILD: build directories (default build/native, build/wasm)
//
// A source module exports an object { name, columns: [{ key, label, wasm? }], async run(ctx) }
// where ctx = { root, quick, log } and run resolves to { rows, meta }: rows are
// { column, bench, op, shape, unit, value, best? } with column one of its column keys, op and
// shape spelled as GateLab's benchmarks spell them (op "matmul_nn", shape "m x k x n" as
// "256x256x256") so rows from different sources line up; meta may carry { clockGhz }.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { wasmPeak } from './peak.mjs';
import { gatelabSource } from './source-gatelab.mjs';
import { formatTable } from './table.mjs';

const SOURCES = [gatelabSource];

function parseArgs(argv) {
  const options = { quick: false, best: false, json: false };
  for (const arg of argv) {
    if (arg === '--quick') options.quick = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--best') options.best = true;
    else {
      console.error('usage: node bench/run.mjs [--quick] [--best] [--json]');
      process.exit(2);
    }
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const log = (message) => console.error(message);
  const columns = [];
  const rows = [];
  let clockGhz = 0;
  for (const source of SOURCES) {
    try {
      const result = await source.run({ root, quick: options.quick, log });
      columns.push(...source.columns);
      for (const row of result.rows) {
        rows.push(options.best && typeof row.best === 'number' ? { ...row, value: row.best } : row);
      }
      if (result.meta?.clockGhz > 0 && !clockGhz) clockGhz = result.meta.clockGhz;
    } catch (error) {
      log(`warning: source ${source.name} failed: ${error.message}`);
    }
  }
  const peak = wasmPeak(clockGhz);
  if (options.json) {
    console.log(JSON.stringify({ peak, columns, rows }, null, 1));
    return;
  }
  if (!rows.length) {
    console.error('no benchmark rows: build first (bash scripts/build.sh)');
    process.exitCode = 1;
    return;
  }
  const statistic = options.best ? 'best timed batch' : 'median of timed batches';
  const quick = options.quick ? ' (--quick: tiny sizes, not representative)' : '';
  console.log(`GateLab benchmarks${quick}: ${statistic} (GFLOP/s: higher is better; times: lower is better)`);
  if (peak) {
    console.log(`wasm SIMD128 peak = 4 lanes × 4 flops/cycle (2 mul + 2 add pipes) × ${peak.ghz.toFixed(2)} GHz ` +
      `= ${peak.gflops.toFixed(1)} GFLOP/s; clock ${peak.source}`);
  } else {
    console.log('wasm SIMD128 peak unknown (no clock measured and no /proc/cpuinfo)');
  }
  console.log('');
  console.log(formatTable(columns, rows, peak));
}

await main();
