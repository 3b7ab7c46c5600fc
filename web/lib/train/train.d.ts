/**
 * Training paper A's layers on 2-D tasks: datasets named by a seed, a trainer stepped in coarse
 * calls, and the race of several models at an equal parameter budget over several seeds. Every
 * number comes from the C++ core; the same options give the same bits natively and in wasm.
 */

import type { ActivationName } from '../base/base.js';
import type { LayerKind } from '../paper-a/paper-a.js';

/** The first six are generated; 'user' takes options.points. */
export type TaskName = 'circle' | 'xor' | 'gaussians' | 'spiral' | 'checkerboard' | 'teacher' | 'user';

/** The 'teacher' task labels (x, y, 1) by sign(f − median) of a random layer f. */
export interface TeacherOptions {
  /** Default 'gated'. */
  kind?: LayerKind;
  /** Default 'relu'. */
  activation?: ActivationName;
  /** swish β, default 1. */
  beta?: number;
  /** Default 8. */
  hidden?: number;
  /** 1 … 3 (the inputs are (x, y, 1)); default 1. */
  rank?: number;
}

/** Points of the 'user' task. */
export interface UserPoints {
  /** n·2 coordinates (finite, |x| ≤ 10000), 2 ≤ n ≤ 20000. */
  x: Float32Array;
  /** n labels −1, 0 or 1 (0 counts as −1). */
  y: Float32Array;
}

export interface DatasetOptions {
  /** Total points, 4 … 20000; default 200 (ignored by 'user'). */
  count?: number;
  /** Standard deviation of the Gaussian jitter on the inputs, 0 … 2; default 0.1. */
  noise?: number;
  /** The training share, in (0, 1]; default 0.5. Both splits keep at least one point. */
  trainFraction?: number;
  /** 0 … 2³² − 1, default 0: a seed names a dataset exactly. */
  seed?: number;
  /** 'teacher' only. */
  teacher?: TeacherOptions;
  /** 'user' only (and required there). */
  points?: UserPoints;
}

/** Inputs are row-major n·2, labels ±1. */
export interface Dataset {
  task: TaskName;
  xTrain: Float32Array;
  yTrain: Float32Array;
  xTest: Float32Array;
  yTest: Float32Array;
}

/** lab.datasets. */
export interface Datasets {
  readonly tasks: readonly TaskName[];
  make(task: TaskName, options?: DatasetOptions): Dataset;
}

/** The dataset options as the trainer and the race report them, defaults filled in. */
export interface ResolvedDataOptions {
  task: TaskName;
  count: number;
  noise: number;
  trainFraction: number;
  seed: number;
  teacherKind: LayerKind;
  teacherActivation: ActivationName;
  teacherBeta: number;
  teacherHidden: number;
  teacherRank: number;
}

export type LossName = 'mse' | 'cross_entropy';
export type OptimizerName = 'sgd' | 'momentum' | 'adam';

export interface TrainerOptions {
  /** The task and its options; default { task: 'circle' }. */
  data?: DatasetOptions & { task?: TaskName };
  kind: LayerKind;
  /** Default 'relu'. */
  activation?: ActivationName;
  /** swish β, default 1. */
  beta?: number;
  /** 1 … 1024 (and hidden · rank ≤ 1024); default 8. */
  hidden?: number;
  /** Default 1; at most the input width (3 with the bias feature). */
  rank?: number;
  /** λ from 0 to 1, 'gated' only; default 0 (LayerOptions.symmetrize, docs/MATH.md §A11). */
  symmetrize?: number;
  /** Initial weights and minibatch order, default 0. */
  seed?: number;
  /** Inputs (x, y, 1) instead of (x, y); default true. */
  biasFeature?: boolean;
  /** On labels ±1; default 'cross_entropy' (on the logit). */
  loss?: LossName;
  /** Default 'adam'. */
  optimizer?: OptimizerName;
  /** In (0, 1e6]; default 0.01. */
  learningRate?: number;
  /** 'momentum' only, in [0, 1); default 0.9. */
  momentum?: number;
  /** Adam, in [0, 1); defaults 0.9 and 0.999. */
  beta1?: number;
  beta2?: number;
  /** Adam, in (0, 1]; default 1e-8. */
  epsilon?: number;
  /** 0 … 20000, 0 = full batch; default 32. */
  batchSize?: number;
  /** Record the curves every this many steps, 1 … 100000; default 1. */
  evalEvery?: number;
}

/** The training options as a trainer reports them, defaults filled in. */
export type ResolvedTrainOptions = Required<Omit<TrainerOptions, 'data'>>;

/** Records in columns: one entry per record (step 0, then every evalEvery steps). */
export interface Curves {
  step: Float32Array;
  trainLoss: Float32Array;
  testLoss: Float32Array;
  trainAccuracy: Float32Array;
  testAccuracy: Float32Array;
  gradNorm: Float32Array;
}

/** Training diverged: the parameters were rolled back, and training stops until setLearningRate. */
export interface Divergence {
  step: number;
  rolledBackTo: number;
  cause: 'gradient' | 'overflow';
  /** The core's explanation, with a learning rate to try. */
  message: string;
}

export interface StepResult {
  /** Steps done (fewer than asked after a divergence). */
  done: number;
  /** The records these steps added. */
  records: Curves;
  divergence: Divergence | null;
}

/** A JSON-able snapshot of a trainer (plain number arrays). */
export interface TrainerWeights {
  options: Trainer['options'];
  /** The layer the trainer trains: dOut 1, dIn 2 or 3 (the bias feature). */
  layer: { kind: LayerKind; activation: ActivationName; beta: number; dIn: number; hidden: number; dOut: 1;
    rank: number; symmetrize: number };
  stepsDone: number;
  /** Absent for 'mlp'. */
  Q?: number[];
  K: number[];
  V: number[];
}

/** What Trainer.teleport did, on the whole training split. */
export interface TeleportResult {
  lossBefore: number;
  /** Equal to lossBefore up to float rounding: the move keeps the function. */
  lossAfter: number;
  gradNormBefore: number;
  /** Not equal in general: the orbit keeps the loss but not its gradient. */
  gradNormAfter: number;
}

/** The layer at a point of its orbit, measured without moving there (Trainer.probeOrbit). */
export interface OrbitProbe {
  /** The training loss there: equal to the current one up to float rounding. */
  loss: number;
  /** ‖∇_θ L‖ there. */
  gradNorm: number;
  /**
   * The training loss after one plain gradient step θ − η∇L (η the trainer's learning rate); NaN if ∇L is not
   * finite.
   */
  nextLoss: number;
}

/** Where Trainer.bestFactors looks (docs/MATH.md §A21). */
export interface TeleportSearch {
  /** 'gradient': the smallest ‖∇L‖; 'step' (default): the lowest loss after the next plain gradient step. */
  goal?: 'gradient' | 'step';
  /** Odd, 3 … 101; default 13. */
  points?: number;
  /** The grid spans [1/reach, reach] on a log scale, 1 < reach ≤ 100; default 4. */
  reach?: number;
}

/** One layer learning a 2-D task; dispose() it when done. */
export interface Trainer {
  readonly options: Readonly<ResolvedTrainOptions & { data: Readonly<ResolvedDataOptions> }>;
  /** Steps completed (after a divergence: the step the parameters were rolled back to). */
  readonly stepsDone: number;
  readonly parameterCount: number;
  readonly divergence: Divergence | null;
  readonly disposed: boolean;
  /** n steps (default 1, at most 100000 a call); a divergence stops early and is reported, not thrown. */
  step(n?: number): StepResult;
  /** Every record so far. */
  history(): Curves;
  /**
   * size² raw outputs on [−extent, extent]² (size 2 … 512, default 64; extent > 0, default 1.5), row 0 at
   * y = +extent.
   */
  grid(size?: number, extent?: number): Float32Array;
  /** The data the trainer learns. */
  data(): Omit<Dataset, 'task'>;
  weights(): TrainerWeights;
  /** A new learning rate; it also lifts a divergence stop, resuming from the rolled-back state. */
  setLearningRate(learningRate: number): void;
  /** ‖∇_θ L‖ of the training loss on the whole training split, now (NaN when an output is not finite). */
  gradientNorm(): number;
  /**
   * Moves hidden unit j along its inverse-scaling orbit (docs/MATH.md §A21): (q_j, k_j) → (c_j q_j, k_j / c_j)
   * for every rank pair; for 'mlp', input weights · c_j and output weights / c_j. factors: one c_j > 0 per
   * hidden unit, or one number for all. The function, hence the loss, is unchanged; the gradient is not.
   * The orbit exists for 'symmetric' (any σ) and for 'gated' (any symmetrize) and 'mlp' with a σ positively
   * homogeneous of degree 1 (identity, relu, leaky_relu); any other layer (SwiGLU, GEGLU, ReLU² …) throws
   * 'unsupported'. A factor ≤ 0, or one that takes a weight beyond float range, throws 'out-of-range' naming
   * 'factors'; a refusal changes nothing. The optimizer state is kept.
   */
  teleport(factors: number | Float32Array): TeleportResult;
  /**
   * Per hidden unit ‖q_j‖² − ‖k_j‖² (summed over the unit's rank pairs; 'mlp': ‖w_in,j‖² − ‖w_out,j‖²). Where
   * teleport applies, gradient flow without weight decay conserves it (docs/MATH.md §A14).
   */
  balance(): Float32Array;
  /** The RMS over units of balance() now minus balance() when the trainer was made (docs/MATH.md §A14). */
  balanceDrift(): number;
  /**
   * The layer moved by factors (as teleport takes them) but not kept: its loss, ‖∇L‖ and the loss after one
   * plain gradient step. The same refusals as teleport, and nothing changes.
   */
  probeOrbit(factors: number | Float32Array): OrbitProbe;
  /**
   * One factor per hidden unit on the grid c_i = reach^(2i/(points − 1) − 1) (c = 1 in the middle): for goal
   * 'gradient' each unit's own minimiser of ‖∇L‖ after the move; for 'step' a unit-by-unit search for the lowest
   * loss after the next plain gradient step. A factor stays 1 where the grid offers nothing better, so
   * teleport(bestFactors(s)) never makes the goal worse. 'unsupported' where teleport is.
   */
  bestFactors(search?: TeleportSearch): Float32Array;
  dispose(): void;
}

/** A race model: a kind and activation (and symmetrize for 'gated'), or 'bilinear' (gated with the identity). */
export type RaceModelSpec = { kind: LayerKind; activation?: ActivationName; symmetrize?: number } | 'bilinear';

/** Seed i trains on data seed + i from initial weights seed + i. symmetrize is per model (in models). */
export interface RaceOptions extends Omit<TrainerOptions, 'kind' | 'activation' | 'hidden' | 'rank' | 'symmetrize'> {
  /** 1 … 16 models; default MLP (ReLU), symmetric (ReLU), ReGLU, GEGLU, SwiGLU, GLU, Bilinear. */
  models?: RaceModelSpec[];
  /** Default 1000. */
  steps?: number;
  /** 1 … 64; default 3. */
  seeds?: number;
  /**
   * 'budget': hidden = round(budget / parameters per unit); 'shazeer': gated and symmetric
   * hidden = round(2/3 · mlpHidden). Default 'budget'.
   */
  widthRule?: 'budget' | 'shazeer';
  /** Parameters per model, default 128. */
  budget?: number;
  /** The MLP width of the 'shazeer' rule, default 32. */
  mlpHidden?: number;
  /** Default ceil(steps / 100); steps / evalEvery ≤ 10000. */
  evalEvery?: number;
}

/** A curve over seeds, record by record. */
export interface Band {
  mean: Float32Array;
  /** Over seeds, dividing by the number of seeds. */
  std: Float32Array;
  min: Float32Array;
  max: Float32Array;
}

/** A final value over seeds; lab.stats.summary(values) gives its sample SD and 95 % interval. */
export interface FinalStat {
  mean: number;
  /** Over seeds, dividing by the number of seeds (as the bands). */
  std: number;
  /** One per seed. */
  values: number[];
}

export interface RaceModelResult {
  /**
   * lab.layerLabel's name, as the figures show it: 'MLP (ReLU)', 'symmetric (ReLU)', 'SwiGLU', 'Bilinear',
   * 'gated (tanh)' …; with symmetrize 'symgated (SiLU)', 'SwiGLU, λ = 0.5'.
   */
  label: string;
  kind: LayerKind;
  activation: ActivationName;
  /** λ of the model (0 unless given), as the core stores it (a float32). */
  symmetrize: number;
  hidden: number;
  parameters: number;
  /** Runs (of the seeds) that diverged. */
  diverged: number;
  /** The first such run's message ('' if none). */
  firstDivergence: string;
  curves: { step: Float32Array; trainLoss: Band; testLoss: Band; trainAccuracy: Band; testAccuracy: Band };
  final: { trainLoss: FinalStat; testLoss: FinalStat; trainAccuracy: FinalStat; testAccuracy: FinalStat };
}

export interface RaceResult {
  models: RaceModelResult[];
  /** The options the race ran with, defaults filled in; models as 'kind:activation' or 'kind:activation:symmetrize'. */
  options: {
    models: string[];
    widthRule: 'budget' | 'shazeer';
    steps: number;
    seeds: number;
    budget: number;
    mlpHidden: number;
    train: ResolvedTrainOptions;
    data: ResolvedDataOptions;
  };
}

/** The training members of the lab (see GateLab in gatelab.d.ts). */
export interface Train {
  readonly datasets: Datasets;
  createTrainer(options: TrainerOptions): Trainer;
  /** One quick batch: every model, every seed, to the end. */
  race(options?: RaceOptions): RaceResult;
}
