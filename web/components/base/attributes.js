// Attribute schema: how a figure's attributes (untrusted strings from any page) and properties
// (typed values from JS) become its state. Every value is parsed strictly; anything that does
// not parse falls back to the declared default, with a console warning naming the attribute.
//
// A schema maps a property name to a spec:
//   { type: 'number',  default, min, max }        finite decimal, within [min, max]
//   { type: 'integer', default, min, max }        decimal integer, within [min, max]
//   { type: 'enum',    default, values }          one of values (an array, or a function of the
//                                                element returning an array or null = not known yet)
//   { type: 'boolean', default }                  attribute present (or "true") / absent (or "false")
//   { type: 'string',  default, pattern }         must match pattern (a RegExp)
// Attribute names are the kebab-case form of the property name (resolution -> resolution,
// colorScale -> color-scale).

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER_TEXT = /^[+-]?\d+$/;

export function attributeName(property) {
  return property.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/**
 * Parses one raw value (a string from an attribute, or any value from a property setter).
 * @returns {{ ok: true, value: any } | { ok: false, expected: string }}
 */
export function parseValue(spec, raw, element) {
  switch (spec.type) {
    case 'number':
    case 'integer': {
      let value = raw;
      if (typeof raw === 'string') {
        const text = raw.trim();
        const pattern = spec.type === 'integer' ? INTEGER_TEXT : NUMBER_TEXT;
        value = pattern.test(text) ? Number(text) : NaN;
      }
      const inRange = typeof value === 'number' && Number.isFinite(value)
        && (spec.type === 'number' || Number.isInteger(value))
        && (spec.min === undefined || value >= spec.min)
        && (spec.max === undefined || value <= spec.max);
      return inRange ? { ok: true, value }
        : { ok: false, expected: `${spec.type === 'integer' ? 'an integer' : 'a number'} in ${spec.min}..${spec.max}` };
    }
    case 'enum': {
      const values = typeof spec.values === 'function' ? spec.values(element) : spec.values;
      const value = typeof raw === 'string' ? raw.trim() : raw;
      if (typeof value !== 'string' || !/^[a-z0-9_-]{1,40}$/.test(value)) {
        return { ok: false, expected: 'a short lower-case name' };
      }
      // Values not known yet (the library is still loading): accept the syntax now, check later.
      if (values && !values.includes(value)) return { ok: false, expected: `one of ${values.join(', ')}` };
      return { ok: true, value };
    }
    case 'boolean': {
      if (raw === null || raw === false || raw === 'false') return { ok: true, value: false };
      if (raw === '' || raw === true || raw === 'true') return { ok: true, value: true };
      return { ok: false, expected: 'present, absent, "true" or "false"' };
    }
    case 'string': {
      const ok = typeof raw === 'string' && raw.length <= 200 && (!spec.pattern || spec.pattern.test(raw));
      return ok ? { ok: true, value: raw } : { ok: false, expected: `text matching ${spec.pattern}` };
    }
    default:
      throw new Error(`attribute schema: unknown type ${spec.type}`);
  }
}

/** The text an attribute gets when a property is set (booleans are reflected by presence). */
export function formatValue(spec, value) {
  if (spec.type === 'boolean') return value ? '' : null;
  return String(value);
}

export function defaultState(schema) {
  const state = {};
  for (const [name, spec] of Object.entries(schema)) state[name] = spec.default;
  return state;
}

/**
 * Parses a raw value for `name`, falling back to the default (with a warning) when it does not
 * parse. A null attribute (removed) means the default, silently.
 */
export function parseOrDefault(schema, name, raw, element) {
  const spec = schema[name];
  if (raw === null && spec.type !== 'boolean') return spec.default;
  const parsed = parseValue(spec, raw, element);
  if (parsed.ok) return parsed.value;
  const tag = element?.localName ?? 'gatelab figure';
  const shown = String(raw).slice(0, 40);
  console.warn(`${tag}: ${attributeName(name)}="${shown}" is not ${parsed.expected}; using ${spec.default}`);
  return spec.default;
}
