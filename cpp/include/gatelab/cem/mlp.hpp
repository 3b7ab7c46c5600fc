// CEM MLP (docs/MATH.md §B3, §B5, §B6): the tied gated MLP as T preconditioned gradient steps on the
// element-wise energy
//   ε_mlp(y | h_i) = −Σ_k (U h_i)_k Φ((W y)_k),   Φ' = φ,   W, U ∈ R^{M×d},
// started at y⁰ = h_i: y ← y − η P ∇ε = y + η P Wᵀ[φ(W y) ⊙ (U h_i)]. One step from h_i is a
// gated MLP whose down projection is η Wᵀ; the residual is the start point. The gate context
// U h_i is computed once. Each token is independent (trivially causal). energy() needs the
// closed-form antiderivative Φ (has_antiderivative); the backward needs only φ and φ'.
// Rows of h are tokens (n×d). Errors come back as a Status (ok = fine); nothing throws.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gatelab/base/activations.hpp"
#include "gatelab/cem/common.hpp"
#include "gatelab/cem/preconditioner.hpp"

namespace gatelab {

struct CemMlpConfig {
  int d = 8;
  int hidden = 16;  // M
  ActivationSpec activation{Activation::silu, 1.0f};
  int steps = 1;     // T ≥ 1
  float eta = 1.0f;  // η > 0 (with learn_eta: the start of the learned η)
  CemPrecond precond = CemPrecond::none;
  int precond_rank = 0;
  std::uint64_t seed = 0;
  bool learn_eta = false;  // η = softplus(θ) is a parameter "eta" (docs/MATH.md §B14)
};

Status validate(const CemMlpConfig& config);

template <class S>
struct CemMlpParamsT {
  xt::xtensor<S, 2> w;  // (M, d): the tied up/down projection W
  xt::xtensor<S, 2> u;  // (M, d): the gate projection U
  CemPrecondParamsT<S> precond;
  xt::xtensor<S, 1> theta;  // learn_eta: (1), θ with η = softplus(θ); else (0)
};

template <class S>
class CemMlpT {
 public:
  // Never fails (see CemAttentionT). Init: W then U ~ N(0, 1/d) from Pcg32(seed), then P.
  explicit CemMlpT(const CemMlpConfig& config);

  const Status& error() const { return error_; }
  const CemMlpConfig& config() const { return config_; }
  // η of a step: config().eta, or softplus(θ) when it is learned.
  S step_size() const;
  // Changes T for later calls (see CemAttentionT::set_steps).
  Status set_steps(int steps);
  CemMlpParamsT<S>& params() { return params_; }
  const CemMlpParamsT<S>& params() const { return params_; }
  CemMlpParamsT<S>& grads() { return grads_; }
  const CemMlpParamsT<S>& grads() const { return grads_; }
  void zero_grad();
  // Views "w", "u", then "precond.p", "precond.u", "precond.v" (those that exist), then "eta"
  // (θ, learn_eta only; not weight-decayed).
  std::vector<ParamView<S>> parameters();
  std::size_t parameter_count() const;

  // h: (n, d) → out: (n, d). out must not alias h.
  Status forward(const S* h, int n, S* out) const;
  // ε_mlp(y | h_i) in double; an error when the activation has no antiderivative.
  Status energy(const S* h, int n, int i, const S* y, double* out) const;
  // ∇_y ε_mlp(y | h_i) = −Wᵀ[φ(W y) ⊙ (U h_i)] in double (φ at float precision), out: (d)
  // (docs/MATH.md §B3); needs only φ, so every activation has it. At y = h_i, −∇ε is the step
  // of one plain CEM step (T = 1, η = 1, P = I).
  Status energy_gradient(const S* h, int n, int i, const S* y, double* out) const;
  // out: (n, T+1), row i = energy of token i before the first and after each step.
  Status energy_trace(const S* h, int n, double* out) const;
  // out: (T+1, n, d), the iterates y⁰ = h, …, y^T of forward(), bit for bit (docs/MATH.md §B15).
  Status trajectory(const S* h, int n, S* out) const;
  Status precond_min_eigenvalue(double* out) const;
  Status precond_dense(double* out) const;
  Status precond_spectrum(double* out) const;

  // Given h and grad_out = dL/d(out) (n, d): writes dL/dh (skipped when null) and sets (or
  // with accumulate, adds to) grads(). Recomputes the forward.
  Status backward(const S* h, int n, const S* grad_out, S* grad_h, bool accumulate = false);

 private:
  Status check(int n, const void* in, const void* out) const;
  Status check_energy() const;
  // ys: (T+1)·n·d trajectory; gate: (n, M) = h Uᵀ.
  void run_forward(const S* h, int n, std::vector<S>& ys, std::vector<S>& gate) const;
  double energy_of(const double* gate_row, const S* y) const;

  CemMlpConfig config_;
  Status error_;
  CemMlpParamsT<S> params_;
  CemMlpParamsT<S> grads_;
};

using CemMlp = CemMlpT<float>;
using CemMlp64 = CemMlpT<double>;

}  // namespace gatelab
