// lab.lm: character language models trained live (the C++ core's train/lm.hpp): a corpus built
// once from a text, and sessions that train the tiny transformer of docs/MATH.md §B10 with any
// paper-A layer in its MLP slot (§A20), in coarse calls — a batch of steps, an evaluation, a
// sample, the MLP diagnostics (§A12), a checkpoint. The same options give the same curves bit
// for bit here, in a worker, in another browser and in the native experiment runner.
import { OPTIONS } from '../catalogue.js';
import { throwCoreError } from '../core/errors.js';
import { handleOf, Owned } from '../core/handles.js';
import { boolean, defaultOf, fail, finiteNumber, integer, oneOf, optional, optionsOf, rangeOf, seedOf }
  from '../core/validate.js';

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

// Every default is the core's (LmApiDefaults in train/lm.hpp), read from the catalogue.
const SESSION = 'lm.createSession';
const MLP = 'lm.mlp';

// The option paths a session's core status may name, in the API's names (the MLP's nested under mlp).
const SESSION_FIELDS = Object.freeze([...Object.keys(OPTIONS[SESSION]).filter((k) => k !== 'mlp'),
  ...Object.keys(OPTIONS[MLP]).map((k) => `mlp.${k}`)]);

/**
 * The core names a field by its config's path (model.attention.heads, model.mlp.hidden,
 * optimizer.learningRate); the API's options are flat except for mlp, so the path is mapped here.
 */
function sessionStatus(status) {
  const field = (status.field ?? '').replace(/^model\.(attention\.)?/, '').replace(/^optimizer\./, '');
  return { ...status, field };
}

function mlpOptions(core, mlp, d) {
  const o = optionsOf('options.mlp', mlp ?? {}, 'lm.mlp');
  const kind = optional(o.kind, defaultOf(MLP, 'kind'), (v) => oneOf('options.mlp.kind', v, core.kinds));
  const activation = optional(o.activation, defaultOf(MLP, 'activation'),
    (v) => oneOf('options.mlp.activation', v, core.activations));
  // The layer's ranges: rank from 1 to d_in = d, hidden the catalogue's (one range wherever it is checked).
  const rank = kind === 'mlp' ? 1
    : optional(o.rank, defaultOf(MLP, 'rank'), (v) => integer('options.mlp.rank', v, { min: 1, max: d }));
  const symmetrize = optional(o.symmetrize, defaultOf(MLP, 'symmetrize'),
    (v) => finiteNumber('options.mlp.symmetrize', v));
  const budget = optional(o.budget, undefined, (v) => integer('options.mlp.budget', v));
  const hidden = o.hidden !== undefined ? integer('options.mlp.hidden', o.hidden, rangeOf(MLP, 'hidden'))
    : core.module._lmHiddenForBudget(kind, rank, d, budget ?? 6 * d * d);
  const beta = activation === 'swish' ? { beta: finiteNumber('options.mlp.beta', o.beta ?? defaultOf(MLP, 'beta')) }
    : {};
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
      const fraction = (name) => optional(o[name], defaultOf('lm.createCorpus', name),
        (v) => finiteNumber(`options.${name}`, v));
      const dev = fraction('devFraction');
      const val = fraction('validationFraction');
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
      const kind = optional(o.kind, defaultOf('lm.hiddenForBudget', 'kind'),
        (v) => oneOf('options.kind', v, core.kinds));
      const rank = optional(o.rank, defaultOf('lm.hiddenForBudget', 'rank'), (v) => integer('options.rank', v));
      return m._lmHiddenForBudget(kind, rank,
        integer('options.d', o.d), integer('options.budget', o.budget));
    },

    /** A model in training on a corpus; see train.d.ts for the options and their defaults. */
    createSession(options) {
      const o = optionsOf('options', options, 'lm.createSession');
      if (!(o.corpus instanceof LmCorpus)) {
        fail('options.corpus', 'a corpus made by lab.lm.createCorpus', o.corpus, 'invalid-type');
      }
      const range = (name) => rangeOf(SESSION, name);
      const d = optional(o.d, defaultOf(SESSION, 'd'), (v) => integer('options.d', v, range('d')));
      const mlp = mlpOptions(core, o.mlp, d);
      const num = (name) => optional(o[name], defaultOf(SESSION, name), (v) => finiteNumber(`options.${name}`, v));
      const int = (name) => optional(o[name], defaultOf(SESSION, name),
        (v) => integer(`options.${name}`, v, { min: 0, ...range(name) }));
      const resolved = { d, layers: int('layers'), heads: int('heads'), mlp, context: int('context'),
        batch: int('batch'),
        optimizer: optional(o.optimizer, defaultOf(SESSION, 'optimizer'),
          (v) => oneOf('options.optimizer', v, optimizers)),
        learningRate: num('learningRate'), weightDecay: num('weightDecay'), clipNorm: num('clipNorm'),
        momentum: num('momentum'), warmup: int('warmup'), decaySteps: int('decaySteps'), mlpInitRms: num('mlpInitRms'),
        gaugeFix: optional(o.gaugeFix, defaultOf(SESSION, 'gaugeFix'), (v) => boolean('options.gaugeFix', v)),
        seed: seedOf('options.seed', o.seed, defaultOf(SESSION, 'seed')),
        dataSeed: seedOf('options.dataSeed', o.dataSeed ?? o.seed, defaultOf(SESSION, 'seed')) };
      // The MLP slot's options go to the core as lab.createLayer's do (one reader for both).
      const raw = { d, layers: resolved.layers, heads: resolved.heads,
        mlp: { ...mlp, beta: mlp.beta ?? defaultOf(MLP, 'beta') },
        context: resolved.context, batch: resolved.batch, optimizer: resolved.optimizer,
        learningRate: resolved.learningRate, weightDecay: resolved.weightDecay, clipNorm: resolved.clipNorm,
        momentum: resolved.momentum, mlpInitRms: resolved.mlpInitRms, warmup: resolved.warmup,
        decaySteps: resolved.decaySteps,
        seed: resolved.seed, dataSeed: resolved.dataSeed, gaugeFix: resolved.gaugeFix };
      throwCoreError(sessionStatus(m._lmValidateSession(raw, handleOf(o.corpus))),
        { argument: 'options', prefix: 'options', fields: SESSION_FIELDS });
      const { corpus: _corpus, ...rest } = resolved;  // the session's options, without the corpus handle
      return new LmSession(core, m._lmCreateSession(raw, handleOf(o.corpus)), rest);
    },
  });
}
