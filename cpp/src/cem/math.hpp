// Internal to the CEM sources (namespace cem_detail): the one place where the CEM code gets
// its transcendental functions, its matrix products and its activations.
//  - exp, log, log1p, softplus, sigmoid in double from base/scalar_math.hpp (libm-free, so
//    native and wasm give the same bits). The CEM code calls no transcendental function but these.
//  - mm_nn / mm_tn / mm_nt<S> and act_forward / act_backward<S> from base/kernels.hpp (shared
//    with the paper-A layers).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>

#include "base/kernels.hpp"
#include "base/scalar_math.hpp"
#include "gatelab/base/activations.hpp"
#include "base/fastmath.hpp"
#include "gatelab/base/matmul.hpp"
#include "gatelab/base/rng.hpp"

namespace gatelab::cem_detail {

using scalar::exp;
using scalar::log;
using scalar::log1p;
using scalar::sigmoid;
using scalar::softplus;

// log(e − 1): softplus of it is 1, so p filled with it makes diag(softplus(p)) = I.
inline constexpr double softplus_inverse_of_one = 0.541324854612918;

using kernels::act_backward;
using kernels::act_forward;
using kernels::causal_apply;
using kernels::causal_apply_transposed;
using kernels::causal_scores;
using kernels::mm_nn;
using kernels::mm_nt;
using kernels::mm_tn;

using kernels::exp_inplace;

// Row-wise reductions of a causal n×n matrix, four rows at a time: out[g] = fold of value(i + g, j)
// over j ≤ i + g, for g < rows (≤ 4), each row's fold in increasing j, as a row-by-row loop
// would do; a sum starts from 0 (fold(0, first value), so 0 + (−0) is +0 as in a loop from 0),
// a maximum from the first value. The four rows' chains are independent, so their latencies overlap: a float sum
// over a row is a chain of dependent adds, which one row at a time would leave waiting.
template <bool kFromZero, class S, class Value, class Fold>
inline void fold_rows(int i, int rows, S* out, Value value, Fold fold) {
  S acc[4];
  for (int g = 0; g < rows; ++g) acc[g] = kFromZero ? fold(S(0), value(i + g, 0)) : value(i + g, 0);
  if (rows == 4) {
    for (int j = 1; j <= i; ++j) {
      acc[0] = fold(acc[0], value(i, j));
      acc[1] = fold(acc[1], value(i + 1, j));
      acc[2] = fold(acc[2], value(i + 2, j));
      acc[3] = fold(acc[3], value(i + 3, j));
    }
  } else {
    for (int j = 1; j <= i; ++j) {
      for (int g = 0; g < rows; ++g) acc[g] = fold(acc[g], value(i + g, j));
    }
  }
  for (int g = 1; g < rows; ++g) {  // the rows' last g entries past row i's diagonal
    for (int j = i + 1; j <= i + g; ++j) acc[g] = fold(acc[g], value(i + g, j));
  }
  for (int g = 0; g < rows; ++g) out[g] = acc[g];
}

// Row-wise causal softmax in place: s (n×n) holds raw scores; row i becomes
// softmax_j≤i(beta · s_ij) and entries j > i become 0.
template <class S>
void causal_softmax(S* s, int n, S beta) {
  const auto at = [s, n](int i, int j) -> S& { return s[std::size_t(i) * n + j]; };
  const auto larger = [](S a, S b) { return std::max(a, b); };
  const auto plus = [](S a, S b) { return a + b; };
  for (int i = 0; i < n; i += 4) {
    const int rows = std::min(4, n - i);
    S top[4], sum[4];
    fold_rows<false>(
        i, rows, top, [&](int r, int j) { return beta * at(r, j); }, larger);
    for (int g = 0; g < rows; ++g) {
      S* row = &at(i + g, 0);
      for (int j = 0; j <= i + g; ++j) row[j] = beta * row[j] - top[g];
      exp_inplace(row, i + g + 1);
    }
    fold_rows<true>(
        i, rows, sum, [&](int r, int j) { return at(r, j); }, plus);
    for (int g = 0; g < rows; ++g) {
      S* row = &at(i + g, 0);
      for (int j = 0; j <= i + g; ++j) row[j] = row[j] / sum[g];
      for (int j = i + g + 1; j < n; ++j) row[j] = 0;
    }
  }
}

// Backward of causal_softmax: given alpha (n×n) and dalpha = dL/dα, overwrites dalpha with
// dL/ds (the raw scores, β included).
template <class S>
void causal_softmax_backward(const S* alpha, S* dalpha, int n, S beta) {
  const auto plus = [](S a, S b) { return a + b; };
  for (int i = 0; i < n; i += 4) {
    const int rows = std::min(4, n - i);
    S dot[4];
    fold_rows<true>(
        i, rows, dot, [&](int r, int j) { return alpha[std::size_t(r) * n + j] * dalpha[std::size_t(r) * n + j]; },
        plus);
    for (int g = 0; g < rows; ++g) {
      const S* a = alpha + std::size_t(i + g) * n;
      S* grad = dalpha + std::size_t(i + g) * n;
      for (int j = 0; j <= i + g; ++j) grad[j] = beta * a[j] * (grad[j] - dot[g]);
      for (int j = i + g + 1; j < n; ++j) grad[j] = 0;
    }
  }
}

}  // namespace gatelab::cem_detail
