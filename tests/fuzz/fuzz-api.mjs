// A seeded fuzzer over the whole public JS API. It reflects over the lab's public functions and
// namespaces (whatever later issues add is fuzzed too) and over every handle a call returns,
// calling each with random mixes of plausible and junk arguments. The contract it enforces:
// a call returns, or throws GateLabError with a message; the wasm instance never aborts; after
// disposing every handle liveObjects() is back at its baseline and the heap stays bounded.
import { GateLabError } from '../../web/lib/gatelab.js';
import { ValueSource } from './values.mjs';

// The lab's plumbing, shared by the API modules; not public API.
const INTERNAL = new Set(['module', 'heap', 'tracker', 'activationIndex', 'curveOptions', 'constructor']);
// Calls that are legitimate but slow at random sizes are still made, just not too often.
const MAX_HANDLES = 64;

function publicTargets(lab) {
  const targets = [];
  const visit = (owner, path, depth) => {
    const proto = Object.getPrototypeOf(owner);
    const inherited = proto && proto !== Object.prototype ? Object.getOwnPropertyNames(proto) : [];
    const names = new Set([...Object.keys(owner), ...inherited]);
    for (const name of names) {
      if (INTERNAL.has(name) || name.startsWith('_')) continue;
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

function handleMethods(handle) {
  const names = new Set();
  for (let p = Object.getPrototypeOf(handle); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) {
      if (n !== 'constructor' && typeof Object.getOwnPropertyDescriptor(p, n).value === 'function') names.add(n);
    }
  }
  return [...names];
}

/** Runs `calls` random calls; returns { calls, errors, refused, failures: [..] }. */
export async function fuzzApi(lab, { seed = 1, calls = 10000, onProgress } = {}) {
  const src = new ValueSource(seed);
  const targets = publicTargets(lab);
  const handles = [];
  const stats = { calls: 0, refused: 0, failures: [], targets: targets.map((t) => t.path) };

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
        if (handles.length > MAX_HANDLES) handles.shift().dispose();
      }
    } catch (e) {
      if (e instanceof GateLabError && typeof e.message === 'string' && e.message.length > 0) stats.refused++;
      else stats.failures.push({ call: i, path, error: `${e?.name}: ${e?.message}`, args: args.map(describe) });
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
