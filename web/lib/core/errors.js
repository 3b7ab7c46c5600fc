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
 * Throws the GateLabError for what a core call returned, or returns when it is a success. This is
 * the one place where a core error becomes a JS error.
 *
 * `status` is either the structured status `{ code, field, message }` (code '' or 'ok' on
 * success, else one of ERROR_CODES; field the offending JS field relative to the options object,
 * '' when none; message the full sentence) or, until the bindings return statuses, today's
 * plain string ('' on success).
 *
 * `context` says how the call names its arguments:
 * - `argument`: the JS argument to name when the status names no field this call knows;
 * - `prefix`: the JS path the fields belong to ('options', 'options.data'), so field 'count'
 *   names 'options.count'; without it the field is the argument ('heads', 'i');
 * - `fields`: the fields this call knows; a field outside them names `argument`. A dotted field
 *   ('data.dx') also matches its last part ('dx') for calls whose options are flat (lab.gp);
 * - `code`: plain strings only: the code of this call's errors when the call knows it better
 *   than the wording does (the tie helpers: 'unsupported').
 */
export function throwCoreError(status, { argument, prefix, fields, code } = {}) {
  if (!status) return;
  let parsed;
  if (typeof status === 'string') {
    parsed = fromPlainString(status, fields, code);
  } else {
    if (!status.code || status.code === 'ok') return;
    parsed = { code: status.code, field: status.field ?? '', message: String(status.message ?? status.code) };
  }
  const field = knownField(parsed.field, fields);
  const named = field ? (prefix ? `${prefix}.${field}` : field) : argument;
  throw new GateLabError(parsed.message, { argument: named, code: parsed.code });
}

function knownField(field, fields) {
  if (!field) return '';
  if (!fields) return field;
  if (fields.includes(field)) return field;
  const last = field.split('.').at(-1);
  return fields.includes(last) ? last : '';
}

// --- The plain-string path. It goes away when the bindings return structured statuses. ---
// Core messages start with the field they are about ("count must be …", "hidden · rank must
// …", "teacher: rank must …" for a nested one, snake_case in the GP core), so the field is
// read off the front, and the code off the wording.
const SCOPE = /^([A-Za-z_][A-Za-z0-9_]*): /;
const FIELD = /^([A-Za-z_][A-Za-z0-9_.]*)(?= must| ·| \/| is not|:)/;
const CODE_BY_WORDING = [
  [/has been disposed/, 'disposed'],
  [/ first\b|diverged|changed since/, 'invalid-state'],
  [/must be one of|is not a catalogue|is not '|must be '[^']*'(, '[^']*')* or '|must be \w+(, \w+)* or \w+$|must divide|must be less/,
    'invalid-value'],
  [/\bfrom -?\d|\bin [[(]|\bin -?\d|\bat most\b|<=|>=|\bcap\b|exceeds|must list|must hold|out of bounds|must be 0 \(|positive/,
    'out-of-range'],
  [/finite|NaN|infinit/, 'not-finite'],
  [/needs? |has no|only one step|must be 'none'/, 'unsupported'],
];

function fromPlainString(message, fields, code) {
  // The one message whose subject is not its first word: the CEM MLP's Φ.
  if (/antiderivative/.test(message)) return { code: 'unsupported', field: 'activation', message };
  let rest = message;
  const scopes = [];
  for (let m = SCOPE.exec(rest); m; m = SCOPE.exec(rest)) {
    scopes.push(m[1]);
    rest = rest.slice(m[0].length);
  }
  const first = FIELD.exec(rest)?.[1];
  const field = [...scopes, ...(first ? [first] : [])].join('.').replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  const found = code ?? CODE_BY_WORDING.find(([pattern]) => pattern.test(rest))?.[1] ?? 'invalid-value';
  return { code: found, field: fields && !first ? '' : field, message };
}
