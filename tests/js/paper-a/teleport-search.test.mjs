// The orbit probe and the grid search through the public API, on the real wasm module (docs/MATH.md
// §A21): probeOrbit measures without moving and its next loss is the next full-batch sgd step's;
// bestFactors never worsens its goal; balanceDrift starts at 0; refusals name their argument.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const options = (activation = 'relu') => ({ kind: 'gated', activation, hidden: 6, seed: 2, optimizer: 'sgd',
  learningRate: 0.3, batchSize: 0, data: { task: 'xor', count: 120, seed: 3 } });

test('probeOrbit measures a point of the orbit without moving there', () => {
  const t = lab.createTrainer(options());
  t.step(20);
  const balance = t.balance();
  const here = t.probeOrbit(1);
  const there = t.probeOrbit(Float32Array.of(3, 0.5, 1, 1, 2, 1));
  assert.deepEqual(t.balance(), balance);
  assert.equal(here.gradNorm, t.gradientNorm());
  assert.ok(Math.abs(there.loss - here.loss) <= 1e-5 * here.loss);
  assert.notEqual(there.gradNorm, here.gradNorm);
  t.step(1);
  assert.ok(Math.abs(t.history().trainLoss.at(-1) - here.nextLoss) <= 1e-6 * here.nextLoss);
  t.dispose();
});

test('bestFactors never worsens its goal; teleporting there does what the probe said', () => {
  for (const goal of ['gradient', 'step']) {
    const t = lab.createTrainer(options());
    t.step(25);
    const now = t.probeOrbit(1);
    const best = t.bestFactors({ goal, points: 9, reach: 3 });
    assert.equal(best.length, 6);
    assert.ok(best.every((c) => c >= 1 / 3 - 1e-6 && c <= 3 + 1e-6));
    const then = t.probeOrbit(best);
    if (goal === 'gradient') assert.ok(then.gradNorm <= now.gradNorm, `${now.gradNorm} → ${then.gradNorm}`);
    else assert.ok(then.nextLoss <= now.nextLoss, `${now.nextLoss} → ${then.nextLoss}`);
    const r = t.teleport(best);
    assert.ok(Math.abs(r.gradNormAfter - then.gradNorm) <= 1e-6 * then.gradNorm);
    t.dispose();
  }
});

test('balanceDrift starts at 0 and grows with training; refusals name their argument', () => {
  const t = lab.createTrainer(options('identity'));
  assert.equal(t.balanceDrift(), 0);
  t.step(30);
  assert.ok(t.balanceDrift() > 0);
  const refuses = (fn, argument, code) => assert.throws(fn, (e) => e instanceof GateLabError && e.argument === argument
    && e.code === code, `${argument} ${code}`);
  refuses(() => t.bestFactors({ goal: 'up' }), 'options.goal', 'invalid-value');
  refuses(() => t.bestFactors({ points: 4 }), 'options.points', 'out-of-range');
  refuses(() => t.bestFactors({ reach: 1 }), 'options.reach', 'out-of-range');
  refuses(() => t.probeOrbit(-1), 'factors', 'out-of-range');
  t.dispose();
  const swiglu = lab.createTrainer(options('silu'));
  refuses(() => swiglu.bestFactors(), 'this', 'unsupported');
  refuses(() => swiglu.probeOrbit(1), 'this', 'unsupported');
  swiglu.dispose();
});
