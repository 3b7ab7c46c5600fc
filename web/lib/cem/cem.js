// lab.cem: paper B, Causal Energy Minimization (docs/MATH.md §B). A layer is T preconditioned
// gradient steps on a conditional energy: CEM attention (tied multi-head attention, §B2, with
// the diagonal-plus-low-rank interaction of §B4) and the tied gated MLP (§B3), both with the
// preconditioner of §B5 and recursion (§B6); plus the standard baselines they are compared with
// (untied attention and the gated MLP) and the standard layer a tied one equals. Every number is
// computed by the C++ core (cpp/bindings/bind_cem.cpp); this file validates the options and
// makes the wrappers (layers.js). Types: cem.d.ts.
import { NAMES, OPTIONS as CATALOGUE } from '../catalogue.js';
import { throwCoreError } from '../core/errors.js';
import { handleOf } from '../core/handles.js';
import { defaultOf, fail, oneOf, optionsOf, seedOf } from '../core/validate.js';
import { CemAttention, CemMlp, float32, GatedMlp, StandardAttention } from './layers.js';

export const CEM_DIAGONALS = NAMES.diagonals;
export const CEM_PRECONDS = NAMES.preconditioners;

// The options the core may name in a validation message: every maker's, from the catalogue.
const MAKERS = ['cem.createAttention', 'cem.createMlp', 'cem.createStandardAttention', 'cem.createGatedMlp'];
const OPTIONS = { argument: 'options', fields: [...new Set(MAKERS.flatMap((entry) => Object.keys(CATALOGUE[entry])))] };

/** An option's value, or the core's default for the maker (the catalogue's) when it is left out. */
const given = (o, entry, name, check) => (o[name] === undefined ? defaultOf(entry, name) : check(name, o[name]));

/** A JS number Embind can pass as a C++ int without truncating it (ranges: C++ validate()). */
function int32(argument, value) {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 2 ** 31 - 1) {
    const code = typeof value !== 'number' ? 'invalid-type' : !Number.isFinite(value) ? 'not-finite'
      : Number.isInteger(value) ? 'out-of-range' : 'invalid-type';
    fail(argument, 'an integer', value, code);
  }
  return value;
}

/** β of an attention: undefined means the core's default 1/√(d/heads), passed as 0. */
function attentionBeta(o) {
  if (o.beta === undefined) return 0;
  float32('beta', o.beta);
  if (!(o.beta > 0)) fail('beta', 'a positive number (leave it undefined for 1/√(d/heads))', o.beta, 'out-of-range');
  return o.beta;
}

/** Installs lab.cem; called once when the lab is assembled. */
export function installCem(core) {
  const m = core.module;

  const activationOptions = (o, entry) => {
    const activation = core.activations[core.activationIndex(o.activation ?? defaultOf(entry, 'activation'))];
    const beta = given(o, entry, 'beta', float32);
    if (o.beta !== undefined && activation !== 'swish') {
      fail('beta', `given only for activation 'swish' (activation is '${activation}')`, o.beta, 'unsupported');
    }
    return { activation, beta };
  };

  const precondOptions = (o, entry, d) => {
    const precond = given(o, entry, 'precond', (name, v) => oneOf(name, v, CEM_PRECONDS));
    const rank = o.precondRank === undefined ? m._cemDefaultPrecondRank(precond, d)
      : int32('precondRank', o.precondRank);
    return { precond, precondRank: rank };
  };

  const checkLayer = (argument, value, type, maker) => {
    if (!(value instanceof type)) fail(argument, `a ${type.label} made by lab.cem.${maker}`, value, 'invalid-type');
    return handleOf(value);  // throws when disposed
  };

  // The tie helpers refuse a layer that is not one standard layer: the request is unsupported.
  const tieProblem = (problem, argument) => throwCoreError(problem, { argument, fields: [] });

  return Object.freeze({
    /** Diagonal options of createAttention. */
    diagonals: CEM_DIAGONALS,
    /** Preconditioner options of createAttention and createMlp. */
    preconditioners: CEM_PRECONDS,
    limits: Object.freeze({ maxD: m._cemMaxD, maxRows: m._cemMaxRows, maxSteps: m._cemMaxSteps,
      maxHeads: m._cemMaxHeads, maxHidden: m._cemMaxHidden, maxRank: m._cemMaxRank, maxEta: m._cemMaxEta,
      maxBeta: m._cemMaxBeta, maxGrid: m._cemMaxGrid, maxTensorFloats: m._cemMaxTensorFloats,
      maxSpectrumDim: m._cemMaxSpectrumDim }),

    /** CEM attention; see cem.d.ts for the options. Dispose it when done. */
    createAttention(options) {
      const entry = 'cem.createAttention';
      const o = optionsOf('options', options, entry);
      const d = int32('d', o.d);
      const config = {
        d,
        heads: given(o, entry, 'heads', int32),
        steps: given(o, entry, 'steps', int32),
        eta: given(o, entry, 'eta', float32),
        beta: attentionBeta(o),
        diagonal: given(o, entry, 'diagonal', (name, v) => oneOf(name, v, CEM_DIAGONALS)),
        ...precondOptions(o, entry, d),
        seed: seedOf('seed', o.seed, defaultOf(entry, 'seed')),
      };
      throwCoreError(m._validateCemAttentionOptions(config), OPTIONS);
      return new CemAttention(core, m._createCemAttention(config), config);
    },

    /** The tied gated MLP; see cem.d.ts for the options. Dispose it when done. */
    createMlp(options) {
      const entry = 'cem.createMlp';
      const o = optionsOf('options', options, entry);
      const d = int32('d', o.d);
      const { activation, beta } = activationOptions(o, entry);
      const config = {
        d,
        hidden: int32('hidden', o.hidden),
        steps: given(o, entry, 'steps', int32),
        eta: given(o, entry, 'eta', float32),
        activation,
        activationBeta: beta,
        ...precondOptions(o, entry, d),
        seed: seedOf('seed', o.seed, defaultOf(entry, 'seed')),
      };
      throwCoreError(m._validateCemMlpOptions(config), OPTIONS);
      const { activationBeta, ...rest } = config;
      const layerOptions = activation === 'swish' ? { ...rest, beta: activationBeta } : rest;
      return new CemMlp(core, m._createCemMlp(config), layerOptions);
    },

    /** Standard (untied) causal multi-head attention: W_Q, W_K, W_V, W_O, 4d² parameters. */
    createStandardAttention(options) {
      const entry = 'cem.createStandardAttention';
      const o = optionsOf('options', options, entry);
      const config = { d: int32('d', o.d), heads: given(o, entry, 'heads', int32), beta: attentionBeta(o),
        seed: seedOf('seed', o.seed, defaultOf(entry, 'seed')) };
      throwCoreError(m._validateCemStdAttentionOptions(config), OPTIONS);
      return new StandardAttention(core, m._createCemStdAttention(config), config);
    },

    /** The gated MLP (SwiGLU with activation 'silu'): W_gate, W_up, W_down, 3dM parameters. */
    createGatedMlp(options) {
      const entry = 'cem.createGatedMlp';
      const o = optionsOf('options', options, entry);
      const { activation, beta } = activationOptions(o, entry);
      const config = { d: int32('d', o.d), hidden: int32('hidden', o.hidden), activation, activationBeta: beta,
        seed: seedOf('seed', o.seed, defaultOf(entry, 'seed')) };
      throwCoreError(m._validateCemGatedMlpOptions(config), OPTIONS);
      const { activationBeta, ...rest } = config;
      const layerOptions = activation === 'swish' ? { ...rest, beta: activationBeta } : rest;
      return new GatedMlp(core, m._createCemGatedMlp(config), layerOptions);
    },

    /**
     * The standard attention a one-step CEM attention is (docs/MATH.md §B2): W_Q and W_K copied,
     * W_V = W_K, W_O = η W_Qᵀ, so that h + standard.forward(h) equals attention.forward(h).
     * Needs steps 1, diagonal 'none' and precond 'none'. A new object: dispose it.
     */
    asStandardAttention(attention) {
      const handle = checkLayer('attention', attention, CemAttention, 'createAttention');
      tieProblem(m._cemAttentionTieProblem(handle), 'attention');
      const { d, heads, beta, seed } = attention.options;
      return new StandardAttention(core, m._cemStandardFromTied(handle), { d, heads, beta, seed });
    },

    /**
     * The gated MLP a one-step CEM MLP is (docs/MATH.md §B3): W_gate = W, W_up = U, W_down = η Wᵀ,
     * so that h + gated.forward(h) equals mlp.forward(h). Needs steps 1 and precond 'none'.
     */
    asGatedMlp(mlp) {
      const handle = checkLayer('mlp', mlp, CemMlp, 'createMlp');
      tieProblem(m._cemMlpTieProblem(handle), 'mlp');
      const { d, hidden, activation, seed, beta } = mlp.options;
      const options = activation === 'swish' ? { d, hidden, activation, beta, seed } : { d, hidden, activation, seed };
      return new GatedMlp(core, m._cemGatedFromTied(handle), options);
    },
  });
}
