// The one error type of the public API: bad input and refused requests throw GateLabError, with
// a message that names the argument and what was expected, the argument's name, and a code a
// program can switch on. The module stays usable after any of them.

/** Every GateLabError's code; gatelab.d.ts documents what each one means. */
export const ERROR_CODES = Object.freeze(['invalid-type', 'invalid-value', 'out-of-range', 'disposed', 'unsupported',
  'not-finite', 'invalid-state']);

export class GateLabError extends Error {
  constructor(message, { argument, code = 'invalid-value' } = {}) {
    super(message);
    this.name = 'GateLabError';
    /** The name of the offending argument ('options.count', 'x', 'this' …), when there is one. */
    this.argument = argument;
    /** One of ERROR_CODES. */
    this.code = ERROR_CODES.includes(code) ? code : 'invalid-value';
  }
}

/**
 * Throws the GateLabError for the status a core call returned, or returns when it is ok. This is
 * the one place where a core error becomes a JS error.
 *
 * `status` is the core's Status as the bindings hand it over: `{ code, field, message }`, code
 * 'ok' on success, else one of ERROR_CODES; field the offending option in the JS API's names
 * ('precondRank', 'data.lengthScale'), '' when the problem is not one field's; message the
 * sentence for a reader.
 *
 * `context` says how the call names its arguments:
 * - `argument`: the JS argument to name when the status names no field this call knows;
 * - `prefix`: the JS path the fields belong to ('options', 'options.data'), so field 'count'
 *   names 'options.count'; without it the field is the argument ('heads', 'i');
 * - `fields`: the fields this call knows; a field outside them names `argument`. A dotted field
 *   ('data.dx') also matches its last part ('dx') for calls whose options are flat (lab.gp).
 */
export function throwCoreError(status, { argument, prefix, fields } = {}) {
  if (!status || status.code === 'ok') return;
  const field = knownField(status.field ?? '', fields);
  const named = field ? (prefix ? `${prefix}.${field}` : field) : argument;
  throw new GateLabError(String(status.message || status.code), { argument: named, code: status.code });
}

function knownField(field, fields) {
  if (!field) return '';
  if (!fields) return field;
  if (fields.includes(field)) return field;
  const last = field.split('.').at(-1);
  return fields.includes(last) ? last : '';
}
