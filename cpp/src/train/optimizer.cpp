// The optimizer family (see optimizer.hpp): one state over the flat parameter vector, one
// global gradient norm per step, and each kind's per-element update on restrict pointers.
#include "gatelab/train/optimizer.hpp"

#include <algorithm>
#include <cmath>

namespace gatelab {

const char* optimizer_name(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::sgd: return "sgd";
    case OptimizerKind::momentum: return "momentum";
    case OptimizerKind::adam: return "adam";
    case OptimizerKind::adamw: return "adamw";
  }
  return "?";
}

OptimizerKind optimizer_by_index(int i) {
  static constexpr OptimizerKind kinds[optimizer_count] = {OptimizerKind::sgd, OptimizerKind::momentum,
                                                           OptimizerKind::adam, OptimizerKind::adamw};
  return i >= 0 && i < optimizer_count ? kinds[i] : OptimizerKind::adam;
}

std::optional<OptimizerKind> parse_optimizer(std::string_view name) {
  return optional_from<OptimizerKind>([&](OptimizerKind& v) { return parse_optimizer(name, v); });
}

Status parse_optimizer(std::string_view name, OptimizerKind& out) {
  return parse_choice(name, "optimizer",
                      {OptimizerKind::sgd, OptimizerKind::momentum, OptimizerKind::adam, OptimizerKind::adamw},
                      optimizer_name, out);
}

Status validate(const OptimizerOptions& o) {
  if (!(o.learning_rate > 0.0f && o.learning_rate <= max_learning_rate)) {
    return out_of_range("learning_rate", "learning_rate must be a number in (0, 1000000]");
  }
  if (!(o.momentum >= 0.0f && o.momentum < 1.0f))
    return out_of_range("momentum", "momentum must be a number in [0, 1)");
  if (!(o.beta1 >= 0.0f && o.beta1 < 1.0f)) return out_of_range("beta1", "beta1 must be a number in [0, 1)");
  if (!(o.beta2 >= 0.0f && o.beta2 < 1.0f)) return out_of_range("beta2", "beta2 must be a number in [0, 1)");
  if (!(o.epsilon > 0.0f && o.epsilon <= 1.0f)) return out_of_range("epsilon", "epsilon must be a number in (0, 1]");
  if (!(o.weight_decay >= 0.0f && o.weight_decay <= max_weight_decay))
    return out_of_range("weight_decay", "weight_decay must be a number in [0, 1]");
  if (!(o.clip_norm >= 0.0f && o.clip_norm <= max_clip_norm))
    return out_of_range("clip_norm", "clip_norm must be 0 (off) or a number in (0, 1000000]");
  return {};
}

float scheduled_lr(float lr, int warmup, int decay_steps, int step) {
  double scale = warmup > 0 ? std::min(1.0, double(step + 1) / double(warmup)) : 1.0;
  if (decay_steps > 0) scale *= std::max(0.1, 1.0 - 0.9 * double(step) / double(decay_steps));
  return static_cast<float>(double(lr) * scale);
}

namespace {

// The buffers never overlap; saying so (restrict) lets compilers run the loops four or sixteen
// lanes at a time. sqrt and ÷ are correctly rounded per lane, so the bits are those of the
// scalar loop. Clip: the gradient is scaled first (a separate loop body, so an unclipped
// step keeps the exact operations it had before clipping existed).
template <bool Clip, class S>
S clipped(const S* __restrict grad, std::size_t i, S scale) {
  if constexpr (Clip) {
    return grad[i] * scale;
  } else {
    return grad[i];
  }
}

template <bool Clip, class S>
void sgd_update(S* __restrict param, const S* __restrict grad, std::size_t n, S lr, S scale) {
  for (std::size_t i = 0; i < n; ++i) param[i] -= lr * clipped<Clip>(grad, i, scale);
}

template <bool Clip, class S>
void momentum_update(S* __restrict param, const S* __restrict grad, S* __restrict v, std::size_t n, S lr, S mu,
                     S scale) {
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = mu * v[i] + clipped<Clip>(grad, i, scale);
    param[i] -= lr * v[i];
  }
}

// Adam with the bias correction folded into step_size and eps.
template <bool Clip, class S>
void adam_update(S* __restrict param, const S* __restrict grad, S* __restrict m, S* __restrict s, std::size_t n, S b1,
                 S b2, S eps, S step_size, S scale) {
  for (std::size_t i = 0; i < n; ++i) {
    const S g = clipped<Clip>(grad, i, scale);
    m[i] = b1 * m[i] + (S(1) - b1) * g;
    s[i] = b2 * s[i] + (S(1) - b2) * (g * g);
    param[i] -= step_size * m[i] / (std::sqrt(s[i]) + eps);
  }
}

// AdamW in the textbook order: moments, decoupled decay, then the corrected update.
template <class S>
void adamw_update(S* __restrict param, const S* __restrict grad, S* __restrict m, S* __restrict v, std::size_t n, S b1,
                  S b2, S eps, S lr, S decay, S c1, S c2, S scale) {
  for (std::size_t i = 0; i < n; ++i) {
    const S g = grad[i] * scale;
    m[i] = b1 * m[i] + (S(1) - b1) * g;
    v[i] = b2 * v[i] + (S(1) - b2) * g * g;
    const S mhat = m[i] * c1, vhat = v[i] * c2;
    param[i] = param[i] - decay * param[i];
    param[i] = param[i] - lr * mhat / (std::sqrt(vhat) + eps);
  }
}

}  // namespace

template <class S>
OptimizerT<S>::OptimizerT(const OptimizerOptions& options, std::size_t parameter_count) : options_(options) {
  if (parameter_count > 0) size_state(parameter_count);
}

template <class S>
void OptimizerT<S>::size_state(std::size_t count) {
  const bool first = options_.kind != OptimizerKind::sgd;
  const bool second = options_.kind == OptimizerKind::adam || options_.kind == OptimizerKind::adamw;
  state_.first.assign(first ? count : 0, S(0));
  state_.second.assign(second ? count : 0, S(0));
}

template <class S>
void OptimizerT<S>::reset() {
  state_ = {};
  last_norm_ = 0.0;
}

template <class S>
Status OptimizerT<S>::step(const std::vector<ParamView<S>>& params) {
  const std::size_t count = count_parameters(params);
  const bool stateful = options_.kind != OptimizerKind::sgd;
  if (stateful && state_.first.empty()) size_state(count);
  if (stateful && state_.first.size() != count) {
    return invalid_value("", "the parameter views cover " + std::to_string(count) + " values, the optimizer state " +
                                 std::to_string(state_.first.size()));
  }
  double norm2 = 0.0;
  for (const auto& p : params) {
    for (std::size_t j = 0; j < p.size; ++j) norm2 += double(p.grad[j]) * double(p.grad[j]);
  }
  last_norm_ = std::sqrt(norm2);
  if (!std::isfinite(norm2)) return not_finite("gradient", "gradient is not finite (NaN or infinity); step skipped");
  const bool clip = options_.clip_norm > 0.0f && norm2 > double(options_.clip_norm) * options_.clip_norm;
  const S scale = static_cast<S>(clip ? double(options_.clip_norm) / last_norm_ : 1.0);

  ++state_.steps;
  const OptimizerOptions& o = options_;
  S step_size = o.learning_rate, bias2_sqrt = 1, c1 = 1, c2 = 1;
  if (o.kind == OptimizerKind::adam || o.kind == OptimizerKind::adamw) {
    state_.beta1_power *= o.beta1;
    state_.beta2_power *= o.beta2;
    bias2_sqrt = static_cast<S>(std::sqrt(1.0 - state_.beta2_power));
    step_size = static_cast<S>(o.learning_rate * (bias2_sqrt / (1.0 - state_.beta1_power)));
    c1 = static_cast<S>(1.0 / (1.0 - state_.beta1_power));
    c2 = static_cast<S>(1.0 / (1.0 - state_.beta2_power));
  }
  const S lr = o.learning_rate, b1 = o.beta1, b2 = o.beta2, eps = o.epsilon;
  std::size_t offset = 0;
  for (const auto& p : params) {
    S* first = stateful ? state_.first.data() + offset : nullptr;
    S* second = state_.second.empty() ? nullptr : state_.second.data() + offset;
    switch (o.kind) {
      case OptimizerKind::sgd:
        (clip ? sgd_update<true, S> : sgd_update<false, S>)(p.value, p.grad, p.size, lr, scale);
        break;
      case OptimizerKind::momentum:
        (clip ? momentum_update<true, S> : momentum_update<false, S>)(p.value, p.grad, first, p.size, lr, S(o.momentum),
                                                                      scale);
        break;
      case OptimizerKind::adam:
        (clip ? adam_update<true, S> : adam_update<false, S>)(p.value, p.grad, first, second, p.size, b1, b2,
                                                              eps * bias2_sqrt, step_size, scale);
        break;
      case OptimizerKind::adamw: {
        const S decay = p.decay ? static_cast<S>(o.learning_rate * o.weight_decay) : S(0);
        adamw_update(p.value, p.grad, first, second, p.size, b1, b2, eps, lr, decay, c1, c2, scale);
        break;
      }
    }
    offset += p.size;
  }
  return {};
}

template class OptimizerT<float>;
template class OptimizerT<double>;

}  // namespace gatelab
