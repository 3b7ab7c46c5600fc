// lab.stats: the statistics of repeated runs (seeds) that the figures and experiments report,
// computed one way, by the C++ core (base/stats.hpp, docs/MATH.md §C1–§C4): the sample standard
// deviation (n − 1), the standard error, the 95 % t-interval mean ± t₀.₉₇₅(n − 1)·se, the
// one-sample t statistic against 0 with its two-sided p-value, and Holm's adjustment for a
// family of comparisons. For paired runs (the same seeds, two models), the same for a − b.
import { fail, finiteElements, finiteNumber, integer } from '../core/validate.js';

function finiteValues(argument, values, { minLength = 1 } = {}) {
  const isArray = Array.isArray(values) || values instanceof Float32Array || values instanceof Float64Array;
  if (!isArray) fail(argument, 'an Array, Float32Array or Float64Array of finite numbers', values, 'invalid-type');
  if (values.length < minLength) fail(argument, 'a non-empty array of finite numbers', values, 'out-of-range');
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number') fail(`${argument}[${i}]`, 'a number', values[i], 'invalid-type');
  }
  finiteElements(argument, values);
  return Array.from(values);
}

function shape(s) {
  return { n: s.n, mean: s.mean, sd: s.sd, se: s.se, ci95: [s.ciLow, s.ciHigh], t: s.t, p: s.p };
}

/** lab.stats for one module instance. */
export function createStats(core) {
  const m = core.module;
  return Object.freeze({
    /** { n, mean, sd, se, ci95: [lo, hi], t, p } of values (sd, se, ci95, p are NaN for one value). */
    summary(values) {
      return shape(m._statsSummary(finiteValues('values', values)));
    },
    /** summary() of the paired differences a[i] − b[i] (same seeds, two models). */
    paired(a, b) {
      const x = finiteValues('a', a);
      const y = finiteValues('b', b);
      if (x.length !== y.length) fail('b', `as long as a (${x.length} values)`, b, 'invalid-value');
      return shape(m._statsPaired(x, y));
    },
    /** The p-quantile of Student's t with df degrees of freedom (0 < p < 1, df ≥ 1 an integer). */
    tQuantile(p, df) {
      const probability = finiteNumber('p', p);
      if (!(probability > 0 && probability < 1)) fail('p', 'a probability strictly between 0 and 1', p, 'out-of-range');
      return m._statsTQuantile(probability, integer('df', df, { min: 1, max: 2 ** 31 - 1 }));
    },
    /**
     * Bands over seeds, record by record (the race's curves): runs holds one array per seed, all
     * equally long → { mean, sd, min, max }, one number per record (sd 0 for one seed).
     */
    bands(runs) {
      if (!Array.isArray(runs) || runs.length === 0) {
        const code = Array.isArray(runs) ? 'out-of-range' : 'invalid-type';
        fail('runs', 'a non-empty array of arrays, one per seed', runs, code);
      }
      const rows = runs.map((run, s) => finiteValues(`runs[${s}]`, run, { minLength: 0 }));
      const length = rows[0].length;
      rows.forEach((row, s) => row.length !== length && fail(`runs[${s}]`, `as long as runs[0] (${length})`, runs[s]));
      const flat = new Float64Array(length * rows.length);  // record-major, as the core reads it
      rows.forEach((row, s) => row.forEach((v, r) => (flat[r * rows.length + s] = v)));
      const { mean, sd, min, max } = m._statsBands(flat, rows.length);
      return { mean, sd, min, max };
    },
    /** Holm-adjusted p-values, in the order given (reject i at level α when adjusted[i] ≤ α). */
    holm(pValues) {
      const p = finiteValues('pValues', pValues);
      p.forEach((v, i) => (v < 0 || v > 1) && fail(`pValues[${i}]`, 'a p-value in [0, 1]', v, 'out-of-range'));
      return m._statsHolm(p);
    },
  });
}
