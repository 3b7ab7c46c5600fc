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
using kernels::mm_nn;
using kernels::mm_nt;
using kernels::mm_tn;

using kernels::exp_inplace;

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
