// The tiny-lm experiment (issue 6, MATH.md B7): a character-level language model on a small
// public-domain text shipped in data/tiny-lm/. A Llama-style baseline (CemFamily::standard:
// RMSNorm, untied multi-head attention, SwiGLU) against CEM-tied layers (tied attention with a
// shared diagonal + tied gated MLP) at T = 1 and 2, at equal width and depth, plus a width
// sweep so validation loss can be read against parameter count. Tokens are characters: a
// one-hot row through W_in is the token embedding, W_out the readout, and the loss the cross-
// entropy over the character vocabulary. There is no positional encoding (the causal mask
// alone tells positions apart, as in NoPE decoders). The first (1 − val_fraction) of the text
// trains, the rest validates. tinylm_run is one deterministic (model, seed) job.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gatelab/cem/common.hpp"

namespace gatelab {

// Byte-level character vocabulary of a text: symbols in increasing byte order.
struct CharVocab {
  std::vector<unsigned char> symbols;
  std::array<int, 256> index{};  // −1 for bytes the text does not contain
  int size() const { return static_cast<int>(symbols.size()); }
};
CharVocab char_vocab(std::string_view text);

struct TinyLmTrainConfig {
  int context = 64;  // characters per training window (predictions per window)
  int d = 64, layers = 2, heads = 4, hidden = 128;
  float eta = 1.0f;
  int batch = 16;
  float lr = 3e-3f, weight_decay = 0.0f, clip_norm = 1.0f;
  int warmup = 100;
  int decay_steps = 0;  // > 0: linear decay to 10 % of lr at this step
};

struct TinyLmModelSpec {
  std::string label = "cem T=1";
  CemFamily family = CemFamily::cem;
  int steps = 1;
  CemDiagonal diagonal = CemDiagonal::shared;
  CemPrecond precond = CemPrecond::none;
  int precond_rank = 0;
  int d = 0, hidden = 0;  // 0: the train config's
};

struct TinyLmExperimentConfig {
  TinyLmTrainConfig train;
  std::vector<TinyLmModelSpec> models;
  int seeds = 2;
  int train_steps = 1200;
  double val_fraction = 0.1;
  int max_chars = 0;      // > 0: use only the first max_chars characters of the text
  int eval_windows = 0;   // > 0: at most this many validation windows (evenly spaced)
  int curve_points = 10;
  int curve_windows = 32;  // validation windows of the intermediate curve points
  int sample_chars = 160;  // text generated from the final model (temperature 0.8)
};
TinyLmExperimentConfig tinylm_experiment_defaults(bool quick);

struct TinyLmData {
  CharVocab vocab;
  std::vector<std::int32_t> train, validation;
};
// Vocabulary of the (cut) text and the train / validation split.
std::string tinylm_prepare(const TinyLmExperimentConfig& config, std::string_view text, TinyLmData& out);
std::string validate(const TinyLmExperimentConfig& config, const TinyLmData& data);

struct TinyLmBaselines {
  double uniform = 0;  // log V nats per character
  double unigram = 0;  // cross-entropy of train character frequencies (add-one) on validation
};
TinyLmBaselines tinylm_baselines(const TinyLmData& data);

struct TinyLmRunResult {
  int model = 0, seed = 0;
  std::string label, error;
  std::size_t parameters = 0;
  int d = 0, hidden = 0;
  bool diverged = false;
  double val_loss = 0, val_perplexity = 0, bits_per_char = 0;
  std::vector<int> curve_steps;
  std::vector<double> curve_val_loss, curve_train_loss;
  std::string sample;
  double seconds = 0;
};

using TinyLmProgress = std::function<void(double, double)>;
TinyLmRunResult tinylm_run(const TinyLmExperimentConfig& config, int model, int seed, const TinyLmData& data,
                           const TinyLmProgress& progress = {});

std::string tinylm_experiment_json(const TinyLmExperimentConfig& config, const TinyLmData& data,
                                   const TinyLmBaselines& baselines, const std::vector<TinyLmRunResult>& runs,
                                   double seconds, int threads);

}  // namespace gatelab
