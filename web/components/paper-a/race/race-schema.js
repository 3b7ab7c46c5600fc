// The race figure's attributes and what they ask of the worker. Kept apart from the element so
// the schema (every attribute, its default and its limits) reads as one table, and so the
// mapping from attributes to a raceStart request (paper-a-tasks.js) can be read and changed in
// one place without the element's lifecycle around it.
import { NAMES, OPTIONS } from '../../../lib/catalogue.js';
import { kindActivationPattern } from '../../base/labels.js';
import { pointArrays, POINT_EXTENT, POINTS_PATTERN } from './user-points.js';

/** Cells per side of each model's decision grid. */
export const GRID = 40;
/** The data square is [−EXTENT, EXTENT]². */
export const EXTENT = POINT_EXTENT;
const MODEL = kindActivationPattern();
// A race model may end in ':λ', its symmetrize in [0, 1] ('gated:silu:1', 'gated:silu:0.25'; docs/MATH.md §A11).
const RACE_MODEL = `${MODEL}(:(0(\\.\\d{1,6})?|1(\\.0{1,6})?|\\.\\d{1,6}))?`;
const MODEL_LIST = new RegExp(`^${RACE_MODEL}(,${RACE_MODEL}){0,15}$`);

// The defaults lab.race takes when an option is left out are the core's (web/lib/catalogue.js); the
// figure's own are the task (xor: a race separates the models within seconds on it), the shorter run
// (500 steps, so a race ends in seconds) and the sliders' narrower limits.
const RACE = OPTIONS.race, DATA = OPTIONS['datasets.make'], TEACHER = OPTIONS['datasets.teacher'];

export const RACE_SCHEMA = {
  task: { type: 'enum', default: 'xor', values: NAMES.tasks },
  teacher: { type: 'string', default: `${TEACHER.kind.default}:${TEACHER.activation.default}`,
    pattern: new RegExp(`^${MODEL}$`) },
  points: { type: 'string', default: '', pattern: POINTS_PATTERN },
  count: { type: 'integer', default: DATA.count.default, min: 20, max: 2000 },
  noise: { type: 'number', default: DATA.noise.default, min: DATA.noise.min, max: DATA.noise.max },
  split: { type: 'number', default: DATA.trainFraction.default, min: 0.05, max: 0.95 },
  batch: { type: 'integer', default: RACE.batchSize.default, min: 0, max: 1024 },
  loss: { type: 'enum', default: RACE.loss.default, values: NAMES.losses },
  optimizer: { type: 'enum', default: RACE.optimizer.default, values: NAMES.trainerOptimizers },
  learningRate: { type: 'number', default: RACE.learningRate.default, min: 1e-5, max: 100 },
  steps: { type: 'integer', default: 500, min: 10, max: 20000 },
  seeds: { type: 'integer', default: RACE.seeds.default, min: 1, max: 8 },
  seed: { type: 'integer', default: RACE.seed.default, min: 0, max: 4294967295 },
  models: { type: 'string', default: 'mlp:relu,symmetric:relu,gated:relu,gated:gelu,gated:silu,'
    + 'gated:sigmoid,gated:identity',
    pattern: MODEL_LIST },
  width: { type: 'enum', default: RACE.widthRule.default, values: NAMES.widthRules },
  budget: { type: 'integer', default: RACE.budget.default, min: 16, max: 4096 },
  mlpHidden: { type: 'integer', default: RACE.mlpHidden.default, min: 2, max: 256 },
};

/**
 * The raceStart request for the figure's state: models whose activation the library does not
 * know, or with a symmetrize λ on a kind other than 'gated', are dropped (SwiGLU stands in when
 * none is left), and an unknown teacher activation becomes ReLU.
 * @param {object} st the figure's state
 * @param {string[]} activations the library's activation names (lab.activations)
 * @param {{ x: number, y: number, label: number }[]} userPoints the points of the `points` attribute
 */
export function raceRequest(st, activations, userPoints) {
  const models = st.models.split(',').map((key) => {
    const [kind, activation, lambda] = key.split(':');
    return lambda === undefined ? { kind, activation } : { kind, activation, symmetrize: Number(lambda) };
  }).filter((m) => activations.includes(m.activation) && (!m.symmetrize || m.kind === 'gated'));
  const data = { task: st.task, count: st.count, noise: st.noise, trainFraction: st.split, seed: st.seed };
  if (st.task === 'teacher') {
    const [kind, activation] = st.teacher.split(':');
    data.teacher = { kind, activation: activations.includes(activation) ? activation : 'relu' };
  }
  if (st.task === 'user') data.points = pointArrays(userPoints);
  return {
    models: models.length ? models : [{ kind: 'gated', activation: 'silu' }],
    widthRule: st.width, budget: st.budget, mlpHidden: st.mlpHidden, seeds: st.seeds,
    train: { seed: st.seed, loss: st.loss, optimizer: st.optimizer, learningRate: st.learningRate,
      batchSize: st.batch, evalEvery: Math.max(1, Math.ceil(st.steps / 100)) },
    data, gridSize: GRID, extent: EXTENT,
  };
}
