// Benchmark rows from GateLab's own C++ benchmarks (bench_peak, bench_matmul, bench_layers,
// bench_activations, bench_cem, bench_lm): every bench_* executable that exists,
// natively (build/native/bench/<name>) and as wasm under node (build/wasm/bench/<name>.js),
// each run with --json. One source module of bench/run.mjs; other sources (TF.js, ONNX
// Runtime Web) follow the same contract, described in run.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const BENCHES = ['bench_peak', 'bench_matmul', 'bench_activations', 'bench_layers', 'bench_cem', 'bench_lm'];
/** The benchmarks of `--only NAME` (null: all of them). */
export const benchesFor = (only) => (only ? BENCHES.filter((b) => b === `bench_${only}`) : BENCHES);
// GateLab-wasm matrix products are timed by the JS suite, interleaved with TF.js and ONNX
// Runtime Web (bench/suite/matmul.mjs), so bench_matmul runs natively only.
export const NATIVE_ONLY = new Set(['bench_matmul']);

// Field names that describe a shape rather than measure something (for rows without `value`).
const SHAPE_FIELDS = new Set(['m', 'k', 'n', 'size', 'elements', 'count', 'chunk', 'repeats', 'beta', 'seed']);

// Parses the JSON a benchmark printed; tolerates lines before it (e.g. runtime warnings).
export function parseOutput(text) {
  const start = text.search(/^[[{]/m);
  if (start < 0) throw new Error('no JSON in the output');
  const parsed = JSON.parse(text.slice(start));
  return Array.isArray(parsed) ? { rows: parsed } : parsed;
}

// One benchmark row → rows of { op, shape, unit, value, best? }. The preferred form is
// { op, shape, unit, value[, best] }; other objects give one row per numeric field.
export function normalizeRow(row, bench) {
  const op = String(row.op ?? row.name ?? row.activation ?? row.kernel ?? bench);
  const shape = String(row.shape ?? row.elements ?? row.size ?? row.n ?? '');
  if (typeof row.value === 'number') {
    return [{ op, shape, unit: String(row.unit ?? ''), value: row.value, best: row.best }];
  }
  return Object.entries(row)
    .filter(([key, v]) => typeof v === 'number' && !SHAPE_FIELDS.has(key))
    .map(([key, v]) => ({ op: `${op} ${key}`, shape, unit: String(row.unit ?? key), value: v }));
}

// Runs one benchmark executable; returns { rows, meta } or null (with a warning) on failure.
function runBench(command, args, label, log) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 30 * 60 * 1000 });
  if (result.status !== 0) {
    const why = result.error ? result.error.message : `exit status ${result.status}`;
    log(`warning: ${label} failed (${why}): ${String(result.stderr ?? '').slice(0, 400)}`);
    return null;
  }
  try {
    return parseOutput(result.stdout);
  } catch (error) {
    log(`warning: ${label} printed no usable JSON (${error.message}); skipped`);
    return null;
  }
}

export const gatelabSource = {
  name: 'gatelab',
  columns: [
    { key: 'native', label: 'native' },
    { key: 'wasm', label: 'wasm', wasm: true },
  ],

  // Returns { rows: [{ column, bench, op, shape, unit, value, best? }], meta: { clockGhz } }.
  async run({ root, quick, only, log }) {
    const builds = {
      native: resolve(root, process.env.GATELAB_NATIVE_BUILD ?? 'build/native'),
      wasm: resolve(root, process.env.GATELAB_WASM_BUILD ?? 'build/wasm'),
    };
    const extra = quick ? ['--json', '--quick'] : ['--json'];
    const rows = [];
    const meta = {};
    for (const bench of benchesFor(only)) {
      for (const column of NATIVE_ONLY.has(bench) ? ['native'] : ['native', 'wasm']) {
        const path = join(builds[column], 'bench', column === 'wasm' ? `${bench}.js` : bench);
        if (!existsSync(path)) {
          log(`note: ${path} not built; its rows are left out`);
          continue;
        }
        log(`running ${column} ${bench}${quick ? ' --quick' : ''} ...`);
        const [command, args] = column === 'wasm' ? [process.execPath, [path, ...extra]] : [path, extra];
        const out = runBench(command, args, `${column} ${bench}`, log);
        if (!out) continue;
        if (column === 'native' && out.clock_ghz > 0) meta.clockGhz = out.clock_ghz;
        for (const row of out.rows ?? []) {
          for (const r of normalizeRow(row, out.bench ?? bench)) rows.push({ column, bench: out.bench ?? bench, ...r });
        }
      }
    }
    return { rows, meta };
  },
};
