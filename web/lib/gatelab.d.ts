/**
 * GateLab: gated MLPs as symmetry-broken bilinear attention, and causal energy minimization,
 * computed by a C++ core compiled to WebAssembly.
 *
 * Every array is a row-major Float32Array and every result is a copy: nothing returned points
 * into wasm memory. Bad input throws {@link GateLabError}; the module stays usable afterwards.
 */

import type { Cem } from './cem/cem.js';
import type { Gp } from './gp/gp.js';

/** Paper B (causal energy minimization): lab.cem and its types, see cem.d.ts. */
export * from './cem/cem.js';
/** In-context GP regression (issue 6): lab.gp and its types, see gp.d.ts. */
export * from './gp/gp.js';

/** Thrown for bad input and refused requests; `argument` names the offending argument. */
export class GateLabError extends Error {
  readonly name: 'GateLabError';
  readonly argument?: string;
}

export type ActivationName =
  | 'identity' | 'relu' | 'leaky_relu' | 'relu2' | 'gelu' | 'gelu_tanh'
  | 'silu' | 'swish' | 'sigmoid' | 'tanh' | 'softplus';

/** mlp: MATH.md A1; symmetric: A4 + A6 (rank = dIn is the full bilinear attention MLP, A3); gated: A5 + A6. */
export type LayerKind = 'mlp' | 'symmetric' | 'gated';

export interface ActivationInfo {
  name: ActivationName;
  /** Degree p with σ(αz) = αᵖσ(z) for every α > 0, or null when there is none. */
  homogeneity: number | null;
  /** σ(z) = c·z. */
  linear: boolean;
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
  /** The largest `rows` one call accepts for this layer. */
  readonly maxRows: number;
  readonly disposed: boolean;
  /** x: rows·dIn → rows·dOut. */
  forward(x: Float32Array, rows: number): Float32Array;
  /** Gradients of a loss whose gradient with respect to the output is gradOut (rows·dOut). */
  backward(x: Float32Array, rows: number, gradOut: Float32Array): LayerGradients;
  getParams(): LayerParams;
  setParams(params: LayerParams): void;
  /** A new layer with Q and K swapped. Throws for 'mlp'. */
  exchanged(): Layer;
  /** A new layer with Q·alpha and K/alpha (alpha finite, non-zero). Throws for 'mlp'. */
  rescaled(alpha: number): Layer;
  /** Frees the layer; later calls throw. Idempotent. */
  dispose(): void;
}

export interface GridOptions {
  /** Default −3. */
  min?: number;
  /** Default 3. */
  max?: number;
  /** Samples per axis, 2 … limits.maxCurvePoints. */
  n?: number;
  /** swish β, default 1. */
  beta?: number;
}

export interface Symmetry {
  /** ‖f_{K,Q}(X) − f_{Q,K}(X)‖_F / ‖f_{Q,K}(X)‖_F (MATH.md A7). Throws for 'mlp'. */
  exchangeGap(layer: Layer, x: Float32Array, rows: number): number;
  /** ‖f_{αQ,K/α}(X) − f(X)‖_F / ‖f(X)‖_F (MATH.md A8); alpha global, or one per hidden unit. */
  scalingGap(layer: Layer, x: Float32Array, rows: number, alpha: number | Float32Array): number;
  /** n·n values: row i is a_i, column j is b_j, value σ(a)b − σ(b)a. Default n = 64. */
  exchangePlane(activation: ActivationName, options?: GridOptions): Float32Array;
}

export interface ActivationCurve {
  z: Float32Array;
  value: Float32Array;
  derivative: Float32Array;
  /** σ(z)/z, with the limit σ'(0) at z = 0 when σ(0) = 0, and NaN there when σ(0) ≠ 0 (a pole). */
  ratio: Float32Array;
}

export interface Limits {
  maxLayerDim: number;
  maxLayerParams: number;
  maxBatchFloats: number;
  maxSwishBeta: number;
  maxCurvePoints: number;
}

export interface GateLab {
  /** The package.json version. */
  readonly version: string;
  readonly activations: readonly ActivationName[];
  readonly limits: Limits;
  readonly symmetry: Symmetry;
  /** Paper B: CEM attention, the tied gated MLP, their baselines and the tie between them (cem.d.ts). */
  readonly cem: Cem;
  /** In-context GP regression: sequences, the exact posterior, and live training sessions (gp.d.ts). */
  readonly gp: Gp;
  activationInfo(name: ActivationName): ActivationInfo;
  createLayer(options: LayerOptions): Layer;
  /** Samples of σ on [min, max] (default n = 256). */
  activationCurve(name: ActivationName, options?: GridOptions): ActivationCurve;
  /** How many handles are not disposed yet. */
  liveObjects(): number;
  /** Bytes of wasm linear memory held by this module instance. */
  heapBytes(): number;
}

export interface LoadOptions {
  /** Where to fetch gatelab_wasm.wasm from (a CDN or a custom path). */
  wasmUrl?: string | URL;
}

/** Loads a new module instance. Works on the main thread, in module workers and in Node ≥ 20. */
export function loadGateLab(options?: LoadOptions): Promise<GateLab>;

/** One instance per page or worker, shared by every caller. */
export function sharedGateLab(options?: LoadOptions): Promise<GateLab>;
