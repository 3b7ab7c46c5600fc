// throwCoreError (web/lib/core/errors.js), the one place where what a core call returned becomes
// a GateLabError. It takes the structured status the bindings are moving to,
// { code, field, message }, and until then the plain message string; both give the same error.
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

test('success: an empty string, null, or a status whose code is empty or ok', () => {
  for (const status of ['', null, undefined, { code: '', field: '', message: '' }, { code: 'ok', field: '', message: '' }]) {
    assert.equal(thrown(status, { argument: 'options' }), null, JSON.stringify(status));
  }
});

test('a structured status: its code and message, its field under the call\'s prefix', () => {
  const status = { code: 'out-of-range', field: 'count', message: 'count must be an integer from 4 to 20000 (got 3)' };
  assert.deepEqual(thrown(status, { argument: 'options', prefix: 'options' }),
    { code: 'out-of-range', argument: 'options.count', message: status.message });
  assert.equal(thrown(status, { argument: 'options' }).argument, 'count', 'no prefix: the field is the argument');
  assert.equal(thrown({ ...status, field: '' }, { argument: 'options' }).argument, 'options', 'no field: the call\'s argument');
  assert.equal(thrown({ ...status, field: 'data.count' }, { prefix: 'options' }).argument, 'options.data.count');
  const gp = { argument: 'options', prefix: 'options', fields: ['dx', 'heads'] };
  assert.equal(thrown({ code: 'invalid-value', field: 'attention.heads', message: 'heads must divide d' }, gp).argument,
    'options.heads', 'flat options: a nested field names its last part');
  assert.equal(thrown({ code: 'invalid-value', field: 'rows', message: 'm' }, { argument: 'x', fields: [] }).argument, 'x',
    'a field the call does not know names the call\'s argument');
  assert.equal(thrown({ code: 'unsupported', field: 'activation', message: 'm' }, { code: 'invalid-state' }).code, 'unsupported',
    'the status code wins over the call\'s');
});

test('a plain string gives what the structured status would (until the bindings return statuses)', () => {
  const cases = [
    ['count must be an integer from 4 to 20000 (got 3)', { prefix: 'options' }, 'out-of-range', 'options.count'],
    ['teacher: rank must be an integer from 1 to dIn = 3 (got 4)', { prefix: 'options' }, 'out-of-range', 'options.teacher.rank'],
    ['hidden · rank must be at most 1024 for training (got 2048)', { prefix: 'options' }, 'out-of-range', 'options.hidden'],
    ['heads must divide d (d = 8, heads = 3)', { fields: ['d', 'heads'] }, 'invalid-value', 'heads'],
    ['attention: heads must divide d (d = 16, heads = 3)', { prefix: 'options', fields: ['heads'] }, 'invalid-value', 'options.heads'],
    ['length_scale must be in [0.001, 1000]', { prefix: 'options', fields: ['lengthScale'] }, 'out-of-range', 'options.lengthScale'],
    ["kind must be 'mlp', 'symmetric' or 'gated' (got 'x')", {}, 'invalid-value', 'kind'],
    ['family must be cem or standard', { prefix: 'options' }, 'invalid-value', 'options.family'],
    ['momentum must be a number in [0, 1)', { prefix: 'options' }, 'out-of-range', 'options.momentum'],
    ['the layer would have 9 parameters; the cap is 8', { argument: 'options' }, 'out-of-range', 'options'],
    ['every parameter must be finite', { argument: 'params', fields: [] }, 'not-finite', 'params'],
    ['energy needs an activation with a closed-form antiderivative; gelu_tanh has none', { argument: 'n', fields: ['i', 'n', 'activation'] },
      'unsupported', 'activation'],
    ['i must be in 0…n−1 (i = 5, n = 2)', { argument: 'n', fields: ['i', 'n', 'activation'] }, 'out-of-range', 'i'],
    ["the 'mlp' kind has no Q factor, so it has no exchange or scaling symmetry to probe", { argument: 'layer', fields: [] },
      'unsupported', 'layer'],
    ['backward needs a successful forward first', { argument: 'n', fields: [] }, 'invalid-state', 'n'],
    ['training diverged at step 12', { argument: 'n', fields: [] }, 'invalid-state', 'n'],
    ['only one step (steps = 1) is one gated MLP (steps = 2)', { argument: 'mlp', fields: [], code: 'unsupported' }, 'unsupported', 'mlp'],
    ['something unexpected', { argument: 'options' }, 'invalid-value', 'options'],
  ];
  for (const [message, context, code, argument] of cases) {
    assert.deepEqual(thrown(message, context), { code, argument, message }, message);
  }
});
