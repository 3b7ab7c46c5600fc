// lab.race: one quick batch of the training race — every model, every seed, to the end — at
// equal parameter budgets (or Shazeer's width rule). The core trains and aggregates the curves
// (cpp/src/train/race.cpp); this file validates the options and copies the bands out.
import { NAMES } from '../catalogue.js';
import { throwCoreError } from '../core/errors.js';
import { using } from '../core/handles.js';
import { GateLabError } from '../core/errors.js';
import {
  defaultOf, finiteNumber, integer, knownOptions, listOf, oneOf, optional, optionsOf, plainObject, rangeOf,
} from '../core/validate.js';
import { nestedData, trainOptions } from './options.js';

const DEFAULT_MODELS = ['mlp:relu', 'symmetric:relu', 'gated:relu', 'gated:gelu', 'gated:silu', 'gated:sigmoid',
  'gated:identity'];
const METRICS = ['trainLoss', 'testLoss', 'trainAccuracy', 'testAccuracy'];
const OPTIONS = { argument: 'options', prefix: 'options' };

function raceModels(core, models) {
  return listOf('options.models', models, DEFAULT_MODELS, (argument, m) => {
    if (m === 'bilinear') return 'gated:identity';
    const o = optionsOf(argument, m, 'race.model');
    const kind = oneOf(`${argument}.kind`, o.kind, core.kinds);
    const activation = optional(o.activation, 'relu', (v) => oneOf(`${argument}.activation`, v, core.activations));
    // λ crosses in the list ('gated:silu:0.5'); its range and kind are the core's to check.
    const lambda = optional(o.symmetrize, undefined, (v) => finiteNumber(`${argument}.symmetrize`, v));
    return lambda === undefined ? `${kind}:${activation}` : `${kind}:${activation}:${lambda}`;
  }).join(',');
}

function readRace(core, run) {
  throwCoreError(run.error(), OPTIONS);
  const records = run.recordCount(), seeds = run.seedCount();
  return Array.from({ length: run.modelCount() }, (_, i) => {
    const info = run.model(i);
    const [, flat] = core.heap.call([], [17 * records + 4 * seeds], (p) => run.copyCurves(i, p));
    const curves = { step: flat.slice(0, records) };
    const final = {};
    METRICS.forEach((name, k) => {
      const at = (s) => flat.slice(records * (1 + 4 * k + s), records * (2 + 4 * k + s));
      curves[name] = { mean: at(0), std: at(1), min: at(2), max: at(3) };
      const values = Array.from(flat.slice(17 * records + k * seeds, 17 * records + (k + 1) * seeds));
      const mean = values.reduce((a, b) => a + b, 0) / seeds;
      final[name] = { mean, std: Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / seeds), values };
    });
    return { ...info, curves, final };
  });
}

/** The race; see train.d.ts for the options and the result. */
export function race(core, options) {
  const m = core.module;
  const o = plainObject('options', options);
  if (o.symmetrize !== undefined) {
    throw new GateLabError('options.symmetrize is per model in a race: give it in options.models '
      + '({ kind, activation, symmetrize })', { argument: 'options.symmetrize', code: 'unsupported' });
  }
  knownOptions('options', o, 'race');
  // Defaults and ranges are the core's (web/lib/catalogue.js, from RaceOptions and its checks).
  const int = (name) => optional(o[name], defaultOf('race', name),
    (v) => integer(`options.${name}`, v, rangeOf('race', name)));
  const steps = int('steps');
  const raceOptions = {
    models: raceModels(core, o.models),
    widthRule: optional(o.widthRule, defaultOf('race', 'widthRule'),
      (v) => oneOf('options.widthRule', v, NAMES.widthRules)),
    steps,
    seeds: int('seeds'),
    budget: int('budget'),
    mlpHidden: int('mlpHidden'),
  };
  const train = trainOptions(core, { evalEvery: Math.max(1, Math.ceil(steps / 100)), ...o }, { kind: 'gated' });
  const { data, points } = nestedData(core, o);
  const models = core.heap.call([points.x, points.y], [], (px, py) => {
    const x = points.count ? px : 0, y = points.count ? py : 0;
    throwCoreError(m._paValidateRace(raceOptions, train, data, x, y, points.count), OPTIONS);
    return using(m._paRunRace(raceOptions, train, data, x, y, points.count), (run) => readRace(core, run));
  })[0];
  return { models, options: { ...raceOptions, models: raceOptions.models.split(','), train, data } };
}
