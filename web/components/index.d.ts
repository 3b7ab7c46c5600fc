// Types of GateLab's figure elements (web/components/index.js). See README.md beside this file.
import type { GateLab } from '../lib/gatelab.js';
import type { GateLabFigure } from './base/gatelab-figure.js';
import type { PaperAFigures } from './paper-a/figures.js';
import type { PaperBFigures } from './paper-b/figures.js';

// The base class is declared beside it, the figures of each paper beside them.
export * from './base/gatelab-figure.js';
export * from './paper-a/figures.js';
export * from './paper-b/figures.js';

export interface ExchangePlaneState {
  activation: string;
  beta: number;
  min: number;
  max: number;
  n: number;
  /** λ from 0 to 1 for the gated layers, default 0 (docs/MATH.md §A11): the plane is (1 − λ)·g. */
  symmetrize: number;
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
  symmetrize: number;
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
    hidden?: number; dOut?: number; rows?: number; trials?: number; symmetrize?: number },
    options?: RunOptions): Promise<ExchangeGaps>;
  run(task: 'exchangePlane', args: { activation: string; beta?: number; min?: number; max?: number; n?: number },
    options?: RunOptions): Promise<Float32Array>;
  /**
   * Paper A's tasks (paper-a-tasks.js): scaling curves, lab.rankApprox, lab.census, training one layer, race
   * sessions.
   */
  run(
    task: 'scalingCurves' | 'rankApprox' | 'census' | 'trainLayer' | 'raceStart' | 'raceStep' | 'raceWeights'
      | 'raceStop',
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
  /** The poster's file name: <tag>.png, or for another state the name to download it under and upload. */
  posterFile: string;
  /** For a state without a prebuilt poster: download it, upload it with the post, point src at it; else null. */
  posterNote: string | null;
  /** Poster image (sized, max-width:100%) linked to the live figure, as HTML, after the upload note if any. */
  poster: string;
  /** The figure's description and, once settled, its readout. */
  alt: string;
}
/** Names the site share links point to (`{version}` is filled in), or the web root they derive from. */
export declare function configureShare(options: { site?: string; webRoot?: string | URL }): void;
/**
 * The Share links of the figure's current state; `index` (posterIndex()) gives the prebuilt posters'
 * sizes and alt text.
 */
export declare function shareLinks(figure: GateLabFigure, version: string,
  options?: { index?: object | null }): ShareLinks;
/** The site's pinned root URL for `version`, ending in a slash. */
export declare function pinnedSite(version: string): string;
/** The site's dist/posters/index.json, fetched once; null where it has none. */
export declare function posterIndex(site: string): Promise<object | null>;

export declare const FIGURES: { 'gatelab-exchange-plane': typeof GateLabExchangePlane } & PaperAFigures & PaperBFigures;
export declare function defineFigures(): void;

declare global {
  interface HTMLElementTagNameMap {
    'gatelab-exchange-plane': GateLabExchangePlane;
  }
}
