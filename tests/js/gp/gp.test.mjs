// lab.gp (web/lib/gp/) on the real wasm module in Node: sequences named by their seed, the
// posterior against the one-observation closed form, a live session that learns and never
// looks at y_t, validation errors that name the option, and disposal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const gp = lab.gp;

test('sample: a seed names the sequences; shapes follow dx and length', () => {
  const a = gp.sample({ dx: 2, length: 6 }, 5, 3);
  const b = gp.sample({ dx: 2, length: 6 }, 5, 3);
  assert.equal(a.length, 3);
  assert.equal(a[0].x.length, 12);
  assert.equal(a[0].y.length, 6);
  assert.deepEqual(a, b);
  assert.notDeepEqual(gp.sample({ dx: 2, length: 6 }, 6, 1)[0].y, a[0].y);
  for (const v of a[0].x) assert.ok(v >= -1 && v < 1);
});

test('posterior: the prior at t = 0 and the one-observation closed form at t = 1', () => {
  const o = { length: 2, lengthScale: 0.5, signalVar: 1.3, noiseStd: 0.2 };
  const seq = { x: Float32Array.of(0.3, -0.1), y: Float32Array.of(0.8, 0) };
  const p = gp.posterior(o, seq);
  const [s2, n2] = [1.3, 0.04];
  const k = s2 * Math.exp(-((0.3 - -0.1) ** 2) / (2 * 0.25));
  assert.equal(p.mean[0], 0);
  assert.ok(Math.abs(p.variance[0] - (s2 + n2)) < 1e-6);
  assert.ok(Math.abs(p.mean[1] - (k / (s2 + n2)) * 0.8) < 1e-6);
  assert.ok(Math.abs(p.variance[1] - (s2 - (k * k) / (s2 + n2) + n2)) < 1e-6);
  assert.deepEqual(Array.from(p.contextMean), [0, Math.fround(0.8)]);
  const q = gp.posteriorAt(o, seq, 1, Float32Array.of(-0.1, 5));
  assert.ok(Math.abs(q.mean[0] - p.mean[1]) < 1e-6);
  assert.ok(Math.abs(q.variance[1] - (s2 + n2)) < 1e-4, 'far from the data: the prior');
});

test('a session trains, beats the context mean, and its prediction at t ignores y_t', () => {
  const before = lab.liveObjects();
  const options = { length: 10, steps: 2, seed: 3 };
  const session = gp.createSession(options);
  assert.equal(lab.liveObjects(), before + 1);
  assert.equal(session.options.steps, 2);
  assert.ok(session.parameterCount > 0);
  const losses = session.train(150);
  assert.equal(losses.length, 150);
  assert.equal(session.stepsDone, 150);
  assert.ok(losses.every(Number.isFinite));
  assert.equal(session.diverged, false);
  const held = gp.sample(options, 77, 40);
  let model = 0;
  let context = 0;
  for (const s of held) {
    const pred = session.predict(s);
    const { contextMean } = gp.posterior(options, s);
    for (let t = 0; t < 10; t++) {
      model += (pred[t] - s.y[t]) ** 2;
      context += (contextMean[t] - s.y[t]) ** 2;
    }
  }
  assert.ok(model < context, `model MSE ${model / 400} below the context mean's ${context / 400}`);
  const s = held[0];
  const pred = session.predict(s);
  const changed = { x: s.x, y: Float32Array.from(s.y, (v, t) => (t >= 4 ? v + 10 : v)) };
  assert.deepEqual(Array.from(session.predict(changed).slice(0, 5)), Array.from(pred.slice(0, 5)));
  const at = session.predictAt(s, 4, Float32Array.of(s.x[4]));
  assert.ok(Math.abs(at[0] - pred[4]) < 1e-5);
  assert.equal(session.losses().length, 150);
  session.dispose();
  session.dispose();
  assert.equal(lab.liveObjects(), before);
  assert.throws(() => session.train(1),
    (e) => e instanceof GateLabError && /disposed/.test(e.message) && e.code === 'disposed');
});

test('bad options throw GateLabError naming the option, with its code', () => {
  const expectError = (fn, argument, code) => assert.throws(fn,
    (e) => e instanceof GateLabError && e.argument === argument && e.code === code);
  expectError(() => gp.createSession({ noiseStd: 0 }), 'options.noiseStd', 'out-of-range');
  expectError(() => gp.createSession({ dx: 99 }), 'options.dx', 'out-of-range');
  expectError(() => gp.createSession({ steps: 40 }), 'options.steps', 'out-of-range');
  expectError(() => gp.createSession({ heads: 3 }), 'options.heads', 'invalid-value');
  expectError(() => gp.createSession({ family: 'mamba' }), 'options.family', 'invalid-value');
  expectError(() => gp.createSession({ colour: 'red' }), 'options.colour', 'invalid-value');
  expectError(() => gp.createSession({ lr: NaN }), 'options.lr', 'not-finite');
  expectError(() => gp.createSession({ d: 1.5 }), 'options.d', 'invalid-type');
  expectError(() => gp.createSession({ diagonal: 'perhead' }), 'options.diagonal', 'invalid-value');
  expectError(() => gp.sample({}, -1), 'seed', 'out-of-range');
  expectError(() => gp.sample({}, 0, 1e9), 'count', 'out-of-range');
  expectError(() => gp.posterior({ length: 3 }, { x: new Float32Array(2), y: new Float32Array(3) }), 'seq.x',
    'invalid-value');
  expectError(() => gp.posteriorAt({ dx: 2 }, gp.sample({ dx: 2 })[0], 1, new Float32Array(3)), 'xq', 'invalid-value');
  expectError(() => gp.posteriorAt({}, gp.sample()[0], 1, [0.5]), 'xq', 'invalid-type');
  const session = gp.createSession({ length: 4 });
  expectError(() => session.train(0), 'n', 'out-of-range');
  expectError(() => session.predictAt(gp.sample({ length: 4 })[0], 4, Float32Array.of(0)), 'context', 'out-of-range');
  session.dispose();
  expectError(() => session.train(1), 'this', 'disposed');
});

test("diagonal is 'per-head' as in lab.cem; the older 'per_head' is still accepted and means the same", () => {
  const seq = gp.sample({ length: 6 }, 2)[0];
  const made = ['per-head', 'per_head'].map((diagonal) => gp.createSession({ length: 6, steps: 2, diagonal, seed: 4 }));
  for (const session of made) assert.equal(session.options.diagonal, 'per-head');
  made.forEach((session) => session.train(5));
  assert.deepEqual(made[0].predict(seq), made[1].predict(seq), 'the same model');
  assert.deepEqual(made[0].losses(), made[1].losses());
  const shared = gp.createSession({ length: 6, steps: 2, diagonal: 'shared', seed: 4 });
  shared.train(5);
  assert.notDeepEqual(shared.losses(), made[0].losses(), "'per-head' is not ignored");
  for (const session of [...made, shared]) session.dispose();
  assert.equal(gp.defaults.diagonal, 'shared');
});
