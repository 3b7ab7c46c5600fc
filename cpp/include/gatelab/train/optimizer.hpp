// The optimizer family over a flat parameter vector (a list of ParamView, base/param_view.hpp,
// in a fixed order): SGD, heavy-ball momentum, Adam and AdamW (docs/MATH.md §T3). One class
// for every model: the paper-A trainer steps a layer's views, the transformer sessions step the
// transformer's. State is plain buffers that can be copied out and restored, which is how the
// trainer rolls back a diverged step. Only +, −, ×, ÷ and sqrt: the same gradients give the
// same bits everywhere.
//   sgd       θ ← θ − η g
//   momentum  v ← μ v + g;  θ ← θ − η v
//   adam      bias correction folded into the step size (Kingma & Ba 2015, §2 end):
//             α_t = η √(1 − β2ᵗ)/(1 − β1ᵗ), ε scaled alike; one divide and one sqrt per element
//   adamw     the textbook form with decoupled weight decay on views with decay = true:
//             θ ← θ − η·wd·θ;  θ ← θ − η m̂/(√v̂ + ε), m̂ = m/(1 − β1ᵗ), v̂ = v/(1 − β2ᵗ)
// clip_norm > 0 scales every gradient by min(1, clip/‖g‖) (global L2 norm) first, for every
// kind. A step whose gradient norm is not finite changes nothing and returns an error.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatelab/base/param_view.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

enum class OptimizerKind { sgd, momentum, adam, adamw };
inline constexpr int optimizer_count = 4;  // the kinds above, listed by optimizer_by_index

OptimizerKind optimizer_by_index(int i);  // 0 … optimizer_count − 1 in the order above (else adam)

const char* optimizer_name(OptimizerKind kind);  // "sgd", "momentum", "adam", "adamw"
std::optional<OptimizerKind> parse_optimizer(std::string_view name);
Status parse_optimizer(std::string_view name, OptimizerKind& out);  // the same as a status naming "optimizer"

inline constexpr float max_learning_rate = 1e6f;
inline constexpr float max_clip_norm = 1e6f;     // 0: off
inline constexpr float max_weight_decay = 1.0f;  // AdamW's decoupled decay

struct OptimizerOptions {
  OptimizerKind kind = OptimizerKind::adam;
  float learning_rate = 0.01f;
  float momentum = 0.9f;  // momentum
  float beta1 = 0.9f;     // adam, adamw
  float beta2 = 0.999f;
  float epsilon = 1e-8f;
  float weight_decay = 0.0f;  // adamw: decoupled, θ ← θ − η·wd·θ on views with decay
  float clip_norm = 0.0f;     // > 0: clip the global gradient norm to this
};

// ok when valid: 0 < learning_rate ≤ max_learning_rate, 0 ≤ momentum < 1, 0 ≤ β < 1,
// 0 < ε ≤ 1, 0 ≤ weight_decay ≤ 1, 0 ≤ clip_norm ≤ 1e6.
Status validate(const OptimizerOptions& options);

// Everything an optimizer remembers between steps, over the flat parameter vector.
template <class S>
struct OptimizerStateT {
  std::vector<S> first;      // momentum velocity or Adam's m
  std::vector<S> second;     // Adam's v
  double beta1_power = 1.0;  // β1ᵗ, β2ᵗ for the bias correction
  double beta2_power = 1.0;
  long long steps = 0;
};

template <class S>
class OptimizerT {
 public:
  // Precondition: validate(options) is ok. parameter_count sizes the state up front
  // (0: sized by the first step).
  explicit OptimizerT(const OptimizerOptions& options, std::size_t parameter_count = 0);

  // One update of every view's value from its grad (grads are left as they are). The views
  // must cover the same number of parameters at every step.
  Status step(const std::vector<ParamView<S>>& params);
  // The same for a paper-A layer's parameters and their gradients (read only: a step never
  // writes a gradient, so the views may point into const grads).
  Status step(LayerParamsT<S>& params, const LayerParamsT<S>& grads) {
    return step(LayerT<S>::views(params, const_cast<LayerParamsT<S>&>(grads)));
  }

  const OptimizerOptions& options() const { return options_; }
  void set_learning_rate(float learning_rate) { options_.learning_rate = learning_rate; }
  const OptimizerStateT<S>& state() const { return state_; }
  void restore(const OptimizerStateT<S>& state) { state_ = state; }
  long long steps_taken() const { return state_.steps; }
  // ‖g‖₂ of the last step's gradients (before clipping), summed in double in view order.
  double last_gradient_norm() const { return last_norm_; }
  // Forgets the moments and the step count.
  void reset();

 private:
  void size_state(std::size_t count);

  OptimizerOptions options_;
  OptimizerStateT<S> state_;
  double last_norm_ = 0.0;
};

using Optimizer = OptimizerT<float>;
using Optimizer64 = OptimizerT<double>;
using OptimizerState = OptimizerStateT<float>;

// The experiments' learning rate at (0-based) step: lr·min(1, (step + 1)/warmup) (no warm-up
// when warmup = 0), times max(0.1, 1 − 0.9·step/decay_steps) when decay_steps > 0 (linear
// decay to 10 % at step decay_steps, then constant). Plain double arithmetic: libm-free.
float scheduled_lr(float lr, int warmup, int decay_steps, int step);

}  // namespace gatelab
