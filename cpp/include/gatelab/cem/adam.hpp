// Adam (Kingma & Ba 2015) with decoupled weight decay (AdamW) and optional global-norm
// gradient clipping, over any list of CemParamView — the optimizer of the CEM and baseline
// transformers. Bias corrections use running products βᵗ (no pow), so an update gives the
// same bits natively and in wasm. Also the experiments' learning-rate schedule and the two
// losses they need.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gatelab/cem/common.hpp"

namespace gatelab {

struct CemAdamConfig {
  float lr = 1e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  float weight_decay = 0.0f;  // decoupled: θ ← θ − lr·wd·θ before the Adam update
  float clip_norm = 0.0f;     // > 0: scale all grads so their global L2 norm is at most this
};
std::string validate(const CemAdamConfig& config);

template <class S>
class CemAdamT {
 public:
  // One update of every view's value from its grad (grads are left as they are). The first
  // call fixes the layout; later calls must pass views of the same sizes in the same order.
  std::string step(const std::vector<CemParamView<S>>& params, const CemAdamConfig& config);
  int steps_taken() const { return t_; }
  // Forgets the moments and the step count.
  void reset();

 private:
  std::vector<std::vector<S>> m_, v_;
  int t_ = 0;
  double beta1_power_ = 1.0, beta2_power_ = 1.0;
};

using CemAdam = CemAdamT<float>;
using CemAdam64 = CemAdamT<double>;

// The experiments' learning rate at (0-based) step: lr·min(1, (step + 1)/warmup) (no warm-up
// when warmup = 0), times max(0.1, 1 − 0.9·step/decay_steps) when decay_steps > 0 (linear
// decay to 10 % at step decay_steps, then constant). Plain double arithmetic: libm-free.
float cem_scheduled_lr(float lr, int warmup, int decay_steps, int step);

// Mean over count of (pred − target)²; grad (count, may be null) = 2(pred − target)/count.
template <class S>
std::string cem_mse_loss(const S* pred, const S* target, std::size_t count, double* loss, S* grad);

// Mean over n rows of −log softmax(logits_i)[targets_i]; logits (n, classes); grad (n, classes,
// may be null) = (softmax − one_hot)/n. Targets must lie in 0…classes−1.
template <class S>
std::string cem_cross_entropy_loss(const S* logits, const std::int32_t* targets, int n, int classes, double* loss,
                                   S* grad);

}  // namespace gatelab
