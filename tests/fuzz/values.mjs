// Random argument values for the API fuzzer: a seeded generator, junk of every JS type, and
// options objects assembled from the vocabulary of option names the API uses, so random
// calls reach deep validation paths instead of failing at the first type check.
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = [0, 1, 2, 3, 4, 7, 8, 16, -1, -0, 0.5, 2.5, -3.7, NaN, Infinity, -Infinity, 1e9, 2 ** 32, 4097, 1e-9,
  100, 0.01];
const STRINGS = ['', 'relu', 'silu', 'gated', 'mlp', 'symmetric', 'none', 'per-head', 'shared', 'paper', 'psd',
  'spiral', 'xor', 'circle', 'adam', 'sgd', 'mse', 'cross_entropy', 'standard', 'cem', '<img src=x onerror=alert(1)>',
  'constructor', '__proto__', 'a'.repeat(300), '1', 'NaN'];
const OPTION_NAMES = ['kind', 'activation', 'beta', 'dIn', 'hidden', 'dOut', 'rank', 'seed', 'd', 'heads', 'steps',
  'eta', 'diagonal', 'precond', 'precondRank', 'min', 'max', 'n', 'task', 'count', 'noise', 'trainFraction',
  'loss', 'optimizer', 'learningRate', 'batchSize', 'models', 'seeds', 'budget', 'data', 'wasmUrl', 'size', 'extent',
  'symmetrize'];

export class ValueSource {
  constructor(seed) {
    this.random = mulberry32(seed);
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  int(n) {
    return Math.floor(this.random() * n);
  }

  number() {
    return this.random() < 0.7 ? this.pick(NUMBERS) : (this.random() - 0.5) * 10 ** this.int(6);
  }

  floatArray(length = this.pick([0, 1, 2, 3, 4, 6, 8, 9, 12, 16, 24, 32, 64])) {
    const a = new Float32Array(length);
    for (let i = 0; i < length; i++) a[i] = this.random() * 4 - 2;
    if (length && this.random() < 0.15) a[this.int(length)] = this.pick([NaN, Infinity, -Infinity]);
    return a;
  }

  options(handles) {
    const o = {};
    const count = this.int(8);
    for (let i = 0; i < count; i++) o[this.pick(OPTION_NAMES)] = this.value(handles, 1);
    return o;
  }

  /** Any value: numbers, strings, arrays, typed arrays, options objects, handles, junk. */
  value(handles = [], depth = 0) {
    const r = this.random();
    if (r < 0.25) return this.number();
    if (r < 0.4) return this.pick(STRINGS);
    if (r < 0.58) return this.floatArray();
    if (r < 0.7 && depth === 0) return this.options(handles);
    if (r < 0.8 && handles.length) return this.pick(handles);
    return this.pick([undefined, null, true, false, [], [1, 2], {}, () => 1, Symbol('s'), 10n,
      new Float64Array(4), new Int32Array(4), new ArrayBuffer(8), Object.create(null), new Date(0)]);
  }
}
