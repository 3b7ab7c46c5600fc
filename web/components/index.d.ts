// Types of GateLab's figure elements (web/components/index.js). See README.md beside this file.
import type { GateLab } from '../lib/gatelab.js';

/** What a figure's `change` event carries. */
export interface FigureChangeDetail<State> {
  /** Names of the state entries that changed. */
  changed: (keyof State)[];
  /** The whole state after the change. */
  state: State;
  /** Where the change came from: a control, a property set from JS, or an attribute. */
  source: 'user' | 'property' | 'attribute';
}

/** What a figure's `ready` event carries. */
export interface FigureReadyDetail<State> {
  state: State;
  /** The library version. */
  version: string;
  /** performance.now() at the first complete drawing. */
  time: number;
}

/** The base class of every figure. */
export declare class GateLabFigure<State extends object = Record<string, unknown>> extends HTMLElement {
  /** Attribute schema: name -> { type, default, min?, max?, values?, pattern? }. */
  static schema: Record<string, object>;
  static styles: string;
  static lazyMargin: string;
  /** One sentence on what the figure shows (manifest, iframe title, poster alt text). */
  static description: string;
  /** The events the figure adds to ready, change and error: name -> what its detail holds. */
  static events: Record<string, string>;
  /** How long (ms) a figure taken out of the page keeps its paused work before release(). */
  static releaseDelay: number;
  static define(tag: string): void;

  /** The loaded API, null until the figure starts (it starts near the viewport). */
  lab: GateLab | null;
  state: Readonly<State>;
  readonly visible: boolean;
  reducedMotion: boolean;
  /** Resolves after the first complete drawing. */
  readonly ready: Promise<this>;
  /** Resolves when the figure has started, finished its computations and drawn them. */
  settled(): Promise<this>;
  /** The live readout's current text. */
  readonly readoutText: string;
  setState(patch: Partial<State>, source?: 'user' | 'property' | 'attribute'): void;
  refreshTheme(): void;
  toPNG(): Promise<Blob>;
  toCSV(): string;
  downloadPNG(): Promise<void>;
  downloadCSV(): void;
}

export interface ExchangePlaneState {
  activation: string;
  beta: number;
  min: number;
  max: number;
  n: number;
  seed: number;
}

export interface ExchangeGaps {
  /** Exchange gap of a random gated layer (docs/MATH.md §A7). */
  gated: number;
  /** Exchange gap of a random symmetric layer: 0 up to rounding. */
  symmetric: number;
  /** An MLP has no query to exchange. */
  mlp: null;
  rows: number;
  trials: number;
}

/** <gatelab-exchange-plane>: g(a, b) = σ(a)b − σ(b)a, σ(z)/z, and the exchange gaps. */
export declare class GateLabExchangePlane extends GateLabFigure<ExchangePlaneState> {
  activation: string;
  beta: number;
  min: number;
  max: number;
  n: number;
  seed: number;
  /** [min, max] in use (the defaults when min >= max). */
  readonly range: [number, number];
  /** The last computed gaps, or null while computing. */
  readonly gaps: ExchangeGaps | null;
}

export declare function configureSharedLab(options: { wasmUrl?: string | URL }): void;
export declare function sharedLab(): Promise<GateLab>;

export interface RunOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** Runs lab-tasks.js tasks in a module worker (or, as a fallback, on the main thread in slices). */
export declare class LabRunner {
  constructor(options?: { worker?: boolean; workerUrl?: string | URL | null });
  readonly mode: 'idle' | 'starting' | 'worker' | 'main';
  run(task: 'exchangeGaps', args: { activation: string; beta?: number; seed?: number; dIn?: number;
    hidden?: number; dOut?: number; rows?: number; trials?: number }, options?: RunOptions): Promise<ExchangeGaps>;
  run(task: 'exchangePlane', args: { activation: string; beta?: number; min?: number; max?: number; n?: number },
    options?: RunOptions): Promise<Float32Array>;
  /** Paper A's tasks (paper-a-tasks.js): scaling curves, lab.rankApprox, lab.census, training one layer, race sessions. */
  run(task: 'scalingCurves' | 'rankApprox' | 'census' | 'trainLayer' | 'raceStart' | 'raceStep' | 'raceWeights' | 'raceStop',
    args: object, options?: RunOptions): Promise<unknown>;
  terminate(): void;
}
export declare function configureRunner(config: { worker?: boolean; workerUrl?: string | URL }): void;
export declare function sharedRunner(): LabRunner;

/** Mirrors a figure's state to location.hash; returns a function that stops it. */
export declare function mirrorStateToHash(element: GateLabFigure, options?: { key?: string }): () => void;

/** The Share / Embed links of a figure's current state, pinned to `gatelab@<version>`. */
export interface ShareLinks {
  version: string;
  /** The pinned site root, ending in a slash. */
  site: string;
  permalink: string;
  /** demos/frame.html?figure=<tag>&<attribute>=<value>… */
  frame: string;
  /** Script tag + element markup. */
  script: string;
  /** Responsive, titled, lazy iframe (+ the optional height script). */
  iframe: string;
  /** The prebuilt poster of this state, or null (only default states have one). */
  posterUrl: string | null;
  /** Poster image linked to the live figure, as HTML. */
  poster: string;
  alt: string;
}
/** Names the site share links point to (`{version}` is filled in), or the web root they derive from. */
export declare function configureShare(options: { site?: string; webRoot?: string | URL }): void;
export declare function shareLinks(figure: GateLabFigure, version: string): ShareLinks;

export declare const FIGURES: { 'gatelab-exchange-plane': typeof GateLabExchangePlane } & PaperAFigures & PaperBFigures;
export declare function defineFigures(): void;

declare global {
  interface HTMLElementTagNameMap {
    'gatelab-exchange-plane': GateLabExchangePlane;
  }
}

// ---- Paper A: gated MLPs as symmetry-broken rank-1 bilinear attention ------------

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
  /** Comma-separated "kind:activation" list, up to 16. */
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
    models: { label: string; kind: string; activation: string; hidden: number; parameters: number;
      curves: { step: Float32Array; trainLoss: RaceBand; testLoss: RaceBand; trainAccuracy: RaceBand; testAccuracy: RaceBand };
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
  blocks: { antisymmetricShare: number; exchangeGap: number; qkBalance: number; qkDrift: number; preactivationQuantiles: number[] }[];
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
  /** Everything computed so far (a fresh object each read), or null before the sessions start. */
  readonly results: {
    settings: object; state: LmState; steps: number; stepsDone: number; finished: boolean; resumedAt: number; workers: number;
    /** Each worker's runner mode: 'worker', or 'main' where it fell back to the page. */
    modes: ('idle' | 'starting' | 'worker' | 'main')[];
    corpus: { vocabulary: number; sizes: { train: number; dev: number; validation: number }; baselines: { uniform: number; unigram: number } } | null;
    /** Characters (steps × batch × context) per second trained in this page: per run, and in all over wall time. */
    throughput: { runs: { key: string; steps: number; seconds: number; charsPerSecond: number }[]; workers: number; seconds: number; charsPerSecond: number };
    /** Who is ahead at the latest step every run has reached: gaps are model − leader, paired by seed (ci95 from 3 seeds). */
    standings: { step: number; seeds: number; leader: string; models: { label: string; mean: number; values: number[] }[];
      gaps: { label: string; mean: number; ci95: [number, number] | null }[] } | null;
    runs: { model: string; label: string; seed: number; learningRate: number; parameters: number; initRms: number; stepsDone: number;
      diverged: boolean; curveSteps: number[]; curveValLoss: number[]; curveTrainLoss: number[]; diagnostics: LmPoint['blocks'][];
      sample: { step: number; temperature: number; text: string } | null; options: object }[];
  } | null;
}

export interface PaperAFigures {
  'gatelab-exchange': typeof GateLabExchange;
  'gatelab-scaling': typeof GateLabScaling;
  'gatelab-rank': typeof GateLabRank;
  'gatelab-census': typeof GateLabCensus;
  'gatelab-race': typeof GateLabRace;
  'gatelab-interactions': typeof GateLabInteractions;
  'gatelab-lm': typeof GateLabLm;
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
  }
}

// ---- Paper B: causal energy minimization ------------------------------------------

export interface EnergyState {
  /** 2 to 8 tokens "x,y" separated by spaces, each coordinate within ±6; the last is the query. */
  tokens: string;
  /** Inverse temperature, 0 … 8; 0 means 1/√d_h. */
  beta: number;
  /** Step size η, 0.02 … 4. */
  eta: number;
  /** T, 1 … 12. */
  steps: number;
  /** 1 or 2 (d = 2). */
  heads: number;
  diagonal: 'none' | 'per-head' | 'shared';
  precond: 'none' | 'paper' | 'psd';
  /** Half-width of the plotted token plane, 1 … 6. */
  extent: number;
  /** Energy grid side G, 16 … 200. */
  resolution: number;
  seed: number;
}

export interface EnergyResult {
  /** The tokens as [x₀, y₀, x₁, y₁, …]. */
  tokens: number[];
  /** The query's energy before the first step and after each step (lab.cem energyTrace). */
  energies: number[];
  /** The query's variable y⁰ … y^T as [x, y, …] (lab.cem trajectory). */
  path: number[];
  minEigenvalue: number;
  /** β in use. */
  beta: number;
}

/**
 * <gatelab-energy>: the energy landscape of a query token in a 2-D token space (docs/MATH.md §B2, §B4–§B6),
 * its T gradient steps, draggable context tokens. Fires `computed` ({ result, state }).
 */
export declare class GateLabEnergy extends GateLabFigure<EnergyState> {
  tokens: string;
  beta: number;
  eta: number;
  steps: number;
  heads: number;
  diagonal: EnergyState['diagonal'];
  precond: EnergyState['precond'];
  extent: number;
  resolution: number;
  seed: number;
  readonly result: EnergyResult | null;
  /** Where the token plane was last drawn, in CSS pixels of the landscape canvas. */
  readonly plotArea: { x: number; y: number; w: number; h: number; extent: number } | null;
}

export interface TyingState {
  layer: 'attention' | 'mlp';
  /** 2 … 12. */
  d: number;
  /** Must divide d; a value that does not becomes the largest divisor below it. */
  heads: number;
  /** M, the MLP's hidden units, 2 … 16 (attribute `units`). */
  units: number;
  activation: string;
  eta: number;
  /** Tokens sent through both layers, 2 … 12. */
  n: number;
  /** 0 (tied) … 1: noise added to W_V and W_O (W_down) of the standard layer. */
  untie: number;
  seed: number;
}

/** <gatelab-tying>: a tied CEM layer and the standard layer it equals (docs/MATH.md §B2, §B3). Fires `computed`. */
export declare class GateLabTying extends GateLabFigure<TyingState> {
  layer: TyingState['layer'];
  d: number;
  heads: number;
  units: number;
  activation: string;
  eta: number;
  n: number;
  untie: number;
  seed: number;
  readonly result: { tiedParameters: number; standardParameters: number; maxDifference: number; tieHolds: boolean } | null;
}

export interface PrecondState {
  /** 'paper': I + uvᵀ + vuᵀ; 'psd': I + uuᵀ (d = 2, rank 1). */
  form: 'paper' | 'psd';
  /** u and v, each coordinate in −2 … 2. */
  u1: number;
  u2: number;
  v1: number;
  v2: number;
  eta: number;
  steps: number;
  tokens: string;
  seed: number;
}

/** <gatelab-precond>: the spectrum of P and what an indefinite P does to the descent (docs/MATH.md §B5). Fires `computed`. */
export declare class GateLabPrecond extends GateLabFigure<PrecondState> {
  form: PrecondState['form'];
  u1: number;
  u2: number;
  v1: number;
  v2: number;
  eta: number;
  steps: number;
  tokens: string;
  seed: number;
  readonly result: { spectrum: number[]; minEigenvalue: number; positiveDefinite: boolean; energies: number[];
    plainEnergies: number[]; crossing: number | null } | null;
  /** Sets u = ĝ, v = −ĝ (ĝ the unit gradient at the start): P = I − 2ĝĝᵀ turns the first step uphill. */
  reflectGradient(): void;
}

export interface GpState {
  seed: number;
  /** Which held-out sequence the top panel shows. */
  sequence: number;
  /** Pairs per sequence, 4 … 32. */
  length: number;
  /** Input dimension, 1 … 4. */
  dx: number;
  lengthScale: number;
  noise: number;
  /** AdamW steps each model trains for, 0 … 5000. */
  trainSteps: number;
  /** Step size η the models train with, 0.01 … 1 (a change retrains). */
  eta: number;
  /** Each CEM layer learns its own η, starting at `eta` (a change retrains). */
  learnEta: boolean;
  /** T′ the trained models are evaluated at, 1 … 8, without retraining (test-time recursion); 0: as trained. */
  evalSteps: number;
  /** The recursion depth drawn on top: '1' | '2' | '4' | '8'. */
  highlight: '1' | '2' | '4' | '8';
  paused: boolean;
}

/** RMSE over held-out sequences: overall and by context length (position t). */
export interface GpRmse {
  rmse: number;
  byPosition: Float32Array;
}

/**
 * <gatelab-gp>: in-context GP regression (docs/MATH.md §B7): four CEM transformers with T = 1, 2, 4
 * and 8 recursive steps per layer train in the worker; their predictions beside the exact GP
 * posterior. Fires `trained` when the steps are done. Its properties are GpState's entries.
 */
export declare class GateLabGp extends GateLabFigure<GpState> {
  /** The latest numbers (a copy; rmse at evalSteps), or null before the first models exist. */
  readonly results: {
    stepsDone: number; evalSteps: number;
    baselines: { posterior: GpRmse; contextMean: GpRmse };
    /** stepSizes: η of each block's attention and MLP, [attention₀, MLP₀, attention₁, MLP₁]. */
    models: { steps: number; parameters: number; rmse: number; rmseByPosition: Float32Array; diverged: boolean;
      stepSizes: Float32Array }[];
  } | null;
}
export interface GateLabGp extends GpState {}

export interface PaperBFigures {
  'gatelab-energy': typeof GateLabEnergy;
  'gatelab-tying': typeof GateLabTying;
  'gatelab-precond': typeof GateLabPrecond;
  'gatelab-gp': typeof GateLabGp;
}

declare global {
  interface HTMLElementTagNameMap {
    'gatelab-energy': GateLabEnergy;
    'gatelab-tying': GateLabTying;
    'gatelab-precond': GateLabPrecond;
    'gatelab-gp': GateLabGp;
  }
}
