// Types of web/lib/catalogue.js, which scripts/catalogue.mjs generates from the C++ core.
// import { NAMES, OPTIONS, LABELS } from 'gatelab/catalogue' — no wasm is loaded.

/**
 * How an option's value is read: 'name' and 'list' values come from NAMES[of]; 'object' options list theirs in
 * OPTIONS[of].
 */
export type OptionType =
  'integer' | 'number' | 'boolean' | 'name' | 'seed' | 'list' | 'floats' | 'object' | 'handle' | 'text';

export interface OptionInfo {
  readonly type: OptionType;
  /** The name set of a 'name' or 'list' option, or the entry of a nested object's options. */
  readonly of?: string;
}

/** Every entry point's options ('createLayer', 'lm.createSession', 'race.model' …); an option outside it is refused. */
export declare const OPTIONS: Readonly<Record<string, Readonly<Record<string, OptionInfo>>>>;

/** The named value sets: kinds, activations, optimizers, trainerOptimizers, losses, tasks, widthRules, diagonals … */
export declare const NAMES: Readonly<Record<string, readonly string[]>>;

/** What readers see for each layer kind and activation. */
export declare const LABELS: {
  readonly kinds: Readonly<Record<string, string>>;
  readonly activations: Readonly<Record<string, { readonly label: string; readonly shortLabel: string;
    readonly gatedName: string | null }>>;
};
