// Types of lab.lm (web/lib/train/lm.js): character language models trained live, the tiny
// transformer of docs/MATH.md §B10 with any paper-A layer in its MLP slot (§A20).
import type { ActivationName } from '../base/base.js';
import type { LayerKind } from '../paper-a/paper-a.js';

export type CorpusSplit = 'train' | 'dev' | 'validation';
export type LmOptimizerName = 'sgd' | 'momentum' | 'adam' | 'adamw';

export interface CorpusOptions {
  /** Share of the text held out as the dev split (default 0.05). */
  devFraction?: number;
  /** Share held out as the validation split, the text's tail (default 0.05). */
  validationFraction?: number;
}

/** A text cut into contiguous train, dev and validation characters. The vocabulary is the text's UTF-8 bytes. */
export interface LmCorpus {
  readonly options: { readonly devFraction: number; readonly validationFraction: number };
  readonly vocabulary: number;
  /** The distinct bytes of the text, in the vocabulary's order. */
  readonly symbols: string;
  readonly sizes: { train: number; dev: number; validation: number };
  /** uniform = log V; unigram = the add-one train frequencies scored on validation (nats per character). */
  readonly baselines: { uniform: number; unigram: number };
  dispose(): void;
}

/** The MLP slot: a paper-A layer d → d. */
export interface LmMlpOptions {
  kind?: LayerKind;             // default 'gated'
  activation?: ActivationName;  // default 'silu'
  rank?: number;                // default 1 (not for 'mlp')
  /** The symmetrised gated unit's λ ∈ [0, 1] (gated only; docs/MATH.md §A11). */
  symmetrize?: number;
  /** Width m (or d_ff); default from `budget`. */
  hidden?: number;
  /** MLP parameters per block (default 6·d²: gated m = 2d, FFN d_ff = 3d). */
  budget?: number;
  beta?: number;                // swish β
}

export interface LmSessionOptions {
  corpus: LmCorpus;
  mlp?: LmMlpOptions;
  d?: number;                   // default 32
  layers?: number;              // default 2
  heads?: number;               // default 4
  context?: number;             // characters predicted per window, default 32
  batch?: number;               // windows per step, default 8
  optimizer?: LmOptimizerName;  // default 'adamw'
  learningRate?: number;        // default 0.004
  weightDecay?: number;         // AdamW, on matrices only; default 0.1
  clipNorm?: number;            // global gradient norm, default 1 (0: off)
  momentum?: number;            // default 0.9
  warmup?: number;              // steps, default 50
  /** > 0: linear decay to 10 % of the rate at this step; default 0 (constant after warm-up). */
  decaySteps?: number;
  /** > 0: scale each block's MLP so its initial output RMS is this (see LmSession.mlpOutputRms). */
  mlpInitRms?: number;
  /** Renormalise every q to unit norm after each step (docs/MATH.md §A13). */
  gaugeFix?: boolean;
  seed?: number;                // the model's initial weights, default 1
  dataSeed?: number;            // the order of training windows, default = seed
}

export type ResolvedLmOptions = Required<Omit<LmSessionOptions, 'corpus' | 'mlp'>> & {
  mlp: Required<Omit<LmMlpOptions, 'budget' | 'beta'>> & { beta?: number };
};

/** One block's MLP diagnostics (docs/MATH.md §A12); NaN where a quantity does not apply. */
export interface LmBlockDiagnostics {
  antisymmetricShare: number;
  exchangeGap: number;
  qkBalance: number;
  qkDrift: number;
  /** σ's argument at the 5, 25, 50, 75 and 95 % quantiles. */
  preactivationQuantiles: number[];
}

export interface LmSession {
  readonly options: ResolvedLmOptions;
  readonly stepsDone: number;
  readonly parameterCount: number;
  readonly diverged: boolean;
  /** Runs n steps (≤ 10,000 a call); their mean train cross-entropies. */
  train(n?: number): Float64Array;
  losses(): Float64Array;
  /** Mean cross-entropy on `windows` fixed windows (0: all), nats per character. */
  evaluate(split?: CorpusSplit, windows?: number): number;
  sample(options?: { count?: number; temperature?: number; seed?: number }): string;
  diagnostics(split?: CorpusSplit, windows?: number): LmBlockDiagnostics[];
  mlpOutputRms(block?: number): number;
  /** Parameters, optimizer state, losses and the window stream: restore() resumes bit for bit. */
  checkpoint(): Uint8Array;
  restore(bytes: Uint8Array): void;
  dispose(): void;
}

export interface Lm {
  readonly splits: readonly CorpusSplit[];
  readonly optimizers: readonly LmOptimizerName[];
  readonly limits: { readonly maxContext: number; readonly maxBatch: number; readonly maxStepsPerCall: number };
  createCorpus(text: string, options?: CorpusOptions): LmCorpus;
  hiddenForBudget(options: { kind?: LayerKind; rank?: number; d: number; budget: number }): number;
  createSession(options: LmSessionOptions): LmSession;
}
