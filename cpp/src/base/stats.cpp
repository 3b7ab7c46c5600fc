// Seed statistics (see stats.hpp). The t distribution's CDF is the regularised incomplete beta
// function I_x(df/2, 1/2) at x = df/(df + t²), evaluated by its continued fraction (modified
// Lentz) with log Γ from a Lanczos sum; the quantile inverts the CDF by bisection, which is
// slow but exact to the last few bits and never fails. All transcendentals are libm-free.
#include "gatelab/base/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "base/scalar_math.hpp"

namespace gatelab {
namespace {

constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();

// log Γ(x) for x ≥ 1/2, all this file needs (Lanczos, g = 7, 9 terms; relative error ~1e-15).
double log_gamma(double x) {
  static const double c[9] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                              771.32342877765313,   -176.61502916214059,   12.507343278686905,
                              -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
  x -= 1.0;
  double a = c[0];
  const double t = x + 7.5;
  for (int i = 1; i < 9; ++i) a += c[i] / (x + i);
  return 0.5 * scalar::log(2 * 3.14159265358979323846) + (x + 0.5) * scalar::log(t) - t + scalar::log(a);
}

// Continued fraction of the incomplete beta function (Numerical Recipes' betacf, Lentz).
double beta_fraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 400; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1.0 + aa * d;
    d = std::fabs(d) < tiny ? tiny : d;
    c = 1.0 + aa / c;
    c = std::fabs(c) < tiny ? tiny : c;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1.0 + aa * d;
    d = std::fabs(d) < tiny ? tiny : d;
    c = 1.0 + aa / c;
    c = std::fabs(c) < tiny ? tiny : c;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-16) break;
  }
  return h;
}

// I_x(a, b), 0 ≤ x ≤ 1.
double incomplete_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double front =
      scalar::exp(log_gamma(a + b) - log_gamma(a) - log_gamma(b) + a * scalar::log(x) + b * scalar::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_fraction(a, b, x) / a;
  return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

}  // namespace

double student_t_cdf(double t, int df) {
  if (t != t || df < 1) return nan_value;
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  const double nu = df, x = nu / (nu + t * t);
  const double tail = 0.5 * incomplete_beta(nu / 2.0, 0.5, x);  // P(T > |t|)
  return t > 0 ? 1.0 - tail : tail;
}

double student_t_quantile(double probability, int df) {
  if (!(probability > 0.0 && probability < 1.0) || df < 1) return nan_value;
  if (probability == 0.5) return 0.0;
  if (probability < 0.5) return -student_t_quantile(1.0 - probability, df);
  double lo = 0.0, hi = 1.0;
  while (student_t_cdf(hi, df) < probability) hi *= 2.0;  // t_{1 − 1e-16, 1} < 2^64: ends
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, df) < probability ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

namespace {

// §C1's mean of n ≥ 1 values and, for n ≥ 2, their sample SD: two passes in double, in index order.
double mean_of(const double* values, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += values[i];
  return sum / n;
}
double sd_about(const double* values, int n, double mean) {
  double squares = 0;  // about the mean, so no cancellation
  for (int i = 0; i < n; ++i) squares += (values[i] - mean) * (values[i] - mean);
  return std::sqrt(squares / (n - 1));
}

}  // namespace

SampleSummary summarize(const double* values, int n) {
  SampleSummary s;
  s.n = n;
  if (n < 1) {
    s.mean = s.sd = s.se = s.ci_low = s.ci_high = s.t = s.p = nan_value;
    return s;
  }
  s.mean = mean_of(values, n);
  if (n < 2) {
    s.sd = s.se = s.ci_low = s.ci_high = s.t = s.p = nan_value;
    return s;
  }
  s.sd = sd_about(values, n, s.mean);
  s.se = s.sd / std::sqrt(double(n));
  const double half = student_t_quantile(0.975, n - 1) * s.se;
  s.ci_low = s.mean - half;
  s.ci_high = s.mean + half;
  if (s.se > 0) {
    s.t = s.mean / s.se;
    s.p = 2.0 * (1.0 - student_t_cdf(std::fabs(s.t), n - 1));
  } else {
    s.t = s.mean == 0 ? 0.0 : (s.mean > 0 ? INFINITY : -INFINITY);
    s.p = s.mean == 0 ? 1.0 : 0.0;
  }
  return s;
}

SeedBands seed_bands(const std::vector<double>& values, int seeds) {
  SeedBands b;
  if (seeds < 1 || values.size() % std::size_t(seeds) != 0) return b;
  const std::size_t records = values.size() / std::size_t(seeds);
  for (std::size_t r = 0; r < records; ++r) {
    const double* v = values.data() + r * std::size_t(seeds);
    const double mean = mean_of(v, seeds);
    b.mean.push_back(mean);
    b.sd.push_back(seeds > 1 ? sd_about(v, seeds, mean) : 0.0);
    b.min.push_back(*std::min_element(v, v + seeds));
    b.max.push_back(*std::max_element(v, v + seeds));
  }
  return b;
}

SampleSummary summarize_paired(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  std::vector<double> diff(n);
  for (std::size_t i = 0; i < n; ++i) diff[i] = a[i] - b[i];
  return summarize(diff.data(), static_cast<int>(n));
}

std::vector<double> holm_adjust(const std::vector<double>& p) {
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
  std::vector<double> adjusted(m);
  double running = 0.0;
  for (std::size_t rank = 0; rank < m; ++rank) {
    const std::size_t i = order[rank];
    running = std::max(running, std::min(1.0, double(m - rank) * p[i]));
    adjusted[i] = running;
  }
  return adjusted;
}

}  // namespace gatelab
