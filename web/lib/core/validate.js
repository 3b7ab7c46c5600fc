// Argument checks at the JS boundary. Embind silently truncates 2.5 to 2 and turns NaN into
// 0, so every number is checked here before it crosses; ranges and caps are then checked by
// the C++ core, which owns them.
import { GateLabError } from './errors.js';

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an Array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  return typeof value;
}

export function fail(argument, expected, value) {
  throw new GateLabError(`${argument} must be ${expected} (got ${describe(value)})`, { argument });
}

export function integer(argument, value, { min = 1, max = 2 ** 31 - 1 } = {}) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(argument, `an integer from ${min} to ${max}`, value);
  }
  return value;
}

export function finiteNumber(argument, value, { nonZero = false } = {}) {
  if (typeof value !== 'number' || !Number.isFinite(value) || (nonZero && value === 0)) {
    fail(argument, nonZero ? 'a finite non-zero number' : 'a finite number', value);
  }
  return value;
}

export function oneOf(argument, value, allowed) {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    fail(argument, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  }
  return value;
}

export function plainObject(argument, value) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(argument, 'an options object', value);
  return value;
}

/** A Float32Array of exactly `length` finite numbers. */
export function floatArray(argument, value, length, lengthText = String(length)) {
  if (!(value instanceof Float32Array)) fail(argument, `a Float32Array of ${lengthText} numbers`, value);
  if (value.length !== length) fail(argument, `a Float32Array of ${lengthText} numbers`, value);
  for (let i = 0; i < value.length; i++) {
    if (!Number.isFinite(value[i])) {
      throw new GateLabError(`${argument}[${i}] is ${value[i]}; every element must be finite`, { argument });
    }
  }
  return value;
}
