/**
 * lab.gp: in-context GP regression (docs/MATH.md §B7). Sample GP sequences of (x, y) pairs,
 * compute the exact posterior predictive (the best any model can do) and the context-mean
 * baseline, and train a small CEM or standard transformer on the task live. Every number comes
 * from the C++ core (cpp/src/gp/).
 *
 * A sequence is n = length pairs: x is n·dx numbers (row t = x_t), y is n numbers. Every array
 * is a Float32Array and every result a copy. Bad input throws GateLabError naming the option or
 * argument (e.g. `options.lengthScale`), with its code.
 */

import type { CemDiagonal } from '../cem/cem.js';

/** How the sequences are drawn: y = f(x) + noise with f ~ GP(0, s² exp(−‖x − x'‖² / 2ℓ²)). */
export interface GpDataOptions {
  /** Input dimension, 1 … 16. Default 1. */
  dx?: number;
  /** Pairs per sequence, 1 … 512. Default 16. */
  length?: number;
  /** RBF length scale ℓ. Default 0.5. */
  lengthScale?: number;
  /** Signal variance s². Default 1. */
  signalVar?: number;
  /** Observation noise σ (a standard deviation). Default 0.1. */
  noiseStd?: number;
  /** x uniform on [−1, 1]^dx (the default) or N(0, I). */
  inputs?: 'uniform' | 'normal';
}

/** A model learning the task: its data (GpDataOptions), architecture and training. */
export interface GpModelOptions extends GpDataOptions {
  /** CEM layers or a standard transformer. Default 'cem'. */
  family?: 'cem' | 'standard';
  /** T, recursive steps of the CEM layers, 1 … 16. Default 1. */
  steps?: number;
  /**
   * Diagonal of the CEM attention, spelled as in lab.cem. Default 'shared'. The older spelling
   * 'per_head' is still accepted and means 'per-head' (the options report 'per-head').
   */
  diagonal?: CemDiagonal | 'per_head';
  /** Preconditioner of the CEM layers. Default 'none'. */
  precond?: 'none' | 'paper' | 'psd';
  /** Rank of the preconditioner's U (and V). Default 0. */
  precondRank?: number;
  /** Model width. Default 16. */
  d?: number;
  /** Number of layers. Default 2. */
  layers?: number;
  /** Attention heads. Default 2. */
  heads?: number;
  /** Hidden units of each MLP. Default 32. */
  hidden?: number;
  /** Step size η of the CEM layers. Default 0.25. */
  eta?: number;
  /**
   * Each CEM layer learns its own η = softplus(θ), starting at `eta` (docs/MATH.md §B14);
   * `stepSizes()` reads them. Default false.
   */
  learnEta?: boolean;
  /** Fresh sequences per training step. Default 8. */
  batch?: number;
  /** AdamW learning rate. Default 0.003. */
  lr?: number;
  /** Warm-up steps of the learning rate. Default 20. */
  warmup?: number;
  /** Gradient-norm clip. Default 1. */
  clipNorm?: number;
  /** Initial weights and training stream, 0 … 2³² − 1. Default 0. */
  seed?: number;
}

/** One sequence: x is length·dx numbers, y is length numbers. */
export interface GpSequence {
  x: Float32Array;
  y: Float32Array;
}

/** The posterior predictive of y: one mean and one variance (noise included) per position or query. */
export interface GpPosterior {
  mean: Float32Array;
  variance: Float32Array;
}

/** Every option filled in, diagonal in the one spelling of the API. */
export type GpResolvedOptions = Required<Omit<GpModelOptions, 'diagonal'>> & { diagonal: CemDiagonal };

/** A model learning in-context GP regression; dispose() it when done. */
export interface GpSession {
  /** The options the session was created with, defaults filled in. */
  readonly options: Readonly<GpResolvedOptions>;
  readonly stepsDone: number;
  readonly parameterCount: number;
  /** True once a step gave a non-finite loss; train() then refuses to go on. */
  readonly diverged: boolean;
  readonly disposed: boolean;
  /** T of the CEM layers in predict() and predictAt(); 0 (the default): the T the model trains at. */
  readonly evalSteps: number;
  /**
   * From now on evaluates the model at `steps` recursive steps per layer, 0 … 16 (0: as
   * trained), while training keeps its own T: test-time recursion, e.g. a model trained at
   * T = 1 evaluated at T′ = 4. Throws GateLabError naming `steps`: 'out-of-range' outside
   * 0 … 16, 'unsupported' for a non-zero value on the standard family.
   */
  setEvalSteps(steps: number): void;
  /**
   * η of each block's CEM attention and MLP, learned (learnEta) or fixed, as
   * [attention₀, MLP₀, attention₁, MLP₁, …] (2·layers numbers). Family cem only ('unsupported').
   */
  stepSizes(): Float32Array;
  /**
   * Runs n AdamW steps (default 1, at most 10000 a call), each on `batch` fresh sequences; returns their mean train
   * MSEs.
   */
  train(n?: number): Float32Array;
  /** The prediction of y_t at every position t of seq (the model sees only the pairs before t). */
  predict(seq: GpSequence): Float32Array;
  /** Predictions at queries xq (m·dx numbers) placed after the first `context` pairs of seq (0 … length − 1). */
  predictAt(seq: GpSequence, context: number, xq: Float32Array): Float32Array;
  /** Every step's mean train MSE so far. */
  losses(): Float32Array;
  dispose(): void;
}

/** lab.gp. */
export interface Gp {
  /** Every option's default. */
  readonly defaults: Readonly<GpResolvedOptions>;
  /**
   * `count` sequences (default 1, at most 4096) named by `seed` (default 0): the same seed gives the same
   * sequences.
   */
  sample(options?: GpDataOptions, seed?: number, count?: number): GpSequence[];
  /** The exact posterior predictive of y_t given the pairs before t, and the running mean of y before t. */
  posterior(options: GpDataOptions, seq: GpSequence): GpPosterior & { contextMean: Float32Array };
  /** The posterior predictive at queries xq (m·dx numbers) after the first `context` pairs (0 … length). */
  posteriorAt(options: GpDataOptions, seq: GpSequence, context: number, xq: Float32Array): GpPosterior;
  /** A model learning the task; dispose() it when done. */
  createSession(options?: GpModelOptions): GpSession;
}
