// Option parsing for the paper-A API (paper-a.js): every field is type-checked here with the
// name the caller wrote (options.data.count, options.learningRate …), defaults are filled in,
// and the result is the plain object the Embind value_objects expect. Ranges and caps are
// then checked again by the C++ core, which owns them.
import { GateLabError } from '../core/errors.js';
import { fail, finiteNumber, floatArray, integer, oneOf, plainObject } from '../core/validate.js';

export const KINDS = ['mlp', 'symmetric', 'gated'];
export const TASKS = ['circle', 'xor', 'gaussians', 'spiral', 'checkerboard', 'teacher', 'user'];
export const LOSSES = ['mse', 'cross_entropy'];
export const OPTIMIZERS = ['sgd', 'momentum', 'adam'];

const SEED_MAX = 2 ** 32 - 1;

/** An optional field: the default when undefined, else checked by check(argument, value). */
export function optional(value, fallback, check) {
  return value === undefined ? fallback : check(value);
}

export function seedOf(argument, value, fallback = 0) {
  return optional(value, fallback, (v) => integer(argument, v, { min: 0, max: SEED_MAX }));
}

function number(argument, value, fallback) {
  return optional(value, fallback, (v) => finiteNumber(argument, v));
}

function activation(lab, argument, value, fallback) {
  return optional(value, fallback, (v) => oneOf(argument, v, lab.activations));
}

/**
 * Dataset options → { data (PaDataOptions), points: { x, y, count } }. `prefix` names the
 * object in messages ('options' or 'options.data').
 */
export function dataOptions(lab, task, options, prefix) {
  oneOf(`${prefix}.task`, task, TASKS);
  const o = plainObject(prefix, options);
  const teacher = plainObject(`${prefix}.teacher`, o.teacher);
  const data = {
    task,
    count: optional(o.count, 200, (v) => integer(`${prefix}.count`, v, { min: 4, max: lab.module.maxDatasetPoints })),
    noise: number(`${prefix}.noise`, o.noise, 0.1),
    trainFraction: number(`${prefix}.trainFraction`, o.trainFraction, 0.5),
    seed: seedOf(`${prefix}.seed`, o.seed),
    teacherKind: optional(teacher.kind, 'gated', (v) => oneOf(`${prefix}.teacher.kind`, v, KINDS)),
    teacherActivation: activation(lab, `${prefix}.teacher.activation`, teacher.activation, 'relu'),
    teacherBeta: number(`${prefix}.teacher.beta`, teacher.beta, 1),
    teacherHidden: optional(teacher.hidden, 8, (v) => integer(`${prefix}.teacher.hidden`, v)),
    teacherRank: optional(teacher.rank, 1, (v) => integer(`${prefix}.teacher.rank`, v)),
  };
  if (!(data.trainFraction > 0 && data.trainFraction <= 1)) {
    fail(`${prefix}.trainFraction`, 'a number in (0, 1]', data.trainFraction);
  }
  let points = { x: new Float32Array(0), y: new Float32Array(0), count: 0 };
  if (task === 'user') {
    const p = o.points;
    if (p === null || typeof p !== 'object') fail(`${prefix}.points`, 'an object { x, y } for the user task', p);
    if (!(p.y instanceof Float32Array)) fail(`${prefix}.points.y`, 'a Float32Array of labels (-1, 0 or 1)', p.y);
    const count = p.y.length;
    if (count < 2 || count > lab.module.maxDatasetPoints) {
      fail(`${prefix}.points.y`, `a Float32Array of 2 to ${lab.module.maxDatasetPoints} labels`, p.y);
    }
    floatArray(`${prefix}.points.x`, p.x, 2 * count, `2·points = ${2 * count}`);
    floatArray(`${prefix}.points.y`, p.y, count);
    points = { x: p.x, y: p.y, count };
  } else if (o.points !== undefined) {
    fail(`${prefix}.points`, "absent unless task is 'user'", o.points);
  }
  return { data, points };
}

/** Trainer options (layer, loss, optimizer, batches) → PaTrainOptions. kind may be preset (race). */
export function trainOptions(lab, o, { kind } = {}) {
  const train = {
    kind: kind ?? oneOf('options.kind', o.kind, KINDS),
    activation: activation(lab, 'options.activation', o.activation, 'relu'),
    beta: number('options.beta', o.beta, 1),
    hidden: optional(o.hidden, 8, (v) => integer('options.hidden', v, { max: lab.module.maxTrainerUnits })),
    rank: optional(o.rank, 1, (v) => integer('options.rank', v)),
    seed: seedOf('options.seed', o.seed),
    biasFeature: optional(o.biasFeature, true, (v) => {
      if (typeof v !== 'boolean') fail('options.biasFeature', 'a boolean', v);
      return v;
    }),
    loss: optional(o.loss, 'cross_entropy', (v) => oneOf('options.loss', v, LOSSES)),
    optimizer: optional(o.optimizer, 'adam', (v) => oneOf('options.optimizer', v, OPTIMIZERS)),
    learningRate: number('options.learningRate', o.learningRate, 0.01),
    momentum: number('options.momentum', o.momentum, 0.9),
    beta1: number('options.beta1', o.beta1, 0.9),
    beta2: number('options.beta2', o.beta2, 0.999),
    epsilon: number('options.epsilon', o.epsilon, 1e-8),
    batchSize: optional(o.batchSize, 32, (v) => integer('options.batchSize', v, { min: 0, max: lab.module.maxDatasetPoints })),
    evalEvery: optional(o.evalEvery, 1, (v) => integer('options.evalEvery', v, { max: lab.module.maxStepsPerCall })),
  };
  if (!(train.learningRate > 0 && train.learningRate <= lab.module.maxLearningRate)) {
    fail('options.learningRate', `a number in (0, ${lab.module.maxLearningRate}]`, train.learningRate);
  }
  return train;
}

/** The dataset part of trainer/race options: options.data = { task, ... } (task default 'circle'). */
export function nestedData(lab, o) {
  const d = plainObject('options.data', o.data);
  return dataOptions(lab, d.task ?? 'circle', d, 'options.data');
}

/** The C++ message names the field first ("count must …"); map it back to the JS name. */
export function throwCore(error, argumentFor) {
  if (!error) return;
  const field = /^([A-Za-z.]+)[ :]/.exec(error)?.[1];
  throw new GateLabError(error, { argument: argumentFor(field) });
}
