// lab.stats: the statistics of repeated runs (seeds) that the figures and experiments report,
// computed one way: the sample standard deviation (n − 1), the standard error, and the 95 %
// t-interval mean ± t₀.₉₇₅(n − 1)·se with the Student-t quantile for n − 1 degrees of freedom.
// For paired runs (the same seeds, two models), the same for the differences a − b. One
// implementation, so every figure and table that reports seeds agrees.
import { fail, finiteElements } from '../core/validate.js';

// ln Γ(z) for z > 0 by the Lanczos approximation (g = 7, 9 terms; relative error < 1e-15).
const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

function logGamma(z) {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

// The continued fraction of the incomplete beta function (modified Lentz).
function betaFraction(a, b, x) {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 500; m++) {
    for (const numerator of [(m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m)),
      (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))]) {
      d = 1 + numerator * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + numerator / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-16) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
function incompleteBeta(a, b, x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/**
 * The p-quantile (0.5 ≤ p < 1) of Student's t with df degrees of freedom: t with
 * P(T ≤ t) = p, i.e. I_x(df/2, 1/2) = 2(1 − p) at x = df/(df + t²), solved by bisection in x.
 */
export function studentTQuantile(p, df) {
  const target = 2 * (1 - p);
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 1100 && hi - lo > 0; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (incompleteBeta(df / 2, 0.5, mid) < target) lo = mid;
    else hi = mid;
  }
  const x = (lo + hi) / 2;
  return Math.sqrt((df * (1 - x)) / x);
}

function finiteValues(argument, values) {
  const isArray = Array.isArray(values) || values instanceof Float32Array || values instanceof Float64Array;
  if (!isArray) fail(argument, 'an Array, Float32Array or Float64Array of finite numbers', values, 'invalid-type');
  if (values.length === 0) fail(argument, 'a non-empty array of finite numbers', values, 'out-of-range');
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number') fail(`${argument}[${i}]`, 'a number', values[i], 'invalid-type');
  }
  return finiteElements(argument, values);
}

function describe(values) {
  const n = values.length;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  const sd = n > 1 ? Math.sqrt(squares / (n - 1)) : NaN;
  const se = sd / Math.sqrt(n);
  const half = n > 1 ? studentTQuantile(0.975, n - 1) * se : NaN;
  return { n, mean, sd, se, ci95: [mean - half, mean + half] };
}

/** { n, mean, sd, se, ci95: [lo, hi] } of values (sd, se and ci95 are NaN for one value). */
export function summary(values) {
  return describe(finiteValues('values', values));
}

/** summary() of the paired differences a[i] − b[i] (same seeds, two models). */
export function paired(a, b) {
  finiteValues('a', a);
  finiteValues('b', b);
  if (a.length !== b.length) fail('b', `as long as a (${a.length} values)`, b, 'invalid-value');
  return describe(Array.from(a, (v, i) => v - b[i]));
}

/** lab.stats. */
export const STATS = Object.freeze({ summary, paired });
