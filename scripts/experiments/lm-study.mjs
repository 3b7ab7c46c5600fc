// The options of the language-model experiments (mlp-lm.mjs, tiny-lm.mjs through lm-cli.mjs),
// and the study flags that change an experiment from the command line, so that a new study is a
// command, not a code change:
//   --d N --layers N --heads N --context N --batch N   the model and its batch (--d: mlp-lm and
//                                                      lm-figure; the MLP budget follows d², §A20)
//   --steps N          the main runs' steps; the sweep runs as long, the long phase twice as long
//   --seeds N          reported seeds 1…N (below 101)
//   --sweep-seeds K    the rate sweep on seeds 101…100+K; a rate's dev loss is their mean
//   --eta X            the CEM step size η (tiny-lm)
//   --variants a,b,c   a subset of the variant table, by name (the table's order is kept)
//   --rates LIST       every variant's rate grid, e.g. --rates 0.002,0.004,0.008
//   --rates NAME=LIST  one variant's grid (repeat per variant; beats a bare LIST for that variant)
// The syntax is checked here; the values against the experiment (names, heads dividing d, …) by
// the native runner, whose tables they change (cpp/experiments/experiment_lm_study.cpp). The
// canonical flags (study) travel with every job command and every job's JSON.
import { DEFAULT_TEXT, UsageError } from './lm-jobs.mjs';
import { DEFAULT_OUT } from './native.mjs';

export { UsageError };

const INTEGERS = ['d', 'layers', 'heads', 'context', 'batch', 'steps', 'seeds', 'sweep-seeds'];
const STUDY = [...INTEGERS, 'eta', 'variants', 'rates'];
const OTHER = { threads: 'threads', out: 'outDir', text: 'text', plan: 'plan', 'jobs-dir': 'jobsDir', merge: 'merge',
  resume: 'resume', from: 'from' };

function positiveNumber(flag, text) {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || !(v > 0)) {
    throw new UsageError(`${flag} must be a positive number (got '${text}')`);
  }
  return v;
}

/** "0.002,0.004": positive and increasing (the grid's ends are its edges); canonical text. */
function rateList(text, what) {
  const rates = text.split(',').map((r) => {
    const v = Number(r);
    if (r.trim() === '' || !Number.isFinite(v) || !(v > 0)) {
      throw new UsageError(`--rates: ${what} must list positive numbers separated by commas (got '${text}')`);
    }
    return v;
  });
  if (rates.some((r, i) => i > 0 && !(r > rates[i - 1]))) {
    throw new UsageError(`--rates: ${what} must increase (got '${text}')`);
  }
  return rates.join(',');
}

/** The study flags in the canonical order (the native runner records the same). */
function canonicalStudy(given) {
  const args = [];
  for (const name of INTEGERS) {
    if (!given.has(name)) continue;
    const text = given.get(name)[0];
    if (!/^\d+$/.test(text) || Number(text) < 1) {
      throw new UsageError(`--${name} must be a positive integer (got '${text}')`);
    }
    args.push(`--${name}`, String(Number(text)));
  }
  if (given.has('eta')) args.push('--eta', String(positiveNumber('--eta', given.get('eta')[0])));
  if (given.has('variants')) {
    const names = given.get('variants')[0].split(',');
    if (names.some((n) => n === '')) {
      throw new UsageError(`--variants needs names separated by commas (got '${names.join(',')}')`);
    }
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) throw new UsageError(`--variants names '${twice}' twice`);
    args.push('--variants', names.join(','));
  }
  const rates = given.get('rates') ?? [];
  const bare = rates.filter((r) => !r.includes('='));
  if (bare.length > 1) throw new UsageError('--rates without a variant name is given twice');
  if (bare.length) args.push('--rates', rateList(bare[0], 'the grid'));
  const named = new Set();
  for (const r of rates.filter((x) => x.includes('='))) {
    const [name, list] = r.split(/=(.*)/s, 2);
    if (!name) throw new UsageError(`--rates needs NAME=LIST or LIST (got '${r}')`);
    if (named.has(name)) throw new UsageError(`--rates gives ${name}'s grid twice`);
    named.add(name);
    args.push('--rates', `${name}=${rateList(list, `${name}'s grid`)}`);
  }
  return args;
}

/** The parsed command line: { quick, threads, outDir, text, plan, jobsDir, merge, resume, from, study }. */
export function parseLmOptions(argv) {
  const o = { quick: false, threads: 2, outDir: DEFAULT_OUT, text: DEFAULT_TEXT, plan: null, jobsDir: null, merge: null,
    resume: null, from: null, study: [] };
  const given = new Map();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--quick') {
      o.quick = true;
      continue;
    }
    const [flag, inline] = token.split(/=(.*)/s, 2);
    const name = flag.startsWith('--') ? flag.slice(2) : '';
    if (!OTHER[name] && !STUDY.includes(name)) throw new UsageError(`unknown option '${token}'`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (given.has(name) && name !== 'rates') throw new UsageError(`${flag} is given twice`);
    given.set(name, [...(given.get(name) ?? []), value]);
    if (OTHER[name]) o[OTHER[name]] = name === 'threads' ? Number(value) : value;
  }
  o.study = canonicalStudy(given);
  if (!o.outDir.endsWith('/')) o.outDir += '/';
  if (!(Number.isInteger(o.threads) && o.threads >= 1)) throw new UsageError('--threads must be a positive integer');
  if (o.plan && !['sweep', 'main'].includes(o.plan)) throw new UsageError("--plan must be 'sweep' or 'main'");
  if (o.plan && !o.jobsDir) throw new UsageError('--plan needs --jobs-dir DIR (where the jobs write their JSON)');
  const modes = ['plan', 'merge', 'resume', 'from'].filter((k) => o[k]);
  if (modes.length > 1) throw new UsageError(`--${modes[0]} and --${modes[1]} do not go together`);
  if (o.from && o.study.length) {
    throw new UsageError(`--from re-analyses a run as it was: ${o.study[0]} does not apply`);
  }
  return o;
}
