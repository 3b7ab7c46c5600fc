// Paper A's analyses of a layer family: the symmetry census (docs/MATH.md §A9), rank-r
// approximation of the full bilinear attention MLP (§A3, §A6) and interaction matrices (§A3).
// Every number comes from the C++ core (cpp/src/paper_a/{census,rank_approx,interactions}.cpp);
// this file validates, copies arrays in and out, and throws GateLabError.
import { throwCoreError } from '../core/errors.js';
import { using } from '../core/handles.js';
import {
  defaultOf, fail, finiteNumber, floatArray, integer, listOf, oneOf, optional, optionsOf, rangeOf, seedOf,
} from '../core/validate.js';
import { layerHandle } from './layer.js';

const OPTIONS = { argument: 'options', prefix: 'options' };

/** options.<name> of a catalogue entry: the core's default when left out, else an integer in the core's range. */
function integerOption(o, entry) {
  return (name) => optional(o[name], defaultOf(entry, name),
    (v) => integer(`options.${name}`, v, rangeOf(entry, name)));
}

/** The symmetry census: one row per kind × activation × rank. */
export function census(core, options) {
  const m = core.module;
  const o = optionsOf('options', options, 'census');
  const int = integerOption(o, 'census');
  const c = {
    // Empty: the core's default, paper A's three kinds (bigated, docs/MATH.md §A23, when named).
    kinds: listOf('options.kinds', o.kinds, [], (a, v) => oneOf(a, v, core.kinds)).join(','),
    activations: listOf('options.activations', o.activations, [], (a, v) => oneOf(a, v, core.activations)).join(','),
    // A rank is at most d_in (the core checks it against the given d_in).
    ranks: listOf('options.ranks', o.ranks, [1], (a, v) => integer(a, v, { max: rangeOf('census', 'dIn').max }))
      .join(','),
    dIn: int('dIn'),
    hidden: int('hidden'),
    dOut: int('dOut'),
    inputs: int('inputs'),
    beta: optional(o.beta, defaultOf('census', 'beta'), (v) => finiteNumber('options.beta', v)),
    seed: seedOf('options.seed', o.seed, defaultOf('census', 'seed')),
    threshold: optional(o.threshold, defaultOf('census', 'threshold'), (v) => finiteNumber('options.threshold', v)),
  };
  throwCoreError(m._paValidateCensus(c), OPTIONS);
  return using(m._paRunCensus(c), (run) => {
    throwCoreError(run.error(), OPTIONS);
    return Array.from({ length: run.rowCount() }, (_, i) => {
      const row = run.row(i);
      const [, spectrum] = core.heap.call([], [row.parameters], (p) => run.copySpectrum(i, p));
      return { ...row, spectrum };
    });
  });
}

/**
 * Rank-r approximations of a random full bilinear attention MLP (docs/MATH.md §A6, §A18): rows
 * r = 1 … r*, the first rank at which the best truncation is exact; the array also carries exactAt = r*.
 */
export function rankApprox(core, options) {
  const m = core.module;
  const o = optionsOf('options', options, 'rankApprox');
  const int = integerOption(o, 'rankApprox');
  const r = {
    activation: optional(o.activation, defaultOf('rankApprox', 'activation'),
      (v) => oneOf('options.activation', v, core.activations)),
    beta: optional(o.beta, defaultOf('rankApprox', 'beta'), (v) => finiteNumber('options.beta', v)),
    dIn: int('dIn'),
    hidden: int('hidden'),
    dOut: int('dOut'),
    inputs: int('inputs'),
    seed: seedOf('options.seed', o.seed, defaultOf('rankApprox', 'seed')),
  };
  throwCoreError(m._paValidateRankApprox(r), OPTIONS);
  const width = m._paRankRow;  // values per row of the core's table (rank_approx_table)
  const [error, flat] = core.heap.call([], [width * r.dIn], (p) => m._paRankApprox(r, p));
  throwCoreError(error, OPTIONS);
  const rows = [];
  for (let i = 0; i < r.dIn && flat[width * i] > 0; i++) {
    const f = flat.subarray(width * i, width * (i + 1));
    rows.push({ rank: f[0], error: f[1], parameters: f[2], flops: f[3], energy: f[4],
      onePerPairError: f[5], onePerPairEnergy: f[6], exact: f[7] === 1 });
  }
  return Object.assign(rows, { exactAt: rows.at(-1).rank });
}

/** The interaction matrix of a layer for output direction u (at input x when given). */
export function interactions(core, layer, u, x) {
  const m = core.module;
  const handle = layerHandle(layer);
  const d = layer.dIn;
  if (d > m._maxInteractionDim) fail('layer', `a layer with dIn <= ${m._maxInteractionDim}`, d, 'out-of-range');
  floatArray('u', u, layer.dOut, `dOut = ${layer.dOut}`);
  if (x !== undefined) floatArray('x', x, d, `dIn = ${d}`);
  const inputs = x === undefined ? [u] : [u, x];
  const [info, matrix, raw, eigenvalues, eigenvectors, exchangedMatrix] = core.heap.call(inputs,
    [d * d, d * d, d, d * d, d * d], (pu, ...rest) => {
      const px = x === undefined ? 0 : rest.shift();
      return m._paInteractions(handle, pu, px, ...rest);
    });
  throwCoreError(info.error, { argument: 'layer', fields: [] });
  const out = { matrix, raw, eigenvalues, eigenvectors, exchangedMatrix, exact: info.exact,
    rawAsymmetry: info.rawAsymmetry, exchangeGap: info.exchangeGap };
  if (x !== undefined) Object.assign(out, { quadratic: info.quadratic, output: info.output });
  return out;
}
