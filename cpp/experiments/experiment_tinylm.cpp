// The tiny-lm experiment's training side (experiment_tinylm.hpp): one (model, seed) job —
// AdamW on random windows of the training text, validation cross-entropy on fixed windows,
// a short generated sample — and the JSON of the whole run.
#include <chrono>
#include <cmath>

#include "cem/math.hpp"
#include "gatelab/cem/transformer.hpp"
#include "gatelab/train/loss.hpp"
#include "gatelab/train/optimizer.hpp"
#include "experiment_json.hpp"
#include "experiment_tinylm.hpp"
#include "gatelab/base/rng.hpp"

namespace gatelab {

namespace {

CemTransformerConfig model_config(const TinyLmExperimentConfig& c, const TinyLmModelSpec& m, int vocab, int seed) {
  CemTransformerConfig t;
  t.family = m.family;
  t.d_in = vocab;
  t.d_out = vocab;
  t.d = m.d ? m.d : c.train.d;
  t.hidden = m.hidden ? m.hidden : c.train.hidden;
  t.layers = c.train.layers;
  t.heads = c.train.heads;
  t.diagonal = m.diagonal;
  cem_set_shared_descent(t, m.steps, c.train.eta, m.precond, m.precond_rank);
  t.seed = static_cast<std::uint64_t>(seed);
  return t;
}

// The model with its one-hot input, logits and target buffers for windows of up to `context`.
struct CharModel {
  CemTransformer net;
  int vocab, context;
  std::vector<float> onehot, logits, grad;
  std::vector<std::int32_t> targets;

  CharModel(const CemTransformerConfig& config, int context)
      : net(config), vocab(config.d_in), context(context), onehot(std::size_t(context) * vocab),
        logits(std::size_t(context) * vocab), grad(std::size_t(context) * vocab), targets(context) {}

  // Cross-entropy of predicting chars[1 … n] from chars[0 … n−1]; with train, adds the
  // gradient scaled by `scale` to the model's grads.
  std::string window(const std::int32_t* chars, int n, bool train, float scale, double* loss) {
    std::fill(onehot.begin(), onehot.begin() + std::size_t(n) * vocab, 0.0f);
    for (int i = 0; i < n; ++i) {
      onehot[std::size_t(i) * vocab + chars[i]] = 1.0f;
      targets[i] = chars[i + 1];
    }
    if (std::string e = net.forward(onehot.data(), n, logits.data()); !e.empty()) return e;
    if (std::string e = cross_entropy_loss(logits.data(), targets.data(), n, vocab, loss, train ? grad.data() : nullptr);
        !e.empty()) {
      return e;
    }
    if (!train) return "";
    for (std::size_t i = 0; i < std::size_t(n) * vocab; ++i) grad[i] *= scale;
    return net.backward(grad.data(), nullptr);
  }
};

// Mean validation cross-entropy over (up to `limit`, evenly spaced) non-overlapping windows.
std::string validation_loss(CharModel& model, const std::vector<std::int32_t>& val, int limit, double* out) {
  const int context = model.context;
  const int windows = static_cast<int>((val.size() - 1) / std::size_t(context));
  const int used = limit > 0 ? std::min(limit, windows) : windows;
  double total = 0;
  for (int i = 0; i < used; ++i) {
    const std::size_t start = std::size_t(i) * windows / used * context;
    double loss = 0;
    if (std::string e = model.window(val.data() + start, context, false, 1.0f, &loss); !e.empty()) return e;
    total += loss;
  }
  *out = total / used;
  return "";
}

// `count` characters sampled at temperature 0.8 after the prompt.
std::string generate(CharModel& model, const CharVocab& vocab, std::vector<std::int32_t> text, int count, int seed) {
  Pcg32 rng(static_cast<std::uint64_t>(seed), 17u);
  std::string out;
  std::vector<double> p(vocab.size());
  for (int k = 0; k < count; ++k) {
    const int n = std::min<int>(model.context, static_cast<int>(text.size()));
    const std::int32_t* window = text.data() + text.size() - n;
    std::fill(model.onehot.begin(), model.onehot.begin() + std::size_t(n) * model.vocab, 0.0f);
    for (int i = 0; i < n; ++i) model.onehot[std::size_t(i) * model.vocab + window[i]] = 1.0f;
    if (!model.net.forward(model.onehot.data(), n, model.logits.data()).empty()) break;
    const float* row = model.logits.data() + std::size_t(n - 1) * model.vocab;
    double top = row[0], sum = 0;
    for (int c = 1; c < model.vocab; ++c) top = std::max(top, double(row[c]));
    for (int c = 0; c < model.vocab; ++c) sum += (p[c] = cem_detail::exp((row[c] - top) / 0.8));
    double u = double(rng.uniform()) * sum;
    int pick = model.vocab - 1;
    for (int c = 0; c < model.vocab; ++c) {
      if ((u -= p[c]) < 0) {
        pick = c;
        break;
      }
    }
    text.push_back(pick);
    out += static_cast<char>(vocab.symbols[pick]);
  }
  return out;
}

}  // namespace

TinyLmRunResult tinylm_run(const TinyLmExperimentConfig& c, int model_index, int seed, const TinyLmData& data,
                           const TinyLmProgress& progress) {
  const auto started = std::chrono::steady_clock::now();
  const TinyLmModelSpec& spec = c.models.at(model_index);
  TinyLmRunResult r;
  r.model = model_index;
  r.seed = seed;
  r.label = spec.label;
  const CemTransformerConfig config = model_config(c, spec, data.vocab.size(), seed);
  r.d = config.d;
  r.hidden = config.hidden;
  const int context = c.train.context, batch = c.train.batch;
  CharModel model(config, context);
  r.error = model.net.error();
  if (!r.error.empty()) return r;
  r.parameters = model.net.parameter_count();
  OptimizerOptions adamw;
  adamw.kind = OptimizerKind::adamw;
  adamw.learning_rate = c.train.lr;
  adamw.weight_decay = c.train.weight_decay;
  adamw.clip_norm = c.train.clip_norm;
  Optimizer optimizer(adamw);
  Pcg32 stream(static_cast<std::uint64_t>(seed), 13u);
  const auto offsets = static_cast<std::uint32_t>(data.train.size() - std::size_t(context));
  double interval_loss = 0;
  int interval_steps = 0, next_curve = 1;
  for (int step = 0; step < c.train_steps && r.error.empty(); ++step) {
    model.net.zero_grad();
    double total = 0;
    for (int b = 0; b < batch && r.error.empty(); ++b) {
      double loss = 0;
      r.error = model.window(data.train.data() + stream.below(offsets), context, true, 1.0f / batch, &loss);
      total += loss / batch;
    }
    if (!r.error.empty()) break;
    if (!std::isfinite(total)) {
      r.diverged = true;
      break;
    }
    optimizer.set_learning_rate(scheduled_lr(c.train.lr, c.train.warmup, c.train.decay_steps, step));
    r.error = optimizer.step(model.net.parameters());
    interval_loss += total;
    ++interval_steps;
    const int done = step + 1;
    if (progress && (done % std::max(1, c.train_steps / 20) == 0 || done == c.train_steps)) {
      progress(double(done) / c.train_steps, total);
    }
    if (next_curve <= c.curve_points && done >= next_curve * c.train_steps / c.curve_points) {
      double val = 0;
      const bool last = next_curve == c.curve_points;
      if (r.error.empty()) r.error = validation_loss(model, data.validation, last ? c.eval_windows : c.curve_windows, &val);
      r.curve_steps.push_back(done);
      r.curve_val_loss.push_back(val);
      r.curve_train_loss.push_back(interval_loss / interval_steps);
      interval_loss = 0;
      interval_steps = 0;
      ++next_curve;
      if (last) r.val_loss = val;
    }
  }
  if (r.error.empty() && !r.diverged) {
    r.val_perplexity = cem_detail::exp(r.val_loss);
    r.bits_per_char = r.val_loss / cem_detail::log(2.0);
    const std::size_t prompt = std::min<std::size_t>(context, data.validation.size());
    std::vector<std::int32_t> text(data.validation.begin(), data.validation.begin() + prompt);
    r.sample = generate(model, data.vocab, std::move(text), c.sample_chars, seed);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

std::string tinylm_experiment_json(const TinyLmExperimentConfig& c, const TinyLmData& data, const TinyLmBaselines& b,
                                   const std::vector<TinyLmRunResult>& runs, double seconds, int threads) {
  JsonWriter j;
  const TinyLmTrainConfig& t = c.train;
  j.begin_object().field("experiment", "tiny-lm");
  j.key("settings").begin_object();
  j.field("context", t.context).field("layers", t.layers).field("heads", t.heads).field("eta", double(t.eta));
  j.field("batch", t.batch).field("lr", double(t.lr)).field("weightDecay", double(t.weight_decay));
  j.field("clipNorm", double(t.clip_norm)).field("warmup", t.warmup).field("decaySteps", t.decay_steps);
  j.field("seeds", c.seeds).field("trainSteps", c.train_steps).field("valFraction", c.val_fraction);
  j.field("maxChars", c.max_chars).field("evalWindows", c.eval_windows).field("vocabulary", data.vocab.size());
  j.field("trainChars", data.train.size()).field("validationChars", data.validation.size());
  std::string prompt;
  for (std::size_t i = 0; i < std::size_t(t.context) && i < data.validation.size(); ++i) {
    prompt += static_cast<char>(data.vocab.symbols[data.validation[i]]);
  }
  j.field("samplePrompt", prompt).end_object();
  j.key("models").begin_array();
  for (const auto& m : c.models) {
    j.begin_object().field("label", m.label).field("family", cem_family_name(m.family)).field("steps", m.steps);
    j.field("diagonal", cem_diagonal_name(m.diagonal)).field("precond", cem_precond_name(m.precond));
    j.field("d", m.d ? m.d : t.d).field("hidden", m.hidden ? m.hidden : t.hidden).end_object();
  }
  j.end_array();
  j.key("baselines").begin_object().field("uniform", b.uniform).field("unigram", b.unigram).end_object();
  j.key("runs").begin_array();
  for (const auto& r : runs) {
    j.begin_object().field("model", r.model).field("label", r.label).field("seed", r.seed);
    j.field("parameters", r.parameters).field("d", r.d).field("hidden", r.hidden).field("error", r.error);
    j.field("diverged", r.diverged).field("valLoss", r.val_loss).field("valPerplexity", r.val_perplexity);
    j.field("bitsPerChar", r.bits_per_char).field("curveSteps", r.curve_steps).field("curveValLoss", r.curve_val_loss);
    j.field("curveTrainLoss", r.curve_train_loss).field("sample", r.sample).field("seconds", r.seconds).end_object();
  }
  j.end_array();
  j.field("seconds", seconds).field("threads", threads);
  j.end_object();
  return j.str();
}

}  // namespace gatelab
