// Types of the paper-B figures (causal energy minimization); web/components/index.d.ts
// re-exports them. See web/components/README.md.
import type { GateLabFigure } from '../base/gatelab-figure.js';

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
  /** −∇ε of the query at its start (lab.cem energyGradient), drawn as the plain step; null for precond 'none'. */
  descent: number[] | null;
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
  readonly result: {
    tiedParameters: number; standardParameters: number; maxDifference: number; tieHolds: boolean;
  } | null;
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

/**
 * <gatelab-precond>: the spectrum of P and what an indefinite P does to the descent (docs/MATH.md §B5). Fires
 * `computed`.
 */
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
    plainEnergies: number[]; crossing: number | null;
    /** −∇ε of the query at its start (lab.cem energyGradient): the plain step's direction. */
    descent: number[] } | null;
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
 * posterior. Fires `step` ({ stepsDone, steps, finished }) after each training chunk and `trained` when
 * the steps are done. Its properties are GpState's entries.
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
