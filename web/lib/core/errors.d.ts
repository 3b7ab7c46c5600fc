/**
 * The one error type of GateLab's API. Bad input and refused requests throw it; the module
 * stays usable afterwards and nothing leaks.
 */

/**
 * What went wrong, for a program to switch on (the message says it for a reader):
 * - `'invalid-type'`: the argument has the wrong type: not a number, not an integer where an
 *   integer is needed, not a Float32Array, not an options object, a missing required option;
 * - `'not-finite'`: a number, or an element of an array, is NaN or ±Infinity;
 * - `'out-of-range'`: a number outside its documented interval, a size above its cap (also a
 *   request larger than the wasm heap can hold);
 * - `'invalid-value'`: a value of the right type the call does not accept: an unknown name, an
 *   array of the wrong length, an unknown option or parameter, a combination that does not fit
 *   (heads that do not divide d, min ≥ max);
 * - `'unsupported'`: a valid request this kind, activation or configuration cannot do
 *   (`exchanged()` on an 'mlp' layer, `energy()` of an activation without a closed-form
 *   antiderivative, an option that only applies to another kind or activation);
 * - `'disposed'`: the object has been disposed;
 * - `'invalid-state'`: the object's state refuses the call (a GP session that diverged).
 */
export type GateLabErrorCode =
  | 'invalid-type' | 'invalid-value' | 'out-of-range' | 'disposed' | 'unsupported' | 'not-finite' | 'invalid-state';

/** Thrown for bad input and refused requests. */
export class GateLabError extends Error {
  readonly name: 'GateLabError';
  /** What went wrong; see {@link GateLabErrorCode}. */
  readonly code: GateLabErrorCode;
  /**
   * The offending argument as the caller wrote it ('options.count', 'x', 'params.WQ'; 'this' for a
   * disposed object), when there is one.
   */
  readonly argument?: string;
}
