// Private to the library: e^x, log x, log(1 + u), softplus and the logistic sigmoid in double,
// built on the libm-free primitives of fastmath.hpp and rng.hpp, so native and wasm give the
// same bits (std::exp and std::log differ between C libraries). Every double transcendental
// of the CEM layers, the GP code and the multi-class losses comes from here.
#pragma once

#include <limits>

#include "base/fastmath.hpp"
#include "gatelab/base/rng.hpp"

namespace gatelab::scalar {

// e^x, log x (x ≥ 0; log 0 = −∞) and log(1 + u), all libm-free (fastmath.hpp, rng.hpp).
inline double exp(double x) { return portable_exp(x); }

inline double log(double x) {
  if (x != x || x < 0.0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0.0) return -std::numeric_limits<double>::infinity();
  if (x == std::numeric_limits<double>::infinity()) return x;
  return portable_log(x);
}

inline double log1p(double u) { return portable_log1p(u); }

inline double softplus(double x) { return x > 0.0 ? x + log1p(exp(-x)) : log1p(exp(x)); }

inline double sigmoid(double x) {
  if (x >= 0.0) return 1.0 / (1.0 + exp(-x));
  const double e = exp(x);
  return e / (1.0 + e);
}

}  // namespace gatelab::scalar
