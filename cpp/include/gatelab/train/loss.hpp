// Losses. The training race has one output per point and labels ±1: mean squared error
// against the label, and binary cross-entropy on a logit (target (y + 1)/2), computed as
// softplus(−|z|) + max(z, 0) − t·z so it never overflows. Exponentials come from the
// activation catalogue (softplus, sigmoid), sums run in double in index order: the same
// batch gives the same bits natively and in wasm. Accuracy counts sign(out) = label.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gatelab {

enum class LossKind { mse, cross_entropy };

const char* loss_name(LossKind kind);  // "mse", "cross_entropy"
std::optional<LossKind> parse_loss(std::string_view name);
Status parse_loss(std::string_view name, LossKind& out);  // the same as a status naming "loss"

struct LossValue {
  double loss = 0.0;      // mean over the n points
  double accuracy = 0.0;  // fraction with (out > 0) == (label > 0)
};

// out, labels: (n); grad (n, may be null) receives d(mean loss)/d(out), with entries below
// 1e-20 in magnitude set to 0 (negligible for every optimizer here, and kept out of the
// subnormal range that slows x86 ~100×; see loss.cpp). n ≥ 1.
LossValue evaluate_loss(LossKind kind, const float* out, const float* labels, int n, float* grad);

// Only the gradient, with the bits evaluate_loss gives it: a training step needs the loss
// value only to know that it is finite, and it is exactly when every output is (softplus of
// a finite logit is finite, and a float error squared is finite in double). Returns whether
// all of out is finite; skipping the value saves the logarithms, a tenth of a small step.
// total (default n) is the batch size the mean is over, for a batch handled in parts: the
// part [s, s + n) gets exactly the bits the whole batch's call gives those points.
bool loss_gradient(LossKind kind, const float* out, const float* labels, int n, float* grad, int total = 0);

// The losses of the transformer experiments (vector outputs, docs/MATH.md §T2):
// Mean over count of (pred − target)²; grad (count, may be null) = 2(pred − target)/count.
template <class S>
Status mse_loss(const S* pred, const S* target, std::size_t count, double* loss, S* grad);

// Mean over n rows of −log softmax(logits_i)[targets_i]; logits (n, classes); grad (n, classes,
// may be null) = (softmax − one_hot)/n. Targets must lie in 0…classes−1.
template <class S>
Status cross_entropy_loss(const S* logits, const std::int32_t* targets, int n, int classes, double* loss, S* grad);

}  // namespace gatelab
