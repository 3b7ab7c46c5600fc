// The library's own random numbers: PCG32 (O'Neill 2014) for integers and uniforms, and
// Box–Muller in Marsaglia's polar form for normals. Only integer arithmetic, IEEE double
// +, −, ×, ÷, sqrt and an own logarithm are used, so a seed gives the same numbers
// natively, in node and in every browser (std::normal_distribution does not: libstdc++
// and libc++ differ).
#pragma once

#include <cstdint>
#include <string_view>

#include "gatelab/base/status.hpp"

namespace gatelab {

// A seed as a JS number arrives: ok when it is an integer from 0 to 2³² − 1 (so it converts to
// std::uint64_t exactly), else out_of_range naming field.
Status validate_seed(double seed, std::string_view field = "seed");

class Pcg32 {
 public:
  explicit Pcg32(std::uint64_t seed, std::uint64_t stream = 54u);

  std::uint32_t next_u32();
  // Uniform in [0, 1) with 24 random bits (exactly representable as float).
  float uniform();
  // Uniform in [lo, hi).
  float uniform(float lo, float hi);
  // Uniform integer in [0, bound), bound > 0, without modulo bias.
  std::uint32_t below(std::uint32_t bound);
  // Standard normal.
  float normal();
  double normal_double();

 private:
  std::uint64_t state_ = 0;
  std::uint64_t increment_ = 0;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// Natural logarithm of x > 0 from IEEE arithmetic alone (≤ 1 ulp in tests); the same
// bits everywhere, unlike std::log whose libm differs between glibc and musl.
double portable_log(double x);

}  // namespace gatelab
