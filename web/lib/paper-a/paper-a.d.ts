/**
 * Paper A, "Gated MLPs as Symmetry-Broken Rank-1 Bilinear Attention": one layer family (the MLP,
 * the symmetric form and the gated form, at any rank), its symmetry probes, the symmetry census,
 * rank-r approximation and interaction matrices, and the names readers know the layers by.
 */

import type { ActivationName, DrawParamsOptions, GridOptions, ParameterInfo } from '../base/base.js';

/**
 * mlp: docs/MATH.md §A1; symmetric: §A4 + §A6 (rank = dIn is the full bilinear attention MLP, §A3); gated: §A5 +
 * §A6.
 */
export type LayerKind = 'mlp' | 'symmetric' | 'gated' | 'bigated';

/** One entry of lab.layerKinds. */
export interface LayerKindInfo {
  readonly name: LayerKind;
  /** 'MLP', 'symmetric', 'gated' or 'bigated' (σ(a)σ(b), docs/MATH.md §A23). */
  readonly label: string;
}

export interface LayerOptions {
  kind: LayerKind;
  /** Default 'relu'. */
  activation?: ActivationName;
  /** swish only: σ(z) = z·sigmoid(βz). Default 1; |beta| ≤ limits.maxSwishBeta. */
  beta?: number;
  /** Integers from 1 to limits.maxLayerDim. */
  dIn: number;
  hidden: number;
  dOut: number;
  /** Integer from 1 to dIn, default 1; ignored by 'mlp'. */
  rank?: number;
  /** Integer from 0 to 2³² − 1, default 0. The same seed gives the same parameters everywhere. */
  seed?: number;
  /**
   * λ from 0 to 1, 'gated' only; default 0 (docs/MATH.md §A11). Unit j's coefficient becomes
   * Σ_t [(1 − λ/2) σ(a_jt) b_jt + (λ/2) σ(b_jt) a_jt]: λ = 0 is the gated layer bit for bit, λ = 1 is
   * exchange-symmetric for every σ. Outside [0, 1] throws 'out-of-range', on another kind 'unsupported',
   * both naming 'symmetrize'. `layer.options.symmetrize` holds it as a float32.
   */
  symmetrize?: number;
}

/** Q and K: hidden × rank × dIn; V: hidden × dOut. An 'mlp' layer has no Q and K is hidden × dIn. */
export interface LayerParams {
  Q?: Float32Array;
  K: Float32Array;
  V: Float32Array;
}

export interface LayerGradients {
  dx: Float32Array;
  dQ?: Float32Array;
  dK: Float32Array;
  dV: Float32Array;
}

export interface Layer {
  readonly options: Readonly<Required<LayerOptions>>;
  readonly kind: LayerKind;
  readonly dIn: number;
  readonly dOut: number;
  readonly parameterCount: number;
  /** Q (not 'mlp'), K and V as getParams returns them: name, size and [rows, cols]. */
  readonly parameterLayout: ParameterInfo[];
  /** The largest `rows` one call accepts for this layer. */
  readonly maxRows: number;
  readonly disposed: boolean;
  /** x: rows·dIn → rows·dOut. */
  forward(x: Float32Array, rows: number): Float32Array;
  /** Gradients of a loss whose gradient with respect to the output is gradOut (rows·dOut). */
  backward(x: Float32Array, rows: number, gradOut: Float32Array): LayerGradients;
  getParams(): LayerParams;
  /** Replaces the parameters given (Q, K, V); those not given keep their values. */
  setParams(params: Partial<LayerParams>): void;
  /**
   * Replaces the named parameters ('Q', 'K', 'V') by scale·N(0, 1) values from the library's generator, one
   * stream from options.seed through the names in the order given.
   */
  drawParams(names: string[], options?: DrawParamsOptions): void;
  /** A new layer with Q and K swapped (docs/MATH.md §A7). Throws 'unsupported' for 'mlp'. */
  exchanged(): Layer;
  /**
   * A new layer with Q·alpha and K/alpha (alpha finite, non-zero; docs/MATH.md §A8). Throws 'unsupported' for
   * 'mlp'.
   */
  rescaled(alpha: number): Layer;
  /** Frees the layer; later calls throw 'disposed'. Idempotent. */
  dispose(): void;
}

/**
 * The empirical neural tangent kernel of a layer on a batch (docs/MATH.md §A22), computed in double by the
 * core: J = ∂vec(f(X))/∂θ over every parameter (Q, K, V; 'mlp': K, V), one backward per output element.
 */
export interface NtkResult {
  /** G = J Jᵀ, (rows·dOut)² row-major; entry (i·dOut + o, i'·dOut + o') pairs output o of row i with o' of row i'. */
  gram: Float64Array;
  /** The rows·dOut eigenvalues of G, descending (they sum to its trace). */
  eigenvalues: Float64Array;
  /**
   * λ_1 / λ_k with k = min(rows·dOut, parameterCount): the spread of the directions the layer can move its
   * outputs in. +Infinity when λ_k ≤ 0 (J has rank below k); NaN when the layer overflows.
   */
  conditionNumber: number;
}

/** lab.symmetry. */
export interface Symmetry {
  /** ‖f_{K,Q}(X) − f_{Q,K}(X)‖_F / ‖f_{Q,K}(X)‖_F (docs/MATH.md §A7). Throws for 'mlp'. */
  exchangeGap(layer: Layer, x: Float32Array, rows: number): number;
  /** ‖f_{αQ,K/α}(X) − f(X)‖_F / ‖f(X)‖_F (docs/MATH.md §A8); alpha global, or one per hidden unit. */
  scalingGap(layer: Layer, x: Float32Array, rows: number, alpha: number | Float32Array): number;
  /**
   * n·n values: row i is a_i, column j is b_j, value σ(a)b − σ(b)a (docs/MATH.md §A16). Default n = 64. With
   * options.symmetrize λ, what swapping a and b changes in the symmetrised unit c_λ (§A11): (1 − λ)(σ(a)b − σ(b)a),
   * rounded as the layer rounds c_λ, so λ = 0 is the plain plane bit for bit and λ = 1 is exactly 0.
   * A λ outside [0, 1] throws 'out-of-range' (not finite: 'not-finite') naming 'options.symmetrize'.
   */
  exchangePlane(activation: ActivationName, options?: ExchangePlaneOptions): Float32Array;
  /**
   * The layer's empirical NTK on x (rows·dIn). Any kind. Caps: rows·dOut ≤ 256 (throws 'out-of-range' naming
   * 'rows') and parameterCount ≤ 16384 (throws 'out-of-range' naming 'layer').
   */
  ntk(layer: Layer, x: Float32Array, rows: number): NtkResult;
}

/** lab.symmetry.exchangePlane's options: the grid, and the λ dial of createLayer's `symmetrize`. */
export interface ExchangePlaneOptions extends GridOptions {
  /** λ ∈ [0, 1], default 0: the same meaning and range as LayerOptions.symmetrize (docs/MATH.md §A11). */
  symmetrize?: number;
}

/** A layer as lab.layerLabel names it; a layer's own `options` is one. */
export interface LayerDescription {
  kind: LayerKind;
  /** Default 'relu'. */
  activation?: ActivationName;
  /** Default 1; ignored by 'mlp'. */
  rank?: number;
  /** λ from 0 to 1 towards the exchange-symmetric gated form ('gated' only); default 0. */
  symmetrize?: number;
}

/** lab.census options: one row per kind × activation × rank (mlp rows ignore the rank). */
export interface CensusOptions {
  /** Default paper A's three: 'mlp', 'symmetric', 'gated' ('bigated' when named). */
  kinds?: LayerKind[];
  /** Default the whole catalogue. */
  activations?: ActivationName[];
  /** Ranks from 1 to dIn; default [1]. */
  ranks?: number[];
  /** The layer's sizes; default 4, 3, 3. A layer may have at most 256 parameters (the Jacobian is P × P). */
  dIn?: number;
  hidden?: number;
  dOut?: number;
  /** swish β, default 1. */
  beta?: number;
  /** Initial weights, default 1. */
  seed?: number;
  /** Random inputs the Jacobian is stacked over, 0 … 4096; default 0: automatic, ⌈8P / dOut⌉ + 16. */
  inputs?: number;
  /** Eigenvalues of JᵀJ below threshold · λmax count as null, in (0, 1); default 1e-12. */
  threshold?: number;
}

/** One row of the census (docs/MATH.md §A9): the continuous symmetries measured beside those the algebra predicts. */
export interface CensusRow {
  kind: LayerKind;
  activation: ActivationName;
  rank: number;
  dIn: number;
  hidden: number;
  dOut: number;
  parameters: number;
  inputs: number;
  jacobianRank: number;
  /** parameters − jacobianRank: the dimension of the null space. */
  measured: number;
  predicted: number;
  /** Why the algebra predicts that count. */
  explanation: string;
  /** The smallest eigenvalue counted as non-null, relative to λmax. */
  keptMin: number;
  /** The largest eigenvalue counted as null, relative to λmax (0 if none). */
  droppedMax: number;
  /** log10(keptMin / droppedMax): how unambiguous the count is (+Infinity when nothing was dropped). */
  gapDecades: number;
  /** False for 'mlp' (no Q). */
  exchangeApplicable: boolean;
  exchangePredicted: boolean;
  /** The exchange gap is below 1e-5. */
  exchangeMeasured: boolean;
  exchangeGap: number;
  /** The eigenvalues of JᵀJ / λmax, descending (parameters of them). */
  spectrum: Float32Array;
}

/** lab.rankApprox options: a random full bilinear attention MLP (symmetric, rank dIn). */
export interface RankApproxOptions {
  /** Default 'relu'. */
  activation?: ActivationName;
  beta?: number;
  /** 1 … 64; default 6. */
  dIn?: number;
  /** Default 4. */
  hidden?: number;
  /** Default 2. */
  dOut?: number;
  /** Random N(0, I) rows the error is measured on, 1 … 4096; default 256. */
  inputs?: number;
  /** Default 1. */
  seed?: number;
}

/**
 * One rank r of lab.rankApprox (docs/MATH.md §A6, §A18). Only S_j = sym(Q_jᵀK_j) acts, and one
 * (q, k) pair carries one positive and one negative eigenvalue of it, so the best rank-r layer keeps,
 * per unit, the r largest positive and the r most negative eigenvalues of S_j (nearest in Frobenius
 * norm to every S_j; not necessarily nearest in output error). The one-eigenvalue-per-pair
 * truncation (the r eigenvalues of largest |λ|) is the comparison curve.
 */
export interface RankApproxRow {
  rank: number;
  /** Best truncation: ‖f_r(X) − f(X)‖_F / ‖f(X)‖_F on the random inputs. */
  error: number;
  /** hidden · (2·rank·dIn + dOut). */
  parameters: number;
  /** Per token: 2(2·hidden·rank·dIn + hidden·rank + hidden·dOut) + hidden. */
  flops: number;
  /** Best truncation: Σ kept λ² / Σ λ² over all units. */
  energy: number;
  /** The same output error for the one-eigenvalue-per-pair truncation (exact only at rank = dIn). */
  onePerPairError: number;
  /** Σ kept λ² / Σ λ² of the one-eigenvalue-per-pair truncation; never above energy. */
  onePerPairEnergy: number;
  /** rank ≥ r*: the best truncation reproduces every S_j (error is float rounding, below 1e-5). */
  exact: boolean;
}

/** lab.rankApprox's rows r = 1 … r*, in order; only the last one is exact. */
export interface RankApproxResult extends Array<RankApproxRow> {
  /**
   * r* = max_j max(p_j, n_j), with p_j, n_j the numbers of positive and negative eigenvalues of
   * S_j: the least exact rank, between ⌈dIn/2⌉ (every unit's inertia balanced) and dIn.
   */
  exactAt: number;
}

/**
 * Interaction matrices of a layer for an output direction u (docs/MATH.md §A3). Without x: the
 * weight-based B_u = Σ_j (u·v_j) Q_jᵀK_j and its symmetric part, exact for σ = identity; with x:
 * the input-dependent matrix M_u(x), exact at x for every σ. Matrices are dIn × dIn row-major.
 */
export interface InteractionResult {
  /** sym(raw). */
  matrix: Float32Array;
  /** The matrix before symmetrising. */
  raw: Float32Array;
  /** The eigenvalues of matrix, largest |λ| first. */
  eigenvalues: Float32Array;
  /** Row i: the unit eigenvector of eigenvalues[i]. */
  eigenvectors: Float32Array;
  /** sym(raw) of the exchanged layer (Q ↔ K). */
  exchangedMatrix: Float32Array;
  /** x·matrix·xᵀ = u·f(x) (for every x, or at the given x). */
  exact: boolean;
  /** ‖raw − rawᵀ‖_F / ‖raw‖_F: what sym() removes. */
  rawAsymmetry: number;
  /** ‖matrix − exchangedMatrix‖_F / ‖matrix‖_F. */
  exchangeGap: number;
  /** With x: x·matrix·xᵀ. */
  quadratic?: number;
  /** With x: u·f(x). */
  output?: number;
}

/** The paper-A members of the lab (see GateLab in gatelab.d.ts). */
export interface PaperA {
  /** The kinds in order, each with its display label. Frozen. */
  readonly layerKinds: readonly LayerKindInfo[];
  readonly symmetry: Symmetry;
  createLayer(options: LayerOptions): Layer;
  /**
   * The name readers know: 'SwiGLU' (or 'gated (tanh)' when the gated form has no name),
   * 'symmetric (ReLU)', 'MLP (GELU)', 'symgated (SiLU)' for symmetrize 1; then ', rank r' for
   * r > 1 and ', λ = 0.25' for 0 < symmetrize < 1 ('SwiGLU, rank 2, λ = 0.25').
   */
  layerLabel(layer: LayerDescription): string;
  /** The symmetry census (docs/MATH.md §A9). */
  census(options?: CensusOptions): CensusRow[];
  /**
   * The best rank-r approximations of a random full layer, r = 1 … r* (where it becomes exact),
   * with the one-eigenvalue-per-pair truncation beside them (docs/MATH.md §A6, §A18).
   */
  rankApprox(options?: RankApproxOptions): RankApproxResult;
  /** u: dOut numbers; x: dIn numbers (optional). The layer needs a Q factor and dIn ≤ 256. */
  interactions(layer: Layer, u: Float32Array, x?: Float32Array): InteractionResult;
}
