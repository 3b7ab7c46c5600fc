// Symmetry probes of paper A (docs/MATH.md §A2, §A7, §A8, §A9): how far a layer is from invariance
// under the exchange Q ↔ K and under the inverse scaling Q·α, K/α; the exchange plane
// g(a, b) = σ(a)b − σ(b)a that makes the proof of A7 visible; σ(z)/z; an estimate of the
// positive-homogeneity degree from samples; and the global-query absorption of A2.
#pragma once

#include "gatelab/base/status.hpp"
#include <optional>
#include <string>

#include "gatelab/base/activations.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

// Largest grid side of exchange_plane and curve length of activation_curve (4 M floats).
inline constexpr int max_curve_points = 2048;

// ok when the exchange and scaling probes apply to layer on `rows` rows: it has a Q factor
// (not mlp) and validate_rows(rows, layer.max_rows()) holds; else why not.
Status validate_symmetry_probe(const Layer& layer, int rows);
// ok when lo and hi are finite with lo < hi and 2 ≤ n ≤ max_curve_points (exchange_plane,
// activation_curve); else a status naming them.
Status validate_curve(float lo, float hi, int n);
// validate_curve, after checking that `activation` is a catalogue index (activation_by_index).
Status validate_activation_curve(int activation, float lo, float hi, int n);

// ‖a − b‖_F / ‖a‖_F over n floats, accumulated in double (0 when both are zero).
double relative_gap(const float* a, const float* b, std::size_t n);

// ‖f_{K,Q}(X) − f_{Q,K}(X)‖_F / ‖f_{Q,K}(X)‖_F. Precondition: layer kind is not mlp.
double exchange_gap(const Layer& layer, const float* x, int rows);

// ‖f_{αQ,K/α}(X) − f(X)‖_F / ‖f(X)‖_F; α ≠ 0, finite. Precondition: not mlp.
double scaling_gap(const Layer& layer, const float* x, int rows, float alpha);
// The same with one α_j per hidden unit (alphas has length hidden, all ≠ 0).
double scaling_gap_per_unit(const Layer& layer, const float* x, int rows, const float* alphas);

// validate_activation_curve, then validate_symmetrize(symmetrize) (the exchange plane's options).
Status validate_exchange_plane(int activation, float lo, float hi, int n, float symmetrize);

// out (n, n): what swapping a and b changes in one pair of a gated unit (§A16), a_i = b_i = lo + i·(hi − lo)/(n − 1).
// symmetrize λ = 0: out[i·n + j] = g(a_i, b_j) = σ(a_i) b_j − σ(b_j) a_i, the plain gated unit.
// λ ∈ (0, 1]: out[i·n + j] = c_λ(a_i, b_j) − c_λ(b_j, a_i) = (1 − λ)·g(a_i, b_j) (§A11), with c_λ rounded as
// the layer's forward rounds it, so λ = 1 gives exactly 0.
void exchange_plane(ActivationSpec s, float lo, float hi, int n, float* out, float symmetrize = 0.0f);

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
