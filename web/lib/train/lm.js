// lab.lm: character language models trained live (the C++ core's train/lm.hpp): a corpus built
// once from a text, and sessions that train the tiny transformer of docs/MATH.md §B10 with any
// paper-A layer in its MLP slot (§A20), in coarse calls — a batch of steps, an evaluation, a
// sample, the MLP diagnostics (§A12), a checkpoint. The same options give the same curves bit
// for bit here, in a worker, in another browser and in the native experiment runner.
import { throwCoreError } from '../core/errors.js';
import { handleOf, Owned } from '../core/handles.js';
import { boolean, fail, finiteNumber, integer, oneOf, optional, optionsOf, rangeOf, seedOf } from '../core/validate.js';

export const SPLITS = Object.freeze(['train', 'dev', 'validation']);
const MAX_STEPS_PER_CALL = 10000;

/** A text cut into train, dev and validation characters (lab.lm.createCorpus). */
export class LmCorpus extends Owned {
  constructor(core, handle, options) {
    super(core.tracker, handle, 'LM corpus');
    /** The fractions the text was cut with. */
    this.options = Object.freeze(options);
  }

  get vocabulary() {
    return handleOf(this).vocabulary();
  }

  /** The distinct characters (bytes) of the text, in the vocabulary's order. */
  get symbols() {
    return handleOf(this).symbols();
  }

  /** Characters per split: { train, dev, validation }. */
  get sizes() {
    const h = handleOf(this);
    return Object.fromEntries(SPLITS.map((s, i) => [s, h.size(i)]));
  }

  /** { uniform: log V, unigram: the add-one train frequencies scored on validation } in nats/char. */
  get baselines() {
    return handleOf(this).baselines();
  }
}

/** One model in training (lab.lm.createSession). */
export class LmSession extends Owned {
  constructor(core, handle, options) {
    super(core.tracker, handle, 'LM session');
    /** The options the session was created with, defaults filled in. */
    this.options = Object.freeze(options);
  }

  get stepsDone() {
    return handleOf(this).stepsDone();
  }

  get parameterCount() {
    return handleOf(this).parameterCount();
  }

  /** True once a step was not finite; train() then refuses to go on. */
  get diverged() {
    return handleOf(this).diverged();
  }

  /** Runs n steps (at most 10,000 a call); returns their mean train cross-entropies (nats per character). */
  train(n = 1) {
    const handle = handleOf(this);
    integer('n', n, { min: 0, max: MAX_STEPS_PER_CALL });
    const before = handle.stepsDone();
    throwCoreError(handle.train(n), { argument: 'n', fields: [] });
    return handle.losses(before);
  }

  /** Every step's mean train cross-entropy so far. */
  losses() {
    return handleOf(this).losses(0);
  }

  /** Mean cross-entropy on `windows` fixed windows of a split (0: all of them), nats per character. */
  evaluate(split = 'validation', windows = 64) {
    const handle = handleOf(this);
    const s = SPLITS.indexOf(oneOf('split', split, SPLITS));
    const r = handle.evaluate(s, integer('windows', windows, { min: 0, max: 2 ** 31 - 1 }));
    throwCoreError(r.error, { argument: 'split', fields: [] });
    return r.value;
  }

  /** `count` characters sampled after the first context characters of the validation text. */
  sample({ count = 200, temperature = 0.8, seed = 1 } = {}) {
    const handle = handleOf(this);
    const t = finiteNumber('temperature', temperature);
    const r = handle.sample(integer('count', count, { min: 0, max: 100000 }), t, seedOf('seed', seed));
    throwCoreError(r.error, { argument: 'temperature', fields: [] });
    return r.text;
  }

  /** Per block, on `windows` windows of a split: the MLP diagnostics of docs/MATH.md §A12. */
  diagnostics(split = 'validation', windows = 8) {
    const handle = handleOf(this);
    const s = SPLITS.indexOf(oneOf('split', split, SPLITS));
    const { error, values: flat } = handle.diagnostics(s, integer('windows', windows, { min: 0, max: 2 ** 31 - 1 }));
    throwCoreError(error, { argument: 'split', fields: [] });
    const blocks = [];
    for (let at = 0; at + 9 <= flat.length; at += 9) {
      blocks.push({ antisymmetricShare: flat[at], exchangeGap: flat[at + 1], qkBalance: flat[at + 2],
        qkDrift: flat[at + 3], preactivationQuantiles: Array.from(flat.slice(at + 4, at + 9)) });
    }
    return blocks;
  }

  /** The RMS of block l's MLP output on the first `batch` train windows (what mlpInitRms matches). */
  mlpOutputRms(block = 0) {
    return handleOf(this).mlpOutputRms(integer('block', block, { min: 0, max: this.options.layers - 1 }));
  }

  /** Everything training changed, as bytes: restore() into a session of the same options resumes bit for bit. */
  checkpoint() {
    return handleOf(this).checkpoint();
  }

  restore(bytes) {
    const handle = handleOf(this);
    if (!(bytes instanceof Uint8Array)) fail('bytes', 'a Uint8Array from checkpoint()', bytes, 'invalid-type');
    throwCoreError(handle.restore(bytes), { argument: 'bytes', fields: [] });
  }
}

const DEFAULTS = Object.freeze({ d: 32, layers: 2, heads: 4, context: 32, batch: 8, optimizer: 'adamw',
  learningRate: 4e-3, weightDecay: 0.1, clipNorm: 1, momentum: 0.9, warmup: 50, decaySteps: 0, mlpInitRms: 0,
  gaugeFix: false });

function mlpOptions(core, mlp, d) {
  const o = optionsOf('options.mlp', mlp ?? {}, 'lm.mlp');
  const kind = optional(o.kind, 'gated', (v) => oneOf('options.mlp.kind', v, core.kinds));
  const activation = optional(o.activation, 'silu', (v) => oneOf('options.mlp.activation', v, core.activations));
  const rank = kind === 'mlp' ? 1 : optional(o.rank, 1, (v) => integer('options.mlp.rank', v));
  const symmetrize = optional(o.symmetrize, 0, (v) => finiteNumber('options.mlp.symmetrize', v));
  const budget = optional(o.budget, undefined, (v) => integer('options.mlp.budget', v));
  const hidden = o.hidden !== undefined ? integer('options.mlp.hidden', o.hidden)
    : core.module._lmHiddenForBudget(kind, rank, d, budget ?? 6 * d * d);
  const beta = activation === 'swish' ? { beta: finiteNumber('options.mlp.beta', o.beta ?? 1) } : {};
  return { kind, activation, rank, symmetrize, hidden, ...beta };
}

export function installLm(core) {
  const m = core.module;
  const { optimizers } = core;
  return Object.freeze({
    splits: SPLITS,
    optimizers,
    limits: Object.freeze({ maxContext: m._lmMaxContext, maxBatch: m._lmMaxBatch,
      maxStepsPerCall: MAX_STEPS_PER_CALL }),

    /** Cuts text into train (the first 1 − dev − validation), dev and validation characters. */
    createCorpus(text, options) {
      if (typeof text !== 'string') fail('text', 'a string', text, 'invalid-type');
      const o = optionsOf('options', options ?? {}, 'lm.createCorpus');
      const dev = optional(o.devFraction, 0.05, (v) => finiteNumber('options.devFraction', v));
      const val = optional(o.validationFraction, 0.05, (v) => finiteNumber('options.validationFraction', v));
      const handle = new m.LmCorpus(text, dev, val);
      const error = handle.error();
      if (error.code !== 'ok') {
        handle.delete();
        // The core names the field: the text (too short) or one of the fractions.
        throwCoreError(error, error.field === 'text' ? { argument: 'text', fields: [] }
          : { argument: 'options', prefix: 'options', fields: ['devFraction', 'validationFraction'] });
      }
      return new LmCorpus(core, handle, { devFraction: dev, validationFraction: val });
    },

    /** The MLP width that spends `budget` parameters per block on a d → d layer (docs/MATH.md §A20). */
    hiddenForBudget(options) {
      const o = optionsOf('options', options, 'lm.hiddenForBudget');
      const kind = optional(o.kind, 'gated', (v) => oneOf('options.kind', v, core.kinds));
      return m._lmHiddenForBudget(kind, optional(o.rank, 1, (v) => integer('options.rank', v)),
        integer('options.d', o.d), integer('options.budget', o.budget));
    },

    /** A model in training on a corpus; see train.d.ts for the options and their defaults. */
    createSession(options) {
      const o = optionsOf('options', options, 'lm.createSession');
      if (!(o.corpus instanceof LmCorpus)) {
        fail('options.corpus', 'a corpus made by lab.lm.createCorpus', o.corpus, 'invalid-type');
      }
      const range = (name) => rangeOf('lm.createSession', name);
      const d = optional(o.d, DEFAULTS.d, (v) => integer('options.d', v, range('d')));
      const mlp = mlpOptions(core, o.mlp, d);
      const num = (name) => optional(o[name], DEFAULTS[name], (v) => finiteNumber(`options.${name}`, v));
      const int = (name) => optional(o[name], DEFAULTS[name],
        (v) => integer(`options.${name}`, v, { min: 0, ...range(name) }));
      const resolved = { d, layers: int('layers'), heads: int('heads'), mlp, context: int('context'),
        batch: int('batch'),
        optimizer: optional(o.optimizer, DEFAULTS.optimizer, (v) => oneOf('options.optimizer', v, optimizers)),
        learningRate: num('learningRate'), weightDecay: num('weightDecay'), clipNorm: num('clipNorm'),
        momentum: num('momentum'), warmup: int('warmup'), decaySteps: int('decaySteps'), mlpInitRms: num('mlpInitRms'),
        gaugeFix: optional(o.gaugeFix, DEFAULTS.gaugeFix, (v) => boolean('options.gaugeFix', v)),
        seed: seedOf('options.seed', o.seed ?? 1), dataSeed: seedOf('options.dataSeed', o.dataSeed ?? o.seed ?? 1) };
      const raw = { d, layers: resolved.layers, heads: resolved.heads, hidden: mlp.hidden, kind: mlp.kind,
        activation: mlp.activation, rank: mlp.rank, symmetrize: mlp.symmetrize, beta: mlp.beta ?? 1,
        context: resolved.context, batch: resolved.batch, optimizer: resolved.optimizer,
        learningRate: resolved.learningRate, weightDecay: resolved.weightDecay, clipNorm: resolved.clipNorm,
        momentum: resolved.momentum, mlpInitRms: resolved.mlpInitRms, warmup: resolved.warmup,
        decaySteps: resolved.decaySteps,
        seed: resolved.seed, dataSeed: resolved.dataSeed, gaugeFix: resolved.gaugeFix };
      throwCoreError(m._lmValidateSession(raw, handleOf(o.corpus)), { argument: 'options', fields: [] });
      const { corpus: _corpus, ...rest } = resolved;  // the session's options, without the corpus handle
      return new LmSession(core, m._lmCreateSession(raw, handleOf(o.corpus)), rest);
    },
  });
}
