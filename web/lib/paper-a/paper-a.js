// Paper A's experiments as JS API (issue 4): datasets, a trainer, the training race, the
// symmetry census, rank-r approximation and interaction matrices. Every number comes from
// the C++ core (cpp/src/{dataset,trainer,race,census,rank_approx,interactions}.cpp); this
// file validates, copies arrays in and out, and throws GateLabError. installPaperA(lab)
// returns the objects the lab exposes; gatelab.js hangs them on the lab.
//
// Types, ready to merge into gatelab.d.ts (LayerKind, ActivationName, Layer are declared there):
/*
export type TaskName = 'circle' | 'xor' | 'gaussians' | 'spiral' | 'checkerboard' | 'teacher' | 'user';
export interface DatasetOptions {
  count?: number;          // total points, 4 … 20000, default 200 (ignored by 'user')
  noise?: number;          // std of Gaussian jitter on the inputs, 0 … 2, default 0.1
  trainFraction?: number;  // in (0, 1], default 0.5; both splits keep ≥ 1 point
  seed?: number;           // 0 … 2³² − 1, default 0: a seed names a dataset exactly
  // 'teacher': a random layer on (x, y, 1) labels sign(f − median); defaults gated, relu, 8, 1
  teacher?: { kind?: LayerKind; activation?: ActivationName; beta?: number; hidden?: number; rank?: number };
  points?: { x: Float32Array; y: Float32Array };  // 'user' only: x n·2, y n labels −1/0/1 (0 → −1)
}
export interface Dataset { task: TaskName; xTrain: Float32Array; yTrain: Float32Array; xTest: Float32Array; yTest: Float32Array }
export interface TrainerOptions {
  data?: DatasetOptions & { task?: TaskName };      // default { task: 'circle' }
  kind: LayerKind; activation?: ActivationName;     // default 'relu'
  beta?: number; hidden?: number; rank?: number;    // 1, 8, 1
  seed?: number;                                    // initial weights and minibatch order, default 0
  biasFeature?: boolean;                            // inputs (x, y, 1), default true
  loss?: 'mse' | 'cross_entropy';                   // labels ±1; default 'cross_entropy' (on the logit)
  optimizer?: 'sgd' | 'momentum' | 'adam';          // default 'adam'
  learningRate?: number; momentum?: number; beta1?: number; beta2?: number; epsilon?: number;  // 0.01, 0.9, 0.9, 0.999, 1e-8
  batchSize?: number;                               // default 32; 0 = full batch
  evalEvery?: number;                               // record curves every this many steps, default 1
}
export interface Curves { step: Float32Array; trainLoss: Float32Array; testLoss: Float32Array;
  trainAccuracy: Float32Array; testAccuracy: Float32Array; gradNorm: Float32Array }
export interface Divergence { step: number; rolledBackTo: number; cause: 'gradient' | 'overflow'; message: string }
export interface Trainer {
  readonly options: Readonly<TrainerOptions>; readonly stepsDone: number; readonly parameterCount: number;
  readonly divergence: Divergence | null; readonly disposed: boolean;
  // n steps (default 1, ≤ 100000); a divergence stops early and is reported, not thrown.
  step(n?: number): { done: number; records: Curves; divergence: Divergence | null };
  history(): Curves;
  grid(size?: number, extent?: number): Float32Array;  // size² raw outputs on [−extent, extent]², row 0 at y = +extent
  data(): Omit<Dataset, 'task'>;
  weights(): { options: object; layer: object; stepsDone: number; Q?: number[]; K: number[]; V: number[] };
  setLearningRate(learningRate: number): void;         // also resumes after a divergence
  dispose(): void;
}
export type RaceModelSpec = { kind: LayerKind; activation?: ActivationName } | 'bilinear';
export interface RaceOptions extends Omit<TrainerOptions, 'kind' | 'activation' | 'hidden' | 'rank'> {
  models?: RaceModelSpec[];       // default mlp·relu, symmetric·relu, ReGLU, GEGLU, SwiGLU, GLU, Bilinear
  steps?: number; seeds?: number; // 1000, 3; seed i uses data seed + i and init seed + i
  widthRule?: 'budget' | 'shazeer'; budget?: number; mlpHidden?: number;  // 'budget', 128, 32
}                                 // evalEvery defaults to ceil(steps / 100)
export interface Band { mean: Float32Array; std: Float32Array; min: Float32Array; max: Float32Array }
export interface FinalStat { mean: number; std: number; values: number[] }
export interface RaceModelResult {
  label: string; kind: LayerKind; activation: ActivationName; hidden: number; parameters: number;
  diverged: number; firstDivergence: string;
  curves: { step: Float32Array; trainLoss: Band; testLoss: Band; trainAccuracy: Band; testAccuracy: Band };
  final: { trainLoss: FinalStat; testLoss: FinalStat; trainAccuracy: FinalStat; testAccuracy: FinalStat };
}
export interface CensusOptions { kinds?: LayerKind[]; activations?: ActivationName[]; ranks?: number[];
  dIn?: number; hidden?: number; dOut?: number; beta?: number; seed?: number; inputs?: number; threshold?: number }
export interface CensusRow { kind: LayerKind; activation: ActivationName; rank: number; dIn: number; hidden: number;
  dOut: number; parameters: number; inputs: number; jacobianRank: number; measured: number; predicted: number;
  explanation: string; keptMin: number; droppedMax: number; gapDecades: number; exchangeApplicable: boolean;
  exchangePredicted: boolean; exchangeMeasured: boolean; exchangeGap: number; spectrum: Float32Array }
export interface RankApproxOptions { activation?: ActivationName; beta?: number; dIn?: number; hidden?: number;
  dOut?: number; inputs?: number; seed?: number }
export interface RankApproxRow { rank: number; error: number; parameters: number; flops: number; energy: number }
export interface InteractionResult { matrix: Float32Array; raw: Float32Array; eigenvalues: Float32Array;
  eigenvectors: Float32Array; exchangedMatrix: Float32Array; exact: boolean; rawAsymmetry: number;
  exchangeGap: number; quadratic?: number; output?: number }
// On GateLab:
  datasets: { readonly tasks: readonly TaskName[]; make(task: TaskName, options?: DatasetOptions): Dataset };
  createTrainer(options: TrainerOptions): Trainer;
  race(options?: RaceOptions): { models: RaceModelResult[]; options: object };
  census(options?: CensusOptions): CensusRow[];
  rankApprox(options?: RankApproxOptions): RankApproxRow[];
  interactions(layer: Layer, u: Float32Array, x?: Float32Array): InteractionResult;
*/
import { throwIfError } from '../core/errors.js';
import { Layer } from './layer.js';
import { dataOptions, KINDS, nestedData, optional, seedOf, TASKS, throwCore, trainOptions } from '../train/options.js';
import { Trainer } from '../train/trainer.js';
import { fail, finiteNumber, floatArray, integer, oneOf, plainObject } from '../core/validate.js';

const DEFAULT_MODELS = ['mlp:relu', 'symmetric:relu', 'gated:relu', 'gated:gelu', 'gated:silu', 'gated:sigmoid', 'gated:identity'];
const METRICS = ['trainLoss', 'testLoss', 'trainAccuracy', 'testAccuracy'];

// Runs fn(handle) on a transient Embind handle and deletes it whatever happens.
function using(handle, fn) {
  try {
    return fn(handle);
  } finally {
    handle.delete();
  }
}

function listOf(argument, value, fallback, each) {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length === 0) fail(argument, 'a non-empty array', value);
  return value.map((v, i) => each(`${argument}[${i}]`, v));
}

function raceModels(lab, models) {
  return listOf('options.models', models, DEFAULT_MODELS, (argument, m) => {
    if (m === 'bilinear') return 'gated:identity';
    const o = plainObject(argument, m);
    const kind = oneOf(`${argument}.kind`, o.kind, KINDS);
    return `${kind}:${optional(o.activation, 'relu', (v) => oneOf(`${argument}.activation`, v, lab.activations))}`;
  }).join(',');
}

function readRace(lab, run) {
  throwCore(run.error(), () => 'options');
  const records = run.recordCount(), seeds = run.seedCount();
  return Array.from({ length: run.modelCount() }, (_, i) => {
    const info = run.model(i);
    const [, flat] = lab.heap.call([], [17 * records + 4 * seeds], (p) => run.copyCurves(i, p));
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

export function installPaperA(lab) {
  const m = lab.module;

  const datasets = Object.freeze({
    /** The task names; the first six are generated, 'user' takes options.points. */
    tasks: Object.freeze([...TASKS]),
    /** @returns {Dataset} */
    make(task, options) {
      const { data, points } = dataOptions(lab, task, options, 'options');
      const sizes = m.paDatasetSizes(data, points.count);
      throwCore(sizes.error, (f) => (f === 'task' ? 'task' : `options${f ? `.${f}` : ''}`));
      const [error, xTrain, yTrain, xTest, yTest] = lab.heap.call([points.x, points.y],
        [2 * sizes.train, sizes.train, 2 * sizes.test, sizes.test],
        (px, py, a, b, c, d) => m.paMakeDataset(data, points.count ? px : 0, points.count ? py : 0, points.count, a, b, c, d));
      throwCore(error, (f) => `options${f ? `.${f}` : ''}`);
      return { task, xTrain, yTrain, xTest, yTest };
    },
  });

  /** @param {TrainerOptions} options @returns {Trainer} */
  function createTrainer(options) {
    const o = plainObject('options', options);
    if (options === undefined) fail('options', 'an options object', options);
    const train = trainOptions(lab, o);
    const { data, points } = nestedData(lab, o);
    const [handle] = lab.heap.call([points.x, points.y], [], (px, py) => {
      const x = points.count ? px : 0, y = points.count ? py : 0;
      throwCore(m.paValidateTrainer(train, data, x, y, points.count), (f) => `options${f ? `.${f}` : ''}`);
      return m.paCreateTrainer(train, data, x, y, points.count);
    });
    return new Trainer(lab, handle, { ...train, data: { ...data } });
  }

  /** One quick batch: every model, every seed, to the end. @param {RaceOptions} options */
  function race(options) {
    const o = plainObject('options', options);
    const steps = optional(o.steps, 1000, (v) => integer('options.steps', v, { max: m.maxRaceSteps }));
    const raceOptions = {
      models: raceModels(lab, o.models),
      widthRule: optional(o.widthRule, 'budget', (v) => oneOf('options.widthRule', v, ['budget', 'shazeer'])),
      steps,
      seeds: optional(o.seeds, 3, (v) => integer('options.seeds', v, { max: m.maxRaceSeeds })),
      budget: optional(o.budget, 128, (v) => integer('options.budget', v, { max: m.maxRaceBudget })),
      mlpHidden: optional(o.mlpHidden, 32, (v) => integer('options.mlpHidden', v, { max: m.maxTrainerUnits })),
    };
    const train = trainOptions(lab, { evalEvery: Math.max(1, Math.ceil(steps / 100)), ...o }, { kind: 'gated' });
    const { data, points } = nestedData(lab, o);
    const models = lab.heap.call([points.x, points.y], [], (px, py) => {
      const x = points.count ? px : 0, y = points.count ? py : 0;
      throwCore(m.paValidateRace(raceOptions, train, data, x, y, points.count), (f) => `options${f ? `.${f}` : ''}`);
      return using(m.paRunRace(raceOptions, train, data, x, y, points.count), (run) => readRace(lab, run));
    })[0];
    return { models, options: { ...raceOptions, models: raceOptions.models.split(','), train, data } };
  }

  /** The symmetry census (MATH.md A9). @param {CensusOptions} [options] @returns {CensusRow[]} */
  function census(options) {
    const o = plainObject('options', options);
    const c = {
      kinds: listOf('options.kinds', o.kinds, KINDS, (a, v) => oneOf(a, v, KINDS)).join(','),
      activations: listOf('options.activations', o.activations, [], (a, v) => oneOf(a, v, lab.activations)).join(','),
      ranks: listOf('options.ranks', o.ranks, [1], (a, v) => integer(a, v, { max: 4096 })).join(','),
      dIn: optional(o.dIn, 4, (v) => integer('options.dIn', v)),
      hidden: optional(o.hidden, 3, (v) => integer('options.hidden', v)),
      dOut: optional(o.dOut, 3, (v) => integer('options.dOut', v)),
      inputs: optional(o.inputs, 0, (v) => integer('options.inputs', v, { min: 0, max: 4096 })),
      beta: optional(o.beta, 1, (v) => finiteNumber('options.beta', v)),
      seed: seedOf('options.seed', o.seed, 1),
      threshold: optional(o.threshold, 1e-12, (v) => finiteNumber('options.threshold', v)),
    };
    throwCore(m.paValidateCensus(c), (f) => `options${f ? `.${f}` : ''}`);
    return using(m.paRunCensus(c), (run) => {
      throwIfError(run.error(), 'options');
      return Array.from({ length: run.rowCount() }, (_, i) => {
        const row = run.row(i);
        const [, spectrum] = lab.heap.call([], [row.parameters], (p) => run.copySpectrum(i, p));
        return { ...row, spectrum };
      });
    });
  }

  /** Rank-r approximations of a random full bilinear attention MLP. @returns {RankApproxRow[]} */
  function rankApprox(options) {
    const o = plainObject('options', options);
    const r = {
      activation: optional(o.activation, 'relu', (v) => oneOf('options.activation', v, lab.activations)),
      beta: optional(o.beta, 1, (v) => finiteNumber('options.beta', v)),
      dIn: optional(o.dIn, 6, (v) => integer('options.dIn', v, { max: m.maxRankApproxDim })),
      hidden: optional(o.hidden, 4, (v) => integer('options.hidden', v)),
      dOut: optional(o.dOut, 2, (v) => integer('options.dOut', v)),
      inputs: optional(o.inputs, 256, (v) => integer('options.inputs', v, { max: 4096 })),
      seed: seedOf('options.seed', o.seed, 1),
    };
    throwCore(m.paValidateRankApprox(r), (f) => `options${f ? `.${f}` : ''}`);
    const [error, flat] = lab.heap.call([], [5 * r.dIn], (p) => m.paRankApprox(r, p));
    throwIfError(error, 'options');
    return Array.from({ length: r.dIn }, (_, i) => ({ rank: flat[5 * i], error: flat[5 * i + 1],
      parameters: flat[5 * i + 2], flops: flat[5 * i + 3], energy: flat[5 * i + 4] }));
  }

  /** Interaction matrix of layer for output direction u (at input x when given). @returns {InteractionResult} */
  function interactions(layer, u, x) {
    if (!(layer instanceof Layer)) fail('layer', 'a layer made by lab.createLayer', layer);
    const handle = layer.handle;
    const d = layer.dIn;
    if (d > m.maxInteractionDim) fail('layer', `a layer with dIn <= ${m.maxInteractionDim}`, d);
    floatArray('u', u, layer.dOut, `dOut = ${layer.dOut}`);
    if (x !== undefined) floatArray('x', x, d, `dIn = ${d}`);
    const inputs = x === undefined ? [u] : [u, x];
    const [info, matrix, raw, eigenvalues, eigenvectors, exchangedMatrix] = lab.heap.call(inputs,
      [d * d, d * d, d, d * d, d * d], (pu, ...rest) => {
        const px = x === undefined ? 0 : rest.shift();
        return m.paInteractions(handle, pu, px, ...rest);
      });
    throwIfError(info.error, 'layer');
    const out = { matrix, raw, eigenvalues, eigenvectors, exchangedMatrix, exact: info.exact,
      rawAsymmetry: info.rawAsymmetry, exchangeGap: info.exchangeGap };
    if (x !== undefined) Object.assign(out, { quadratic: info.quadratic, output: info.output });
    return out;
  }

  return { datasets, createTrainer, race, census, rankApprox, interactions };
}
