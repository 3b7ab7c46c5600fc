// The trainer's symmetry handles (see trainer.hpp): the full training-split gradient norm,
// teleporting along the inverse-scaling orbit, and the per-unit balance (docs/MATH.md §A14,
// §A21). The gradient pass is the trainer's own full-batch pass (Layer::train_pass with the
// loss's mean over the split), so its norm is the one a full-batch step would record.
#include <algorithm>
#include <cmath>
#include <vector>

#include "gatelab/paper_a/orbit.hpp"
#include "gatelab/train/trainer.hpp"

namespace gatelab {

void Trainer::full_training_gradient(const Layer& layer, double& loss, double& grad_norm, LayerParams* into) const {
  const int n = static_cast<int>(data_.y_train.size());
  const float* labels = data_.y_train.data();
  std::vector<float> out(n), grad_out(n);
  LayerParams own;
  LayerParams& grads = into ? *into : own;
  grads = zeros_like(layer.params());
  const bool finite = layer.train_pass(
      train_features_.data(), n, out.data(), grad_out.data(),
      [&](int start, int count, const float* o, float* g) {
        return loss_gradient(options_.loss, o, labels + start, count, g, n);
      },
      grads);
  if (!finite) {  // some output is not finite: no gradient, and the loss says how bad it is
    loss = training_loss(layer);
    grad_norm = NAN;
    return;
  }
  loss = evaluate_loss(options_.loss, out.data(), labels, n, nullptr).loss;
  double sum = 0.0;  // in view order (q, k, v), as the optimizer measures it
  const auto add = [&](const auto& t) {
    for (float g : t) sum += static_cast<double>(g) * static_cast<double>(g);
  };
  add(grads.q);
  add(grads.k);
  add(grads.v);
  grad_norm = std::sqrt(sum);
}

double Trainer::training_loss(const Layer& layer) const {
  const int n = static_cast<int>(data_.y_train.size());
  std::vector<float> out(n);
  const int chunk = layer.max_rows();
  for (int start = 0; start < n; start += chunk) {
    layer.forward_unchecked(train_features_.data() + static_cast<std::size_t>(start) * d_in_,
                            std::min(chunk, n - start), out.data() + start);
  }
  return evaluate_loss(options_.loss, out.data(), data_.y_train.data(), n, nullptr).loss;
}

double Trainer::gradient_norm() const {
  double loss = 0, norm = 0;
  full_training_gradient(layer_, loss, norm);
  return norm;
}

Status Trainer::teleport(const float* factors, TeleportResult& r) {
  if (Status e = teleport_problem(layer_.config()); !e.ok()) return e;
  TeleportResult measured;
  full_training_gradient(layer_, measured.loss_before, measured.grad_norm_before);
  if (Status e = gatelab::teleport(layer_.params(), layer_.config(), factors); !e.ok()) return e;
  good_params_ = layer_.params();
  full_training_gradient(layer_, measured.loss_after, measured.grad_norm_after);
  r = measured;
  return {};
}

std::vector<double> Trainer::balance() const {
  std::vector<double> out(static_cast<std::size_t>(layer_.config().hidden));
  unit_balance(layer_.params(), layer_.config(), out.data());
  return out;
}

double Trainer::balance_drift() const {
  const std::vector<double> now = balance();
  double sum = 0.0;
  for (std::size_t j = 0; j < now.size(); ++j) sum += (now[j] - initial_balance_[j]) * (now[j] - initial_balance_[j]);
  return now.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(now.size()));
}

}  // namespace gatelab
