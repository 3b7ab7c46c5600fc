/**
 * GateLab: gated MLPs as symmetry-broken bilinear attention, and causal energy minimization,
 * computed by a C++ core compiled to WebAssembly. The package's one entry: it assembles the
 * lab from the areas' types (base, paper-a, train, cem, gp) and re-exports them all.
 *
 * Every array is a row-major Float32Array (a few results the core keeps in double, such as
 * lab.symmetry.ntk's, are Float64Arrays) and every result is a copy: nothing returned points
 * into wasm memory. Bad input throws {@link GateLabError} with a `code` and the offending
 * `argument`; the module stays usable afterwards.
 */

import type { ActivationCurve, ActivationInfo, ActivationName, GridOptions, Limits, Stats } from './base/base.js';
import type { Cem } from './cem/cem.js';
import type { Gp } from './gp/gp.js';
import type { PaperA } from './paper-a/paper-a.js';
import type { Train } from './train/train.js';
import type { Lm } from './train/lm.js';

/** The error type and its codes. */
export * from './core/errors.js';
/** The activation catalogue and lab.stats. */
export * from './base/base.js';
/** Paper A's layer family, symmetry probes and analyses. */
export * from './paper-a/paper-a.js';
/** Datasets, trainers and the race. */
export * from './train/train.js';
export * from './train/lm.js';
/** Paper B (causal energy minimization): lab.cem and its types. */
export * from './cem/cem.js';
/** In-context GP regression: lab.gp and its types. */
export * from './gp/gp.js';

/** One loaded module instance. Paper A's members are in {@link PaperA}, training's in {@link Train}. */
export interface GateLab extends PaperA, Train {
  /** The package.json version. */
  readonly version: string;
  readonly activations: readonly ActivationName[];
  readonly limits: Limits;
  /** Seed statistics: the sample SD and the 95 % t-interval, one way everywhere. */
  readonly stats: Stats;
  /** Paper B: CEM attention, the tied gated MLP, their baselines and the tie between them (cem.d.ts). */
  readonly cem: Cem;
  /** In-context GP regression: sequences, the exact posterior, and live training sessions (gp.d.ts). */
  readonly gp: Gp;
  /** Character language models trained live (train/lm.d.ts). */
  readonly lm: Lm;
  /** What the core knows of σ and the names readers know it by. */
  activationInfo(name: ActivationName): ActivationInfo;
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
