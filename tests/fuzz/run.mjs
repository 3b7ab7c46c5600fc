// `npm run fuzz -- [--calls N] [--seed S]`: the API fuzzer for as long as you like.
import { loadGateLab } from '../../web/lib/gatelab.js';
import { fuzzApi } from './fuzz-api.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const calls = arg('calls', 100000);
const seed = arg('seed', Date.now() % 2 ** 31);
const lab = await loadGateLab();
const started = performance.now();
const stats = await fuzzApi(lab, { seed, calls,
  onProgress: (i, s) => process.stderr.write(`\r${i}/${calls} calls, ${s.failures.length} failures`) });
process.stderr.write('\n');
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`seed ${seed}: ${stats.calls} calls over ${stats.targets.length} API functions in ${seconds} s;`
  + ` ${stats.refused} refused with GateLabError, ${stats.failures.length} failures;`
  + ` liveObjects ${lab.liveObjects()}, heap ${lab.heapBytes()} bytes`);
for (const f of stats.failures.slice(0, 20)) console.log(JSON.stringify(f));
process.exit(stats.failures.length || lab.liveObjects() ? 1 : 0);
