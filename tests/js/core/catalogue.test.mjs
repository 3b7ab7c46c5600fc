// The option catalogue: web/lib/catalogue.js is what scripts/catalogue.mjs makes from the
// built core (stale → fail), and every entry point refuses an option outside it with a
// GateLabError 'invalid-value' naming the key, nested keys by their path, and the module stays
// usable afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { catalogueSource, CATALOGUE_FILE } from '../../../scripts/catalogue.mjs';
import { NAMES, OPTIONS } from '../../../web/lib/catalogue.js';
import { GateLabError, loadGateLab } from '../../../web/lib/gatelab.js';
import { runsOf } from '../../../web/components/paper-a/lm/lm-schema.js';

const lab = await loadGateLab();

test('the committed catalogue is the one the built core gives', async () => {
  assert.equal(readFileSync(CATALOGUE_FILE, 'utf8'), await catalogueSource(),
    'web/lib/catalogue.js is stale: run npm run catalogue');
});

test('the name sets are the library\'s own', () => {
  assert.deepEqual(NAMES.activations, lab.activations);
  assert.deepEqual(NAMES.kinds, lab.layerKinds.map((k) => k.name));
  assert.deepEqual(NAMES.optimizers, lab.lm.optimizers);
  assert.deepEqual(NAMES.tasks, lab.datasets.tasks);
  assert.deepEqual(NAMES.diagonals, lab.cem.diagonals);
  assert.deepEqual(NAMES.preconditioners, lab.cem.preconditioners);
  assert.deepEqual(Object.keys(OPTIONS.gp), Object.keys(lab.gp.defaults));
});

const layer = { kind: 'gated', activation: 'relu', dIn: 2, hidden: 3, dOut: 1 };
const corpusText = 'the cat sat on the mat. '.repeat(60);

/** [entry, call with one extra key (typo) → throws, the argument it must name]. */
function typoCases() {
  const corpus = lab.lm.createCorpus(corpusText);
  const mlp = lab.cem.createMlp({ d: 4, hidden: 4 });
  const attention = lab.cem.createAttention({ d: 4 });
  const trainer = lab.createTrainer({ kind: 'gated', hidden: 2, data: { task: 'xor', count: 16 } });
  const cases = [
    ['createLayer', () => lab.createLayer({ ...layer, hiden: 3 }), 'options.hiden'],
    ['cem.createAttention', () => lab.cem.createAttention({ d: 4, head: 2 }), 'options.head'],
    ['cem.createMlp', () => lab.cem.createMlp({ d: 4, hidden: 4, step: 2 }), 'options.step'],
    ['cem.createStandardAttention', () => lab.cem.createStandardAttention({ d: 4, seeds: 1 }), 'options.seeds'],
    ['cem.createGatedMlp', () => lab.cem.createGatedMlp({ d: 4, hidden: 4, activaton: 'relu' }), 'options.activaton'],
    ['createTrainer', () => lab.createTrainer({ kind: 'gated', lr: 0.1 }), 'options.lr'],
    ['trainer.data', () => lab.createTrainer({ kind: 'gated', data: { task: 'xor', noize: 0 } }), 'options.data.noize'],
    ['race', () => lab.race({ steps: 2, seeds: 1, kind: 'mlp' }), 'options.kind'],
    ['race.model', () => lab.race({ steps: 2, models: [{ kind: 'gated', activation: 'relu', lambda: 1 }] }),
      'options.models[0].lambda'],
    ['datasets.make', () => lab.datasets.make('xor', { cout: 10 }), 'options.cout'],
    ['datasets.teacher', () => lab.datasets.make('teacher', { teacher: { hiden: 2 } }), 'options.teacher.hiden'],
    ['census', () => lab.census({ kinds: ['gated'], activations: ['relu'], rank: [1] }), 'options.rank'],
    ['rankApprox', () => lab.rankApprox({ din: 3 }), 'options.din'],
    ['activationCurve', () => lab.activationCurve('relu', { points: 8 }), 'options.points'],
    ['symmetry.exchangePlane', () => lab.symmetry.exchangePlane('relu', { size: 8 }), 'options.size'],
    ['lm.createCorpus', () => lab.lm.createCorpus(corpusText, { devFrac: 0.1 }), 'options.devFrac'],
    ['lm.hiddenForBudget', () => lab.lm.hiddenForBudget({ d: 8, budget: 100, knd: 'gated' }), 'options.knd'],
    ['lm.createSession', () => lab.lm.createSession({ corpus, d: 8, heads: 2, layer: 1 }), 'options.layer'],
    ['lm.mlp', () => lab.lm.createSession({ corpus, d: 8, heads: 2, mlp: { symmetrise: 1 } }),
      'options.mlp.symmetrise'],
    ['gp', () => lab.gp.sample({ lengthscale: 1 }), 'options.lengthscale'],
    ['cem.energyGrid', () => attention.energyGrid(new Float32Array(8), 2, 0, { G: 3, axis: 1 }), 'options.axis'],
    ['datasets.points', () => lab.datasets.make('user', { points: { x: new Float32Array(4), y: [1, -1], z: 1 } }),
      'options.points.z'],
    ['cem.drawParams', () => mlp.drawParams(['W'], { seed: 1, sacle: 2 }), 'options.sacle'],
    ['trainer.bestFactors', () => trainer.bestFactors({ goal: 'step', point: 9 }), 'options.point'],
  ];
  return { cases, dispose: () => [corpus, trainer, mlp, attention].forEach((o) => o.dispose()) };
}

test('every entry point refuses a typo, naming it, and the module stays usable', () => {
  const { cases, dispose } = typoCases();
  const live = lab.liveObjects();
  for (const [entry, call, argument] of cases) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof GateLabError, `${entry}: ${e}`);
      assert.equal(e.code, 'invalid-value', `${entry}: ${e.message}`);
      assert.equal(e.argument, argument, `${entry}: ${e.message}`);
      assert.match(e.message, /is not an option of/);
      return true;
    }, entry);
  }
  assert.equal(lab.liveObjects(), live, 'a refused call left a handle behind');
  dispose();
  const made = lab.createLayer(layer);  // still usable
  assert.equal(made.forward(new Float32Array(2), 1).length, 1);
  made.dispose();
});

test('loadGateLab refuses a typo in its options, naming it', async () => {
  await assert.rejects(loadGateLab({ wasmURL: 'x' }), (e) => e instanceof GateLabError && e.code === 'invalid-value'
    && e.argument === 'options.wasmURL' && /Did you mean 'wasmUrl'\?/.test(e.message));
});

test('a field states one range, the core\'s, wherever it is checked', () => {
  const { min, max } = OPTIONS.createLayer.hidden;
  assert.equal(min, 1);
  const said = (options) => {
    try {
      lab.createLayer(options);
    } catch (e) {
      return e.message;
    }
    return 'no error';
  };
  const { hidden: _missing, ...noHidden } = layer;
  for (const message of [said(noHidden), said({ ...layer, hidden: max + 1 }), said({ ...layer, hidden: 0 })]) {
    assert.match(message, new RegExp(`from ${min} to ${max}`), message);
  }
});

test('a typo close to an option is answered with the option', () => {
  assert.throws(() => lab.createLayer({ ...layer, hiden: 3 }), /Did you mean 'hidden'\?/);
  assert.throws(() => lab.createTrainer({ kind: 'gated', learningrate: 0.1 }), /Did you mean 'learningRate'\?/);
});

test('every entry point the tests call is in the catalogue, and each valid call still works', () => {
  const { cases, dispose } = typoCases();
  for (const [entry] of cases) assert.ok(OPTIONS[entry], entry);
  // loadGateLab is asynchronous: its typo case is the test below.
  const covered = new Set([...cases.map(([entry]) => entry), 'loadGateLab']);
  assert.deepEqual(Object.keys(OPTIONS).filter((entry) => !covered.has(entry)), [], 'entries without a typo case');
  dispose();
  assert.equal(lab.datasets.make('xor', { count: 8, seed: 1 }).task, 'xor');
  assert.throws(() => lab.datasets.make('moons'), (e) => e.argument === 'task');
  const curve = lab.activationCurve('relu', { min: -1, max: 1, n: 4, beta: 1 });
  assert.equal(curve.z.length, 4);
});

/** The message of a call that must throw out-of-range, naming `argument`. */
function refused(call, argument) {
  try {
    call();
  } catch (e) {
    assert.ok(e instanceof GateLabError, String(e));
    assert.equal(e.code, 'out-of-range', e.message);
    assert.equal(e.argument, argument, e.message);
    return e.message;
  }
  assert.fail(`${argument}: no error`);
}

test('an integer option just outside the catalogue\'s range is refused quoting that range, on both sides', () => {
  const corpus = lab.lm.createCorpus(corpusText);
  const cases = [
    ['race', 'steps', (v) => lab.race({ steps: v, seeds: 1 })],
    ['race', 'seeds', (v) => lab.race({ steps: 2, seeds: v })],
    ['datasets.make', 'count', (v) => lab.datasets.make('xor', { count: v })],
    ['createTrainer', 'batchSize', (v) => lab.createTrainer({ kind: 'gated', batchSize: v })],
    ['census', 'inputs', (v) => lab.census({ kinds: ['gated'], activations: ['relu'], inputs: v })],
    ['rankApprox', 'dIn', (v) => lab.rankApprox({ dIn: v })],
    ['gp', 'dx', (v) => lab.gp.sample({ dx: v })],
    ['lm.createSession', 'context', (v) => lab.lm.createSession({ corpus, d: 8, heads: 2, context: v })],
    ['lm.createSession', 'layers', (v) => lab.lm.createSession({ corpus, d: 8, heads: 2, layers: v })],
  ];
  for (const [entry, option, call] of cases) {
    const { min, max } = OPTIONS[entry][option];
    assert.ok(Number.isInteger(min) && Number.isInteger(max), `${entry}.${option} states its range`);
    for (const v of [min - 1, max + 1]) {
      const message = refused(() => call(v), `options.${option}`);
      assert.match(message, new RegExp(`from ${min} to ${max}`), `${entry}.${option}`);
    }
  }
  corpus.dispose();
  assert.equal(lab.liveObjects(), 0);
});

test('the catalogue states the ranges the core checks for every cap-limited integer option', () => {
  const stated = (entry) => Object.keys(OPTIONS[entry]).filter((k) => OPTIONS[entry][k].min !== undefined);
  for (const entry of ['cem.createAttention', 'cem.createStandardAttention']) {
    assert.deepEqual(stated(entry), ['d', 'heads', 'steps', 'beta'].filter((k) => k in OPTIONS[entry]), entry);
  }
  assert.deepEqual(stated('race').slice(0, 4), ['steps', 'seeds', 'budget', 'mlpHidden']);
  assert.deepEqual(stated('gp').filter((k) => OPTIONS.gp[k].type === 'integer'),
    ['dx', 'length', 'steps', 'd', 'layers', 'heads', 'batch']);
});

test('a default in the catalogue is what the library uses when the option is left out', () => {
  const trainer = lab.createTrainer({ kind: 'gated', data: { count: 16 } });
  for (const [name, { default: value }] of Object.entries(OPTIONS.createTrainer)) {
    if (value !== undefined) assert.equal(trainer.options[name], value, `createTrainer.${name}`);
  }
  const given = (entry, name) => OPTIONS[entry][name].default;
  assert.equal(trainer.options.data.task, given('trainer.data', 'task'));
  assert.equal(trainer.options.data.count, 16);
  // bestFactors with nothing given equals bestFactors with the catalogue's defaults given.
  const defaults = Object.fromEntries(Object.entries(OPTIONS['trainer.bestFactors']).map(([k, f]) => [k, f.default]));
  assert.deepEqual(trainer.bestFactors(), trainer.bestFactors(defaults));
  trainer.dispose();
  const made = lab.datasets.make('xor');
  assert.equal(made.xTrain.length / 2 + made.xTest.length / 2, given('datasets.make', 'count'));
  const census = { kinds: ['gated'], activations: ['relu'] };
  const censusDefaults = Object.fromEntries(['dIn', 'hidden', 'dOut', 'inputs', 'beta', 'seed', 'threshold']
    .map((k) => [k, given('census', k)]));
  assert.deepEqual(lab.census(census), lab.census({ ...census, ...censusDefaults }));
  const approxDefaults = Object.fromEntries(Object.entries(OPTIONS.rankApprox).map(([k, f]) => [k, f.default]));
  assert.deepEqual(lab.rankApprox(), lab.rankApprox(approxDefaults));
  assert.equal(lab.liveObjects(), 0);
});

test('<gatelab-lm>\'s session options name every option of lm.createSession the runner sets', () => {
  const [run] = runsOf({ models: 'swiglu,ffn-gelu', seeds: 1, seed: 3, steps: 100 });
  // corpus is given by the figure; mlpInitRms is set from the reference run, as the runner does.
  const set = Object.keys(OPTIONS['lm.createSession']).filter((k) => !['corpus', 'mlpInitRms'].includes(k));
  assert.deepEqual(Object.keys(run.options).sort(), set.sort());
  assert.deepEqual(Object.keys(run.options.mlp).sort(), ['activation', 'hidden', 'kind', 'rank', 'symmetrize']);
});
