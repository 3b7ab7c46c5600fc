// What wasm costs against native on a busy machine: runs one C++ benchmark natively and as
// wasm (under node) in alternation, `rounds` times each, and prints per row the median of the
// rounds for both and their ratio (wasm time / native time: 1.2 means wasm takes 20 % longer).
// Alternating keeps a machine that gets busier or quieter from favouring one side.
//   node bench/native-vs-wasm.mjs bench_lm [--rounds 5] [-- args for the benchmark, e.g. --parts]
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { normalizeRow, parseOutput } from './source-gatelab.mjs';
import { higherIsBetter } from './table.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const own = split < 0 ? argv : argv.slice(0, split);
const extra = split < 0 ? [] : argv.slice(split + 1);
const bench = own.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const roundsAt = own.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(own[roundsAt + 1]) : 5;
if (!bench || !(rounds >= 1)) {
  console.error('usage: node bench/native-vs-wasm.mjs BENCH [--rounds N] [-- benchmark arguments]');
  process.exit(2);
}
const native = join(root, process.env.GATELAB_NATIVE_BUILD ?? 'build/native', 'bench', bench);
const wasm = join(root, process.env.GATELAB_WASM_BUILD ?? 'build/wasm', 'bench', `${bench}.js`);

function run(command, args) {
  const r = spawnSync(command, [...args, '--json', ...extra], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  const out = parseOutput(r.stdout);
  return (out.rows ?? []).flatMap((row) => normalizeRow(row, bench));
}

const values = new Map();  // "op|shape|unit" → { native: [], wasm: [] }
for (let round = 0; round < rounds; round++) {
  for (const [column, command, args] of [['native', native, []], ['wasm', process.execPath, [wasm]]]) {
    for (const row of run(command, args)) {
      const key = `${row.op}|${row.shape}|${row.unit}`;
      if (!values.has(key)) values.set(key, { native: [], wasm: [] });
      values.get(key)[column].push(row.value);
    }
  }
  console.error(`round ${round + 1}/${rounds} done`);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${bench} ${extra.join(' ')}: medians of ${rounds} alternating rounds; ratio = wasm time / native time`);
for (const [key, v] of values) {
  const [op, shape, unit] = key.split('|');
  const n = median(v.native), w = median(v.wasm);
  const ratio = higherIsBetter(unit) ? n / w : w / n;
  console.log(`${op.padEnd(34)} ${shape.padEnd(44)} ${unit.padEnd(8)} native ${n.toPrecision(4).padStart(9)}  ` +
    `wasm ${w.toPrecision(4).padStart(9)}  ratio ${ratio.toFixed(2)}`);
}
