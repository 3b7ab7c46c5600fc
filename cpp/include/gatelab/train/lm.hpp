// A character language-model session (docs/MATH.md §B13, §A20): one transformer (cem/
// transformer.hpp) trained on random windows of a character corpus with an optimizer of the
// family (train/optimizer.hpp) on the LR schedule of §T4. The unit of work of the language-
// model experiments (mlp-lm, tiny-lm) and, bound to JS, of the <gatelab-lm> figure, so the
// browser and the native runner produce the same curves bit for bit.
// Per step it draws `batch` windows (start uniform in [0, N_train − C), stream
// Pcg32(data_seed, 13)), predicts characters 1…C from 0…C−1 in one batched forward, and takes
// one optimizer step on the mean cross-entropy. Two sessions with the same data_seed see the
// same windows; with the same model seed they share W_in, W_out and the attention weights, so
// variants that differ only in the MLP slot are compared on paired data.
// Errors come back as a Status (ok = fine); nothing throws.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gatelab/base/rng.hpp"
#include "gatelab/model/transformer.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/train/char_corpus.hpp"
#include "gatelab/train/optimizer.hpp"

namespace gatelab {

inline constexpr int max_lm_context = 1024;
inline constexpr int max_lm_batch = 256;
inline constexpr float max_lm_mlp_init_rms = 1e3f;

struct LmConfig {
  CemTransformerConfig model;  // d_in and d_out are set to the corpus vocabulary size
  int context = 64;            // C: characters predicted per window
  int batch = 16;              // windows per step
  OptimizerOptions optimizer{OptimizerKind::adamw, 3e-3f, 0.9f, 0.9f, 0.999f, 1e-8f, 0.0f, 1.0f};
  int warmup = 100;
  int decay_steps = 0;  // > 0: linear decay to 10 % at this step (§T4)
  std::uint64_t data_seed = 1;
  bool gauge_fix = false;     // §A13 after every step (standard family, gauge-fixable MLP kinds)
  float mlp_init_rms = 0.0f;  // > 0: scale each block's MLP V so its output RMS at init is this (§A20)
};

// What lab.lm.createSession and lab.lm.createCorpus use for an omitted option (the catalogue
// states them; web/lib/train/lm.js reads them from there): a figure-sized model that trains in a
// browser worker, not the experiments' d = 64 set-up (cpp/experiments/experiment_lm.hpp). The MLP's
// budget, 6·d² (§A20), depends on d and so is not a fixed default.
struct LmApiDefaults {
  int d = 32;
  int layers = 2;
  int heads = 4;
  int context = 32;
  int batch = 8;
  OptimizerKind optimizer = OptimizerKind::adamw;
  float learning_rate = 4e-3f;
  float weight_decay = 0.1f;
  float clip_norm = 1.0f;
  float momentum = 0.9f;
  int warmup = 50;
  int decay_steps = 0;
  float mlp_init_rms = 0.0f;
  bool gauge_fix = false;
  std::uint64_t seed = 1;
  LayerKind mlp_kind = LayerKind::gated;
  Activation mlp_activation = Activation::silu;
  int mlp_rank = 1;
  float mlp_symmetrize = 0.0f;
  float mlp_beta = 1.0f;
  double dev_fraction = 0.05;
  double validation_fraction = 0.05;
};

// The MLP width that spends `budget` parameters per block on a d → d paper-A layer
// (docs/MATH.md §A20): FFN d_ff = budget/(2d); a rank-r form m = round(budget/(d(2r + 1))).
int lm_mlp_hidden(LayerKind kind, int rank, int d, int budget);

// The transformer a session builds (vocabulary-wide input and output).
CemTransformerConfig lm_model_config(const LmConfig& config, const CharCorpus& corpus);
Status validate(const LmConfig& config, const CharCorpus& corpus);

// Per block, on a set of windows (§A12). NaN where a quantity does not apply to the kind.
struct LmBlockDiagnostics {
  double antisymmetric_share = 0;                       // gated: ‖(1 − λ)A‖ / ‖S + (1 − λ)A‖
  double exchange_gap = 0;                              // symmetric, gated (§A16)
  double qk_balance = 0;                                // mean over units of Σ_t ‖q_jt‖² − ‖k_jt‖²
  double qk_drift = 0;                                  // qk_balance now minus at the start of training
  double preactivation_quantiles[5] = {0, 0, 0, 0, 0};  // of σ's argument: 5, 25, 50, 75, 95 %
};

class LmSession;
// session.diagnostics(...) flattened, 9 numbers per block: share, gap, balance, drift, quantiles.
Status lm_diagnostics_flat(LmSession& session, CorpusSplit split, int windows, std::vector<double>& out);

class LmSession {
 public:
  // Never fails: an invalid config gives a session whose error() is the message.
  LmSession(const LmConfig& config, std::shared_ptr<const CharCorpus> corpus);

  const Status& error() const { return error_; }
  const LmConfig& config() const { return config_; }
  const CharCorpus& corpus() const { return *corpus_; }
  std::size_t parameter_count() const { return model_.parameter_count(); }
  int steps_done() const { return static_cast<int>(losses_.size()); }
  // Mean training cross-entropy of each step so far.
  const std::vector<double>& train_losses() const { return losses_; }
  // True once a step was not finite; train() then refuses to go on.
  bool diverged() const { return diverged_; }

  // Runs `steps` steps (0 ≤ steps ≤ 100000).
  Status train(int steps);
  // Mean cross-entropy (nats per character) over `windows` evenly spaced windows of a split
  // (0: all of them; the same windows at every call).
  Status evaluate(CorpusSplit split, int windows, double* loss);
  // `count` characters sampled at `temperature` after the prompt (the first C validation
  // characters), stream Pcg32(seed, 17).
  Status sample(int count, float temperature, std::uint64_t seed, std::string* out);
  // RMS of block l's MLP output on its inputs from the first `batch` train windows: the probe
  // that mlp_init_rms scales to (standard family; NaN otherwise).
  double mlp_output_rms(int l);
  // One entry per block, from the MLP inputs of `windows` windows of a split.
  Status diagnostics(CorpusSplit split, int windows, std::vector<LmBlockDiagnostics>& out);
  // Per block, the condition number of the MLP slot's empirical NTK (docs/MATH.md §A24) on the
  // MLP inputs of `tokens` fixed tokens of a split (1 ≤ tokens, tokens · d ≤ max_ntk_outputs):
  // the last position of each of `tokens` evenly spaced windows. NaN for a CEM block.
  Status mlp_conditioning(CorpusSplit split, int tokens, std::vector<double>& out);

  // Everything training changes (parameters, optimizer state, losses, data stream) as bytes,
  // and back: a checkpoint restored into a session of the same config resumes bit for bit.
  std::vector<std::uint8_t> checkpoint() const;
  Status restore(const std::uint8_t* bytes, std::size_t size);

  CemTransformer& model() { return model_; }

 private:
  // Forward of `count` windows starting at `starts` (their C + 1 characters in `text`); fills
  // the inputs and targets, and logits via the model.
  Status forward_windows(const std::vector<std::int32_t>& text, const std::size_t* starts, int count);
  void scale_mlps_to_rms(float target);
  std::vector<double> qk_balances();

  LmConfig config_;
  std::shared_ptr<const CharCorpus> corpus_;
  Status error_;
  CemTransformer model_;
  Optimizer optimizer_;
  Pcg32 stream_;
  std::vector<double> losses_;
  std::vector<double> initial_qk_;
  bool diverged_ = false;
  std::vector<float> logits_, grad_;
  std::vector<std::int32_t> inputs_, targets_;
};

}  // namespace gatelab
