/**
 * The base of the lab: the activation catalogue (docs/MATH.md §A10) and the statistics of runs
 * over seeds.
 */

export type ActivationName =
  | 'identity' | 'relu' | 'leaky_relu' | 'relu2' | 'gelu' | 'gelu_tanh'
  | 'silu' | 'swish' | 'sigmoid' | 'tanh' | 'softplus';

/** lab.activationInfo(name): what the core knows of σ, and the names readers know it by. */
export interface ActivationInfo {
  name: ActivationName;
  /** Degree p with σ(αz) = αᵖσ(z) for every α > 0, or null when there is none. */
  homogeneity: number | null;
  /** σ(z) = c·z. */
  linear: boolean;
  /** The name in text and legends: 'ReLU', 'SiLU', 'GELU (tanh)', 'leaky ReLU' … */
  label: string;
  /** A short name for bar-chart axes: 'id', 'sigm', 'softp', 'GELUₜ' … */
  shortLabel: string;
  /**
   * The gated layer with this σ as Shazeer 2020 names it: 'SwiGLU', 'ReGLU', 'GEGLU', 'GEGLU (tanh)',
   * 'GLU', 'Bilinear'; null when it has no name.
   */
  gatedName: string | null;
}

/** A grid of σ values: [min, max] sampled at n points. */
export interface GridOptions {
  /** Default −3. */
  min?: number;
  /** Default 3; greater than min. */
  max?: number;
  /** Samples per axis, 2 … limits.maxCurvePoints. */
  n?: number;
  /** swish β, default 1; |beta| ≤ limits.maxSwishBeta. */
  beta?: number;
}

export interface ActivationCurve {
  z: Float32Array;
  value: Float32Array;
  derivative: Float32Array;
  /** σ(z)/z, with the limit σ'(0) at z = 0 when σ(0) = 0, and NaN there when σ(0) ≠ 0 (a pole). */
  ratio: Float32Array;
}

/** The caps of the core's paper-A layers and curves. */
export interface Limits {
  maxLayerDim: number;
  maxLayerParams: number;
  maxBatchFloats: number;
  maxSwishBeta: number;
  maxCurvePoints: number;
}

/** The statistics of n runs (one value per seed). */
export interface StatSummary {
  n: number;
  mean: number;
  /** The sample standard deviation, √(Σ(v − mean)² / (n − 1)); NaN for n = 1. */
  sd: number;
  /** The standard error sd / √n; NaN for n = 1. */
  se: number;
  /**
   * The 95 % t-interval mean ± t₀.₉₇₅(n − 1)·se, with the Student-t quantile for n − 1 degrees
   * of freedom; [NaN, NaN] for n = 1.
   */
  ci95: [number, number];
  /** mean / se, the one-sample t statistic against 0 (for paired runs: "no difference"). */
  t: number;
  /** Its two-sided p-value with n − 1 degrees of freedom; NaN for n = 1. */
  p: number;
}

/** Values the statistics take: finite numbers, at least one. */
export type StatValues = readonly number[] | Float32Array | Float64Array;

/** lab.stats: seed statistics computed one way for every figure and table. */
export interface Stats {
  /** The summary of values (one per seed). */
  summary(values: StatValues): StatSummary;
  /** The summary of the paired differences a[i] − b[i] (the same seeds, two models); a and b equally long. */
  paired(a: StatValues, b: StatValues): StatSummary;
  /** The p-quantile of Student's t with df degrees of freedom (0 < p < 1, integer df ≥ 1). */
  tQuantile(p: number, df: number): number;
  /** Holm's step-down adjusted p-values for a family of comparisons, in the order given. */
  holm(pValues: StatValues): number[];
  /**
   * Bands over seeds, record by record (a race's curves): runs holds one array per seed, all equally
   * long; per record the mean, the sample SD (0 for one seed) and the min and max over seeds.
   */
  bands(runs: readonly StatValues[]): StatBands;
}

/** Per record (one number each): the mean, sample SD, min and max over seeds. */
export interface StatBands {
  mean: Float64Array;
  sd: Float64Array;
  min: Float64Array;
  max: Float64Array;
}

/** One parameter of a module (paper A's layer or a lab.cem module), in getParams' order. */
export interface ParameterInfo {
  name: string;
  size: number;
  /** [rows, cols], or [size] for `precond`. */
  shape: number[];
  /** `precond` only: its parts p (d), U (d × r), V (d × r, the paper's form) and where each starts in its array. */
  parts?: ParameterPart[];
}

export interface ParameterPart {
  name: 'p' | 'U' | 'V';
  /** Where the part starts in the `precond` array. */
  offset: number;
  size: number;
  /** [d] for p, [d, r] for U and V. */
  shape: number[];
}

/** drawParams' options. */
export interface DrawParamsOptions {
  /** The generator's seed, an integer from 0 to 2³² − 1 (default 0). */
  seed?: number;
  /** The standard deviation, 0 … 1000 (default 1). */
  scale?: number;
}
