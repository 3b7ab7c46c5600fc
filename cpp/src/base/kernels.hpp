// Private to the library: the matrix products and activations every layer template calls,
// for the two scalars a layer is built with. S = float is the library: the raw-pointer kernels
// of matmul.hpp and the vector activation kernels of activations.hpp. S = double exists so the
// tests can check gradients by finite differences: plain loops that accumulate in increasing k,
// and activations rounded through float (so double gradients are good to ~1e-6).
#pragma once

#include <cstddef>
#include <type_traits>

#include <cstring>

#include "base/fastmath.hpp"
#include "base/scalar_math.hpp"
#include "gatelab/base/activations.hpp"
#include "gatelab/base/matmul.hpp"
#include "gatelab/base/matmul_causal.hpp"

namespace gatelab::kernels {

// C (m×n) = A (m×k) · B (k×n); with accumulate, C += A·B.
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

// The batched causal products of matmul_causal.hpp (count problems of n×d_h and n×n); double
// computes each problem's full product, whose entries above the diagonal callers ignore or
// whose L is zero there.
template <class S>
void causal_scores(const S* a, const S* b, S* s, int count, int n, int dh) {
  if constexpr (std::is_same_v<S, float>) {
    gatelab::causal_scores(a, b, s, count, n, dh);
  } else {
    for (int p = 0; p < count; ++p) {
      mm_nt(a + std::size_t(p) * n * dh, b + std::size_t(p) * n * dh, s + std::size_t(p) * n * n, n, dh, n);
    }
  }
}
template <class S>
void causal_apply(const S* l, const S* x, S* out, int count, int n, int dh) {
  if constexpr (std::is_same_v<S, float>) {
    gatelab::causal_apply(l, x, out, count, n, dh);
  } else {
    for (int p = 0; p < count; ++p) {
      mm_nn(l + std::size_t(p) * n * n, x + std::size_t(p) * n * dh, out + std::size_t(p) * n * dh, n, n, dh);
    }
  }
}
template <class S>
void causal_apply_transposed(const S* l, const S* x, S* out, int count, int n, int dh) {
  if constexpr (std::is_same_v<S, float>) {
    gatelab::causal_apply_transposed(l, x, out, count, n, dh);
  } else {
    for (int p = 0; p < count; ++p) {
      mm_tn(l + std::size_t(p) * n * n, x + std::size_t(p) * n * dh, out + std::size_t(p) * n * dh, n, n, dh);
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

// x[j] ← e^x[j] for j < count: a vector at a time at the native width through fm::vn::exp (the
// same bits in every lane position, at every width and on every platform); double through
// scalar::exp.
inline void exp_inplace(double* x, int count) {
  for (int j = 0; j < count; ++j) x[j] = scalar::exp(x[j]);
}
inline void exp_inplace(float* x, int count) {
  using fm::vn::kLanes;
  int j = 0;
  for (; j + kLanes <= count; j += kLanes) {
    fm::vn::vf v;
    std::memcpy(&v, x + j, sizeof v);
    v = fm::vn::exp(v);
    std::memcpy(x + j, &v, sizeof v);
  }
  if (j < count) {
    fm::vn::vf v = fm::vn::splat(0.0f);
    std::memcpy(&v, x + j, sizeof(float) * (count - j));
    v = fm::vn::exp(v);
    std::memcpy(x + j, &v, sizeof(float) * (count - j));
  }
}

}  // namespace gatelab::kernels
