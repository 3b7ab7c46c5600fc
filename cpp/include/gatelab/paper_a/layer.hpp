// The paper-A layer family (MATH.md A1, A4, A5, A6) with forward and backward passes.
//
//   mlp        f(x) = σ(x Kᵀ) V                                   K: (m, d_in)
//   symmetric  f(x) = Σ_j σ( Σ_t (x q_jtᵀ)(x k_jtᵀ) ) v_j         Q, K: (m, r, d_in)
//   gated      f(x) = Σ_j ( Σ_t σ(x q_jtᵀ)(x k_jtᵀ) ) v_j         Q, K: (m, r, d_in)
//   V: (m, d_out) for every kind; rows of x are tokens.
// r = d_in makes the symmetric form the full bilinear attention MLP of A3. The core never
// throws: validate() a config before constructing, and the caller checks row counts against
// max_rows(). Products go through the raw-pointer kernels of matmul.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <xtensor/xtensor.hpp>

#include "gatelab/base/activations.hpp"

namespace gatelab {

enum class LayerKind { mlp, symmetric, gated };

const char* layer_kind_name(LayerKind kind);
std::optional<LayerKind> parse_layer_kind(std::string_view name);

// Documented caps: requests beyond them are refused before anything is allocated.
inline constexpr int max_layer_dim = 4096;                     // d_in, hidden, d_out
inline constexpr std::size_t max_layer_params = 1u << 24;      // 16 M floats = 64 MB
inline constexpr std::size_t max_batch_floats = 1u << 24;      // largest per-call tensor
inline constexpr float max_swish_beta = 100.0f;

struct LayerConfig {
  LayerKind kind = LayerKind::gated;
  ActivationSpec activation{};
  int d_in = 2;
  int hidden = 8;
  int d_out = 1;
  int rank = 1;  // ignored by mlp
  std::uint64_t seed = 0;
};

// "" when the config is valid, else a message naming the field and what was expected.
std::string validate(const LayerConfig& config);

struct LayerParams {
  xt::xtensor<float, 3> q;  // (m, r, d_in); empty (0, 0, 0) for mlp
  xt::xtensor<float, 3> k;  // (m, r, d_in); mlp: (m, 1, d_in)
  xt::xtensor<float, 2> v;  // (m, d_out)
};

class Layer {
 public:
  // Precondition: validate(config) is empty. Parameters are drawn from Pcg32(seed):
  // Q and K ~ N(0, 1/d_in), V ~ N(0, 1/m), in that order.
  explicit Layer(const LayerConfig& config);
  Layer(const Layer& other);
  Layer& operator=(const Layer& other);
  ~Layer();

  const LayerConfig& config() const { return config_; }
  const LayerParams& params() const { return params_; }
  LayerParams& params() { return params_; }
  std::size_t parameter_count() const;
  // Largest number of rows one forward/backward call accepts (max_batch_floats bound).
  int max_rows() const;

  // x: (rows, d_in) -> out: (rows, d_out)
  void forward(const float* x, int rows, float* out) const;

  // Given x and dL/d(out) (rows, d_out), writes dL/dx (rows, d_in; may be null) and sets
  // grads (shaped like params) to dL/dQ, dL/dK, dL/dV.
  void backward(const float* x, int rows, const float* grad_out, float* grad_x, LayerParams& grads) const;

  // One training pass: forward, dL/d(out) and backward to the parameter gradients, in
  // chunks of rows small enough that every intermediate stays in L1 (a 500-row batch of a
  // 16-unit layer otherwise streams ~200 KB through L2 per pass), each chunk's hidden layer
  // computed once. output_gradient(start, count, out, grad_out) fills grad_out for rows
  // [start, start + count) from their outputs and returns false to stop the pass (e.g. an
  // output is not finite); train_pass then returns false and grads are incomplete. The bits
  // are those of forward + backward over all rows at once: every output row is computed
  // alone, and each gradient entry continues its sum over the rows in order (matmul.hpp).
  using OutputGradient = std::function<bool(int start, int count, const float* out, float* grad_out)>;
  bool train_pass(const float* x, int rows, float* out, float* grad_out, const OutputGradient& output_gradient,
                  LayerParams& grads) const;

  // New layers for the symmetry probes: Q and K swapped (not mlp); Q·α and K/α (not mlp),
  // per unit when alphas (length m) is given.
  Layer exchanged() const;
  Layer rescaled(float alpha) const;
  Layer rescaled_per_unit(const float* alphas) const;

  // How many Layer objects exist right now (leak accounting for the bindings).
  static int live_count();

 private:
  struct Workspace;
  void compute_hidden(const float* x, int rows, Workspace& ws) const;
  // accumulate: add to grads (same shapes) instead of overwriting them.
  void backward_from_hidden(const float* x, int rows, const float* grad_out, float* grad_x, LayerParams& grads,
                            Workspace& ws, bool accumulate) const;

  LayerConfig config_;
  LayerParams params_;
  // Scratch reused across calls so a forward allocates nothing in the steady state.
  mutable std::unique_ptr<Workspace> workspace_;
};

// Zero-filled tensors shaped like a layer's parameters (for gradients and optimizer state).
LayerParams zeros_like(const LayerParams& params);

}  // namespace gatelab
