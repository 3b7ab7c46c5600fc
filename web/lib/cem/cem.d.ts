/**
 * lab.cem: paper B, "Revisiting Transformer Layer Parameterization through Causal Energy
 * Minimization" (docs/MATH.md §B). A layer is T preconditioned gradient steps on a conditional
 * energy, started at the token itself (the residual):
 *
 *   y⁰ = h_i,   y^{t+1} = y^t − η P ∇_y ε(y^t | context),   output y^T.
 *
 * Attention: ε_att(y | h_0..h_i) = −(1/β) Σ_k log Σ_{j≤i} exp(β yᵀ A_k h_j), A_k = diag(d_k) + W_Q^kᵀ W_K^k;
 * one step is causal multi-head attention with W_V = W_K and W_O = η W_Qᵀ.
 * MLP: ε_mlp(y | h_i) = −Σ_k (U h_i)_k Φ((W y)_k), Φ' = φ; one step is a gated MLP with W_down = η Wᵀ.
 * P = I ('none'), diag(softplus(p)) + U Vᵀ + V Uᵀ ('paper', not positive definite in general)
 * or diag(softplus(p)) + U Uᵀ ('psd').
 *
 * Arrays are row-major Float32Arrays with one token per row (h: n·d, row i = token i); every
 * result is a copy. Bad input throws GateLabError naming the argument, with its code
 * ('unsupported' for energy() without a closed-form Φ and for the tie helpers on layers that are
 * not one standard layer).
 */

import type { ActivationName, DrawParamsOptions, ParameterInfo, ParameterPart } from '../base/base.js';

/** Diagonal of A_k (docs/MATH.md §B4): none; one d_k per head; one d shared by all heads. */
export type CemDiagonal = 'none' | 'per-head' | 'shared';

/** Preconditioner P (docs/MATH.md §B5). */
export type CemPrecond = 'none' | 'paper' | 'psd';

export interface CemAttentionOptions {
  /** Model width, 1 … limits.maxD. */
  d: number;
  /** Must divide d (head width d_h = d / heads). Default 1. */
  heads?: number;
  /** T, recursive steps with the same weights, 1 … limits.maxSteps. Default 1. */
  steps?: number;
  /** Step size η, in (0, limits.maxEta]. Default 1. */
  eta?: number;
  /** Inverse temperature β > 0; undefined (the default) means 1/√(d/heads), scaled dot-product attention. */
  beta?: number;
  /** Default 'none'. */
  diagonal?: CemDiagonal;
  /** Default 'none'. */
  precond?: CemPrecond;
  /** r, the rank of U (and V), 0 … min(d, limits.maxRank). Default 0 for 'none', else min(2, d). */
  precondRank?: number;
  /** Integer 0 … 2³² − 1, default 0. The same seed gives the same weights everywhere. */
  seed?: number;
}

export interface CemMlpOptions {
  d: number;
  /** M, the number of hidden units, 1 … limits.maxHidden. */
  hidden: number;
  /** φ, default 'relu'. energy() needs a closed-form antiderivative Φ (every activation but 'gelu_tanh'). */
  activation?: ActivationName;
  /** swish only: φ(z) = z·sigmoid(βz); default 1. */
  beta?: number;
  steps?: number;
  eta?: number;
  precond?: CemPrecond;
  precondRank?: number;
  seed?: number;
}

/**
 * CEM attention parameters (copies). Layouts, row-major:
 * - `WQ`, `WK`: (heads·d_h) × d = d × d; rows h·d_h … (h+1)·d_h − 1 are head h's W_Q^h (W_K^h).
 * - `diag` (diagonal ≠ 'none'): 'per-head': heads × d, row k = d_k; 'shared': 1 × d.
 * - `precond` (precond ≠ 'none'): ONE array [p (d) | U (d×r) | V (d×r, 'paper' only)], so
 *   d + 2·d·r numbers for 'paper' and d + d·r for 'psd'; P uses softplus(p) on its diagonal.
 */
export interface CemAttentionParams {
  WQ: Float32Array;
  WK: Float32Array;
  diag?: Float32Array;
  precond?: Float32Array;
}

/**
 * CEM MLP parameters (copies): `W` (the tied up/down projection) and `U` (the gate projection),
 * each M × d row-major; `precond` as for attention: [p (d) | U_P (d×r) | V_P (d×r, 'paper' only)].
 */
export interface CemMlpParams {
  W: Float32Array;
  U: Float32Array;
  precond?: Float32Array;
}

export interface CemAttentionGradients {
  /** dL/dh, n·d: through all T steps and through every later position that sees h as context. */
  dh: Float32Array;
  dWQ: Float32Array;
  dWK: Float32Array;
  dDiag?: Float32Array;
  dPrecond?: Float32Array;
}

export interface CemMlpGradients {
  dh: Float32Array;
  dW: Float32Array;
  dU: Float32Array;
  dPrecond?: Float32Array;
}

export interface CemGridOptions {
  /** Range of both plane coordinates u and v; default −3 … 3. */
  min?: number;
  max?: number;
  /** Samples per axis, 2 … limits.maxGrid; default 64. */
  G?: number;
  /** A point of the plane (d numbers); default 0. */
  origin?: Float32Array;
  /** Its two directions a₀, a₁ as 2·d numbers [a₀ | a₁]; default the first two coordinate axes (needs d ≥ 2). */
  axes?: Float32Array;
}

/** The parameter layout and drawParams' options every module shares (base.d.ts), by their lab.cem names. */
export type CemParameterInfo = ParameterInfo;
export type CemParameterPart = ParameterPart;

/** What CEM attention and the CEM MLP share. */
export interface CemLayer<Params, Gradients, Options> {
  readonly options: Readonly<Options>;
  readonly d: number;
  /** T. */
  readonly steps: number;
  readonly parameterCount: number;
  readonly parameterLayout: CemParameterInfo[];
  readonly disposed: boolean;
  /** h: n·d → the variables after all T steps, n·d. Causal: row i depends on rows 0 … i only. */
  forward(h: Float32Array, n: number): Float32Array;
  /** ε(y | context of token i), i zero-based (0 … n − 1), y: d numbers. Computed in double. */
  energy(h: Float32Array, n: number, i: number, y: Float32Array): number;
  /**
   * ∇_y ε(y | context of token i), d numbers (computed in double; the MLP needs only φ, so every
   * activation has it). −energyGradient(h, n, i, h_i) is one plain step from h_i (T = 1, η = 1, P = I).
   */
  energyGradient(h: Float32Array, n: number, i: number, y: Float32Array): Float32Array;
  /** n·(T+1): row i = the energy of token i's variable before the first step and after each step. */
  energyTrace(h: Float32Array, n: number): Float32Array;
  /** (T+1)·n·d: y⁰ = h, y¹, …, y^T, one n·d block per step. */
  trajectory(h: Float32Array, n: number): Float32Array;
  /**
   * G·G energies of token i's variable over the plane y = origin + u·a₀ + v·a₁, in one call:
   * value[r·G + c] at u = min + (max − min)·c/(G − 1) and v likewise for r.
   */
  energyGrid(h: Float32Array, n: number, i: number, options?: CemGridOptions): Float32Array;
  /** The smallest eigenvalue of P (1 for 'none'); negative means a step can raise the energy. */
  minEigenvalue(): number;
  /** P, d × d row-major. */
  preconditioner(): Float32Array;
  /** The d eigenvalues of P, ascending (d ≤ limits.maxSpectrumDim). */
  spectrum(): Float32Array;
  /** Gradients of a loss with dL/d(forward(h, n)) = gradOut (n·d). */
  backward(h: Float32Array, n: number, gradOut: Float32Array): Gradients;
  getParams(): Params;
  /** Replaces the parameters given (the others keep their values); layouts as getParams. */
  setParams(params: Partial<Params>): void;
  /**
   * Replaces the named parameters by scale·N(0, 1) values from the library's generator (one stream
   * from the seed, through the names in order): a parameter name, or 'precond.p', 'precond.U',
   * 'precond.V' for one part of the preconditioner. The others keep their values.
   */
  drawParams(names: string[], options?: DrawParamsOptions): void;
  /** Frees the layer; later calls throw. Idempotent. */
  dispose(): void;
}

export interface CemAttention
  extends CemLayer<CemAttentionParams, CemAttentionGradients, Required<CemAttentionOptions>> {
  readonly heads: number;
  /** β in use (1/√(d/heads) when not given). */
  readonly beta: number;
}

export interface CemMlp
  extends CemLayer<CemMlpParams, CemMlpGradients, Omit<Required<CemMlpOptions>, 'beta'> & { beta?: number }> {
  readonly hidden: number;
}

export interface StandardAttentionOptions {
  d: number;
  heads?: number;
  /** Default 1/√(d/heads). */
  beta?: number;
  seed?: number;
}

/** W_Q, W_K, W_V: (heads·d_h) × d (head h owns rows h·d_h …); W_O: d × (heads·d_h) (head h owns column block h). */
export interface StandardAttentionParams {
  WQ: Float32Array;
  WK: Float32Array;
  WV: Float32Array;
  WO: Float32Array;
}

/** Untied causal multi-head attention, concat_k(softmax_causal(β Q_k K_kᵀ) V_k) W_Oᵀ, without the residual. */
export interface StandardAttention {
  readonly options: Readonly<Required<StandardAttentionOptions>>;
  readonly d: number;
  readonly heads: number;
  readonly beta: number;
  /** 4d². */
  readonly parameterCount: number;
  readonly parameterLayout: CemParameterInfo[];
  readonly disposed: boolean;
  /** x: n·d → attention output n·d (no residual). */
  forward(x: Float32Array, n: number): Float32Array;
  getParams(): StandardAttentionParams;
  setParams(params: Partial<StandardAttentionParams>): void;
  /** As CemLayer.drawParams. */
  drawParams(names: string[], options?: DrawParamsOptions): void;
  dispose(): void;
}

export interface GatedMlpOptions {
  d: number;
  hidden: number;
  /** σ of the gate, default 'silu' (SwiGLU). */
  activation?: ActivationName;
  /** swish only. */
  beta?: number;
  seed?: number;
}

/** W_gate, W_up: M × d; W_down: d × M. */
export interface GatedMlpParams {
  Wgate: Float32Array;
  Wup: Float32Array;
  Wdown: Float32Array;
}

/** (σ(x W_gateᵀ) ⊙ x W_upᵀ) W_downᵀ, without the residual. */
export interface GatedMlp {
  readonly options: Readonly<Omit<Required<GatedMlpOptions>, 'beta'> & { beta?: number }>;
  readonly d: number;
  readonly hidden: number;
  /** 3dM. */
  readonly parameterCount: number;
  readonly parameterLayout: CemParameterInfo[];
  readonly disposed: boolean;
  forward(x: Float32Array, n: number): Float32Array;
  getParams(): GatedMlpParams;
  setParams(params: Partial<GatedMlpParams>): void;
  /** As CemLayer.drawParams. */
  drawParams(names: string[], options?: DrawParamsOptions): void;
  dispose(): void;
}

export interface CemLimits {
  maxD: number;
  maxRows: number;
  maxSteps: number;
  maxHeads: number;
  maxHidden: number;
  maxRank: number;
  maxEta: number;
  maxBeta: number;
  /** Largest G of energyGrid. */
  maxGrid: number;
  /** Largest single work tensor of one call, in floats. */
  maxTensorFloats: number;
  /** Largest d of spectrum(). */
  maxSpectrumDim: number;
}

export interface Cem {
  readonly diagonals: readonly CemDiagonal[];
  readonly preconditioners: readonly CemPrecond[];
  readonly limits: CemLimits;
  createAttention(options: CemAttentionOptions): CemAttention;
  createMlp(options: CemMlpOptions): CemMlp;
  createStandardAttention(options: StandardAttentionOptions): StandardAttention;
  createGatedMlp(options: GatedMlpOptions): GatedMlp;
  /**
   * The standard attention a one-step CEM attention is: W_Q, W_K copied, W_V = W_K, W_O = η W_Qᵀ,
   * so h + result.forward(h) equals attention.forward(h). Needs steps 1, diagonal 'none', precond 'none'.
   */
  asStandardAttention(attention: CemAttention): StandardAttention;
  /**
   * The gated MLP a one-step CEM MLP is: W_gate = W, W_up = U, W_down = η Wᵀ, so h + result.forward(h)
   * equals mlp.forward(h). Needs steps 1 and precond 'none'.
   */
  asGatedMlp(mlp: CemMlp): GatedMlp;
}
