// Option parsing for the training API (datasets, trainers, the race): every field is
// type-checked here with the name the caller wrote (options.data.count, options.learningRate
// …), defaults are filled in, and the result is the plain object the Embind value_objects
// expect. Ranges and caps are then checked again by the C++ core, which owns them.
import { NAMES } from '../catalogue.js';
import { GateLabError } from '../core/errors.js';
import {
  boolean, defaultOf, fail, finiteNumber, floatArray, integer, oneOf, optional, optionsOf, plainObject, rangeOf,
  seedOf,
} from '../core/validate.js';

// The name sets are the core's (web/lib/catalogue.js, generated from the C++ name functions).
export const TASKS = NAMES.tasks;
export const LOSSES = NAMES.losses;
export const OPTIMIZERS = NAMES.trainerOptimizers;

function number(argument, value, fallback) {
  return optional(value, fallback, (v) => finiteNumber(argument, v));
}

function activation(core, argument, value, fallback) {
  return optional(value, fallback, (v) => oneOf(argument, v, core.activations));
}

/** The user task's points: { x (n·2), y (n labels), count }. */
function userPoints(core, prefix, p) {
  const max = core.module._maxDatasetPoints;
  if (p === null || typeof p !== 'object') {
    fail(`${prefix}.points`, 'an object { x, y } for the user task', p, 'invalid-type');
  }
  optionsOf(`${prefix}.points`, p, 'datasets.points');
  if (!(p.y instanceof Float32Array)) {
    fail(`${prefix}.points.y`, 'a Float32Array of labels (-1, 0 or 1)', p.y, 'invalid-type');
  }
  const count = p.y.length;
  if (count < 2 || count > max) fail(`${prefix}.points.y`, `a Float32Array of 2 to ${max} labels`, p.y, 'out-of-range');
  floatArray(`${prefix}.points.x`, p.x, 2 * count, `2·points = ${2 * count}`);
  floatArray(`${prefix}.points.y`, p.y, count);
  return { x: p.x, y: p.y, count };
}

/**
 * Dataset options → { data (PaDataOptions), points: { x, y, count } }. `prefix` names the
 * object in messages ('options' for lab.datasets.make, whose task is its first argument, or
 * 'options.data' of a trainer, whose task is options.data.task).
 */
export function dataOptions(core, task, options, prefix) {
  const nested = prefix !== 'options';
  oneOf(nested ? `${prefix}.task` : 'task', task, TASKS);
  const o = optionsOf(prefix, options, nested ? 'trainer.data' : 'datasets.make');
  const teacher = optionsOf(`${prefix}.teacher`, o.teacher, 'datasets.teacher');
  // Defaults and ranges are the core's (web/lib/catalogue.js, from DatasetOptions and its checks).
  const given = (name) => defaultOf('datasets.make', name);
  const taught = (name) => defaultOf('datasets.teacher', name);
  const data = {
    task,
    count: optional(o.count, given('count'),
      (v) => integer(`${prefix}.count`, v, rangeOf('datasets.make', 'count'))),
    noise: number(`${prefix}.noise`, o.noise, given('noise')),
    trainFraction: number(`${prefix}.trainFraction`, o.trainFraction, given('trainFraction')),
    seed: seedOf(`${prefix}.seed`, o.seed, given('seed')),
    teacherKind: optional(teacher.kind, taught('kind'), (v) => oneOf(`${prefix}.teacher.kind`, v, core.kinds)),
    teacherActivation: activation(core, `${prefix}.teacher.activation`, teacher.activation, taught('activation')),
    teacherBeta: number(`${prefix}.teacher.beta`, teacher.beta, taught('beta')),
    teacherHidden: optional(teacher.hidden, taught('hidden'), (v) => integer(`${prefix}.teacher.hidden`, v)),
    teacherRank: optional(teacher.rank, taught('rank'), (v) => integer(`${prefix}.teacher.rank`, v)),
  };
  if (!(data.trainFraction > 0 && data.trainFraction <= 1)) {
    fail(`${prefix}.trainFraction`, 'a number in (0, 1]', data.trainFraction, 'out-of-range');
  }
  let points = { x: new Float32Array(0), y: new Float32Array(0), count: 0 };
  if (task === 'user') {
    points = userPoints(core, prefix, o.points);
  } else if (o.points !== undefined) {
    throw new GateLabError(`${prefix}.points must be absent unless task is 'user' (task is '${task}')`,
      { argument: `${prefix}.points`, code: 'unsupported' });
  }
  return { data, points };
}

/** Trainer options (layer, loss, optimizer, batches) → PaTrainOptions. kind may be preset (race). */
export function trainOptions(core, o, { kind } = {}) {
  const m = core.module;
  // Defaults and ranges are the core's (web/lib/catalogue.js, from TrainerOptions and its checks).
  const given = (name) => defaultOf('createTrainer', name);
  const range = (name) => rangeOf('createTrainer', name);
  const train = {
    kind: kind ?? oneOf('options.kind', o.kind, core.kinds),
    activation: activation(core, 'options.activation', o.activation, given('activation')),
    beta: number('options.beta', o.beta, given('beta')),
    // hidden · rank is capped, so hidden alone at most the cap (rank 1).
    hidden: optional(o.hidden, given('hidden'), (v) => integer('options.hidden', v, { max: m._maxTrainerUnits })),
    rank: optional(o.rank, given('rank'), (v) => integer('options.rank', v)),
    symmetrize: number('options.symmetrize', o.symmetrize, given('symmetrize')),
    seed: seedOf('options.seed', o.seed, given('seed')),
    biasFeature: optional(o.biasFeature, given('biasFeature'), (v) => boolean('options.biasFeature', v)),
    loss: optional(o.loss, given('loss'), (v) => oneOf('options.loss', v, LOSSES)),
    optimizer: optional(o.optimizer, given('optimizer'), (v) => oneOf('options.optimizer', v, OPTIMIZERS)),
    learningRate: number('options.learningRate', o.learningRate, given('learningRate')),
    momentum: number('options.momentum', o.momentum, given('momentum')),
    beta1: number('options.beta1', o.beta1, given('beta1')),
    beta2: number('options.beta2', o.beta2, given('beta2')),
    epsilon: number('options.epsilon', o.epsilon, given('epsilon')),
    batchSize: optional(o.batchSize, given('batchSize'), (v) => integer('options.batchSize', v, range('batchSize'))),
    evalEvery: optional(o.evalEvery, given('evalEvery'), (v) => integer('options.evalEvery', v, range('evalEvery'))),
  };
  if (!(train.learningRate > 0 && train.learningRate <= m._maxLearningRate)) {
    fail('options.learningRate', `a number in (0, ${m._maxLearningRate}]`, train.learningRate, 'out-of-range');
  }
  return train;
}

/** The dataset part of trainer/race options: options.data = { task, ... } (task: the core's default). */
export function nestedData(core, o) {
  const d = plainObject('options.data', o.data);
  return dataOptions(core, d.task ?? defaultOf('trainer.data', 'task'), d, 'options.data');
}
