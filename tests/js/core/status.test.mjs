// throwCoreError (web/lib/core/errors.js), the one place where what a core call returned becomes
// a GateLabError. It takes the core's structured status as the bindings hand it over,
// { code, field, message }: no message is parsed for a field or a code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CODES, GateLabError, throwCoreError } from '../../../web/lib/core/errors.js';

function thrown(status, context) {
  try {
    throwCoreError(status, context);
  } catch (e) {
    assert.ok(e instanceof GateLabError && e.name === 'GateLabError');
    return { code: e.code, argument: e.argument, message: e.message };
  }
  return null;
}

test('the codes are the documented seven', () => {
  assert.deepEqual([...ERROR_CODES], ['invalid-type', 'invalid-value', 'out-of-range', 'disposed', 'unsupported',
    'not-finite', 'invalid-state']);
  assert.equal(new GateLabError('m', { code: 'nonsense' }).code, 'invalid-value', 'an unknown code is never exposed');
  assert.equal(new GateLabError('m').argument, undefined);
});

test('success: a status whose code is ok', () => {
  assert.equal(thrown({ code: 'ok', field: '', message: '' }, { argument: 'options' }), null);
  assert.equal(thrown({ code: 'ok', field: 'count', message: '' }, { prefix: 'options' }), null,
    'ok wins over a field');
});

test('a structured status: its code and message, its field under the call\'s prefix', () => {
  const status = { code: 'out-of-range', field: 'count', message: 'count must be an integer from 4 to 20000 (got 3)' };
  assert.deepEqual(thrown(status, { argument: 'options', prefix: 'options' }),
    { code: 'out-of-range', argument: 'options.count', message: status.message });
  assert.equal(thrown(status, { argument: 'options' }).argument, 'count', 'no prefix: the field is the argument');
  assert.equal(thrown({ ...status, field: '' }, { argument: 'options' }).argument, 'options',
    'no field: the call\'s argument');
  assert.equal(thrown({ ...status, field: 'data.count' }, { prefix: 'options' }).argument, 'options.data.count');
  const gp = { argument: 'options', prefix: 'options', fields: ['dx', 'heads'] };
  assert.equal(thrown({ code: 'invalid-value', field: 'attention.heads', message: 'heads must divide d' }, gp).argument,
    'options.heads', 'flat options: a nested field names its last part');
  assert.equal(thrown({ code: 'invalid-value', field: 'rows', message: 'm' }, { argument: 'x', fields: [] }).argument,
    'x',
    'a field the call does not know names the call\'s argument');
  assert.equal(thrown({ code: 'unsupported', field: 'activation', message: 'm' }, { code: 'invalid-state' }).code,
    'unsupported',
    'the status code wins over the call\'s');
});

test('the message is the reader\'s: a field or code inside it is never parsed out', () => {
  const status = { code: 'invalid-state', field: '', message: 'count must be an integer from 4 to 20000 (got 3)' };
  assert.deepEqual(thrown(status, { argument: 'n', prefix: 'options' }),
    { code: 'invalid-state', argument: 'n', message: status.message }, 'no field: the call\'s argument, not "count"');
  assert.equal(thrown({ code: 'unsupported', field: '', message: '' }, { argument: 'layer' }).message, 'unsupported',
    'an empty message falls back to the code');
});
