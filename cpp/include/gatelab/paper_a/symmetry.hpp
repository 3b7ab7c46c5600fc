// Symmetry probes of paper A (MATH.md A2, A7, A8, A9): how far a layer is from invariance
// under the exchange Q ↔ K and under the inverse scaling Q·α, K/α; the exchange plane
// g(a, b) = σ(a)b − σ(b)a that makes the proof of A7 visible; σ(z)/z; an estimate of the
// positive-homogeneity degree from samples; and the global-query absorption of A2.
#pragma once

#include <optional>

#include "gatelab/base/activations.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

// ‖a − b‖_F / ‖a‖_F over n floats, accumulated in double (0 when both are zero).
double relative_gap(const float* a, const float* b, std::size_t n);

// ‖f_{K,Q}(X) − f_{Q,K}(X)‖_F / ‖f_{Q,K}(X)‖_F. Precondition: layer kind is not mlp.
double exchange_gap(const Layer& layer, const float* x, int rows);

// ‖f_{αQ,K/α}(X) − f(X)‖_F / ‖f(X)‖_F; α ≠ 0, finite. Precondition: not mlp.
double scaling_gap(const Layer& layer, const float* x, int rows, float alpha);
// The same with one α_j per hidden unit (alphas has length hidden, all ≠ 0).
double scaling_gap_per_unit(const Layer& layer, const float* x, int rows, const float* alphas);

// out (n, n): out[i·n + j] = σ(a_i) b_j − σ(b_j) a_i, a_i = b_i = lo + i·(hi − lo)/(n − 1).
void exchange_plane(ActivationSpec s, float lo, float hi, int n, float* out);

// σ(z)/z, with its limit σ'(0) at z = 0 when σ(0) = 0 (the constant c of A7 when σ is linear),
// and NaN at z = 0 when σ(0) ≠ 0 (a pole).
float activation_ratio(ActivationSpec s, float z);

// Samples of z on [lo, hi] (n ≥ 2) with value, derivative and ratio, for curves.
void activation_curve(ActivationSpec s, float lo, float hi, int n, float* z, float* value, float* derivative,
                      float* ratio);

// Least-squares estimate of p in σ(αz) = αᵖ σ(z) over sampled α > 0 and z, with the
// relative residual of the fit; a residual near 0 means the activation is positively
// homogeneous of that degree.
struct HomogeneityEstimate {
  double degree = 0.0;
  double residual = 0.0;
};
HomogeneityEstimate estimate_homogeneity(ActivationSpec s, std::uint64_t seed, int samples = 256);

// A2: σ((x W_Q) Kᵀ) V for an mlp layer and a global query W_Q (d_in, d_in).
void forward_with_global_query(const Layer& mlp, const float* w_q, const float* x, int rows, float* out);
// The plain mlp with K' = K W_Qᵀ, which gives the same outputs.
Layer absorb_global_query(const Layer& mlp, const float* w_q);

}  // namespace gatelab
