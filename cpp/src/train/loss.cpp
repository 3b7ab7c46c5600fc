// MSE and logit cross-entropy of the race, and MSE and multi-class cross-entropy of the
// transformer experiments, with their gradients (see loss.hpp).
#include "gatelab/train/loss.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/kernels.hpp"
#include "base/scalar_math.hpp"
#include "gatelab/base/activations.hpp"

namespace gatelab {
namespace {

constexpr ActivationSpec softplus_spec{Activation::softplus, 1.0f};
constexpr ActivationSpec sigmoid_spec{Activation::sigmoid, 1.0f};

// A per-point gradient below 1e-20 in magnitude is set to 0. Such values arise for points a
// confident model classifies far on the right side (σ(z) − t ≈ e^−|z|); they change no update
// (Adam divides by √v + ε with ε = 1e-8, SGD moves by η·1e-20), but multiplied through the
// backward pass they reach subnormal floats, which x86 cores process ~100× slower: a gated
// layer's full-batch training fell from ~62k to ~45k steps/s as it converged. Explicit, so
// the bits stay the same on every platform (hardware flush-to-zero would differ).
constexpr float kNegligibleGradient = 1e-20f;
inline float flush_negligible(float g) { return g < kNegligibleGradient && g > -kNegligibleGradient ? 0.0f : g; }

// Points per pass of the vector kernels: the exponentials of a chunk run four lanes at a
// time (activation_forward), on stack buffers, instead of one padded vector per point. The
// kernels give every element the same bits either way, so chunking never changes a result.
constexpr int kChunk = 256;

// One chunk of cross-entropy: softplus(−|z|) + max(z, 0) − t·z per point, added to the running
// double sum in index order (the order of a plain loop over all points); grad = (σ(z) − t)/n.
void cross_entropy_chunk(const float* out, const float* labels, int n, float inv_n, double& sum, float* grad) {
  float neg_abs[kChunk] = {}, tail[kChunk];  // zeroed: the compiler cannot see that only n are read
  for (int i = 0; i < n; ++i) neg_abs[i] = out[i] > 0 ? -out[i] : out[i];
  activation_forward(softplus_spec, neg_abs, tail, n);
  for (int i = 0; i < n; ++i) {
    const float z = out[i], t = labels[i] > 0 ? 1.0f : 0.0f;
    sum += tail[i] + (z > 0 ? static_cast<double>(z) : 0.0) - static_cast<double>(t) * z;
  }
  if (grad) {
    activation_forward(sigmoid_spec, out, grad, n);
    for (int i = 0; i < n; ++i) grad[i] = flush_negligible((grad[i] - (labels[i] > 0 ? 1.0f : 0.0f)) * inv_n);
  }
}

void squared_error_chunk(const float* out, const float* labels, int n, float inv_n, double& sum, float* grad) {
  for (int i = 0; i < n; ++i) {
    const float e = out[i] - labels[i];
    sum += static_cast<double>(e) * e;
    if (grad) grad[i] = flush_negligible(2.0f * e * inv_n);
  }
}

}  // namespace

const char* loss_name(LossKind kind) { return kind == LossKind::mse ? "mse" : "cross_entropy"; }

std::optional<LossKind> parse_loss(std::string_view name) {
  return optional_from<LossKind>([&](LossKind& v) { return parse_loss(name, v); });
}

Status parse_loss(std::string_view name, LossKind& out) {
  return parse_choice(name, "loss", {LossKind::mse, LossKind::cross_entropy}, loss_name, out);
}

LossValue evaluate_loss(LossKind kind, const float* out, const float* labels, int n, float* grad) {
  double sum = 0.0;
  int correct = 0;
  const float inv_n = 1.0f / static_cast<float>(n);
  for (int i = 0; i < n; ++i) correct += (out[i] > 0) == (labels[i] > 0) ? 1 : 0;
  for (int start = 0; start < n; start += kChunk) {
    const int count = std::min(kChunk, n - start);
    float* g = grad ? grad + start : nullptr;
    if (kind == LossKind::mse)
      squared_error_chunk(out + start, labels + start, count, inv_n, sum, g);
    else
      cross_entropy_chunk(out + start, labels + start, count, inv_n, sum, g);
  }
  return {sum / n, static_cast<double>(correct) / n};
}

bool loss_gradient(LossKind kind, const float* out, const float* labels, int n, float* grad, int total) {
  const float inv_n = 1.0f / static_cast<float>(total > 0 ? total : n);
  bool finite = true;
  if (kind == LossKind::mse) {
    for (int i = 0; i < n; ++i) grad[i] = flush_negligible(2.0f * (out[i] - labels[i]) * inv_n);
  } else {
    activation_forward(sigmoid_spec, out, grad, static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) grad[i] = flush_negligible((grad[i] - (labels[i] > 0 ? 1.0f : 0.0f)) * inv_n);
  }
  for (int i = 0; i < n; ++i) finite = finite && std::isfinite(out[i]);
  return finite;
}

// ---- vector outputs: the transformer experiments ------------------------------------------

template <class S>
Status mse_loss(const S* pred, const S* target, std::size_t count, double* loss, S* grad) {
  if (pred == nullptr || target == nullptr || loss == nullptr)
    return invalid_value("pointers", "pointers must not be null");
  if (count == 0) return out_of_range("count", "count must be positive");
  double sum = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const double diff = double(pred[i]) - double(target[i]);
    sum += diff * diff;
    if (grad != nullptr) grad[i] = static_cast<S>(2.0 * diff / double(count));
  }
  *loss = sum / double(count);
  return {};
}

template <class S>
Status cross_entropy_loss(const S* logits, const std::int32_t* targets, int n, int classes, double* loss, S* grad) {
  if (logits == nullptr || targets == nullptr || loss == nullptr)
    return invalid_value("pointers", "pointers must not be null");
  if (n < 1 || classes < 1) return out_of_range("", "n and classes must be positive");
  // One exponential per logit, e_c = exp(z_c − max z): four float lanes at a time for S = float
  // (the same bits everywhere, base/kernels.hpp), so a 1024 × 75 batch costs ~0.1 ms, not ~3.
  std::vector<S> e(classes);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    if (targets[i] < 0 || targets[i] >= classes) {
      return out_of_range("targets", "targets must be in 0…classes−1 (targets[" + std::to_string(i) +
                                         "] = " + std::to_string(targets[i]) + ")");
    }
    const S* row = logits + std::size_t(i) * classes;
    S top = row[0];
    for (int c = 1; c < classes; ++c) top = std::max(top, row[c]);
    for (int c = 0; c < classes; ++c) e[c] = row[c] - top;
    kernels::exp_inplace(e.data(), classes);
    double sum = 0.0;
    for (int c = 0; c < classes; ++c) sum += double(e[c]);
    total += double(top) + scalar::log(sum) - double(row[targets[i]]);
    if (grad != nullptr) {
      for (int c = 0; c < classes; ++c) {
        grad[std::size_t(i) * classes + c] = static_cast<S>((double(e[c]) / sum - (c == targets[i] ? 1.0 : 0.0)) / n);
      }
    }
  }
  *loss = total / n;
  return {};
}

template Status mse_loss<float>(const float*, const float*, std::size_t, double*, float*);
template Status mse_loss<double>(const double*, const double*, std::size_t, double*, double*);
template Status cross_entropy_loss<float>(const float*, const std::int32_t*, int, int, double*, float*);
template Status cross_entropy_loss<double>(const double*, const std::int32_t*, int, int, double*, double*);

}  // namespace gatelab
