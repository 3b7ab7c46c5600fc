// LmSession (see lm.hpp): config checks, the initial output-RMS scaling, the training step on
// a batch of windows, evaluation, sampling and checkpoints. Diagnostics: lm_diagnostics.cpp.
#include "gatelab/train/lm.hpp"

#include "gatelab/base/option_list.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "base/scalar_math.hpp"
#include "gatelab/train/loss.hpp"

namespace gatelab {

int lm_mlp_hidden(LayerKind kind, int rank, int d, int budget) {
  if (d < 1 || budget < 1) return 0;
  if (kind == LayerKind::mlp) return budget / (2 * d);
  return static_cast<int>(std::lround(double(budget) / (double(d) * (2.0 * rank + 1))));
}

CemTransformerConfig lm_model_config(const LmConfig& c, const CharCorpus& corpus) {
  CemTransformerConfig m = c.model;
  m.d_in = corpus.vocab.size();
  m.d_out = corpus.vocab.size();
  return m;
}

Status validate(const LmConfig& c, const CharCorpus& corpus) {
  if (c.context < 2 || c.context > max_lm_context)
    return out_of_range("context", "context must be in 2…" + std::to_string(max_lm_context));
  if (c.batch < 1 || c.batch > max_lm_batch)
    return out_of_range("batch", "batch must be in 1…" + std::to_string(max_lm_batch));
  if (corpus.vocab.size() < 2) return unsupported("", "the corpus needs at least 2 distinct characters");
  if (corpus.train.size() < std::size_t(c.context) + 2 || corpus.validation.size() < std::size_t(c.context) + 2) {
    // The context is what the text is too short for: a shorter one fits.
    return invalid_value("context", "the corpus is too short for context " + std::to_string(c.context));
  }
  if (c.warmup < 0) return out_of_range("warmup", "warmup must be ≥ 0");
  if (c.decay_steps < 0) return out_of_range("decay_steps", "decay_steps must be ≥ 0");
  if (!(c.mlp_init_rms >= 0.0f && c.mlp_init_rms <= max_lm_mlp_init_rms))
    return out_of_range("mlp_init_rms", "mlp_init_rms must be in [0, " + default_number(max_lm_mlp_init_rms) + "]");
  if (Status e = validate(c.optimizer); !e.ok()) return e.within("optimizer");
  const CemTransformerConfig m = lm_model_config(c, corpus);
  if (Status e = validate(m); !e.ok()) return e.within("model");
  if (c.gauge_fix) {
    if (m.family != CemFamily::standard) return unsupported("", "gauge_fix needs the standard family (a paper-A MLP)");
    if (Status e = gauge_fix_problem(cem_block_std_mlp_config(m, 0)); !e.ok()) return e.within("gauge_fix");
  }
  return {};
}

LmSession::LmSession(const LmConfig& config, std::shared_ptr<const CharCorpus> corpus)
    : config_(config),
      corpus_(std::move(corpus)),
      error_(corpus_ ? validate(config, *corpus_) : invalid_value("", "no corpus")),
      model_(corpus_ ? lm_model_config(config, *corpus_) : CemTransformerConfig{}),
      optimizer_(config.optimizer),
      stream_(config.data_seed, 13u) {
  if (!error_.ok()) return;
  const std::size_t rows = std::size_t(config.context) * config.batch, vocab = corpus_->vocab.size();
  inputs_.assign(rows, 0);
  logits_.assign(rows * vocab, 0.0f);
  grad_.assign(rows * vocab, 0.0f);
  targets_.assign(rows, 0);
  if (config.mlp_init_rms > 0.0f && config.model.family == CemFamily::standard) scale_mlps_to_rms(config.mlp_init_rms);
  initial_qk_ = qk_balances();
}

// The characters go in as symbol indices: the model's one-hot input without the one-hot
// matrix (CemTransformer::forward_tokens, the same bits).
Status LmSession::forward_windows(const std::vector<std::int32_t>& text, const std::size_t* starts, int count) {
  const int c = config_.context;
  for (int b = 0; b < count; ++b) {
    const std::int32_t* chars = text.data() + starts[b];
    for (int i = 0; i < c; ++i) {
      const std::size_t row = std::size_t(b) * c + i;
      inputs_[row] = chars[i];
      targets_[row] = chars[i + 1];
    }
  }
  return model_.forward_tokens(inputs_.data(), c, logits_.data(), count);
}

double LmSession::mlp_output_rms(int l) {
  Layer* mlp = model_.std_mlp(l);
  if (!error_.ok() || mlp == nullptr) return std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::size_t> starts = evaluation_windows(corpus_->train.size(), config_.context, config_.batch);
  if (!forward_windows(corpus_->train, starts.data(), static_cast<int>(starts.size())).ok()) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const int rows = model_.cached_rows();
  std::vector<float> out(std::size_t(rows) * config_.model.d);
  if (!mlp->forward(model_.mlp_input(l), rows, out.data()).ok()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (float v : out) sum += double(v) * v;
  return std::sqrt(sum / double(out.size()));
}

// Block by block, since each block's input depends on the blocks below (§A20).
void LmSession::scale_mlps_to_rms(float target) {
  for (int l = 0; l < config_.model.layers; ++l) {
    const double rms = mlp_output_rms(l);
    if (!(rms > 0)) continue;
    const float scale = static_cast<float>(double(target) / rms);
    for (auto& v : model_.std_mlp(l)->params().v) v *= scale;
  }
}

Status LmSession::train(int steps) {
  if (!error_.ok()) return error_;
  if (steps < 0 || steps > 100000) return out_of_range("steps", "steps must be in 0…100000");
  if (diverged_) return invalid_state("", "training diverged at step " + std::to_string(steps_done()));
  const int c = config_.context, batch = config_.batch, vocab = corpus_->vocab.size();
  const auto offsets = static_cast<std::uint32_t>(corpus_->train.size() - std::size_t(c));
  std::vector<std::size_t> starts(batch);
  for (int s = 0; s < steps; ++s) {
    for (auto& start : starts) start = stream_.below(offsets);
    model_.zero_grad();
    if (Status e = forward_windows(corpus_->train, starts.data(), batch); !e.ok()) return e;
    double loss = 0;
    if (Status e = cross_entropy_loss(logits_.data(), targets_.data(), batch * c, vocab, &loss, grad_.data());
        !e.ok()) {
      return e;
    }
    if (!std::isfinite(loss)) {
      diverged_ = true;
      return {};
    }
    if (Status e = model_.backward(grad_.data(), nullptr); !e.ok()) return e;
    optimizer_.set_learning_rate(
        scheduled_lr(config_.optimizer.learning_rate, config_.warmup, config_.decay_steps, steps_done()));
    if (!optimizer_.step(model_.parameters()).ok()) {
      diverged_ = true;
      return {};
    }
    if (config_.gauge_fix) {
      for (int l = 0; l < config_.model.layers; ++l) model_.std_mlp(l)->gauge_fix();
    }
    losses_.push_back(loss);
  }
  return {};
}

Status LmSession::evaluate(CorpusSplit split, int windows, double* loss) {
  if (!error_.ok()) return error_;
  if (loss == nullptr) return invalid_value("loss", "loss must not be null");
  const auto& text = corpus_->split(split);
  const std::vector<std::size_t> starts = evaluation_windows(text.size(), config_.context, windows);
  if (starts.empty())
    return invalid_value("", std::string("the ") + corpus_split_name(split) + " split is too short to evaluate");
  const int c = config_.context, vocab = corpus_->vocab.size();
  double total = 0;
  for (std::size_t first = 0; first < starts.size(); first += config_.batch) {
    const int count = static_cast<int>(std::min<std::size_t>(config_.batch, starts.size() - first));
    if (Status e = forward_windows(text, starts.data() + first, count); !e.ok()) return e;
    double part = 0;
    if (Status e = cross_entropy_loss<float>(logits_.data(), targets_.data(), count * c, vocab, &part, nullptr);
        !e.ok()) {
      return e;
    }
    total += part * count;
  }
  *loss = total / double(starts.size());
  return {};
}

Status LmSession::sample(int count, float temperature, std::uint64_t seed, std::string* out) {
  if (!error_.ok()) return error_;
  if (out == nullptr) return invalid_value("out", "out must not be null");
  if (count < 0 || count > 100000) return out_of_range("count", "count must be in 0…100000");
  if (!(temperature > 0.0f && temperature <= 100.0f))
    return out_of_range("temperature", "temperature must be in (0, 100]");
  const int c = config_.context, vocab = corpus_->vocab.size();
  std::vector<std::int32_t> text(corpus_->validation.begin(), corpus_->validation.begin() + c);
  std::vector<float> logits(std::size_t(c) * vocab);
  std::vector<double> p(vocab);
  Pcg32 rng(seed, 17u);
  out->clear();
  for (int k = 0; k < count; ++k) {
    const std::int32_t* window = text.data() + text.size() - c;
    if (Status e = model_.forward_tokens(window, c, logits.data()); !e.ok()) return e;
    const float* row = logits.data() + std::size_t(c - 1) * vocab;
    double top = row[0], sum = 0;
    for (int v = 1; v < vocab; ++v) top = std::max(top, double(row[v]));
    for (int v = 0; v < vocab; ++v) sum += (p[v] = scalar::exp((row[v] - top) / double(temperature)));
    double u = double(rng.uniform()) * sum;
    int pick = vocab - 1;
    for (int v = 0; v < vocab; ++v) {
      if ((u -= p[v]) < 0) {
        pick = v;
        break;
      }
    }
    text.push_back(pick);
    *out += static_cast<char>(corpus_->vocab.symbols[pick]);
  }
  return {};
}

namespace {

constexpr std::uint32_t checkpoint_magic = 0x4c4d4331;  // "LMC1"
static_assert(std::is_trivially_copyable_v<Pcg32>);

template <class T>
void put(std::vector<std::uint8_t>& out, const T& value) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}

template <class T>
void put_vector(std::vector<std::uint8_t>& out, const T* data, std::size_t n) {
  put(out, std::uint64_t(n));
  const auto* p = reinterpret_cast<const std::uint8_t*>(data);
  out.insert(out.end(), p, p + n * sizeof(T));
}

struct Reader {
  const std::uint8_t* at;
  const std::uint8_t* end;
  template <class T>
  bool get(T& value) {
    if (std::size_t(end - at) < sizeof(T)) return false;
    std::memcpy(&value, at, sizeof(T));
    at += sizeof(T);
    return true;
  }
  template <class T>
  bool get_vector(std::vector<T>& out) {
    std::uint64_t n = 0;
    if (!get(n) || std::size_t(end - at) / sizeof(T) < n) return false;
    out.resize(n);
    std::memcpy(out.data(), at, n * sizeof(T));
    at += n * sizeof(T);
    return true;
  }
};

}  // namespace

std::vector<std::uint8_t> LmSession::checkpoint() const {
  std::vector<std::uint8_t> out;
  if (!error_.ok()) return out;
  put(out, checkpoint_magic);
  auto& model = const_cast<CemTransformer&>(model_);
  const auto views = model.parameters();
  std::vector<float> values;
  for (const auto& v : views) values.insert(values.end(), v.value, v.value + v.size);
  put_vector(out, values.data(), values.size());
  const OptimizerState& s = optimizer_.state();
  put_vector(out, s.first.data(), s.first.size());
  put_vector(out, s.second.data(), s.second.size());
  put(out, s.beta1_power);
  put(out, s.beta2_power);
  put(out, s.steps);
  put_vector(out, losses_.data(), losses_.size());
  put_vector(out, initial_qk_.data(), initial_qk_.size());
  put(out, stream_);
  put(out, std::uint8_t(diverged_));
  return out;
}

Status LmSession::restore(const std::uint8_t* bytes, std::size_t size) {
  if (!error_.ok()) return error_;
  if (bytes == nullptr) return invalid_value("", "the checkpoint is empty");
  Reader r{bytes, bytes + size};
  std::uint32_t magic = 0;
  std::vector<float> values, first, second;
  OptimizerState state;
  std::vector<double> losses, initial;
  Pcg32 stream = stream_;
  std::uint8_t diverged = 0;
  const bool ok = r.get(magic) && magic == checkpoint_magic && r.get_vector(values) && r.get_vector(first) &&
                  r.get_vector(second) && r.get(state.beta1_power) && r.get(state.beta2_power) && r.get(state.steps) &&
                  r.get_vector(losses) && r.get_vector(initial) && r.get(stream) && r.get(diverged) && r.at == r.end;
  if (!ok) return invalid_value("", "the checkpoint is not one this version of GateLab wrote");
  const auto views = model_.parameters();
  if (values.size() != count_parameters(views))
    return invalid_value("", "the checkpoint belongs to a model of another size");
  std::size_t at = 0;
  for (const auto& v : views) {
    std::copy_n(values.data() + at, v.size, v.value);
    at += v.size;
  }
  state.first = std::move(first);
  state.second = std::move(second);
  optimizer_.restore(state);
  losses_ = std::move(losses);
  initial_qk_ = std::move(initial);
  stream_ = stream;
  diverged_ = diverged != 0;
  return {};
}

}  // namespace gatelab
