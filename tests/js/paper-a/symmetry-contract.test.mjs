// "Symmetry you can touch" through the public API, on the real wasm module: createLayer's
// symmetrize (λ = 0 is the gated layer bit for bit, λ = 1 is exchange-symmetric; it comes back in
// options and survives exchanged()/rescaled()); lab.symmetry.ntk against J Jᵀ built from the
// layer's own public backward (docs/MATH.md §A22); the trainer's gradientNorm, teleport and
// balance (§A14, §A21); symmetrize in trainers and race models; and every refusal names its
// argument with its code and leaves the module usable, with no handle left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const base = { kind: 'gated', activation: 'silu', dIn: 4, hidden: 6, dOut: 3, rank: 2, seed: 7 };
const input = (n, seed = 1) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) * 1.5);

function refuses(fn, argument, code) {
  const live = lab.liveObjects();
  assert.throws(fn, (e) => e instanceof GateLabError && e.argument === argument && e.code === code,
    `expected ${code} naming ${argument}`);
  assert.equal(lab.liveObjects(), live, 'a refusal leaves no handle behind');
}

test('symmetrize: λ = 0 is the gated layer bit for bit; λ = 1 is exchange-symmetric; options keep it', () => {
  const x = input(5 * 4);
  const plain = lab.createLayer(base);
  const zero = lab.createLayer({ ...base, symmetrize: 0 });
  assert.equal(plain.options.symmetrize, 0);
  assert.deepEqual(zero.forward(x, 5), plain.forward(x, 5));
  const g = input(5 * 3, 2);
  assert.deepEqual(zero.backward(x, 5, g), plain.backward(x, 5, g));

  const sym = lab.createLayer({ ...base, symmetrize: 1 });
  const dial = lab.createLayer({ ...base, symmetrize: 0.3 });
  assert.equal(sym.options.symmetrize, 1);
  assert.equal(dial.options.symmetrize, Math.fround(0.3), 'stored as the core stores it');
  assert.equal(lab.symmetry.exchangeGap(sym, x, 5), 0);
  assert.ok(lab.symmetry.exchangeGap(dial, x, 5) > 1e-4);
  assert.ok(lab.symmetry.exchangeGap(plain, x, 5) > lab.symmetry.exchangeGap(dial, x, 5));
  assert.notDeepEqual(sym.forward(x, 5), plain.forward(x, 5));
  const swapped = sym.exchanged(), scaled = dial.rescaled(2);
  assert.equal(swapped.options.symmetrize, 1);
  assert.equal(scaled.options.symmetrize, Math.fround(0.3));
  assert.deepEqual(swapped.forward(x, 5), sym.forward(x, 5), 'λ = 1: the exchanged layer is the same function');
  assert.equal(lab.layerLabel(sym.options), 'symgated (SiLU), rank 2');
  for (const l of [plain, zero, sym, dial, swapped, scaled]) l.dispose();
  assert.equal(lab.liveObjects(), 0);
});

test('symmetrize outside [0, 1], of the wrong type, or on another kind is refused naming it', () => {
  refuses(() => lab.createLayer({ ...base, symmetrize: 1.5 }), 'symmetrize', 'out-of-range');
  refuses(() => lab.createLayer({ ...base, symmetrize: -0.1 }), 'symmetrize', 'out-of-range');
  refuses(() => lab.createLayer({ ...base, symmetrize: NaN }), 'symmetrize', 'not-finite');
  refuses(() => lab.createLayer({ ...base, symmetrize: '1' }), 'symmetrize', 'invalid-type');
  refuses(() => lab.createLayer({ ...base, kind: 'mlp', symmetrize: 0.5 }), 'symmetrize', 'unsupported');
  refuses(() => lab.createLayer({ ...base, kind: 'symmetric', symmetrize: 1 }), 'symmetrize', 'unsupported');
  const mlp = lab.createLayer({ ...base, kind: 'mlp', symmetrize: 0 });  // λ = 0 is every kind's default
  assert.equal(mlp.options.symmetrize, 0);
  assert.equal(mlp.forward(input(4), 1).length, 3, 'still usable');
  mlp.dispose();
});

test('ntk: the Gram matrix of the Jacobian the public backward gives, its spectrum and condition number', () => {
  for (const options of [{ ...base, symmetrize: 0.5 }, { ...base, kind: 'mlp', activation: 'relu' }]) {
    const layer = lab.createLayer(options);
    const rows = 3, n = rows * 3, x = input(rows * 4, 3);
    const { gram, eigenvalues, conditionNumber } = lab.symmetry.ntk(layer, x, rows);
    assert.ok(gram instanceof Float64Array && gram.length === n * n);
    assert.ok(eigenvalues instanceof Float64Array && eigenvalues.length === n);
    // Row a = i·dOut + o of J: the parameter gradient of output o of row i, from the layer's own backward.
    const jacobian = [];
    for (let a = 0; a < n; a++) {
      const gradOut = new Float32Array(n);
      gradOut[a] = 1;
      const d = layer.backward(x, rows, gradOut);
      jacobian.push([...(d.dQ ?? []), ...d.dK, ...d.dV]);
    }
    assert.equal(jacobian[0].length, layer.parameterCount);
    let trace = 0;
    for (let a = 0; a < n; a++) {
      trace += gram[a * n + a];
      for (let b = 0; b < n; b++) {
        const expected = jacobian[a].reduce((sum, v, p) => sum + v * jacobian[b][p], 0);
        assert.ok(Math.abs(gram[a * n + b] - expected) <= 1e-9 * (1 + Math.abs(expected)), `G[${a}][${b}]`);
        assert.equal(gram[a * n + b], gram[b * n + a]);
      }
    }
    const sum = eigenvalues.reduce((s, v) => s + v, 0);
    assert.ok(Math.abs(sum - trace) <= 1e-12 * trace, `Σλ ${sum} against tr G ${trace}`);
    for (let a = 1; a < n; a++) assert.ok(eigenvalues[a] <= eigenvalues[a - 1]);
    const k = Math.min(n, layer.parameterCount);
    assert.equal(conditionNumber, eigenvalues[0] / eigenvalues[k - 1]);
    layer.dispose();
  }
});

test('ntk refuses batches and layers above its caps, naming rows or the layer', () => {
  const layer = lab.createLayer(base);
  refuses(() => lab.symmetry.ntk(layer, input(86 * 4), 86), 'rows', 'out-of-range');  // 86 · 3 = 258 > 256
  refuses(() => lab.symmetry.ntk(layer, input(4), 0), 'rows', 'out-of-range');
  refuses(() => lab.symmetry.ntk(layer, input(3), 1), 'x', 'invalid-value');
  refuses(() => lab.symmetry.ntk({}, input(4), 1), 'layer', 'invalid-type');
  assert.equal(lab.symmetry.ntk(layer, input(85 * 4), 85).eigenvalues.length, 255);
  const big = lab.createLayer({ ...base, hidden: 1000 });  // 1000 · (2·2·4 + 3) = 19000 parameters
  refuses(() => lab.symmetry.ntk(big, input(4), 1), 'layer', 'out-of-range');
  big.dispose();
  layer.dispose();
});

const trainerOptions = (activation, learningRate, extra = {}) => ({ kind: 'gated', activation, hidden: 6, seed: 5,
  optimizer: 'sgd', learningRate, batchSize: 0, data: { task: 'circle', count: 120, seed: 2 }, ...extra });

test('gradientNorm is the next full-batch step\'s record; teleport keeps the loss and moves the gradient', () => {
  const t = lab.createTrainer(trainerOptions('relu', 0.1));
  const norm = t.gradientNorm();
  assert.equal(t.step(1).records.gradNorm[0], Math.fround(norm));
  t.step(19);
  const r = t.teleport(Float32Array.of(0.25, 4, 1, 2, 0.5, 3));
  assert.deepEqual(Object.keys(r), ['lossBefore', 'lossAfter', 'gradNormBefore', 'gradNormAfter']);
  assert.ok(Math.abs(r.lossAfter - r.lossBefore) <= 1e-6 * r.lossBefore, `${r.lossBefore} → ${r.lossAfter}`);
  assert.ok(Math.abs(r.gradNormAfter - r.gradNormBefore) > 1e-2 * r.gradNormBefore);
  assert.equal(r.gradNormAfter, t.gradientNorm());
  const again = t.teleport(2);  // one factor for every unit
  assert.ok(Math.abs(again.lossAfter - r.lossAfter) <= 1e-6 * r.lossAfter);
  const balance = t.balance();
  assert.ok(balance instanceof Float32Array && balance.length === 6);
  refuses(() => t.teleport(0), 'factors', 'out-of-range');
  refuses(() => t.teleport(Float32Array.of(1, 1, -1, 1, 1, 1)), 'factors', 'out-of-range');
  refuses(() => t.teleport(NaN), 'factors', 'not-finite');
  refuses(() => t.teleport(new Float32Array(5).fill(1)), 'factors', 'invalid-value');
  refuses(() => t.teleport('2'), 'factors', 'invalid-type');
  assert.deepEqual(t.balance(), balance, 'a refused teleport changes nothing');
  assert.equal(t.step(5).done, 5, 'still usable');
  t.dispose();
});

test('balance is conserved under small steps for ReGLU and Bilinear, not for SwiGLU (no teleport there)', () => {
  const drift = (activation, learningRate, steps) => {
    const t = lab.createTrainer(trainerOptions(activation, learningRate));
    const start = t.balance();
    t.step(steps);
    const end = t.balance();
    t.dispose();
    return Math.sqrt(start.reduce((s, v, j) => s + (end[j] - v) ** 2, 0) / start.length);
  };
  for (const activation of ['relu', 'identity']) {
    assert.ok(drift(activation, 0.0125, 160) < 0.4 * drift(activation, 0.05, 40), activation);
  }
  assert.ok(drift('silu', 0.0125, 160) > 0.7 * drift('silu', 0.05, 40));
  const swiglu = lab.createTrainer(trainerOptions('silu', 0.05));
  refuses(() => swiglu.teleport(2), 'this', 'unsupported');
  swiglu.dispose();
  const mlp = lab.createTrainer(trainerOptions('relu', 0.05, { kind: 'mlp' }));
  const r = mlp.teleport(3);  // input weights · 3, output weights / 3
  assert.ok(Math.abs(r.lossAfter - r.lossBefore) <= 1e-6 * r.lossBefore);
  mlp.dispose();
});

test('trainers and race models accept symmetrize; it is refused naming it elsewhere', () => {
  const t = lab.createTrainer(trainerOptions('silu', 0.05, { symmetrize: 1 }));
  assert.equal(t.options.symmetrize, 1);
  assert.equal(t.weights().layer.symmetrize, 1);
  t.dispose();
  refuses(() => lab.createTrainer(trainerOptions('relu', 0.05, { kind: 'mlp', symmetrize: 0.5 })), 'options.symmetrize',
    'unsupported');
  refuses(() => lab.createTrainer(trainerOptions('relu', 0.05, { symmetrize: 2 })), 'options.symmetrize',
    'out-of-range');
  const race = { steps: 20, seeds: 1, data: { task: 'xor', count: 60 } };
  const models = [{ kind: 'gated', activation: 'silu' }, { kind: 'gated', activation: 'silu', symmetrize: 1 }];
  const r = lab.race({ ...race, models });
  assert.deepEqual(r.models.map((m) => [m.label, m.symmetrize]), [['SwiGLU', 0], ['symgated (SiLU)', 1]]);
  assert.deepEqual(r.options.models, ['gated:silu', 'gated:silu:1']);
  refuses(() => lab.race({ ...race, models: [{ kind: 'mlp', symmetrize: 0.5 }] }), 'options.models', 'unsupported');
  refuses(() => lab.race({ ...race, models: [{ kind: 'gated', symmetrize: 3 }] }), 'options.models', 'out-of-range');
  refuses(() => lab.race({ ...race, models: [{ kind: 'gated', symmetrize: NaN }] }), 'options.models[0].symmetrize',
    'not-finite');
  refuses(() => lab.race({ ...race, symmetrize: 1 }), 'options.symmetrize', 'unsupported');
  assert.equal(lab.liveObjects(), 0);
});
