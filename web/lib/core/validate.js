// Argument checks at the JS boundary. Embind silently truncates 2.5 to 2 and turns NaN into
// 0, so every number is checked here before it crosses; ranges and caps are then checked by
// the C++ core, which owns them. Each failure carries its GateLabError code: 'invalid-type'
// (not a number, not an integer, not a Float32Array, not an options object), 'not-finite'
// (NaN or ±Infinity), 'out-of-range' (outside a documented interval or cap), 'invalid-value'
// (an unknown name, an array of the wrong length, a combination that does not fit).
import { OPTIONS } from '../catalogue.js';
import { GateLabError } from './errors.js';

const SEED_MAX = 2 ** 32 - 1;

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an Array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  return typeof value;
}

/** Throws "<argument> must be <expected> (got …)" with the given code. */
export function fail(argument, expected, value, code = 'invalid-value') {
  throw new GateLabError(`${argument} must be ${expected} (got ${describe(value)})`, { argument, code });
}

/** The code for a value that should have been a number: its type, finiteness, or else `code`. */
function numberCode(value, code) {
  if (typeof value !== 'number') return 'invalid-type';
  return Number.isFinite(value) ? code : 'not-finite';
}

export function integer(argument, value, { min = 1, max = 2 ** 31 - 1 } = {}) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const code = numberCode(value, Number.isInteger(value) ? 'out-of-range' : 'invalid-type');
    fail(argument, `an integer from ${min} to ${max}`, value, code);
  }
  return value;
}

export function finiteNumber(argument, value, { nonZero = false } = {}) {
  if (typeof value !== 'number' || !Number.isFinite(value) || (nonZero && value === 0)) {
    fail(argument, nonZero ? 'a finite non-zero number' : 'a finite number', value, numberCode(value, 'out-of-range'));
  }
  return value;
}

export function oneOf(argument, value, allowed) {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    fail(argument, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value,
      typeof value === 'string' ? 'invalid-value' : 'invalid-type');
  }
  return value;
}

export function plainObject(argument, value) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail(argument, 'an options object', value, 'invalid-type');
  }
  return value;
}

/** The number of single-character edits between a and b (for "did you mean" in a typo's message). */
function editDistance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/**
 * Refuses an option the entry does not take, from the core's catalogue (web/lib/catalogue.js): a typo is
 * an 'invalid-value' GateLabError naming it (`options.hiden`), never silently ignored.
 */
export function knownOptions(argument, options, entry) {
  const fields = OPTIONS[entry];
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(fields, key)) continue;
    const names = Object.keys(fields);
    const near = names.filter((n) => editDistance(n.toLowerCase(), key.toLowerCase()) <= 2);
    const hint = near.length ? ` Did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : '';
    throw new GateLabError(`${argument}.${key} is not an option of ${entry} (its options: ${names.join(', ')}).${hint}`,
      { argument: `${argument}.${key}`, code: 'invalid-value' });
  }
  return options;
}

/** The fixed range the core checks for an option, from the catalogue: { min, max }, or {} when it has none. */
export function rangeOf(entry, option) {
  const { min, max } = OPTIONS[entry][option];
  return min === undefined ? {} : { min, max };
}

/**
 * The core's value for an option the caller leaves out, from the catalogue (read from the core's default
 * config): undefined when the core states none (a required option, or one whose default depends on others).
 */
export function defaultOf(entry, option) {
  return OPTIONS[entry][option].default;
}

/** An options object (undefined gives {}) whose every key is an option of the catalogue's entry. */
export function optionsOf(argument, value, entry) {
  return knownOptions(argument, plainObject(argument, value), entry);
}

export function boolean(argument, value) {
  if (typeof value !== 'boolean') fail(argument, 'a boolean', value, 'invalid-type');
  return value;
}

/** A Float32Array of exactly `length` finite numbers. */
export function floatArray(argument, value, length, lengthText = String(length)) {
  if (!(value instanceof Float32Array)) {
    fail(argument, `a Float32Array of ${lengthText} numbers`, value, 'invalid-type');
  }
  if (value.length !== length) fail(argument, `a Float32Array of ${lengthText} numbers`, value, 'invalid-value');
  finiteElements(argument, value);
  return value;
}

/** Throws 'not-finite' naming the first NaN or ±Infinity of an array. */
export function finiteElements(argument, value) {
  for (let i = 0; i < value.length; i++) {
    if (!Number.isFinite(value[i])) {
      throw new GateLabError(`${argument}[${i}] is ${value[i]}; every element must be finite`,
        { argument, code: 'not-finite' });
    }
  }
  return value;
}

/** An optional field: the default when undefined, else checked by check(value). */
export function optional(value, fallback, check) {
  return value === undefined ? fallback : check(value);
}

/** A seed: an integer from 0 to 2³² − 1, `fallback` when undefined. */
export function seedOf(argument, value, fallback = 0) {
  return optional(value, fallback, (v) => integer(argument, v, { min: 0, max: SEED_MAX }));
}

/** A non-empty array checked element by element (each(argument[i], v)), `fallback` when undefined. */
export function listOf(argument, value, fallback, each) {
  if (value === undefined) return fallback;
  if (!Array.isArray(value)) fail(argument, 'a non-empty array', value, 'invalid-type');
  if (value.length === 0) fail(argument, 'a non-empty array', value, 'out-of-range');
  return value.map((v, i) => each(`${argument}[${i}]`, v));
}
