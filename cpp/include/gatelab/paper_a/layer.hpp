// The paper-A layer family (docs/MATH.md §A1, §A4–§A6, §A11) with forward and backward passes:
// the one MLP of GateLab, also the MLP slot of the transformer (model/transformer.hpp).
//
//   mlp        f(x) = σ(x Kᵀ) V                                   K: (m, d_in)
//   symmetric  f(x) = Σ_j σ( Σ_t (x q_jtᵀ)(x k_jtᵀ) ) v_j         Q, K: (m, r, d_in)
//   gated      f(x) = Σ_j ( Σ_t σ(x q_jtᵀ)(x k_jtᵀ) ) v_j         Q, K: (m, r, d_in)
//   gated, symmetrize λ ∈ (0, 1]:
//              f(x) = Σ_j ( Σ_t (1 − λ/2) σ(a_jt) b_jt + (λ/2) σ(b_jt) a_jt ) v_j,
//              a_jt = x q_jtᵀ, b_jt = x k_jtᵀ   (λ = 1: exchange-symmetric for every σ)
//   bigated    f(x) = Σ_j ( Σ_t σ(a_jt) σ(b_jt) ) v_j             both factors activated (§A23)
//   V: (m, d_out) for every kind; rows of x are tokens.
// r = d_in makes the symmetric form the full bilinear attention MLP of A3. With Q = W_gate,
// K = W_up and V = W_downᵀ a gated rank-1 layer is the Llama/SwiGLU MLP. The core never
// throws: like the CEM layers (cem/mlp.hpp), forward and backward check their inputs and return
// a Status, and a layer built from an invalid config carries the problem as error(). Every
// class is a template on the scalar S: S = float is the library (Layer),
// through the raw-pointer kernels of matmul.hpp; S = double (Layer64) exists so the tests can
// check gradients by finite differences.
#pragma once

#include "gatelab/base/status.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xtensor/xtensor.hpp>

#include <xtensor/xbuilder.hpp>

#include "gatelab/base/activations.hpp"
#include "gatelab/base/param_view.hpp"

namespace gatelab {

enum class LayerKind { mlp, symmetric, gated, bigated };

const char* layer_kind_name(LayerKind kind);
std::optional<LayerKind> parse_layer_kind(std::string_view name);
// The same as a status naming field ("kind", "teacher.kind").
Status parse_layer_kind(std::string_view name, std::string_view field, LayerKind& out);

// Documented caps: requests beyond them are refused before anything is allocated.
inline constexpr int max_layer_dim = 4096;                 // d_in, hidden, d_out
inline constexpr std::size_t max_layer_params = 1u << 24;  // 16 M floats = 64 MB
inline constexpr std::size_t max_batch_floats = 1u << 24;  // largest per-call tensor
inline constexpr float max_swish_beta = 100.0f;

struct LayerConfig {
  LayerKind kind = LayerKind::gated;
  ActivationSpec activation{};
  int d_in = 2;
  int hidden = 8;
  int d_out = 1;
  int rank = 1;  // ignored by mlp
  std::uint64_t seed = 0;
  float symmetrize = 0.0f;  // λ ∈ [0, 1], gated only; 0 is the gated layer bit for bit
};

// ok when the config is valid, else a status naming the field and what was expected.
Status validate(const LayerConfig& config);
// ok when symmetrize λ is a finite number in [0, 1] (§A11); else 'out-of-range' naming "symmetrize".
// validate(LayerConfig) and the exchange plane share it, so both refuse the same λ.
Status validate_symmetrize(float symmetrize);

// The activation named `name` with parameter beta (kept for every kind, as ActivationSpec
// does; swish uses it): ok or a status naming `field` (unknown name) or beta (not finite or
// |beta| > max_swish_beta).
Status parse_activation_spec(std::string_view name, float beta, std::string_view field, ActivationSpec& out);
// ok when 1 ≤ rows ≤ max_rows (a layer's max_rows()), else a status naming rows.
Status validate_rows(int rows, int max_rows);

template <class S>
struct LayerParamsT {
  xt::xtensor<S, 3> q;  // (m, r, d_in); empty (0, 0, 0) for mlp
  xt::xtensor<S, 3> k;  // (m, r, d_in); mlp: (m, 1, d_in)
  xt::xtensor<S, 2> v;  // (m, d_out)
};

template <class S>
class LayerT {
 public:
  using Params = LayerParamsT<S>;

  // Never fails: an invalid config gives a layer without parameters whose error() is
  // validate(config) and whose forward and backward return it. Parameters are drawn from
  // Pcg32(seed): Q and K ~ N(0, 1/d_in), V ~ N(0, 1/m), in that order (float draws, also for S = double).
  explicit LayerT(const LayerConfig& config);
  LayerT(const LayerT& other);
  LayerT& operator=(const LayerT& other);
  ~LayerT();

  const Status& error() const { return error_; }
  const LayerConfig& config() const { return config_; }
  const Params& params() const { return params_; }
  Params& params() { return params_; }
  // The layer's own gradient buffers (shaped like params), which backward fills, as every
  // layer of the library does; zero_grad() clears them.
  const Params& grads() const { return grads_; }
  Params& grads() { return grads_; }
  void zero_grad();
  // Views "q", "k", "v" of params (values) and grads (gradients, shaped like params; mlp has
  // no "q"), in that order: the flat parameter vector optimizers and tests read.
  static std::vector<ParamView<S>> views(Params& params, Params& grads);
  std::vector<ParamView<S>> parameters() { return views(params_, grads_); }
  std::size_t parameter_count() const;
  // Largest number of rows one forward/backward call accepts (max_batch_floats bound).
  int max_rows() const;

  // x: (rows, d_in) -> out: (rows, d_out). ok, or error(), or 'out-of-range' naming rows
  // (1 ≤ rows ≤ max_rows()), or 'invalid-value' naming no field for a null buffer.
  Status forward(const S* x, int rows, S* out) const;

  // Given x and dL/d(out) (rows, d_out), writes dL/dx (rows, d_in; skipped when null) and sets
  // grads() to dL/dQ, dL/dK, dL/dV; with accumulate, adds to them. Checks as forward does.
  Status backward(const S* x, int rows, const S* grad_out, S* grad_x, bool accumulate = false);
  // The same without the checks, for the library's own callers that have checked them once
  // (a trainer's evaluation, the probes, the census): a valid layer, non-null buffers, and any
  // rows ≥ 0 for forward (it works in chunks), rows ≤ max_rows() for backward.
  void forward_unchecked(const S* x, int rows, S* out) const;
  void backward_unchecked(const S* x, int rows, const S* grad_out, S* grad_x, bool accumulate = false);

  // forward that keeps every row's hidden intermediates, and the backward into grads() that
  // reads them instead of recomputing them when given the same x and rows (any other call in
  // between, or another x, makes it recompute): a transformer's training step, which keeps its
  // activations anyway. The bits are those of forward and backward. Unchecked (the hot path):
  // the caller has checked rows against max_rows(), as train_pass's caller has.
  void forward_keep(const S* x, int rows, S* out) const;
  void backward_kept(const S* x, int rows, const S* grad_out, S* grad_x, bool accumulate);

  // One training pass: forward, dL/d(out) and backward to the parameter gradients, in
  // chunks of rows small enough that every intermediate stays in L1 (a 500-row batch of a
  // 16-unit layer otherwise streams ~200 KB through L2 per pass), each chunk's hidden layer
  // computed once. output_gradient(start, count, out, grad_out) fills grad_out for rows
  // [start, start + count) from their outputs and returns false to stop the pass (e.g. an
  // output is not finite); train_pass then returns false and grads are incomplete. The bits
  // are those of forward + backward over all rows at once: every output row is computed
  // alone, and each gradient entry continues its sum over the rows in order (matmul.hpp).
  using OutputGradient = std::function<bool(int start, int count, const S* out, S* grad_out)>;
  bool train_pass(const S* x, int rows, S* out, S* grad_out, const OutputGradient& output_gradient,
                  Params& grads) const;

  // New layers for the symmetry probes: Q and K swapped (not mlp); Q·α and K/α (not mlp),
  // per unit when alphas (length m) is given.
  LayerT exchanged() const;
  LayerT rescaled(float alpha) const;
  LayerT rescaled_per_unit(const float* alphas) const;

  // Gauge fixing (docs/MATH.md §A13): every factor pair becomes q_jt/‖q_jt‖, k_jt·‖q_jt‖ᵖ,
  // which leaves the function unchanged where the layer has the inverse-scaling symmetry
  // (gauge_fix_problem() is empty); pairs with q_jt = 0 are left alone.
  void gauge_fix();

  // How many layers of this scalar exist right now (leak accounting for the bindings).
  static int live_count();

 private:
  struct Workspace;
  Status check(int rows, const void* in, const void* out) const;
  void compute_hidden(const S* x, int rows, Workspace& ws) const;
  // accumulate: add to grads (same shapes) instead of overwriting them.
  void backward_from_hidden(const S* x, int rows, const S* grad_out, S* grad_x, Params& grads, Workspace& ws,
                            bool accumulate) const;

  LayerConfig config_;
  Status error_;
  Params params_;
  Params grads_;
  // Scratch reused across calls so a forward allocates nothing in the steady state.
  mutable std::unique_ptr<Workspace> workspace_;
};

using LayerParams = LayerParamsT<float>;
using Layer = LayerT<float>;
using Layer64 = LayerT<double>;

// Zero-filled tensors shaped like a layer's parameters (for gradients and optimizer state).
template <class S>
LayerParamsT<S> zeros_like(const LayerParamsT<S>& params) {
  return {xt::zeros<S>(params.q.shape()), xt::zeros<S>(params.k.shape()), xt::zeros<S>(params.v.shape())};
}

// Copies every parameter of src into dst (same config; any scalars), converting the scalar.
template <class D, class S>
void copy_params(const LayerParamsT<S>& src, LayerParamsT<D>& dst) {
  dst.q = xt::xtensor<D, 3>::from_shape(src.q.shape());
  dst.k = xt::xtensor<D, 3>::from_shape(src.k.shape());
  dst.v = xt::xtensor<D, 2>::from_shape(src.v.shape());
  std::copy(src.q.begin(), src.q.end(), dst.q.begin());
  std::copy(src.k.begin(), src.k.end(), dst.k.begin());
  std::copy(src.v.begin(), src.v.end(), dst.v.begin());
}

// ok when gauge_fix() keeps this layer's function: the symmetric kind, or a gated layer whose
// σ is positively homogeneous (degree 1 when symmetrize > 0); else why not.
Status gauge_fix_problem(const LayerConfig& config);

}  // namespace gatelab
