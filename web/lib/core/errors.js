// The one error type of the public API: bad input and refused requests throw it, with a
// message that names the argument and what was expected. The module stays usable after.
export class GateLabError extends Error {
  constructor(message, { argument } = {}) {
    super(message);
    this.name = 'GateLabError';
    /** The name of the offending argument, when there is one. */
    this.argument = argument;
  }
}

/** Throws a GateLabError for a non-empty error string returned by the C++ core. */
export function throwIfError(error, argument) {
  if (error) throw new GateLabError(error, { argument });
}
