// Internal to the CEM sources (namespace cem_detail): the one place where the CEM code gets
// its transcendental functions, its matrix products and its activations.
//  - exp, log, log1p, softplus, sigmoid in double through the libm-free primitives of
//    fastmath.hpp and rng.hpp, so native and wasm give the same bits (std::exp/std::log
//    differ between libms). The CEM code calls no transcendental function but these.
//  - mm_nn / mm_tn / mm_nt<S>: gatelab::matmul_* for float; a plain loop that accumulates in
//    increasing k for double (the double instantiation exists for gradient tests only).
//  - act_forward / act_backward<S>: the activation catalogue (activations.hpp, float only);
//    the double instantiation rounds through float, so its gradients are good to ~1e-6.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>

#include "gatelab/base/activations.hpp"
#include "base/fastmath.hpp"
#include "gatelab/base/matmul.hpp"
#include "gatelab/base/rng.hpp"

namespace gatelab::cem_detail {

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

// log(e − 1): softplus of it is 1, so p filled with it makes diag(softplus(p)) = I.
inline constexpr double softplus_inverse_of_one = 0.541324854612918;

template <class S>
void mm_nn(const S* a, const S* b, S* c, int m, int k, int n, bool accumulate = false) {
  if constexpr (std::is_same_v<S, float>) {
    gatelab::matmul_nn(a, b, c, m, k, n, accumulate);
  } else {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        S sum = accumulate ? c[std::size_t(i) * n + j] : S(0);
        for (int t = 0; t < k; ++t) sum += a[std::size_t(i) * k + t] * b[std::size_t(t) * n + j];
        c[std::size_t(i) * n + j] = sum;
      }
    }
  }
}

// C (m×n) = Aᵀ B with A (k×m), B (k×n).
template <class S>
void mm_tn(const S* a, const S* b, S* c, int m, int k, int n, bool accumulate = false) {
  if constexpr (std::is_same_v<S, float>) {
    gatelab::matmul_tn(a, b, c, m, k, n, accumulate);
  } else {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        S sum = accumulate ? c[std::size_t(i) * n + j] : S(0);
        for (int t = 0; t < k; ++t) sum += a[std::size_t(t) * m + i] * b[std::size_t(t) * n + j];
        c[std::size_t(i) * n + j] = sum;
      }
    }
  }
}

// C (m×n) = A Bᵀ with A (m×k), B (n×k).
template <class S>
void mm_nt(const S* a, const S* b, S* c, int m, int k, int n, bool accumulate = false) {
  if constexpr (std::is_same_v<S, float>) {
    gatelab::matmul_nt(a, b, c, m, k, n, accumulate);
  } else {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        S sum = accumulate ? c[std::size_t(i) * n + j] : S(0);
        for (int t = 0; t < k; ++t) sum += a[std::size_t(i) * k + t] * b[std::size_t(j) * k + t];
        c[std::size_t(i) * n + j] = sum;
      }
    }
  }
}

// out[i] = σ(z[i]) over count elements.
template <class S>
void act_forward(ActivationSpec spec, const S* z, S* out, std::size_t count) {
  if constexpr (std::is_same_v<S, float>) {
    gatelab::activation_forward(spec, z, out, count);
  } else {
    for (std::size_t i = 0; i < count; ++i) out[i] = activation_value(spec, static_cast<float>(z[i]));
  }
}

// out[i] = σ'(z[i]) over count elements.
template <class S>
void act_backward(ActivationSpec spec, const S* z, S* out, std::size_t count) {
  if constexpr (std::is_same_v<S, float>) {
    gatelab::activation_backward(spec, z, out, count);
  } else {
    for (std::size_t i = 0; i < count; ++i) out[i] = activation_derivative(spec, static_cast<float>(z[i]));
  }
}

// x[j] ← e^x[j] for j < count: four float lanes at a time through fm::exp (the same bits
// in every lane position and on every platform); double through portable_exp.
inline void exp_inplace(double* x, int count) {
  for (int j = 0; j < count; ++j) x[j] = exp(x[j]);
}
inline void exp_inplace(float* x, int count) {
  int j = 0;
  for (; j + 4 <= count; j += 4) {
    fm::f32x4 v;
    std::memcpy(&v, x + j, sizeof v);
    v = fm::exp(v);
    std::memcpy(x + j, &v, sizeof v);
  }
  if (j < count) {
    fm::f32x4 v = fm::splat(0.0f);
    std::memcpy(&v, x + j, sizeof(float) * (count - j));
    v = fm::exp(v);
    std::memcpy(x + j, &v, sizeof(float) * (count - j));
  }
}

// Row-wise causal softmax in place: s (n×n) holds raw scores; row i becomes
// softmax_j≤i(beta · s_ij) and entries j > i become 0.
template <class S>
void causal_softmax(S* s, int n, S beta) {
  for (int i = 0; i < n; ++i) {
    S* row = s + std::size_t(i) * n;
    S top = beta * row[0];
    for (int j = 1; j <= i; ++j) top = std::max(top, beta * row[j]);
    for (int j = 0; j <= i; ++j) row[j] = beta * row[j] - top;
    exp_inplace(row, i + 1);
    S sum = 0;
    for (int j = 0; j <= i; ++j) sum += row[j];
    for (int j = 0; j <= i; ++j) row[j] = row[j] / sum;
    for (int j = i + 1; j < n; ++j) row[j] = 0;
  }
}

// Backward of causal_softmax: given alpha (n×n) and dalpha = dL/dα, overwrites dalpha with
// dL/ds (the raw scores, β included).
template <class S>
void causal_softmax_backward(const S* alpha, S* dalpha, int n, S beta) {
  for (int i = 0; i < n; ++i) {
    const S* a = alpha + std::size_t(i) * n;
    S* g = dalpha + std::size_t(i) * n;
    S dot = 0;
    for (int j = 0; j <= i; ++j) dot += a[j] * g[j];
    for (int j = 0; j <= i; ++j) g[j] = beta * a[j] * (g[j] - dot);
    for (int j = i + 1; j < n; ++j) g[j] = 0;
  }
}

}  // namespace gatelab::cem_detail
