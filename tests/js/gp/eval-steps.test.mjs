// Test-time recursion and learned η on lab.gp sessions (real wasm in Node): setEvalSteps changes
// what predict and predictAt compute but not what training does, 0 restores the as-trained bits,
// bad values throw GateLabError naming `steps` and leave the module usable, the standard family
// refuses a non-zero T′; learnEta makes η a parameter that training moves (docs/MATH.md §B14).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const gp = lab.gp;
const options = { length: 8, steps: 1, seed: 5 };
const [seq] = gp.sample(options, 11);
const xq = Float32Array.of(-0.5, 0.25);

const expectError = (fn, argument, code) => assert.throws(fn,
  (e) => e instanceof GateLabError && e.argument === argument && e.code === code, `${argument} ${code}`);

test('evaluating a T = 1 model at T′ changes its predictions; 0 restores the as-trained bits', () => {
  const s = gp.createSession(options);
  s.train(20);
  assert.equal(s.evalSteps, 0);
  const trained = s.predict(seq);
  const trainedAt = s.predictAt(seq, 3, xq);
  s.setEvalSteps(1);
  assert.deepEqual(s.predict(seq), trained, 'T′ = T is the trained model');
  for (const steps of [2, 4, 8]) {
    s.setEvalSteps(steps);
    assert.equal(s.evalSteps, steps);
    assert.notDeepEqual(s.predict(seq), trained, `T′ = ${steps}`);
    assert.notDeepEqual(s.predictAt(seq, 3, xq), trainedAt, `predictAt at T′ = ${steps}`);
    assert.ok(s.predict(seq).every(Number.isFinite));
  }
  s.setEvalSteps(0);
  assert.equal(s.evalSteps, 0);
  assert.deepEqual(s.predict(seq), trained);
  assert.deepEqual(s.predictAt(seq, 3, xq), trainedAt);
  s.dispose();
});

test('training keeps its own T whatever the evaluation T′', () => {
  const plain = gp.createSession(options);
  const evaluated = gp.createSession(options);
  evaluated.setEvalSteps(4);
  assert.deepEqual(evaluated.train(15), plain.train(15), 'the same losses');
  evaluated.setEvalSteps(0);
  assert.deepEqual(evaluated.predict(seq), plain.predict(seq), 'the same weights');
  plain.dispose();
  evaluated.dispose();
});

test('bad T′ throws GateLabError naming steps; the session and module stay usable', () => {
  const s = gp.createSession(options);
  s.train(3);
  s.setEvalSteps(2);
  const before = s.predict(seq);
  expectError(() => s.setEvalSteps(17), 'steps', 'out-of-range');
  expectError(() => s.setEvalSteps(-1), 'steps', 'out-of-range');
  expectError(() => s.setEvalSteps(1.5), 'steps', 'invalid-type');
  expectError(() => s.setEvalSteps('2'), 'steps', 'invalid-type');
  expectError(() => s.setEvalSteps(NaN), 'steps', 'not-finite');
  expectError(() => s.setEvalSteps(), 'steps', 'invalid-type');
  assert.equal(s.evalSteps, 2, 'a refused value changes nothing');
  assert.deepEqual(s.predict(seq), before);
  assert.equal(s.train(2).length, 2);
  s.dispose();
  expectError(() => s.setEvalSteps(1), 'this', 'disposed');
  expectError(() => s.stepSizes(), 'this', 'disposed');
  assert.equal(gp.sample(options, 11)[0].y[0], seq.y[0], 'the module still works');
});

test('the standard family takes no T′ and has no step sizes', () => {
  const s = gp.createSession({ ...options, family: 'standard' });
  s.setEvalSteps(0);
  expectError(() => s.setEvalSteps(2), 'steps', 'unsupported');
  expectError(() => s.stepSizes(), 'this', 'unsupported');
  assert.equal(s.evalSteps, 0);
  assert.equal(s.predict(seq).length, 8);
  s.dispose();
});

test('stepSizes: the fixed η per block, or a learned one that starts at eta and moves', () => {
  const fixed = gp.createSession({ ...options, eta: 0.125 });
  assert.deepEqual(Array.from(fixed.stepSizes()), [0.125, 0.125, 0.125, 0.125], '2 layers × (attention, MLP)');
  fixed.train(10);
  assert.deepEqual(Array.from(fixed.stepSizes()), [0.125, 0.125, 0.125, 0.125], 'not learned: unchanged');
  const learned = gp.createSession({ ...options, eta: 0.125, learnEta: true });
  assert.equal(learned.options.learnEta, true);
  assert.equal(gp.defaults.learnEta, false);
  assert.equal(learned.parameterCount, fixed.parameterCount + 4, 'one θ per CEM layer');
  for (const eta of learned.stepSizes()) assert.ok(Math.abs(eta - 0.125) < 1e-6, `starts at η = ${eta}`);
  learned.train(10);
  const moved = learned.stepSizes();
  assert.ok(moved.some((eta) => Math.abs(eta - 0.125) > 1e-4), `training moved η: ${Array.from(moved)}`);
  assert.ok(moved.every((eta) => eta > 0), 'softplus keeps η positive');
  expectError(() => gp.createSession({ learnEta: 1 }), 'options.learnEta', 'invalid-type');
  fixed.dispose();
  learned.dispose();
});
