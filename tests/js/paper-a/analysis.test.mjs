// Paper A's analyses (web/lib/paper-a/analysis.js) on the real wasm module: the symmetry census
// (docs/MATH.md §A9), rank-r approximation (§A3, §A6, §A18) and interaction matrices (§A3); every
// error path throws GateLabError naming the argument, with its code; nothing leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const baseline = lab.liveObjects();

/** fn throws a GateLabError whose message matches, with error code `code` (and naming `argument` when given). */
function throwsNamed(fn, pattern, code, argument) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof GateLabError, `expected GateLabError, got ${e}`);
    assert.match(e.message, pattern);
    assert.equal(e.code, code, e.message);
    if (argument) assert.equal(e.argument, argument);
    return true;
  });
}

test('census: measured null-space dimensions equal the predicted counts', () => {
  const rows = lab.census({ ranks: [1, 2] });
  assert.equal(rows.length, 11 * 5);
  for (const r of rows) {
    assert.equal(r.measured, r.predicted, `${r.kind} ${r.activation} r${r.rank}: ${r.explanation}`);
    assert.ok(r.gapDecades > 3);
    assert.equal(r.spectrum.length, r.parameters);
    if (r.exchangeApplicable) assert.equal(r.exchangeMeasured, r.exchangePredicted);
  }
  assert.deepEqual([...new Set(rows.map((r) => r.kind))], ['mlp', 'symmetric', 'gated'], 'paper A\'s kinds by default');
  // The bigated kind (docs/MATH.md §A23) when named: exchange-symmetric for every σ, counts as derived.
  const bigated = lab.census({ kinds: ['bigated'], ranks: [2] });
  assert.equal(bigated.length, 11);
  for (const r of bigated) {
    assert.equal(r.measured, r.predicted, `bigated ${r.activation}: ${r.explanation}`);
    assert.ok(r.exchangeMeasured && r.exchangePredicted, `bigated ${r.activation}: exchange`);
  }
  const gatedSilu = rows.find((r) => r.kind === 'gated' && r.activation === 'silu' && r.rank === 1);
  assert.equal(gatedSilu.predicted, 3);
  assert.equal(gatedSilu.exchangeMeasured, false);
  throwsNamed(() => lab.census({ kinds: ['rnn'] }), /options.kinds\[0\]/, 'invalid-value');
  throwsNamed(() => lab.census({ activations: 'relu' }), /options.activations must be a non-empty array/,
    'invalid-type');
  throwsNamed(() => lab.census({ ranks: [9] }), /rank must be an integer from 1 to dIn = 4/, 'out-of-range');
  throwsNamed(() => lab.census({ hidden: 50, ranks: [4] }), /census cap is 256/, 'out-of-range');
  throwsNamed(() => lab.census({ threshold: 2 }), /threshold/, 'out-of-range', 'options.threshold');
  throwsNamed(() => lab.census({ dIn: 0 }), /options.dIn/, 'out-of-range');
});

test('rankApprox: the error falls with r and vanishes at r = exactAt, the first exact rank', () => {
  const rows = lab.rankApprox({ activation: 'silu', dIn: 5, hidden: 4, dOut: 2 });
  assert.ok(rows.exactAt >= 3 && rows.exactAt <= 5, `exactAt ${rows.exactAt}`);
  assert.deepEqual(rows.map((r) => r.rank), Array.from({ length: rows.exactAt }, (_, i) => i + 1));
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i].error < rows[i - 1].error);
  assert.ok(rows.at(-1).error < 1e-5);
  assert.deepEqual(rows.map((r) => r.exact), rows.map((r) => r.rank === rows.exactAt));
  assert.equal(rows[0].parameters, 4 * (2 * 5 + 2));
  for (const r of rows) {
    assert.ok(r.energy >= r.onePerPairEnergy - 1e-6, `r = ${r.rank}: ${r.energy} < ${r.onePerPairEnergy}`);
    if (r.rank > 1) assert.ok(r.error <= r.onePerPairError + 1e-6, `r = ${r.rank}: ${r.error} > ${r.onePerPairError}`);
  }
  assert.ok(rows.at(-1).onePerPairError > 1e-3, 'one eigenvalue per pair is exact only at r = dIn');
  throwsNamed(() => lab.rankApprox({ dIn: 0 }), /options.dIn/, 'out-of-range');
  throwsNamed(() => lab.rankApprox({ dIn: 65 }), /options.dIn/, 'out-of-range');
  throwsNamed(() => lab.rankApprox({ activation: 'sin' }), /options.activation/, 'invalid-value');
  throwsNamed(() => lab.rankApprox({ inputs: 0 }), /options.inputs/, 'out-of-range');
});

test('rankApprox: exact at ⌈d/2⌉ for balanced layers, later for unbalanced ones (docs/MATH.md §A6)', () => {
  for (const dIn of [4, 6, 7]) {
    const half = Math.ceil(dIn / 2);
    const exactAt = [];
    for (let seed = 1; seed <= 6; seed++) {
      const rows = lab.rankApprox({ activation: 'relu', dIn, hidden: 4, dOut: 2, seed });
      assert.ok(rows.exactAt >= half && rows.exactAt <= dIn, `d ${dIn} seed ${seed}: exactAt ${rows.exactAt}`);
      assert.equal(rows.length, rows.exactAt);
      assert.ok(rows.at(-1).exact && rows.at(-1).error < 1e-5, `d ${dIn} seed ${seed}: ${rows.at(-1).error}`);
      for (const r of rows.slice(0, -1)) assert.ok(!r.exact && r.error > 1e-5 && r.energy < 1);
      exactAt.push(rows.exactAt);
    }
    assert.ok(exactAt.includes(half), `d ${dIn}: some layer is balanced (${exactAt})`);
    assert.ok(exactAt.some((r) => r > half), `d ${dIn}: some layer is not (${exactAt})`);
  }
});

test('interactions reproduce the layer: x·B·xᵀ = u·f(x)', () => {
  const layer = lab.createLayer({ kind: 'gated', activation: 'gelu', dIn: 4, hidden: 6, dOut: 2, seed: 4 });
  const u = new Float32Array([0.6, -1.2]);
  const x = new Float32Array([0.5, -1, 0.25, 2]);
  const at = lab.interactions(layer, u, x);
  assert.ok(at.exact);
  assert.ok(Math.abs(at.quadratic - at.output) < 1e-5 * (1 + Math.abs(at.output)), `${at.quadratic} vs ${at.output}`);
  assert.ok(at.exchangeGap > 1e-3);  // gelu breaks the exchange symmetry
  let q = 0;
  for (let a = 0; a < 4; a++) for (let b = 0; b < 4; b++) q += x[a] * at.matrix[a * 4 + b] * x[b];
  assert.ok(Math.abs(q - at.output) < 1e-4);
  const weightBased = lab.interactions(layer, u);
  assert.equal(weightBased.exact, false);
  assert.ok(weightBased.exchangeGap < 1e-6);  // sym() is the exchange quotient
  assert.ok(weightBased.rawAsymmetry > 0.01);
  assert.equal(weightBased.quadratic, undefined);
  assert.equal(weightBased.eigenvalues.length, 4);
  const mlp = lab.createLayer({ kind: 'mlp', dIn: 4, hidden: 6, dOut: 2 });
  throwsNamed(() => lab.interactions(mlp, u), /this layer is 'mlp'/, 'unsupported', 'layer');
  throwsNamed(() => lab.interactions({}, u), /layer must be a layer made by lab.createLayer/, 'invalid-type');
  throwsNamed(() => lab.interactions(layer, new Float32Array(3)), /u must be a Float32Array of dOut = 2/,
    'invalid-value');
  throwsNamed(() => lab.interactions(layer, u, new Float32Array([1, 2, NaN, 0])), /x\[2\] is NaN/, 'not-finite');
  mlp.dispose();
  layer.dispose();
  throwsNamed(() => lab.interactions(layer, u), /this layer has been disposed/, 'disposed');
  assert.equal(lab.liveObjects(), baseline);
});

test('no leaks: census cycles keep liveObjects and the heap flat', () => {
  const cycle = () => lab.census({ kinds: ['gated'], activations: ['relu'] });
  for (let i = 0; i < 5; i++) cycle();
  const heap = lab.heapBytes();
  for (let i = 0; i < 40; i++) cycle();
  assert.equal(lab.heapBytes(), heap);
  assert.equal(lab.liveObjects(), baseline);
});
