// The one table of layer kinds and display names (web/lib/paper-a/labels.js) that every figure
// reads: lab.layerKinds, the names in lab.activationInfo and lab.layerLabel. The names are the
// ones the figures showed before, so moving them into the library changes no picture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();

test('layerKinds: the four kinds, in order, frozen', () => {
  assert.deepEqual(lab.layerKinds, [{ name: 'mlp', label: 'MLP' }, { name: 'symmetric', label: 'symmetric' },
    { name: 'gated', label: 'gated' }, { name: 'bigated', label: 'bigated' }]);
  assert.ok(Object.isFrozen(lab.layerKinds) && lab.layerKinds.every(Object.isFrozen));
  assert.throws(() => { lab.layerKinds[0].label = 'x'; }, TypeError);
});

test('activationInfo names every activation: label, short label and gated variant', () => {
  const table = Object.fromEntries(lab.activations.map((name) => {
    const { label, shortLabel, gatedName } = lab.activationInfo(name);
    return [name, [label, shortLabel, gatedName]];
  }));
  assert.deepEqual(table, {
    identity: ['identity', 'id', 'Bilinear'],
    relu: ['ReLU', 'ReLU', 'ReGLU'],
    leaky_relu: ['leaky ReLU', 'leaky', null],
    relu2: ['ReLU²', 'ReLU²', null],
    gelu: ['GELU', 'GELU', 'GEGLU'],
    gelu_tanh: ['GELU (tanh)', 'GELUₜ', 'GEGLU (tanh)'],
    silu: ['SiLU', 'SiLU', 'SwiGLU'],
    swish: ['Swish', 'Swish', null],
    sigmoid: ['sigmoid', 'sigm', 'GLU'],
    tanh: ['tanh', 'tanh', null],
    softplus: ['softplus', 'softp', null],
  });
});

test('layerLabel: the names readers know', () => {
  const cases = [
    [{ kind: 'gated', activation: 'silu' }, 'SwiGLU'],
    [{ kind: 'bigated', activation: 'silu' }, 'SiLU·SiLU'],
    [{ kind: 'gated', activation: 'identity' }, 'Bilinear'],
    [{ kind: 'gated', activation: 'tanh' }, 'gated (tanh)'],
    [{ kind: 'gated' }, 'ReGLU'],
    [{ kind: 'symmetric', activation: 'relu' }, 'symmetric (ReLU)'],
    [{ kind: 'mlp', activation: 'gelu' }, 'MLP (GELU)'],
    [{ kind: 'mlp', activation: 'gelu', rank: 3 }, 'MLP (GELU)'],
    [{ kind: 'gated', activation: 'silu', symmetrize: 1 }, 'symgated (SiLU)'],
    [{ kind: 'gated', activation: 'silu', symmetrize: 0 }, 'SwiGLU'],
    [{ kind: 'gated', activation: 'silu', symmetrize: 0.25 }, 'SwiGLU, λ = 0.25'],
    [{ kind: 'symmetric', activation: 'relu', rank: 2 }, 'symmetric (ReLU), rank 2'],
    [{ kind: 'gated', activation: 'gelu', rank: 4, symmetrize: 0.5 }, 'GEGLU, rank 4, λ = 0.5'],
  ];
  for (const [layer, name] of cases) assert.equal(lab.layerLabel(layer), name, JSON.stringify(layer));
  const layer = lab.createLayer({ kind: 'gated', activation: 'sigmoid', dIn: 2, hidden: 2, dOut: 1 });
  assert.equal(lab.layerLabel(layer.options), 'GLU', 'a layer\'s own options describe it');
  layer.dispose();
});

test('layerLabel refuses what is not a layer description', () => {
  const refuses = (layer, argument, code) => assert.throws(() => lab.layerLabel(layer),
    (e) => e instanceof GateLabError && e.argument === argument && e.code === code, `${JSON.stringify(layer)}`);
  refuses(undefined, 'layer', 'invalid-type');
  refuses('gated', 'layer', 'invalid-type');
  refuses({ kind: 'rnn' }, 'layer.kind', 'invalid-value');
  refuses({ kind: 'gated', activation: 'sine' }, 'layer.activation', 'invalid-value');
  refuses({ kind: 'gated', rank: 0 }, 'layer.rank', 'out-of-range');
  refuses({ kind: 'gated', symmetrize: 2 }, 'layer.symmetrize', 'out-of-range');
  refuses({ kind: 'gated', symmetrize: NaN }, 'layer.symmetrize', 'not-finite');
  refuses({ kind: 'symmetric', symmetrize: 0.5 }, 'layer.symmetrize', 'unsupported');
});
