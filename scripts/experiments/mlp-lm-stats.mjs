// Plain-JavaScript statistics for the review of the mlp-lm run (mlp-lm-review.mjs): the same
// Student-t formulas as the C++ core's base/stats (docs/MATH.md §C1–§C3), so the review and its
// test run without the wasm build, plus what the core does not compute: the power of a paired
// t-test (noncentral t), the chance that a 95 % interval falls inside an equivalence margin, and
// Spearman's ρ with its exact permutation p-value. Nothing here reads or writes a file.

/** A(t | ν) = P(|T| ≤ t) for integer ν ≥ 1 (Abramowitz & Stegun 26.7.3–4, docs/MATH.md §C2). */
export function tAbsCdf(t, nu) {
  const x = Math.abs(t);
  const theta = Math.atan(x / Math.sqrt(nu));
  const c2 = Math.cos(theta) ** 2;
  if (nu === 1) return (2 * theta) / Math.PI;
  if (nu % 2 === 1) {
    let term = Math.cos(theta);
    let sum = term;
    for (let k = 3; k <= nu - 2; k += 2) {
      term *= ((k - 1) / k) * c2;
      sum += term;
    }
    return (2 / Math.PI) * (theta + Math.sin(theta) * sum);
  }
  let term = 1;
  let sum = 1;
  for (let k = 2; k <= nu - 2; k += 2) {
    term *= ((k - 1) / k) * c2;
    sum += term;
  }
  return Math.sin(theta) * sum;
}

/** The 97.5 % quantile of Student's t with ν degrees of freedom, by bisection (§C2). */
export function t975(nu) {
  let lo = 0;
  let hi = 1000;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (tAbsCdf(mid, nu) < 0.95) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Mean, sample SD, SE, 95 % t-interval, t and two-sided p of a list (§C1–§C2). */
export function summary(values) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const se = sd / Math.sqrt(n);
  const half = t975(n - 1) * se;
  const t = mean / se;
  return { n, mean, sd, se, ci95: [mean - half, mean + half], t, p: 1 - tAbsCdf(t, n - 1) };
}

/** The paired summary of a − b, seed by seed (§C3); a and b are equally long and in seed order. */
export function paired(a, b) {
  return summary(a.map((v, i) => v - b[i]));
}

// Φ through erfc (Numerical Recipes' erfcc: fractional error below 1.2e-7, enough for a power
// or a probability quoted to two digits).
function erfc(x) {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
    + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
    + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}
export const normalCdf = (x) => 0.5 * erfc(-x / Math.SQRT2);

// ln Γ(k/2) for integer k ≥ 1, exactly: Γ(1) = 1, Γ(½) = √π, Γ(x + 1) = xΓ(x).
function lnGammaHalf(k) {
  let x = k % 2 === 0 ? 1 : 0.5;
  let sum = k % 2 === 0 ? 0 : 0.5 * Math.log(Math.PI);
  for (; x < k / 2; x += 1) sum += Math.log(x);
  return sum;
}

/** E[f(V)] for V ~ χ²_ν, by Simpson's rule over the bulk of its density. */
function overChiSquare(nu, f, intervals = 4000) {
  const spread = 14 * Math.sqrt(2 * nu);
  const lo = Math.max(0, nu - spread);
  const hi = nu + spread + 40;
  const h = (hi - lo) / intervals;
  const lnNorm = (nu / 2) * Math.log(2) + lnGammaHalf(nu);
  const density = (v) => (v <= 0 ? (nu === 2 ? 0.5 : 0) : Math.exp((nu / 2 - 1) * Math.log(v) - v / 2 - lnNorm));
  let sum = 0;
  for (let i = 0; i <= intervals; i++) {
    const v = lo + i * h;
    const w = i === 0 || i === intervals ? 1 : i % 2 === 1 ? 4 : 2;
    sum += w * density(v) * f(v);
  }
  return (sum * h) / 3;
}

/**
 * The chance that the 95 % interval of a paired t-test with n seeds lies above 0 when the true
 * difference is `gap` and the SD of the differences is `sd` (noncentral t, one side; the other
 * side's chance is also returned, and is negligible for any gap worth the name). tc: the critical
 * t (default t_{0.975, n−1}; another level's from lab.stats.tQuantile).
 */
export function pairedPower(n, gap, sd, tc = t975(n - 1)) {
  const nu = n - 1;
  const ncp = gap / (sd / Math.sqrt(n));
  const above = overChiSquare(nu, (v) => normalCdf(ncp - tc * Math.sqrt(v / nu)));
  const below = overChiSquare(nu, (v) => normalCdf(-ncp - tc * Math.sqrt(v / nu)));
  return { above, below, ncp, tCritical: tc };
}

/**
 * The chance that the 95 % interval of a paired difference over n seeds lies inside
 * (−margin, +margin) — "equivalent" by docs/MATH.md §C5 — when the true difference is `truth`
 * and the SD of the differences is `sd`.
 */
export function equivalenceChance(n, sd, margin, truth = 0) {
  const nu = n - 1;
  const tc = t975(nu);
  const root = Math.sqrt(n);
  return overChiSquare(nu, (v) => {
    const half = (tc * sd * Math.sqrt(v / nu)) / root;
    if (half >= margin) return 0;
    return normalCdf(((margin - half - truth) * root) / sd) - normalCdf(((-margin + half - truth) * root) / sd);
  });
}

/** The fewest seeds whose chance of showing equivalence reaches `chance` (true difference 0). */
export function seedsForEquivalence(sd, margin, chance = 0.8, limit = 5000) {
  for (let n = 2; n <= limit; n++) if (equivalenceChance(n, sd, margin) >= chance) return n;
  return Infinity;
}

/** Ranks 1…n (no ties expected; ties get their average rank). */
export function ranks(values) {
  const order = values.map((value, i) => ({ value, i })).sort((a, b) => a.value - b.value);
  const r = new Array(values.length);
  for (let k = 0; k < order.length;) {
    let e = k;
    while (e + 1 < order.length && order[e + 1].value === order[k].value) e++;
    for (let t = k; t <= e; t++) r[order[t].i] = (k + e) / 2 + 1;
    k = e + 1;
  }
  return r;
}

const rho = (rx, ry) => {
  const m = (rx.length + 1) / 2;
  const num = rx.reduce((a, v, i) => a + (v - m) * (ry[i] - m), 0);
  const den = Math.sqrt(rx.reduce((a, v) => a + (v - m) ** 2, 0) * ry.reduce((a, v) => a + (v - m) ** 2, 0));
  return num / den;
};

/** Spearman's ρ between two equally long lists (average ranks for ties). */
export const spearman = (x, y) => rho(ranks(x), ranks(y));

function permutations(items) {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((p) => [x, ...p]));
}

/**
 * Spearman's ρ of x and y with its exact permutation p-values (every one of the n! orderings of
 * y's ranks, equally likely under no association): two-sided P(|ρ| ≥ |ρ_obs|) and one-sided
 * P(ρ ≥ ρ_obs). Exact for n ≤ 9.
 */
export function spearmanExact(x, y) {
  const rx = ranks(x);
  const ry = ranks(y);
  const observed = rho(rx, ry);
  const eps = 1e-12;
  let two = 0;
  let one = 0;
  const all = permutations(ry);
  for (const p of all) {
    const r = rho(rx, p);
    if (Math.abs(r) >= Math.abs(observed) - eps) two++;
    if (r >= observed - eps) one++;
  }
  return { rho: observed, pTwoSided: two / all.length, pOneSided: one / all.length, orderings: all.length, rx, ry };
}
