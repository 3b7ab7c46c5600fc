// lab.stats (web/lib/base/stats.js over the C++ core's base/stats): the statistics of runs over
// seeds, one way for every figure and table. The sample SD divides by n − 1, and the 95 % interval
// is the t-interval with the Student-t quantile for n − 1 degrees of freedom, checked against the
// t distribution's closed-form CDF.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGateLab, GateLabError } from '../../../web/lib/gatelab.js';
const lab = await loadGateLab();
const studentTQuantile = (p, df) => lab.stats.tQuantile(p, df);
const close = (got, want, tolerance, what) => assert.ok(Math.abs(got - want) <= tolerance * Math.abs(want),
  `${what}: ${got} vs ${want}`);

// P(|T| < t) for Student's t with nu degrees of freedom, in closed form (a finite series in
// θ = atan(t/√nu)), independent of the incomplete beta function the library inverts.
function twoSided(t, nu) {
  const th = Math.atan(t / Math.sqrt(nu));
  const c = Math.cos(th);
  const s = Math.sin(th);
  let term = nu % 2 ? c : 1;
  let sum = nu % 2 ? (nu > 1 ? c : 0) : 1;
  for (let k = nu % 2 ? 3 : 2; k <= nu - 2; k += 2) {
    term *= (c * c * (k - 1)) / k;
    sum += term;
  }
  return nu % 2 ? (2 / Math.PI) * (th + s * sum) : s * sum;
}

test('the t quantile is the quantile: closed-form CDF, exact cases, textbook values', () => {
  for (const df of [...Array.from({ length: 40 }, (_, i) => i + 1), 50, 99, 100]) {
    const t = studentTQuantile(0.975, df);
    assert.ok(Math.abs(twoSided(t, df) - 0.95) < 1e-12, `df ${df}: P(|T| < ${t}) = ${twoSided(t, df)}`);
  }
  close(studentTQuantile(0.975, 1), Math.tan(Math.PI * 0.475), 1e-12, 'df 1: the Cauchy quantile');
  close(studentTQuantile(0.975, 2), 0.95 * Math.sqrt(2 / (1 - 0.95 ** 2)), 1e-12, 'df 2');
  close(studentTQuantile(0.975, 10), 2.228, 1e-3, 'the table value for df 10');
  close(studentTQuantile(0.975, 1e7), 1.959964, 1e-6, 'the normal limit');
  close(studentTQuantile(0.95, 10), 1.812, 1e-3, 'another p');
});

test('summary: mean, sample SD (n − 1), standard error and the 95 % t-interval', () => {
  const s = lab.stats.summary([2, 4, 4, 4, 5, 5, 7, 9]);
  assert.equal(s.n, 8);
  assert.equal(s.mean, 5);
  close(s.sd, Math.sqrt(32 / 7), 1e-15, 'sd');
  close(s.se, Math.sqrt(32 / 7) / Math.sqrt(8), 1e-15, 'se');
  const half = studentTQuantile(0.975, 7) * s.se;
  close(s.ci95[0], 5 - half, 1e-12, 'lower');
  close(s.ci95[1], 5 + half, 1e-12, 'upper');
  assert.deepEqual(lab.stats.summary(Float32Array.of(1, 2, 3)), lab.stats.summary([1, 2, 3]), 'typed arrays too');
  const one = lab.stats.summary([3]);
  assert.equal(one.mean, 3);
  assert.ok(Number.isNaN(one.sd) && Number.isNaN(one.se) && one.ci95.every(Number.isNaN), 'one value: no spread');
  const same = lab.stats.summary([0.5, 0.5, 0.5]);
  assert.deepEqual([same.sd, same.se, ...same.ci95], [0, 0, 0.5, 0.5]);
});

test('paired: the summary of the differences a − b, seed by seed', () => {
  const a = [0.91, 0.88, 0.95, 0.9];
  const b = [0.85, 0.86, 0.9, 0.87];
  assert.deepEqual(lab.stats.paired(a, b), lab.stats.summary(a.map((v, i) => v - b[i])));
  const p = lab.stats.paired(a, b);
  assert.ok(p.ci95[0] > 0, 'a beats b on every seed by a margin the interval resolves');
  assert.equal(lab.stats.paired([1, 2], [1, 2]).mean, 0);
});

test('bad input is a GateLabError naming the argument, with its code', () => {
  const refuses = (fn, argument, code) => assert.throws(fn, (e) => e instanceof GateLabError && e.argument === argument
    && e.code === code, `${argument} ${code}`);
  refuses(() => lab.stats.summary(), 'values', 'invalid-type');
  refuses(() => lab.stats.summary('1, 2'), 'values', 'invalid-type');
  refuses(() => lab.stats.summary([]), 'values', 'out-of-range');
  refuses(() => lab.stats.summary([1, '2']), 'values[1]', 'invalid-type');
  refuses(() => lab.stats.summary([1, NaN]), 'values', 'not-finite');
  refuses(() => lab.stats.summary(Float32Array.of(1, Infinity)), 'values', 'not-finite');
  refuses(() => lab.stats.paired([1, 2], [1]), 'b', 'invalid-value');
  refuses(() => lab.stats.paired(null, [1]), 'a', 'invalid-type');
});

test('holm: the step-down adjustment of the core, in the order given; bad p-values refused', () => {
  const adjusted = lab.stats.holm([0.01, 0.04, 0.03, 0.005]);
  const expected = [0.03, 0.06, 0.06, 0.02];
  adjusted.forEach((v, i) => close(v, expected[i], 1e-12, `p ${i}`));
  assert.throws(() => lab.stats.holm([0.5, 1.5]),
    (e) => e instanceof GateLabError && e.argument === 'pValues[1]' && e.code === 'out-of-range');
  const s = lab.stats.paired([1, 2, 3, 4.5], [0.5, 1.4, 2.6, 3.95]);
  assert.ok(s.ci95[0] > 0 && s.p < 0.05 && s.t > 0, 'every seed better: the interval excludes 0');
});

test('bands: per record the mean and SD of summary(), min and max; SD 0 for one seed', () => {
  const runs = [Float32Array.of(1, 0.5, 0.25), [2, 0.75, 0.75], Float64Array.of(0.5, 1.5, 1)];
  const bands = lab.stats.bands(runs);
  for (let i = 0; i < 3; i++) {
    const values = runs.map((run) => run[i]);
    const s = lab.stats.summary(values);
    assert.equal(bands.mean[i], s.mean, 'the same sums in the same order');
    assert.equal(bands.sd[i], s.sd);
    assert.equal(bands.min[i], Math.min(...values));
    assert.equal(bands.max[i], Math.max(...values));
  }
  const plain = (b) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, Array.from(v)]));
  assert.deepEqual(plain(lab.stats.bands([[3, 2]])), { mean: [3, 2], sd: [0, 0], min: [3, 2], max: [3, 2] });
  assert.deepEqual(plain(lab.stats.bands([[], []])), { mean: [], sd: [], min: [], max: [] });
  const refused = (fn, argument, code) => assert.throws(fn, (e) => e instanceof GateLabError && e.argument === argument
    && e.code === code);
  refused(() => lab.stats.bands([]), 'runs', 'out-of-range');
  refused(() => lab.stats.bands('x'), 'runs', 'invalid-type');
  refused(() => lab.stats.bands([[1, 2], [1]]), 'runs[1]', 'invalid-value');
  refused(() => lab.stats.bands([[1, NaN]]), 'runs[0]', 'not-finite');
});

test('the race figure\'s seed bands are lab.stats.bands\', a stopped run repeating its last record', async () => {
  const { reduceSeeds } = await import('../../../web/components/paper-a/race/race-session.js');
  const runs = [Float32Array.of(1, 0.5, 0.25), Float32Array.of(2, 0.75), Float32Array.of(0.5, 1.5, 1),
    new Float32Array(0)];
  const got = reduceSeeds(lab.stats, runs, 3);
  const want = lab.stats.bands([[1, 0.5, 0.25], [2, 0.75, 0.75], [0.5, 1.5, 1]]);
  assert.deepEqual(got.mean, Float32Array.from(want.mean));
  assert.deepEqual(got.std, Float32Array.from(want.sd));
  assert.deepEqual(got.min, Float32Array.from(want.min));
  assert.deepEqual(got.max, Float32Array.from(want.max));
});
