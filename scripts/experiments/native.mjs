// Runs the native experiment runner (cpp/experiments/gatelab_experiment, built -O3 by
// scripts/build.sh into build/native) and returns its JSON. Its progress lines (stderr) are
// echoed as they come, or collected when quiet; the result JSON arrives on stdout. Shared by
// the paper-B experiments (gp-recursion.mjs, tiny-lm.mjs), plus the small statistics and
// option parsing they have in common.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Where runs write unless told otherwise: a git-ignored folder, so running a documented command
// never changes a committed result. Only an explicit `--out docs/experiments` replaces those.
export const DEFAULT_OUT = `${ROOT}build/experiments/`;

/** The runner binary: $GATELAB_EXPERIMENT_BIN, else the native build's. */
export function runnerPath() {
  const path = process.env.GATELAB_EXPERIMENT_BIN ?? `${ROOT}build/native/cpp/experiments/gatelab_experiment`;
  if (!existsSync(path)) {
    throw new Error(`the native experiment runner is missing (${path}): `
      + 'run `npm run build` (bash scripts/build.sh) first');
  }
  return path;
}

/**
 * Runs `gatelab_experiment <name> ...args`; resolves with the parsed JSON.
 * @param {string} name @param {string[]} args
 * @param {{ quiet?: boolean, onLine?: (line: string) => void }} [options]
 */
export function runNative(name, args, { quiet = false, onLine } = {}) {
  const binary = runnerPath();
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [name, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    const out = [];
    const log = [];
    let pending = '';
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        log.push(line);
        onLine?.(line);
        if (!quiet) console.error(line);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {  // status: the exit code; stderr: the runner's lines (its message last)
        const message = `gatelab_experiment ${name} exited with ${code}: ${log.slice(-3).join(' | ')}${pending}`;
        reject(Object.assign(new Error(message), { status: code, stderr: pending ? [...log, pending] : log }));
        return;
      }
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')));
      } catch (error) {
        reject(new Error(`gatelab_experiment ${name} printed no valid JSON: ${error.message}`));
      }
    });
  });
}

/** { mean, std, values } with the sample standard deviation (0 for one value). */
export function stat(values) {
  const v = values.filter(Number.isFinite);
  if (!v.length) return { mean: NaN, std: NaN, values };
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const std = v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1)) : 0;
  return { mean, std, values };
}

/** Element-wise stat over equally long arrays. */
export function statEach(arrays) {
  return Array.from(arrays[0] ?? [], (_, i) => stat(arrays.map((a) => a[i])));
}

export const pm = (s, digits = 4) => (Number.isFinite(s.mean)
  ? `${s.mean.toFixed(digits)} ± ${s.std.toFixed(digits)}` : 'n/a');

/**
 * The options every paper-B experiment takes: --quick, --seeds N, --threads K, --out DIR,
 * --steps N, plus experiment-specific pass-through options (names listed in `extra`).
 * Returns { quick, outDir, args } with args ready for the runner.
 */
export function commonOptions(argv, extra = []) {
  const allowed = new Set(['seeds', 'threads', 'out', 'steps', 'models', ...extra]);
  const o = { quick: false, outDir: DEFAULT_OUT, args: [], threads: availableParallelism() };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--quick') {
      o.quick = true;
      continue;
    }
    const [flag, inline] = token.split(/=(.*)/s, 2);
    const name = flag.replace(/^--/, '');
    if (!flag.startsWith('--') || !allowed.has(name)) throw new Error(`unknown option '${token}'`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    if (name === 'out') o.outDir = value.endsWith('/') ? value : `${value}/`;
    else if (name === 'threads') o.threads = Number(value);
    else o.args.push(`--${name}`, value);
  }
  if (!(Number.isInteger(o.threads) && o.threads >= 1)) throw new Error('--threads must be a positive integer');
  if (o.quick) o.args.unshift('--quick');
  o.args.push('--threads', String(o.threads));
  return o;
}
