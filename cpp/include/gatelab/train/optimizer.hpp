// First-order optimizers over a layer's parameters (LayerParams q, k, v, treated as one flat
// vector in that order): SGD, heavy-ball momentum and Adam with bias correction. State is
// plain buffers that can be copied out and restored, which is how the trainer rolls back a
// diverged step. Only +, −, ×, ÷ and sqrt: the same gradients give the same bits everywhere.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

enum class OptimizerKind { sgd, momentum, adam };

const char* optimizer_name(OptimizerKind kind);  // "sgd", "momentum", "adam"
std::optional<OptimizerKind> parse_optimizer(std::string_view name);

inline constexpr float max_learning_rate = 1e6f;

struct OptimizerOptions {
  OptimizerKind kind = OptimizerKind::adam;
  float learning_rate = 0.01f;
  float momentum = 0.9f;   // momentum: v ← μv + g;  θ ← θ − ηv
  float beta1 = 0.9f;      // adam
  float beta2 = 0.999f;
  float epsilon = 1e-8f;
};

// "" when valid: 0 < learning_rate ≤ max_learning_rate, 0 ≤ momentum < 1, 0 ≤ β < 1, ε > 0.
std::string validate(const OptimizerOptions& options);

// Everything an optimizer remembers between steps.
struct OptimizerState {
  std::vector<float> first;   // momentum velocity or Adam's m
  std::vector<float> second;  // Adam's v
  double beta1_power = 1.0;   // β1ᵗ, β2ᵗ for the bias correction
  double beta2_power = 1.0;
  long long steps = 0;
};

class Optimizer {
 public:
  // Precondition: validate(options) is empty; parameter_count is the layer's.
  Optimizer(const OptimizerOptions& options, std::size_t parameter_count);

  // params ← update(params, grads); grads shaped like params.
  void step(LayerParams& params, const LayerParams& grads);

  const OptimizerOptions& options() const { return options_; }
  const OptimizerState& state() const { return state_; }
  void restore(const OptimizerState& state) { state_ = state; }

 private:
  void update(float* param, const float* grad, std::size_t n, std::size_t offset, float step_size,
              float bias2_sqrt);

  OptimizerOptions options_;
  OptimizerState state_;
};

}  // namespace gatelab
