// A seeded fuzzer over the whole public JS API. It reflects over the lab's public functions and
// namespaces (whatever later issues add is fuzzed too) and over every handle a call returns,
// calling each with random mixes of plausible and junk arguments. The contract it enforces:
// a call returns, or throws GateLabError with a message; the wasm instance never aborts; after
// disposing every handle liveObjects() is back at its baseline and the heap stays bounded.
// Every refusal must carry one of the documented error codes.
import { GateLabError } from '../../web/lib/gatelab.js';
import { ValueSource } from './values.mjs';

/** The codes a GateLabError may carry (gatelab.d.ts, GateLabErrorCode). */
export const ERROR_CODES = ['invalid-type', 'invalid-value', 'out-of-range', 'disposed', 'unsupported', 'not-finite',
  'invalid-state'];
// Calls that are legitimate but slow at random sizes are still made, just not too often.
const MAX_HANDLES = 64;

/**
 * Every function reachable from the lab's own enumerable properties, its prototype's methods
 * and the namespaces one level down (lab.symmetry.*, lab.cem.*, lab.gp.*, lab.datasets.*,
 * lab.stats.*). The lab's private side is not reachable this way, so nothing is excluded.
 */
export function publicTargets(lab) {
  const targets = [];
  const visit = (owner, path, depth) => {
    const proto = Object.getPrototypeOf(owner);
    const inherited = proto && proto !== Object.prototype ? Object.getOwnPropertyNames(proto) : [];
    const names = new Set([...Object.keys(owner), ...inherited]);
    names.delete('constructor');
    for (const name of names) {
      const value = owner[name];
      if (typeof value === 'function') targets.push({ path: `${path}.${name}`, owner, name });
      else if (value && typeof value === 'object' && !ArrayBuffer.isView(value) && !Array.isArray(value) && depth < 1) {
        visit(value, `${path}.${name}`, depth + 1);
      }
    }
  };
  visit(lab, 'lab', 0);
  return targets;
}

/** The method names of a handle, from its whole prototype chain. */
export function handleMethods(handle) {
  const names = new Set();
  for (let p = Object.getPrototypeOf(handle); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) {
      if (n !== 'constructor' && typeof Object.getOwnPropertyDescriptor(p, n).value === 'function') names.add(n);
    }
  }
  return [...names];
}

/**
 * One valid handle of each class the API returns, made through the public API, so that every
 * handle method is fuzzed from the first call on (random options rarely make a valid layer).
 */
function lmHandles(lab) {
  const corpus = lab.lm.createCorpus('the gate and the key. '.repeat(60));
  return [corpus,
    lab.lm.createSession({ corpus, d: 4, layers: 1, heads: 1, context: 4, batch: 1, mlp: { hidden: 3 } })];
}

export function seedHandles(lab) {
  return [
    lab.createLayer({ kind: 'gated', activation: 'silu', dIn: 3, hidden: 4, dOut: 2, rank: 2, seed: 1,
      symmetrize: 0.5 }),
    lab.createLayer({ kind: 'mlp', dIn: 2, hidden: 3, dOut: 1 }),
    lab.createTrainer({ kind: 'symmetric', hidden: 4, data: { task: 'xor', count: 16 } }),
    lab.createTrainer({ kind: 'gated', activation: 'relu', symmetrize: 1, hidden: 3,
      data: { task: 'circle', count: 16 } }),
    lab.cem.createAttention({ d: 4, heads: 2, diagonal: 'per-head', precond: 'psd', precondRank: 1 }),
    lab.cem.createMlp({ d: 4, hidden: 3 }),
    lab.cem.createStandardAttention({ d: 4 }),
    lab.cem.createGatedMlp({ d: 4, hidden: 3 }),
    lab.gp.createSession({ length: 4, d: 4, hidden: 4, layers: 1 }),
    ...lmHandles(lab),
  ];
}

/**
 * Runs `calls` random calls; returns { calls, refused, failures: [..], targets (the lab's function
 * paths), handleMethods (the Class.method paths called on returned handles) }.
 */
export async function fuzzApi(lab, { seed = 1, calls = 10000, onProgress } = {}) {
  const src = new ValueSource(seed);
  const targets = publicTargets(lab);
  const handles = seedHandles(lab);
  const pinned = handles.length;  // the seeded handles are never evicted
  const stats = { calls: 0, refused: 0, failures: [], targets: targets.map((t) => t.path), handleMethods: new Set() };

  for (let i = 0; i < calls; i++) {
    const useHandle = handles.length && src.random() < 0.45;
    let fn, self, path;
    if (useHandle) {
      const h = src.pick(handles);
      const methods = handleMethods(h);
      const name = src.random() < 0.08 ? 'dispose' : src.pick(methods);
      fn = h[name];
      self = h;
      path = `${h.constructor.name}.${name}`;
      stats.handleMethods.add(path);
    } else {
      const t = src.pick(targets);
      fn = t.owner[t.name];
      self = t.owner;
      path = t.path;
    }
    const args = Array.from({ length: src.int(5) }, () => src.value(handles));
    stats.calls++;
    try {
      let result = fn.apply(self, args);
      if (result && typeof result.then === 'function') result = await result;
      if (result && typeof result.dispose === 'function') {
        handles.push(result);
        if (handles.length > MAX_HANDLES) handles.splice(pinned, 1)[0].dispose();
      }
    } catch (e) {
      const refused = e instanceof GateLabError && typeof e.message === 'string' && e.message.length > 0
        && ERROR_CODES.includes(e.code);
      if (refused) {
        stats.refused++;
      } else {
        stats.failures.push({ call: i, path, error: `${e?.name} (${e?.code}): ${e?.message}`,
          args: args.map(describe) });
      }
    }
    if (onProgress && i % 1000 === 0) onProgress(i, stats);
  }
  for (const h of handles) h.dispose();
  return stats;
}

function describe(v) {
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length})`;
  if (typeof v === 'function') return 'function';
  if (typeof v === 'symbol' || typeof v === 'bigint') return String(v);
  try {
    return JSON.stringify(v)?.slice(0, 120) ?? String(v);
  } catch {
    return String(v);
  }
}
