// AdamW with global-norm clipping over CemParamView lists, the learning-rate schedule, and
// the MSE and cross-entropy losses of the CEM experiments. See cem_adam.hpp.
#include "gatelab/cem/adam.hpp"

#include <algorithm>
#include <cmath>

#include "cem/math.hpp"

namespace gatelab {

std::string validate(const CemAdamConfig& c) {
  auto num = [](double x) { return std::to_string(x); };
  if (!(c.lr > 0.0f && c.lr <= 10.0f)) return "lr must be in (0, 10] (lr = " + num(c.lr) + ")";
  if (!(c.beta1 >= 0.0f && c.beta1 < 1.0f)) return "beta1 must be in [0, 1) (beta1 = " + num(c.beta1) + ")";
  if (!(c.beta2 >= 0.0f && c.beta2 < 1.0f)) return "beta2 must be in [0, 1) (beta2 = " + num(c.beta2) + ")";
  if (!(c.eps > 0.0f && c.eps <= 1.0f)) return "eps must be in (0, 1] (eps = " + num(c.eps) + ")";
  if (!(c.weight_decay >= 0.0f && c.weight_decay <= 1.0f)) {
    return "weight_decay must be in [0, 1] (weight_decay = " + num(c.weight_decay) + ")";
  }
  if (!(c.clip_norm >= 0.0f && c.clip_norm <= 1e6f)) return "clip_norm must be 0 (off) or positive (clip_norm = " + num(c.clip_norm) + ")";
  return "";
}

template <class S>
void CemAdamT<S>::reset() {
  m_.clear();
  v_.clear();
  t_ = 0;
  beta1_power_ = beta2_power_ = 1.0;
}

float cem_scheduled_lr(float lr, int warmup, int decay_steps, int step) {
  double scale = warmup > 0 ? std::min(1.0, double(step + 1) / double(warmup)) : 1.0;
  if (decay_steps > 0) scale *= std::max(0.1, 1.0 - 0.9 * double(step) / double(decay_steps));
  return static_cast<float>(double(lr) * scale);
}

template <class S>
std::string CemAdamT<S>::step(const std::vector<CemParamView<S>>& params, const CemAdamConfig& config) {
  if (std::string e = validate(config); !e.empty()) return e;
  if (m_.empty()) {
    for (const auto& p : params) {
      m_.emplace_back(p.size, S(0));
      v_.emplace_back(p.size, S(0));
    }
  }
  if (m_.size() != params.size()) return "parameter list changed since the first step";
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (m_[i].size() != params[i].size) return "parameter " + params[i].name + " changed size since the first step";
  }
  double norm2 = 0.0;
  for (const auto& p : params) {
    for (std::size_t j = 0; j < p.size; ++j) norm2 += double(p.grad[j]) * double(p.grad[j]);
  }
  if (!std::isfinite(norm2)) return "gradient is not finite (NaN or infinity); step skipped";
  double clip = 1.0;
  if (config.clip_norm > 0.0f && norm2 > double(config.clip_norm) * config.clip_norm) {
    clip = double(config.clip_norm) / std::sqrt(norm2);
  }
  ++t_;
  beta1_power_ *= config.beta1;
  beta2_power_ *= config.beta2;
  const S b1 = config.beta1, b2 = config.beta2, lr = config.lr, eps = config.eps, decay = config.lr * config.weight_decay;
  const S c1 = static_cast<S>(1.0 / (1.0 - beta1_power_)), c2 = static_cast<S>(1.0 / (1.0 - beta2_power_));
  const S scale = static_cast<S>(clip);
  for (std::size_t i = 0; i < params.size(); ++i) {
    S* value = params[i].value;
    const S* grad = params[i].grad;
    S* m = m_[i].data();
    S* v = v_[i].data();
    for (std::size_t j = 0; j < params[i].size; ++j) {
      const S g = grad[j] * scale;
      m[j] = b1 * m[j] + (S(1) - b1) * g;
      v[j] = b2 * v[j] + (S(1) - b2) * g * g;
      const S mhat = m[j] * c1, vhat = v[j] * c2;
      value[j] = value[j] - decay * value[j];
      value[j] = value[j] - lr * mhat / (std::sqrt(vhat) + eps);
    }
  }
  return "";
}

template <class S>
std::string cem_mse_loss(const S* pred, const S* target, std::size_t count, double* loss, S* grad) {
  if (pred == nullptr || target == nullptr || loss == nullptr) return "pointers must not be null";
  if (count == 0) return "count must be positive";
  double sum = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const double diff = double(pred[i]) - double(target[i]);
    sum += diff * diff;
    if (grad != nullptr) grad[i] = static_cast<S>(2.0 * diff / double(count));
  }
  *loss = sum / double(count);
  return "";
}

template <class S>
std::string cem_cross_entropy_loss(const S* logits, const std::int32_t* targets, int n, int classes, double* loss,
                                   S* grad) {
  if (logits == nullptr || targets == nullptr || loss == nullptr) return "pointers must not be null";
  if (n < 1 || classes < 1) return "n and classes must be positive";
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    if (targets[i] < 0 || targets[i] >= classes) {
      return "targets must be in 0…classes−1 (targets[" + std::to_string(i) + "] = " + std::to_string(targets[i]) + ")";
    }
    const S* row = logits + std::size_t(i) * classes;
    double top = row[0];
    for (int c = 1; c < classes; ++c) top = std::max(top, double(row[c]));
    double sum = 0.0;
    for (int c = 0; c < classes; ++c) sum += cem_detail::exp(double(row[c]) - top);
    const double log_z = top + cem_detail::log(sum);
    total += log_z - double(row[targets[i]]);
    if (grad != nullptr) {
      for (int c = 0; c < classes; ++c) {
        const double p = cem_detail::exp(double(row[c]) - log_z);
        grad[std::size_t(i) * classes + c] = static_cast<S>((p - (c == targets[i] ? 1.0 : 0.0)) / n);
      }
    }
  }
  *loss = total / n;
  return "";
}

template class CemAdamT<float>;
template class CemAdamT<double>;
template std::string cem_mse_loss<float>(const float*, const float*, std::size_t, double*, float*);
template std::string cem_mse_loss<double>(const double*, const double*, std::size_t, double*, double*);
template std::string cem_cross_entropy_loss<float>(const float*, const std::int32_t*, int, int, double*, float*);
template std::string cem_cross_entropy_loss<double>(const double*, const std::int32_t*, int, int, double*, double*);

}  // namespace gatelab
