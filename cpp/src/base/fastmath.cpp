// Double-precision scalar helpers for the antiderivatives (MATH.md B3): exp, expm1, log1p,
// the normal CDF and the dilogarithm, from IEEE arithmetic, sqrt and portable_log only, so
// Φ(z) has the same bits natively and in WebAssembly. Speed is secondary here (these serve
// energies and tests), clarity and a few-ulp accuracy are not.
#include "base/fastmath.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "gatelab/base/rng.hpp"

namespace gatelab {
namespace {

// 2ⁿ for n in [−1022, 1023] through the exponent field.
double pow2(int n) {
  const std::uint64_t bits = static_cast<std::uint64_t>(n + 1023) << 52;
  double r;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}

// e^r − 1 for |r| ≤ 0.5 by its Taylor series (terms to r¹⁸: the rest is below 1e-22·|r|).
double expm1_taylor(double r) {
  double sum = 1.0;
  for (int k = 18; k >= 2; --k) sum = 1.0 + r * sum / k;
  // sum is now 1 + r/2! + r²/3! + … + r¹⁷/18!, so r·sum = e^r − 1.
  return r * sum;
}

// Normal density e^(−z²/2)/√(2π).
double normal_pdf(double z) { return portable_exp(-0.5 * z * z) * 0.39894228040143267794; }

}  // namespace

double portable_exp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  // x = n·ln2 + r, |r| ≤ ½ln2; ln2 split so n·hi is exact (fdlibm's constants).
  const double magic = 6755399441055744.0;  // 1.5·2⁵²: adding it rounds to an integer
  const double n = (x * 1.4426950408889634 + magic) - magic;
  const double r = (x - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;
  const double y = 1.0 + expm1_taylor(r);
  const int k = static_cast<int>(n);
  const int half = k / 2;  // two steps keep both factors normal down to subnormal results
  return y * pow2(half) * pow2(k - half);
}

double portable_expm1(double x) {
  if (x > -0.5 && x < 0.5) return expm1_taylor(x);
  return portable_exp(x) - 1.0;  // |result| ≥ 0.39: no harmful cancellation
}

double portable_log1p(double x) {
  const double m = 1.0 + x;
  if (m == 1.0) return x;
  // m − 1 and x − (m − 1) are exact; the latter is the rounding error of 1 + x.
  return portable_log(m) + (x - (m - 1.0)) / m;
}

double portable_normal_cdf(double z) {
  const double az = std::fabs(z);
  if (az < 2.5) {
    // Φ(z) = ½ + φ(z)·Σ z^(2k+1)/(1·3·5…(2k+1)) (all terms of one sign: no cancellation
    // inside the sum; the ½ − … for z < 0 loses at most a factor ½/Φ(−2.5) ≈ 80 of 1e-16).
    double term = z, sum = z;
    const double z2 = z * z;
    for (int k = 1; k < 200 && std::fabs(term) > 1e-18 * std::fabs(sum); ++k) {
      term *= z2 / (2 * k + 1);
      sum += term;
    }
    return 0.5 + normal_pdf(z) * sum;
  }
  // Upper tail by the continued fraction Q(t)/φ(t) = 1/(t + 1/(t + 2/(t + 3/(t + …)))),
  // evaluated backwards; 100 levels converge to double precision for t ≥ 2.5.
  double f = az;
  for (int k = 100; k >= 1; --k) f = az + k / f;
  const double tail = normal_pdf(az) / f;
  return z < 0 ? tail : 1.0 - tail;
}

double portable_dilog(double x) {
  // Li₂(x) = Σ Bₙ wⁿ⁺¹/(n+1)! with w = −log(1 − x) (Bernoulli numbers, B₁ = −½); for x in
  // [−1, ½], |w| ≤ ln 2 and the even terms shrink by (w/2π)² ≈ 0.012 each.
  const double w = -portable_log1p(-x);
  const double w2 = w * w;
  static const double b[9] = {2.77777777777777762e-02,  -2.77777777777777778e-04, 4.72411186696900978e-06,
                              -9.18577307466196408e-08, 1.89788699889710005e-09,  -4.06476164514422560e-11,
                              8.92169102045645230e-13,  -1.99392958607210744e-14, 4.51898002961991825e-16};
  double series = b[8];
  for (int k = 7; k >= 0; --k) series = b[k] + w2 * series;
  return w - 0.25 * w2 + w * w2 * series;
}

}  // namespace gatelab
