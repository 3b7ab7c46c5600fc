// SGD, momentum and Adam (see optimizer.hpp). Adam's bias correction is folded into the step
// size, α_t = η·√(1 − β2ᵗ)/(1 − β1ᵗ), with ε scaled alike (Kingma & Ba 2015, §2 end), so the
// per-element update is one divide and one sqrt.
#include "gatelab/train/optimizer.hpp"

#include <cmath>

namespace gatelab {

const char* optimizer_name(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::sgd: return "sgd";
    case OptimizerKind::momentum: return "momentum";
    case OptimizerKind::adam: return "adam";
  }
  return "?";
}

std::optional<OptimizerKind> parse_optimizer(std::string_view name) {
  for (OptimizerKind k : {OptimizerKind::sgd, OptimizerKind::momentum, OptimizerKind::adam}) {
    if (name == optimizer_name(k)) return k;
  }
  return std::nullopt;
}

std::string validate(const OptimizerOptions& o) {
  if (!(o.learning_rate > 0.0f && o.learning_rate <= max_learning_rate)) {
    return "learningRate must be a number in (0, 1000000]";
  }
  if (!(o.momentum >= 0.0f && o.momentum < 1.0f)) return "momentum must be a number in [0, 1)";
  if (!(o.beta1 >= 0.0f && o.beta1 < 1.0f)) return "beta1 must be a number in [0, 1)";
  if (!(o.beta2 >= 0.0f && o.beta2 < 1.0f)) return "beta2 must be a number in [0, 1)";
  if (!(o.epsilon > 0.0f && o.epsilon <= 1.0f)) return "epsilon must be a number in (0, 1]";
  return {};
}

Optimizer::Optimizer(const OptimizerOptions& options, std::size_t parameter_count) : options_(options) {
  if (options.kind != OptimizerKind::sgd) state_.first.assign(parameter_count, 0.0f);
  if (options.kind == OptimizerKind::adam) state_.second.assign(parameter_count, 0.0f);
}

void Optimizer::step(LayerParams& params, const LayerParams& grads) {
  ++state_.steps;
  float step_size = options_.learning_rate, bias2_sqrt = 1.0f;
  if (options_.kind == OptimizerKind::adam) {
    state_.beta1_power *= options_.beta1;
    state_.beta2_power *= options_.beta2;
    bias2_sqrt = static_cast<float>(std::sqrt(1.0 - state_.beta2_power));
    step_size = static_cast<float>(options_.learning_rate * (bias2_sqrt / (1.0 - state_.beta1_power)));
  }
  const std::size_t nq = params.q.size(), nk = params.k.size();
  update(params.q.data(), grads.q.data(), nq, 0, step_size, bias2_sqrt);
  update(params.k.data(), grads.k.data(), nk, nq, step_size, bias2_sqrt);
  update(params.v.data(), grads.v.data(), params.v.size(), nq + nk, step_size, bias2_sqrt);
}

namespace {

// Adam on one buffer. The buffers never overlap; saying so (restrict) lets compilers run the
// loop four or sixteen lanes at a time. sqrt and ÷ are correctly rounded per lane, so the
// bits are those of the scalar loop.
void adam_update(float* __restrict param, const float* __restrict grad, float* __restrict m, float* __restrict s,
                 std::size_t n, float b1, float b2, float eps, float step_size) {
  for (std::size_t i = 0; i < n; ++i) {
    m[i] = b1 * m[i] + (1.0f - b1) * grad[i];
    s[i] = b2 * s[i] + (1.0f - b2) * (grad[i] * grad[i]);
    param[i] -= step_size * m[i] / (std::sqrt(s[i]) + eps);
  }
}

}  // namespace

// One parameter buffer; offset is its place in the flat state vectors.
void Optimizer::update(float* param, const float* grad, std::size_t n, std::size_t offset, float step_size,
                       float bias2_sqrt) {
  switch (options_.kind) {
    case OptimizerKind::sgd:
      for (std::size_t i = 0; i < n; ++i) param[i] -= step_size * grad[i];
      return;
    case OptimizerKind::momentum: {
      float* v = state_.first.data() + offset;
      for (std::size_t i = 0; i < n; ++i) {
        v[i] = options_.momentum * v[i] + grad[i];
        param[i] -= step_size * v[i];
      }
      return;
    }
    case OptimizerKind::adam:
      adam_update(param, grad, state_.first.data() + offset, state_.second.data() + offset, n, options_.beta1,
                  options_.beta2, options_.epsilon * bias2_sqrt, step_size);
      return;
  }
}

}  // namespace gatelab
