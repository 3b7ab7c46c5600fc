// A small causal transformer learning in-context GP regression (gp_data.hpp): GpSession owns
// one CemTransformer (CEM or standard blocks), a training stream of fresh sequences and an
// AdamW schedule; it is the unit of work of the gp-recursion experiment and, bound to JS,
// the live model of the <gatelab-gp> figure. Per step it draws `batch` sequences, builds
// their tokens (gp_tokens, width 2·dx + 3), and regresses the scalar output at every
// position on y_t with the mean squared error. Two sessions with the same seed see the same
// sequences whatever their model, so models are compared on paired data.
// Errors come back as a Status (ok = fine); nothing throws.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gatelab/model/transformer.hpp"
#include "gatelab/gp/data.hpp"
#include "gatelab/train/optimizer.hpp"
#include "gatelab/base/rng.hpp"

namespace gatelab {

// Most training steps one call of a bound session runs (an interactive figure's batch), and
// the check of that count: ok or a status naming it.
inline constexpr int gp_max_steps_per_call = 10000;
inline constexpr int gp_max_batch = 1024;  // sequences per step
Status gp_validate_steps_per_call(int steps);

// The experiments' short description of a model (what differs between their models); width and
// depth come from GpTrainConfig, and gp_model_config turns both into the transformer's config.
struct GpModelSpec {
  std::string label = "cem T=1";
  CemFamily family = CemFamily::cem;
  int steps = 1;  // T of the attention, and of the MLP unless mlp_steps says (cem only)
  CemDiagonal diagonal = CemDiagonal::shared;
  CemPrecond precond = CemPrecond::none;
  int precond_rank = 0;
  int mlp_steps = 0;       // > 0: the MLP's own T
  float eta = 0.0f;        // > 0: this model's η of both layers; 0: GpTrainConfig::eta
  bool learn_eta = false;  // each CEM layer learns η = softplus(θ), starting at that η (§B14)
};

struct GpTrainConfig {
  GpDataConfig data;
  // The model of a GpModelSpec (gp_model_config); a session made from a transformer config ignores them.
  int d = 32, layers = 2, heads = 4, hidden = 64;
  float eta = 1.0f;  // CEM step size of attention and MLP
  int batch = 16;    // sequences per AdamW step
  float lr = 3e-3f;
  float weight_decay = 0.0f;
  float clip_norm = 1.0f;
  int warmup = 100;        // linear warm-up steps
  int decay_steps = 0;     // > 0: lr decays linearly to 10 % at this step (then stays); 0: constant
  std::uint64_t seed = 1;  // model init and training stream
};

Status validate(const GpTrainConfig& config, const GpModelSpec& spec);
// The data and training fields of config, then the model (its d_in and d_out as a session sets them).
Status validate(const GpTrainConfig& config, const CemTransformerConfig& model);
// The transformer of a session: d_in = token width, d_out = 1.
CemTransformerConfig gp_model_config(const GpTrainConfig& config, const GpModelSpec& spec);
// The session's AdamW (lr, weight decay and clipping of the config).
OptimizerOptions gp_optimizer_options(const GpTrainConfig& config);
// Learning rate at (0-based) step s: warm-up, then the linear decay (libm-free).
float gp_learning_rate(const GpTrainConfig& config, int step);

class GpSession {
 public:
  // Never fails: an invalid config gives a session whose error() is the message.
  GpSession(const GpTrainConfig& config, const GpModelSpec& spec);
  // The model as lab.gp reads it, its layers' configs held whole; d_in and d_out are the data's
  // token width and 1 (set here), and config's model fields (d … eta) are not used.
  GpSession(const GpTrainConfig& config, const CemTransformerConfig& model);

  const Status& error() const { return error_; }
  const GpTrainConfig& config() const { return config_; }
  const CemTransformerConfig& model_config() const { return model_.config(); }
  std::size_t parameter_count() const { return model_.parameter_count(); }
  int steps_done() const { return static_cast<int>(losses_.size()); }
  // Mean training MSE of each step so far.
  const std::vector<double>& losses() const { return losses_; }
  // losses()[from, from + count) into out; out_of_range when that is not within steps_done(), then
  // invalid_value when out is null (and count > 0).
  Status copy_losses(int from, int count, double* out) const;
  // True once a step produced a non-finite loss; train() then refuses to go on.
  bool diverged() const { return diverged_; }

  // Runs `steps` AdamW steps.
  Status train(int steps);
  // T of the CEM layers in predict() and predict_at(), 0 (the default): as trained. Training
  // keeps the spec's T; evaluating at another T is test-time recursion. Family cem only.
  Status set_eval_steps(int steps);
  int eval_steps() const { return eval_steps_; }
  // η of each block's attention and MLP (learned or fixed) into out (2·layers): attention, MLP,
  // block after block. Family cem only.
  Status step_sizes(float* out);
  // Predictions of y_t at every position of seq (length n = config.data.length): out (n).
  Status predict(const GpSequence& seq, double* out);
  // Predictions at m queries xq (m, dx), each placed at position `context` after the first
  // `context` pairs of seq (0 ≤ context < n): out (m).
  Status predict_at(const GpSequence& seq, int context, const double* xq, int m, double* out);

  CemTransformer& model() { return model_; }

 private:
  GpTrainConfig config_;
  Status error_;
  CemTransformer model_;
  Optimizer optimizer_;
  Pcg32 stream_;
  std::vector<double> losses_;
  bool diverged_ = false;
  int eval_steps_ = 0;
  // The model's forward on rows tokens at the evaluation T (restored to the trained T after).
  Status forward_eval(int rows);
  std::vector<float> tokens_, out_, target_, grad_;
};

}  // namespace gatelab
