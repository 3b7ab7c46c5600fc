// MSE and logit cross-entropy with their gradients (see loss.hpp).
#include "gatelab/loss.hpp"

#include "gatelab/activations.hpp"

namespace gatelab {
namespace {

constexpr ActivationSpec softplus_spec{Activation::softplus, 1.0f};
constexpr ActivationSpec sigmoid_spec{Activation::sigmoid, 1.0f};

// softplus(z) − t·z, with softplus taken at −|z| so its exponential cannot overflow.
double cross_entropy(float z, float t) {
  const double tail = activation_value(softplus_spec, z > 0 ? -z : z);
  return tail + (z > 0 ? static_cast<double>(z) : 0.0) - static_cast<double>(t) * z;
}

}  // namespace

const char* loss_name(LossKind kind) { return kind == LossKind::mse ? "mse" : "cross_entropy"; }

std::optional<LossKind> parse_loss(std::string_view name) {
  if (name == "mse") return LossKind::mse;
  if (name == "cross_entropy") return LossKind::cross_entropy;
  return std::nullopt;
}

LossValue evaluate_loss(LossKind kind, const float* out, const float* labels, int n, float* grad) {
  double sum = 0.0;
  int correct = 0;
  const float inv_n = 1.0f / static_cast<float>(n);
  for (int i = 0; i < n; ++i) {
    const float z = out[i], y = labels[i];
    correct += (z > 0) == (y > 0) ? 1 : 0;
    if (kind == LossKind::mse) {
      const float e = z - y;
      sum += static_cast<double>(e) * e;
      if (grad) grad[i] = 2.0f * e * inv_n;
    } else {
      const float t = y > 0 ? 1.0f : 0.0f;
      sum += cross_entropy(z, t);
      if (grad) grad[i] = (activation_value(sigmoid_spec, z) - t) * inv_n;
    }
  }
  return {sum / n, static_cast<double>(correct) / n};
}

}  // namespace gatelab
