// Types of the figures' base class (gatelab-figure.js) and of the events every figure sends;
// web/components/index.d.ts re-exports them, and each paper's figures.d.ts extends the class.
import type { GateLab } from '../../lib/gatelab.js';

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
  /** Downloads toPNG() as `filename` (default: the tag and the state, exportName()). */
  downloadPNG(filename?: string): Promise<void>;
  downloadCSV(): void;
}
