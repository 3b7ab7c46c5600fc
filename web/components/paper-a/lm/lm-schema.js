// <gatelab-lm>'s attributes and what they ask of the library. Everything the numbers depend on
// (model, schedule, evaluation, the MLP menu) comes from the native runner's lm-figure table
// through lm-preset.js; this file only maps the figure's state onto it: the runs (model × seed),
// each run's lab.lm session options, the steps its curve is evaluated at and the key its
// checkpoints are stored under. Display-only constants (how often a sample is drawn) live here.
import { OPTIONS } from '../../../lib/catalogue.js';
import { LM_PRESET } from './lm-preset.js';

export const SETTINGS = LM_PRESET.settings;
export const VARIANTS = LM_PRESET.variants;
export const DEFAULT_MODELS = VARIANTS.slice(0, 3).map((v) => v.name);
export const MAX_MODELS = 4;
export const MAX_SEEDS = 5;
/** A sample of each model every SAMPLE_EVERY steps (and at the end); a checkpoint as often. */
export const SAMPLE_EVERY = 250;
export const CHECKPOINT_EVERY = 250;

const NAME = `(${VARIANTS.map((v) => v.name.replaceAll('.', '\\.')).join('|')})`;
const MODEL_LIST = new RegExp(`^${NAME}(,${NAME}){1,${MAX_MODELS - 1}}$`);

export const LM_SCHEMA = {
  models: { type: 'string', default: DEFAULT_MODELS.join(','), pattern: MODEL_LIST },
  seeds: { type: 'integer', default: SETTINGS.seeds, min: 1, max: MAX_SEEDS },
  seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  steps: { type: 'integer', default: SETTINGS.steps, min: SETTINGS.evalEvery, max: 20000 },
  temperature: { type: 'number', default: 0.8, min: 0.05, max: 2 },
  paused: { type: 'boolean', default: false },
};

/** A state whose models list names one variant twice keeps the first (at least two stay). */
export function normalizeLmState(state) {
  const unique = [...new Set(state.models.split(','))];
  for (const name of DEFAULT_MODELS) if (unique.length < 2 && !unique.includes(name)) unique.push(name);
  const models = unique.join(',');
  return models === state.models ? state : { ...state, models };
}

export function variantNamed(name) {
  return VARIANTS.find((v) => v.name === name) ?? null;
}

/** The state's models, as preset variants. */
export function modelsOf(state) {
  return state.models.split(',').map(variantNamed);
}

/** The seed of run s (0-based) of a figure seed: seed + s, as the native runner's jobs number them. */
export function runSeed(seed, s) {
  return (seed + s) % 4294967296;
}

/** The steps a run of `steps` steps evaluates at: every evalEvery steps, and the last (lm_curve_steps). */
export function curveSteps(steps, settings = SETTINGS) {
  const at = [];
  if (settings.evalEvery > 0) {
    for (let k = settings.evalEvery; k <= steps; k += settings.evalEvery) at.push(k);
    if (!at.length || at.at(-1) !== steps) at.push(steps);
  } else {
    for (let point = 1; point <= settings.curvePoints; point++) {
      at.push(Math.floor((steps * point) / settings.curvePoints));
    }
  }
  return at;
}

/** The first curve step after `done`, or null when the run is complete. */
export function nextCurveStep(done, steps) {
  return curveSteps(steps).find((s) => s > done) ?? null;
}

/** The fields of `source` named as options of a catalogue entry (nested objects and handles aside). */
function optionsIn(entry, source) {
  const fields = OPTIONS[entry];
  const named = Object.keys(fields)
    .filter((k) => source[k] !== undefined && !['object', 'handle'].includes(fields[k].type));
  return Object.fromEntries(named.map((k) => [k, source[k]]));
}

/**
 * The lab.lm session options (without the corpus) of `variant` at run seed `seed`: the native
 * runner's lm_job_config (cpp/experiments/experiment_lm_job.cpp). Each option of the core's catalogue
 * (lm.createSession, lm.mlp) is taken by its name from the settings and the variant, so a field the
 * runner's table gains reaches the session by name; what lm_job_config derives is derived here the
 * same way (AdamW's decay for AdamW only, the schedule's length the run's, both seeds the run's), and
 * what it leaves (mlpInitRms, set from the reference run) keeps the library's default.
 */
export function sessionOptions(variant, seed, steps, settings = SETTINGS) {
  const job = { ...settings, optimizer: variant.optimizer, learningRate: variant.learningRate,
    weightDecay: variant.optimizer === 'adamw' ? settings.weightDecay : 0, decaySteps: settings.decay ? steps : 0,
    gaugeFix: false, seed, dataSeed: seed };
  return { ...optionsIn('lm.createSession', job), mlp: optionsIn('lm.mlp', variant) };
}

/**
 * Every run of a state, model-major (model i, seed s at index i·seeds + s), so a pool's lanes
 * (lm-pool.js deals jobs out in turn) each hold the models of one seed when there are as many
 * lanes as seeds. The reference variant's options set each run's initial MLP output RMS.
 */
export function runsOf(state) {
  const reference = variantNamed(SETTINGS.reference);
  return modelsOf(state).flatMap((variant, model) => Array.from({ length: state.seeds }, (_, s) => {
    const seed = runSeed(state.seed, s);
    return { model, seedIndex: s, seed, variant, key: `${variant.name}:${seed}`,
      options: sessionOptions(variant, seed, state.steps), reference: sessionOptions(reference, seed, state.steps) };
  }));
}

/** The storage key of a state's checkpoints: everything that changes the numbers (not temperature or pause). */
export function stateKey(state, version) {
  const { models, seeds, seed, steps } = state;
  return JSON.stringify({ figure: 'gatelab-lm', version, settings: SETTINGS, models, seeds, seed, steps });
}
