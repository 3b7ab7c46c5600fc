// lab.lm in Node: a corpus and its splits, a session that learns (loss below the unigram
// baseline), the same options giving the same curve twice, checkpoints that resume bit for bit,
// the diagnostics (symgated has no antisymmetric part), the budget rule, refusals with codes,
// and no leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OPTIONS } from '../../../web/lib/catalogue.js';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const text = readFileSync(new URL('../../../data/lm/sotu-1790-1880.txt', import.meta.url), 'utf8').slice(0, 120000);
const small = { d: 16, layers: 1, heads: 2, context: 16, batch: 4, warmup: 5, learningRate: 0.01 };

test('the optimizers are the core\'s list, each one a session accepts', () => {
  assert.deepEqual(lab.lm.optimizers, ['sgd', 'momentum', 'adam', 'adamw'], 'train/optimizer.hpp, in its order');
  const corpus = lab.lm.createCorpus(text.slice(0, 20000));
  for (const optimizer of lab.lm.optimizers) lab.lm.createSession({ ...small, corpus, optimizer }).dispose();
  corpus.dispose();
});

test('a corpus: splits, vocabulary and baselines', () => {
  const corpus = lab.lm.createCorpus(text, { devFraction: 0.05, validationFraction: 0.1 });
  const { train, dev, validation } = corpus.sizes;
  assert.equal(train + dev + validation, 120000);
  assert.equal(validation, 12000);
  assert.equal(dev, 6000);
  assert.equal(corpus.symbols.length, corpus.vocabulary);
  assert.ok(corpus.baselines.unigram < corpus.baselines.uniform);
  assert.equal(corpus.baselines.uniform, Math.log(corpus.vocabulary));
  corpus.dispose();
});

test('a session learns, replays bit for bit, and resumes from a checkpoint', () => {
  const corpus = lab.lm.createCorpus(text);
  const a = lab.lm.createSession({ corpus, ...small });
  const b = lab.lm.createSession({ corpus, ...small });
  const before = a.evaluate('validation', 0);
  const losses = a.train(150);
  assert.equal(losses.length, 150);
  assert.ok(a.evaluate('validation', 0) < corpus.baselines.unigram, 'below the unigram baseline');
  assert.ok(a.evaluate('validation', 0) < before);
  assert.deepEqual(b.train(150), losses, 'the same options give the same curve');
  const c = lab.lm.createSession({ corpus, ...small });
  c.train(100);
  const bytes = c.checkpoint();
  const resumed = lab.lm.createSession({ corpus, ...small });
  resumed.restore(bytes);
  assert.equal(resumed.stepsDone, 100);
  assert.deepEqual(resumed.train(50), losses.slice(100), 'resumed bit for bit');
  assert.equal(a.sample({ count: 30, seed: 3 }).length, 30);
  assert.equal(a.sample({ count: 30, seed: 3 }), a.sample({ count: 30, seed: 3 }));
  for (const s of [a, b, c, resumed]) s.dispose();
  corpus.dispose();
});

test('diagnostics: symgated keeps no antisymmetric part; the budget rule gives equal MLPs', () => {
  const corpus = lab.lm.createCorpus(text);
  const gated = lab.lm.createSession({ corpus, ...small, mlp: { kind: 'gated', activation: 'silu', budget: 768 } });
  const symgated = lab.lm.createSession({ corpus, ...small,
    mlp: { kind: 'gated', activation: 'silu', symmetrize: 1, budget: 768 } });
  const ffn = lab.lm.createSession({ corpus, ...small, mlp: { kind: 'mlp', activation: 'gelu', budget: 768 } });
  assert.equal(gated.options.mlp.hidden, 16);
  assert.equal(ffn.options.mlp.hidden, 24);
  assert.equal(gated.parameterCount, ffn.parameterCount);
  gated.train(10);
  symgated.train(10);
  const [g] = gated.diagnostics('validation', 4);
  const [s] = symgated.diagnostics('validation', 4);
  assert.ok(g.antisymmetricShare > 0.05 && g.exchangeGap > 1e-3);
  assert.ok(Math.abs(s.antisymmetricShare) < 1e-12 && s.exchangeGap < 1e-6);
  assert.ok(Number.isNaN(ffn.diagnostics('validation', 4)[0].antisymmetricShare), 'an FFN has no gate');
  assert.equal(lab.lm.hiddenForBudget({ kind: 'symmetric', rank: 2, d: 64, budget: 24576 }), 77);
  for (const x of [gated, symgated, ffn]) x.dispose();
  corpus.dispose();
});

test('the defaults are the core\'s, as the catalogue states them', () => {
  const corpus = lab.lm.createCorpus(text);
  const s = lab.lm.createSession({ corpus });
  const stated = OPTIONS['lm.createSession'];
  for (const [name, value] of Object.entries(s.options)) {
    if (name === 'mlp' || name === 'dataSeed') continue;
    assert.equal(value, stated[name].default, name);
  }
  for (const name of ['kind', 'activation', 'rank', 'symmetrize']) {
    assert.equal(s.options.mlp[name], OPTIONS['lm.mlp'][name].default, `mlp.${name}`);
  }
  assert.equal(s.options.dataSeed, s.options.seed, 'the data seed follows the seed');
  assert.equal(s.options.mlp.hidden, lab.lm.hiddenForBudget({ d: s.options.d, budget: 6 * s.options.d ** 2 }));
  assert.deepEqual(corpus.options, { devFraction: OPTIONS['lm.createCorpus'].devFraction.default,
    validationFraction: OPTIONS['lm.createCorpus'].validationFraction.default });
  s.dispose();
  corpus.dispose();
});

test('bad input: a GateLabError naming the argument, with a code; the module stays usable; no leaks', () => {
  const live = lab.liveObjects();
  const corpus = lab.lm.createCorpus(text);
  const refuse = (fn, argument, code) => assert.throws(fn, (e) => e instanceof GateLabError && e.argument === argument
    && e.code === code, `${argument} ${code}`);
  refuse(() => lab.lm.createCorpus(42), 'text', 'invalid-type');
  refuse(() => lab.lm.createCorpus('too short'), 'text', 'out-of-range');
  refuse(() => lab.lm.createSession({ corpus: {}, ...small }), 'options.corpus', 'invalid-type');
  refuse(() => lab.lm.createSession({ corpus, ...small, mlp: { kind: 'nope' } }), 'options.mlp.kind', 'invalid-value');
  refuse(() => lab.lm.createSession({ corpus, ...small, optimizer: 'rmsprop' }), 'options.optimizer', 'invalid-value');
  // The core's checks name the option by the API's path, not a bare 'options'.
  refuse(() => lab.lm.createSession({ corpus, ...small, heads: 3 }), 'options.heads', 'invalid-value');
  refuse(() => lab.lm.createSession({ corpus, ...small, mlp: { hidden: 100000 } }), 'options.mlp.hidden',
    'out-of-range');
  // One range wherever hidden is checked: the layer's, stated alike for 0 and for too many units; a rank
  // beyond d is refused as the rank, not as the width the budget would give it.
  const stated = (hidden) => {
    try {
      lab.lm.createSession({ corpus, ...small, mlp: { hidden } });
    } catch (e) {
      return e.argument === 'options.mlp.hidden' && e.message.match(/from \d+ to \d+/)?.[0];
    }
    return null;
  };
  assert.equal(stated(0), 'from 1 to 4096');
  assert.equal(stated(100000), 'from 1 to 4096');
  refuse(() => lab.lm.createSession({ corpus, ...small, mlp: { rank: 100 } }), 'options.mlp.rank', 'out-of-range');
  refuse(() => lab.lm.createSession({ corpus, ...small, mlp: { kind: 'mlp', symmetrize: 0.5 } }),
    'options.mlp.symmetrize', 'unsupported');
  refuse(() => lab.lm.createSession({ corpus, ...small, learningRate: -1 }), 'options.learningRate', 'out-of-range');
  refuse(() => lab.lm.createSession({ corpus, ...small, mlpInitRms: 2000 }), 'options.mlpInitRms', 'out-of-range');
  const short = lab.lm.createCorpus('abcdefghij'.repeat(200));
  refuse(() => lab.lm.createSession({ corpus: short, ...small, context: 1000 }), 'options.context', 'invalid-value');
  short.dispose();
  const s = lab.lm.createSession({ corpus, ...small });
  refuse(() => s.train(-1), 'n', 'out-of-range');
  refuse(() => s.evaluate('test'), 'split', 'invalid-value');
  refuse(() => s.restore(new Uint8Array(3)), 'bytes', 'invalid-value');
  s.dispose();
  refuse(() => s.train(1), 'this', 'disposed');
  corpus.dispose();
  assert.equal(lab.liveObjects(), live);
});
