// Types of the paper-A figures (gated MLPs as symmetry-broken rank-1 bilinear attention);
// web/components/index.d.ts re-exports them. See web/components/README.md.
import type { GateLabFigure } from '../base/gatelab-figure.js';

/** <gatelab-exchange>: one output of a random layer over the input plane (a, b, 1); Q ↔ K toggle. */
export interface ExchangeState {
  kind: 'gated' | 'symmetric' | 'mlp';
  activation: string;
  /** swish β, 0.05 … 10. */
  beta: number;
  /** 1 … 3 (3 = full: dIn is 3). */
  rank: number;
  /** Hidden units, 1 … 64 (attribute `units`). */
  units: number;
  /** Which of the three outputs is drawn, 0 … 2. */
  output: number;
  /** Show the layer with Q and K swapped. */
  exchanged: boolean;
  /**
   * λ (symmetrize) from 0 to 1, default 0 (docs/MATH.md §A11): 0 is the gated layer, 1 the exchange-symmetric
   * symgated form (exchange gap 0). Only gated layers take it; for another kind the dial is disabled.
   */
  symmetrize: number;
  /** The plane is [−extent, extent]², 0.5 … 10. */
  extent: number;
  /** Grid side, 16 … 160. */
  n: number;
  seed: number;
}
export declare class GateLabExchange extends GateLabFigure<ExchangeState> {
  /** { gap (null for an MLP), scale, n, parameterCount } of the last computation. */
  readonly result: { gap: number | null; scale: number; n: number; parameterCount: number } | null;
  /** The layer's options and parameters { options, exchanged, input, Q?, K, V }. */
  weights(): object | null;
}

/** <gatelab-scaling>: the scaling gap of every activation against α (log |α| on each side of 0). */
export interface ScalingState {
  /** α, |α| in [0.01, 100]; 0 falls back to the default. */
  alpha: number;
  /** The highlighted activation. */
  activation: string;
  seed: number;
}
export declare class GateLabScaling extends GateLabFigure<ScalingState> {
  /** Gaps at the current α for every activation, gated and symmetric. */
  readonly gaps: { alpha: number; gated: Record<string, number>; symmetric: Record<string, number> } | null;
}

/** <gatelab-rank>: a random full bilinear attention MLP and its best rank-r approximations. */
export interface RankState {
  activation: string;
  /** d, 2 … 16 (attribute `d-in`). */
  dIn: number;
  /** m, 1 … 32 (attribute `units`). */
  units: number;
  /** 1 … 8 (attribute `d-out`). */
  dOut: number;
  /** The highlighted rank, 1 … dIn. */
  rank: number;
  seed: number;
}
export declare class GateLabRank extends GateLabFigure<RankState> {
  /** lab.rankApprox rows for r = 1 … dIn. */
  readonly rows: { rank: number; error: number; parameters: number; flops: number; energy: number }[] | null;
}

/** <gatelab-census>: measured vs predicted continuous symmetries, and the exchange symmetry. */
export interface CensusState {
  /** 1 or 2. */
  rank: number;
  dIn: number;
  units: number;
  dOut: number;
  seed: number;
  /** "kind:activation" whose Jacobian spectrum is shown. */
  selected: string;
}
export declare class GateLabCensus extends GateLabFigure<CensusState> {
  /** lab.census rows for every kind × activation at the chosen rank. */
  readonly rows: object[] | null;
}

/** <gatelab-race>: models trained side by side, live, in the worker. */
export interface RaceState {
  task: 'circle' | 'xor' | 'gaussians' | 'spiral' | 'checkerboard' | 'teacher' | 'user';
  /** The teacher network, "kind:activation". */
  teacher: string;
  /** The reader's points (task "user"): two characters a point, see user-points.js. */
  points: string;
  count: number;
  noise: number;
  /** Train share, 0.05 … 0.95. */
  split: number;
  /** Minibatch size; 0 = full batch. */
  batch: number;
  loss: 'cross_entropy' | 'mse';
  optimizer: 'adam' | 'momentum' | 'sgd';
  /** Attribute `learning-rate`. */
  learningRate: number;
  steps: number;
  seeds: number;
  /** Data seed and initial-weight seed (seed s of the race adds s to both, as lab.race does). */
  seed: number;
  /**
   * Comma-separated "kind:activation" list, up to 16; a gated model may add ":λ", its symmetrize in [0, 1]
   * ("gated:silu:1").
   */
  models: string;
  width: 'budget' | 'shazeer';
  budget: number;
  /** Attribute `mlp-hidden`: the MLP width under Shazeer's rule. */
  mlpHidden: number;
}
export interface RaceBand { mean: Float32Array; std: Float32Array; min: Float32Array; max: Float32Array }
/** Events: `step` (detail { stepsDone, steps, finished }) after every chunk of training,
 *  `computed` (detail { results, state }) when every run has finished. */
export declare class GateLabRace extends GateLabFigure<RaceState> {
  /** Everything trained so far: per model its curves over seeds, each run's records and options. */
  readonly results: {
    stepsDone: number; finished: boolean;
    models: { label: string; kind: string; activation: string; symmetrize: number; hidden: number; parameters: number;
      curves: {
        step: Float32Array; trainLoss: RaceBand; testLoss: RaceBand; trainAccuracy: RaceBand; testAccuracy: RaceBand;
      };
      runs: { records: Record<string, Float32Array>; divergence: object | null }[]; options: object[] }[];
  } | null;
  readonly userPoints: { x: number; y: number; label: 1 | -1 }[];
  /** Every model's and seed's weights, fetched from the worker. */
  weights(): Promise<object | null>;
}

/** <gatelab-interactions>: interaction matrices of a trained or random layer. */
export interface InteractionsState {
  source: 'trained' | 'random';
  kind: 'gated' | 'symmetric';
  activation: string;
  task: 'circle' | 'xor' | 'gaussians' | 'spiral' | 'checkerboard' | 'teacher';
  steps: number;
  units: number;
  /** Random layers only, 2 … 8 (attribute `d-in`). */
  dIn: number;
  /** Random layers only: the output direction e_(output+1) of four. */
  output: number;
  /** A pinned point "x,y" where the exact matrix M_u(x) is shown, or "". */
  probe: string;
  seed: number;
}
export declare class GateLabInteractions extends GateLabFigure<InteractionsState> {
  /** lab.interactions results: weight-based, for the Q ↔ K layer, and at the probe. */
  readonly interactions: { weightBased: object; swapped: object; local: object | null } | null;
  weights(): object | null;
}

/** <gatelab-lm>: character language models that differ only in their MLP, trained live (one per worker). */
export interface LmState {
  /** 2 … 4 comma-separated names of the lm-figure table ("swiglu", "symgated-silu", "ffn-gelu", …), no repeats. */
  models: string;
  /** Runs per model, 1 … 5 (run s has seed `seed + s`); the paired interval appears from 3. */
  seeds: number;
  seed: number;
  /** Training steps per run (a curve point every 50 steps and at the end). */
  steps: number;
  /** The samples' temperature, 0.05 … 2. */
  temperature: number;
  paused: boolean;
}
/** One curve point of one run: the validation loss on the preset's fixed windows and the MLP diagnostics per block. */
export interface LmPoint {
  step: number;
  valLoss: number;
  trainLoss: number;
  blocks: {
    antisymmetricShare: number; exchangeGap: number; qkBalance: number; qkDrift: number;
    preactivationQuantiles: number[];
  }[];
}
/** Events: `step` (detail { stepsDone, steps, finished }) after every curve point of any run,
 *  `trained` (detail { results, state }) when every run has reached `steps`. */
export declare class GateLabLm extends GateLabFigure<LmState> {
  models: string;
  seeds: number;
  seed: number;
  steps: number;
  temperature: number;
  paused: boolean;
  /** The chosen models' names as readers know them (lab.layerLabel), in the order of `models`. */
  readonly modelLabels: string[];
  /**
   * True while steps are computing; off screen, in a hidden tab or paused the figure finishes the turns in
   * flight, then rests.
   */
  readonly training: boolean;
  /** Everything computed so far (a fresh object each read), or null before the sessions start. */
  readonly results: {
    settings: object; state: LmState; steps: number; stepsDone: number; finished: boolean; resumedAt: number;
    workers: number;
    /** Each worker's runner mode: 'worker', or 'main' where it fell back to the page. */
    modes: ('idle' | 'starting' | 'worker' | 'main')[];
    corpus: {
      vocabulary: number; sizes: { train: number; dev: number; validation: number };
      baselines: { uniform: number; unigram: number };
    } | null;
    /** Characters (steps × batch × context) per second trained in this page: per run, and in all over wall time. */
    throughput: {
      runs: { key: string; steps: number; seconds: number; charsPerSecond: number }[]; workers: number; seconds: number;
      charsPerSecond: number;
    };
    /**
     * Who is ahead at the latest step every run has reached: gaps are model − leader, paired by seed (ci95 from 3
     * seeds).
     */
    standings: { step: number; seeds: number; leader: string;
      models: { label: string; mean: number; values: number[] }[];
      gaps: { label: string; mean: number; ci95: [number, number] | null }[] } | null;
    runs: { model: string; label: string; seed: number; learningRate: number; parameters: number; initRms: number;
      stepsDone: number; diverged: boolean; curveSteps: number[]; curveValLoss: number[]; curveTrainLoss: number[];
      diagnostics: LmPoint['blocks'][];
      sample: { step: number; temperature: number; text: string } | null; options: object }[];
  } | null;
}

/** A layer of the orbit figures: ReGLU, Bilinear, symmetric (ReLU) or SwiGLU (no inverse-scaling orbit). */
export type OrbitLayerName = 'reglu' | 'bilinear' | 'symmetric' | 'swiglu';

/** <gatelab-teleport>: one unit's inverse-scaling orbit, teleports, and a race with teleports (docs/MATH.md §A21). */
export interface TeleportState {
  layer: OrbitLayerName;
  /** A race task (lab.datasets.tasks without 'user'). */
  task: string;
  /** Hidden units, 2 … 16. */
  hidden: number;
  /** The probed unit, 0 … hidden − 1 (shown as 1 … hidden). */
  unit: number;
  /** The probed factor c, 0.1 … 10 (slider on a log scale). */
  c: number;
  /** Full-batch gradient steps before the probe, 0 … 2000. */
  trained: number;
  /** η of the plain gradient steps, 0.001 … 2 (attribute `learning-rate`). */
  learningRate: number;
  /** What Teleport looks for on the grid: the lowest next-step loss, or the smallest ‖∇L‖. */
  goal: 'step' | 'gradient';
  /** The grid spans [1/reach, reach], 1.1 … 10 (default 1.5). */
  reach: number;
  /** Teleports done at the trained point, 0 … 8 (the Teleport button adds one). */
  teleports: number;
  /** The race teleports before every this many steps, 1 … 200. */
  every: number;
  /** Race length, 10 … 3000 steps. */
  steps: number;
  /** Race seeds, 1 … 8. */
  seeds: number;
  seed: number;
}
type Band = { mean: Float64Array; lo: Float64Array; hi: Float64Array };
export declare class GateLabTeleport extends GateLabFigure<TeleportState> {
  /** The worker's results (copies), null before they come. */
  readonly result: {
    orbit: { supported: boolean; message: string; stepsDone: number; lossNow: number; gradNow: number;
      here?: { loss: number; gradNorm: number; nextLoss: number };
      at?: { loss: number; gradNorm: number; nextLoss: number };
      jumps: { lossBefore: number; lossAfter: number; gradNormBefore: number; gradNormAfter: number }[];
      best?: Float32Array; balance?: Float32Array;
      orbit?: { c: Float32Array; loss: Float64Array; gradNorm: Float64Array; nextLoss: Float64Array } } | null;
    race: { step: Float32Array; plain: Band; teleported: Band | null; final: { plain: number[]; teleported: number[] };
      paired: object | null; supported: boolean; message: string;
      diverged: { plain: number; teleported: number } } | null;
  };
}

/**
 * <gatelab-conservation>: the balance ‖q_j‖² − ‖k_j‖² under training, its drift against the step (docs/MATH.md
 * §A14).
 */
export interface ConservationState {
  optimizer: 'sgd' | 'momentum' | 'adam';
  /** The layer whose per-unit balance is drawn. */
  layer: OrbitLayerName;
  /** Which step size of the ladder that run uses, 0 (largest) … 5. */
  rung: number;
  task: string;
  /** Hidden units, 2 … 12. */
  hidden: number;
  seed: number;
}
export declare class GateLabConservation extends GateLabFigure<ConservationState> {
  readonly result: { rates: number[]; steps: number[]; drift: Record<OrbitLayerName, Float64Array>;
    diverged: Record<OrbitLayerName, boolean[]>; trace: { step: number[]; balance: Float32Array[] } } | null;
}

/**
 * <gatelab-conditioning>: the empirical NTK's condition number (docs/MATH.md §A22) over training, with the train
 * loss on the same steps, for FFN, Bilinear, ReGLU, SwiGLU, symgated SiLU and σ(ab) (symmetric SiLU) at equal
 * parameters (the race's budget rule) on one race task.
 */
export interface ConditioningState {
  task: 'circle' | 'xor' | 'gaussians' | 'spiral' | 'checkerboard' | 'teacher';
  /** Parameters per model, 28 … 1024. */
  budget: number;
  /** Training steps, 30 … 6000. */
  steps: number;
  /** Full-batch 'sgd' (gradient descent), 'momentum' or 'adam'. */
  optimizer: 'sgd' | 'momentum' | 'adam';
  /** 0.0001 … 10 (attribute `learning-rate`). */
  learningRate: number;
  /**
   * Training inputs the NTK is measured on, 2 … 256, default 6: on (x, y, 1) Bilinear's kernel has rank ≤ 6
   * (docs/MATH.md §A22), so with more inputs its κ is infinite.
   */
  rows: number;
  seed: number;
}
/** One model of <gatelab-conditioning>, as the library reported it. */
export interface ConditioningModelResult {
  label: string;
  hidden: number;
  parameters: number;
  /** The lab.createTrainer options of the run. */
  options: object;
  /** Rows of the NTK batch (the first training inputs). */
  ntkRows: number;
  /** lab.symmetry.ntk's conditionNumber and largest eigenvalue at each checkpoint. */
  kappa: { step: number[]; value: number[]; largest: number[] };
  loss: { step: Float32Array; trainLoss: Float32Array };
  divergence: object | null;
}
export declare class GateLabConditioning extends GateLabFigure<ConditioningState> {
  task: ConditioningState['task'];
  budget: number;
  steps: number;
  optimizer: ConditioningState['optimizer'];
  learningRate: number;
  rows: number;
  seed: number;
  /** The models finished so far, in the figure's order (a fresh copy each read). */
  readonly results: ConditioningModelResult[];
}

export interface PaperAFigures {
  'gatelab-exchange': typeof GateLabExchange;
  'gatelab-scaling': typeof GateLabScaling;
  'gatelab-rank': typeof GateLabRank;
  'gatelab-census': typeof GateLabCensus;
  'gatelab-race': typeof GateLabRace;
  'gatelab-interactions': typeof GateLabInteractions;
  'gatelab-lm': typeof GateLabLm;
  'gatelab-teleport': typeof GateLabTeleport;
  'gatelab-conservation': typeof GateLabConservation;
  'gatelab-conditioning': typeof GateLabConditioning;
}

declare global {
  interface HTMLElementTagNameMap {
    'gatelab-exchange': GateLabExchange;
    'gatelab-scaling': GateLabScaling;
    'gatelab-rank': GateLabRank;
    'gatelab-census': GateLabCensus;
    'gatelab-race': GateLabRace;
    'gatelab-interactions': GateLabInteractions;
    'gatelab-lm': GateLabLm;
    'gatelab-teleport': GateLabTeleport;
    'gatelab-conservation': GateLabConservation;
    'gatelab-conditioning': GateLabConditioning;
  }
}
