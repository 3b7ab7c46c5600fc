// The `npm run bench` driver. Run from the repository root after scripts/build.sh: it
// collects rows from every source module below, one after another so they do not compete
// for cores, and prints one table: each op and shape on one line, GateLab native and wasm
// beside TF.js (wasm backend and cpu backend) and ONNX Runtime Web, the wasm column's GFLOP/s
// as a percentage of the wasm SIMD128 peak (peak.mjs), GateLab wasm's advantage over each
// peer ("× peer", above 1 = GateLab ahead), then the targets, each met or missed.
//
//   node bench/run.mjs [--quick] [--best] [--json] [--browser] [--only lm] [--from FILE]
//     --quick    tiny sizes and short timings (a smoke test of the whole pipeline)
//     --only lm  just the language-model rows (GateLab's lab.lm training step against TF.js-wasm,
//                and bench_lm natively and in wasm); the last line then reads
//                "lm: GateLab X steps/s, TF.js-wasm Y steps/s, ratio R" (any run with LM rows ends so)
//     --best     show the best timed batch instead of the median (on a busy machine)
//     --json     print the combined rows as JSON instead of the table
//     --browser  measure in headless Chromium instead of Node (no native column)
//     --from F   print the table of a run saved with --json (with --best: its best batches)
//   GATELAB_NATIVE_BUILD, GATELAB_WASM_BUILD: build directories (default build/native, build/wasm)
//
// Sources (bench/source-*.mjs, bench/browser/run-browser.mjs):
//   gatelab  the C++ benchmarks bench/*.cpp (peak, matmul, activations, layers, cem, lm), native and
//            wasm (matmul natively only: its wasm rows come from the js source)
//   js       GateLab-wasm matmul (bench/module), TF.js, ONNX Runtime Web and GateLab's JS API
//            (training, figure frame, language model): bench/suite/, the same code the browser run uses; engines
//            doing the same work are timed with their batches interleaved
//   sizes    download sizes of the wasm module, its glue and the one-file embed
//
// A source module exports an object { name, columns: [{ key, label, wasm?, peer? }],
// async run(ctx) } where ctx = { root, quick, only, log } and run resolves to { rows, meta }: rows
// are { column, bench, op, shape, unit, value, best? } with column one of its column keys,
// op and shape spelled as GateLab's benchmarks spell them (op "matmul_nn", shape "m x k x n"
// as "256x256x256") so rows from different sources line up; meta may carry { clockGhz }.
// Every row of every source is measured in the same run; values are medians over repeats.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { nativeCeiling, wasmPeak } from './peak.mjs';
import { lmLine } from './suite/lm.mjs';
import { jsSource } from './source-js.mjs';
import { gatelabSource } from './source-gatelab.mjs';
import { sizesSource } from './source-sizes.mjs';
import { formatTable } from './table.mjs';
import { checkTargets, formatTargets } from './targets.mjs';

const BENCH_ORDER = ['peak', 'matmul', 'activations', 'train', 'frame', 'layers', 'cem', 'lm', 'size'];
const ONLY = ['lm'];
const USAGE = 'usage: node bench/run.mjs [--quick] [--best] [--json] [--browser] [--only lm] [--from FILE]';

function parseArgs(argv) {
  const options = { quick: false, best: false, json: false, browser: false, only: null, from: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--best') options.best = true;
    else if (arg === '--browser') options.browser = true;
    else if (arg === '--from' && i + 1 < argv.length) options.from = argv[++i];
    else if (arg === '--only' && ONLY.includes(argv[i + 1])) options.only = argv[++i];
    else {
      console.error(USAGE);
      process.exit(2);
    }
  }
  return options;
}

function cpuModel() {
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
  } catch {
    return cpus()[0]?.model ?? 'unknown';
  }
}

async function measure(options, root, log) {
  const sources = [...(options.browser ? [(await import('./browser/run-browser.mjs')).browserSource]
    : [gatelabSource, jsSource]), ...(options.only ? [] : [sizesSource])];
  const loadBefore = loadavg()[0];
  const started = new Date();
  const columns = [];
  const rows = [];
  let clockGhz = 0;
  let browser = '';
  for (const source of sources) {
    try {
      const result = await source.run({ root, quick: options.quick, only: options.only, log });
      for (const c of source.columns) if (!columns.some((d) => d.key === c.key)) columns.push(c);
      rows.push(...result.rows);
      if (result.meta?.clockGhz > 0 && !clockGhz) clockGhz = result.meta.clockGhz;
      if (result.meta?.browser) browser = result.meta.browser;
    } catch (error) {
      log(`warning: source ${source.name} failed: ${error.stack ?? error.message}`);
    }
  }
  // Sort by benchmark (stable: within one, the order the rows came in).
  const rank = (row) => {
    const i = BENCH_ORDER.indexOf(row.bench);
    return i < 0 ? BENCH_ORDER.length : i;
  };
  rows.sort((a, b) => rank(a) - rank(b));
  const peak = wasmPeak(clockGhz);
  const machine = { cpu: cpuModel(), cores: cpus().length, loadBefore, loadAfter: loadavg()[0],
    started: started.toISOString(), node: process.version, browser };
  return { machine, peak, columns, rows, quick: options.quick, only: options.only,
    where: options.browser ? 'browser' : 'node' };
}

/** The printed report of a run: header, table, targets (statistic: medians, or best batches). */
export function render(run, { best = false } = {}) {
  const { machine, peak, columns, quick } = run;
  const rows = best ? run.rows.map((r) => (typeof r.best === 'number' ? { ...r, value: r.best } : r)) : run.rows;
  const browser = run.where === 'browser';
  // A partial run (--only) leaves most targets unmeasured: list only those it measured.
  const native = nativeCeiling(rows);
  const targets = checkTargets(rows, peak, { browser, ceiling: native }).filter((t) => !run.only || t.met !== null);
  const ceiling = rows.find((r) => r.op === 'peak_f32x4_mul+add' && r.column === 'wasm');
  const out = [];
  const statistic = best ? 'best timed batch' : 'median of timed batches';
  const where = browser ? `headless Chromium (${machine.browser || 'unknown version'})` : `Node ${machine.node}`;
  out.push(`GateLab benchmarks in ${where}${quick ? ' (--quick: tiny sizes, not representative)' : ''}: `
    + `${statistic}; ` +
    'one thread everywhere');
  out.push(`machine: ${machine.cpu}, ${machine.cores} cores; load average ${machine.loadBefore.toFixed(2)} before, ` +
    `${machine.loadAfter.toFixed(2)} after; ${machine.started}`);
  if (peak) {
    out.push(`wasm SIMD128 peak = 4 lanes × 4 flops/cycle (2 mul + 2 add pipes) × ${peak.ghz.toFixed(2)} GHz ` +
      `= ${peak.gflops.toFixed(1)} GFLOP/s (%pk); clock ${peak.source}`);
  } else {
    out.push('wasm SIMD128 peak unknown (no clock measured and no /proc/cpuinfo): no %pk column');
  }
  if (ceiling) {
    out.push(`measured mul+add ceiling of f32x4 in wasm on this core: ${ceiling.value.toFixed(1)} GFLOP/s ` +
      '(bench_peak; see docs/BENCHMARKS.md)');
  }
  if (native) {
    out.push(`measured native mul + add ceiling (${native.op}, the native matrix products' width): ` +
      `${native.gflops.toFixed(1)} GFLOP/s (native %ceil)`);
  }
  out.push('× peer = GateLab wasm\'s advantage (rates: ours / theirs; times and sizes: theirs / ours)');
  out.push('');
  out.push(formatTable(columns, rows, peak, native));
  out.push('');
  out.push(`targets${browser ? ' (browser run)' : ''}:`);
  out.push(formatTargets(targets));
  const lm = lmLine(rows);
  if (lm) out.push('', lm);
  return { text: out.join('\n'), targets };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const log = (message) => console.error(message);
  const run = options.from ? JSON.parse(readFileSync(options.from, 'utf8')) : await measure(options, root, log);
  if (options.json) {
    const { targets } = render(run, options);
    console.log(JSON.stringify({ ...run, targets }, null, 1));
    return;
  }
  if (!run.rows.length) {
    console.error('no benchmark rows: build first (bash scripts/build.sh)');
    process.exitCode = 1;
    return;
  }
  console.log(render(run, options).text);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
