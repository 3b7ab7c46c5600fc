// PCG32 and polar Box–Muller; see rng.hpp for why nothing here calls the C library.
#include "gatelab/base/rng.hpp"

#include <cmath>
#include <cstring>
#include <string>

namespace gatelab {

Status validate_seed(double seed, std::string_view field) {
  // In range first (NaN fails it), so the round trip through an integer is defined.
  const bool ok = seed >= 0 && seed <= 4294967295.0 && static_cast<double>(static_cast<std::uint64_t>(seed)) == seed;
  return ok ? Status{} : out_of_range(field, std::string(field) + " must be an integer from 0 to 4294967295");
}

Pcg32::Pcg32(std::uint64_t seed, std::uint64_t stream) : increment_((stream << 1u) | 1u) {
  // The reference pcg32_srandom_r sequence: advance, add the seed, advance.
  next_u32();
  state_ += seed;
  next_u32();
}

std::uint32_t Pcg32::next_u32() {
  const std::uint64_t old = state_;
  state_ = old * 6364136223846793005ULL + increment_;
  const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
  const auto rot = static_cast<std::uint32_t>(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

float Pcg32::uniform() { return static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f); }

float Pcg32::uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }

std::uint32_t Pcg32::below(std::uint32_t bound) {
  // Lemire-free classic: reject the short final bucket.
  const std::uint32_t threshold = (0u - bound) % bound;
  for (;;) {
    const std::uint32_t r = next_u32();
    if (r >= threshold) return r % bound;
  }
}

double Pcg32::normal_double() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  for (;;) {
    // 53-bit uniforms in (-1, 1).
    const std::uint64_t a = (static_cast<std::uint64_t>(next_u32()) << 21) ^ next_u32();
    const std::uint64_t b = (static_cast<std::uint64_t>(next_u32()) << 21) ^ next_u32();
    const double u = static_cast<double>(a & ((1ULL << 53) - 1)) * (2.0 / 9007199254740992.0) - 1.0;
    const double v = static_cast<double>(b & ((1ULL << 53) - 1)) * (2.0 / 9007199254740992.0) - 1.0;
    const double s = u * u + v * v;
    if (s >= 1.0 || s == 0.0) continue;
    const double factor = std::sqrt(-2.0 * portable_log(s) / s);  // sqrt is correctly rounded everywhere
    spare_ = v * factor;
    has_spare_ = true;
    return u * factor;
  }
}

float Pcg32::normal() { return static_cast<float>(normal_double()); }

double portable_log(double x) {
  // x = m · 2^e with m in [√½, √2); log m = 2 atanh(t), t = (m − 1)/(m + 1), |t| < 0.172.
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  if (exponent == 0) {         // subnormal: scale into the normal range first
    x *= 18014398509481984.0;  // 2^54
    std::memcpy(&bits, &x, sizeof bits);
    exponent = static_cast<int>((bits >> 52) & 0x7ff) - 54;
  }
  exponent -= 1023;
  bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
  double m;
  std::memcpy(&m, &bits, sizeof m);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    exponent += 1;
  }
  const double t = (m - 1.0) / (m + 1.0);
  const double t2 = t * t;
  // atanh series to t^23: the first omitted term is below 2e-18 relative.
  double series = 1.0 / 23.0;
  for (int k = 21; k >= 1; k -= 2) series = 1.0 / k + t2 * series;
  constexpr double ln2 = 0.6931471805599453094;
  return 2.0 * t * series + exponent * ln2;
}

}  // namespace gatelab
