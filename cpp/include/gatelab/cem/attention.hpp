// CEM attention (docs/MATH.md §B2, §B4, §B5, §B6): weight-tied causal multi-head attention as T
// preconditioned gradient steps on the interaction energy
//   ε_att(y | h_0..h_i) = −(1/β) Σ_k log Σ_{j≤i} exp(β yᵀ A_k h_j),  A_k = diag(d_k) + W_Q^kᵀ W_K^k,
// started at y⁰ = h_i, step y ← y − η P ∇ε, context h_0..h_i held fixed. One step is
//   y + η P Σ_k [d_k ⊙ Σ_j α_kj h_j + W_Q^kᵀ Σ_j α_kj W_K^k h_j],   α_k = causal softmax of the scores,
// i.e. attention with W_V = W_K and W_O = η W_Qᵀ; the residual is the start point (no extra add).
// Rows of h are tokens (n×d, row-major). Forward, energies, and a backward through all T
// steps and through the context (h_j enters as context of every later position and as the
// start point of its own). Errors come back as a Status (ok = fine); nothing throws.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gatelab/cem/common.hpp"
#include "gatelab/cem/preconditioner.hpp"

namespace gatelab {

struct CemAttentionConfig {
  int d = 8;
  int heads = 2;      // must divide d; head width d_h = d / heads
  int steps = 1;      // T ≥ 1
  float eta = 1.0f;   // step size η > 0 (with learn_eta: the start of the learned η)
  float beta = 0.0f;  // inverse temperature β; 0 means 1/√d_h
  CemDiagonal diagonal = CemDiagonal::none;
  CemPrecond precond = CemPrecond::none;
  int precond_rank = 0;  // r, 0 ≤ r ≤ min(d, cem_max_rank)
  std::uint64_t seed = 0;
  bool learn_eta = false;  // η = softplus(θ) is a parameter "eta" (docs/MATH.md §B14)
};

// ok when valid, else a status naming the field, e.g. "heads must divide d (d = 8, heads = 3)".
Status validate(const CemAttentionConfig& config);
// β actually used: config.beta, or 1/√(d/heads) when it is 0.
double cem_effective_beta(const CemAttentionConfig& config);

template <class S>
struct CemAttentionParamsT {
  xt::xtensor<S, 2> wq;    // (heads·d_h, d): rows h·d_h … (h+1)·d_h − 1 are W_Q^h
  xt::xtensor<S, 2> wk;    // (heads·d_h, d), same layout
  xt::xtensor<S, 2> diag;  // none: (0, d); per_head: (heads, d), row k = d_k; shared: (1, d)
  CemPrecondParamsT<S> precond;
  xt::xtensor<S, 1> theta;  // learn_eta: (1), θ with η = softplus(θ); else (0)
};

template <class S>
class CemAttentionT {
 public:
  // Never fails: an invalid config gives an object whose error() is the validate() message
  // and whose every call returns it. Init: W_Q then W_K ~ N(0, 1/d) from Pcg32(seed),
  // diag = 0, preconditioner as gatelab/cem/preconditioner.hpp says (P = I for none and paper).
  explicit CemAttentionT(const CemAttentionConfig& config);

  const Status& error() const { return error_; }
  const CemAttentionConfig& config() const { return config_; }
  S beta() const { return beta_; }
  // η of a step: config().eta, or softplus(θ) when it is learned.
  S step_size() const;
  // Changes T (1 … cem_max_steps) for later calls, e.g. to evaluate a trained layer at
  // another depth of recursion (test-time recursion); ok or a status naming steps.
  Status set_steps(int steps);
  CemAttentionParamsT<S>& params() { return params_; }
  const CemAttentionParamsT<S>& params() const { return params_; }
  // dL/d(params) of the last backward (accumulated when asked), shaped like params().
  CemAttentionParamsT<S>& grads() { return grads_; }
  const CemAttentionParamsT<S>& grads() const { return grads_; }
  void zero_grad();
  // Views "wq", "wk", "diag" (unless none), "precond.p", "precond.u", "precond.v" (those that
  // exist), then "eta" (θ, learn_eta only; not weight-decayed).
  std::vector<ParamView<S>> parameters();
  std::size_t parameter_count() const;

  // h: (n, d) → out: (n, d). out must not alias h.
  Status forward(const S* h, int n, S* out) const;
  // ε_att(y | h_0..h_i) in double; y: (d), 0 ≤ i < n.
  Status energy(const S* h, int n, int i, const S* y, double* out) const;
  // ∇_y ε_att(y | h_0..h_i) in double, out: (d) (docs/MATH.md §B2, §B4):
  //   ∇ε = −Σ_k Σ_{j≤i} α_kj A_k h_j,  α_k = softmax_j(β yᵀ A_k h_j).
  // At y = h_i, −∇ε is the step of one plain CEM step (T = 1, η = 1, P = I).
  Status energy_gradient(const S* h, int n, int i, const S* y, double* out) const;
  // out: (n, T+1), row i = energy of token i's variable before the first and after each step.
  Status energy_trace(const S* h, int n, double* out) const;
  // out: (n, T), row i = the attention entropy −Σ_j α_kij log α_kij of token i at each step,
  // averaged over heads (docs/MATH.md §B15): low when a step reads mostly one memory.
  Status attention_entropy(const S* h, int n, double* out) const;
  // out: (T+1, n, d), the iterates y⁰ = h, …, y^T that forward() passes through, bit for bit
  // (docs/MATH.md §B15); (T+1)·n·d must fit cem_max_tensor_floats.
  Status trajectory(const S* h, int n, S* out) const;
  // Smallest eigenvalue of P (1 for none).
  Status precond_min_eigenvalue(double* out) const;
  // P as a dense d×d row-major matrix.
  Status precond_dense(double* out) const;
  // The d eigenvalues of P, ascending (d ≤ cem_max_spectrum_dim).
  Status precond_spectrum(double* out) const;

  // Given h (n, d) and grad_out = dL/d(out) (n, d): writes dL/dh to grad_h (skipped when null)
  // and sets grads() to dL/d(params), or adds to them when accumulate. Recomputes the forward.
  Status backward(const S* h, int n, const S* grad_out, S* grad_h, bool accumulate = false);

 private:
  // One forward's trajectory and the scratch of a step (all row-major, rows = tokens).
  struct Trajectory {
    std::vector<S> keys;               // heads × (n×d_h): K_k = h W_K^kᵀ, computed once
    std::vector<S> ys;                 // (T+1) × (n×d): y⁰ = h, …, y^T
    std::vector<S> q, v;               // n×d_h, one head
    std::vector<S> alpha;              // n×n, one head
    std::vector<S> c, yd;              // n×d: α h, Y ⊙ d
    std::vector<S> shared_scores;      // n×n: (Y ⊙ d) hᵀ, shared diagonal only
    std::vector<S> alpha_sum, ds_sum;  // n×n: Σ_k α_k, Σ_k dS_k, shared diagonal only
    std::vector<S> dkeys;              // backward: heads × (n×d_h), dL/dK_k
  };
  Status check(int n, const void* in, const void* out) const;
  void run_forward(const S* h, int n, Trajectory& tr) const;
  void prepare_step(const S* h, const S* y, int n, Trajectory& tr) const;
  void head_alpha(int k, const S* h, const S* y, int n, Trajectory& tr) const;
  void step_update(const S* h, const S* y, int n, Trajectory& tr, S* g) const;
  void step_backward(const S* h, const S* y, int n, Trajectory& tr, const S* dg, S* dy, S* dh);
  // ε at y; with grad (d) also ∇ε there.
  double energy_with_keys(const std::vector<double>& keys, const S* h, int i, const S* y, double* grad = nullptr) const;
  void add_head_gradient(int k, const std::vector<double>& keys, const S* h, int i, std::size_t n,
                         const std::vector<double>& w, double sum, std::vector<double>& read, double* grad) const;
  std::vector<double> keys_double(const S* h, int n) const;
  const S* head_diag(int k) const;

  CemAttentionConfig config_;
  Status error_;
  int dh_ = 0;
  S beta_ = 0;
  CemAttentionParamsT<S> params_;
  CemAttentionParamsT<S> grads_;
};

using CemAttention = CemAttentionT<float>;
using CemAttention64 = CemAttentionT<double>;

}  // namespace gatelab
