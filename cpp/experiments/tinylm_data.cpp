// The tiny-lm experiment's data side (experiment_tinylm.hpp): the character vocabulary, the
// train / validation split, the trivial baselines, validation and the default settings.
#include <algorithm>
#include <cmath>

#include "cem/math.hpp"
#include "experiment_tinylm.hpp"

namespace gatelab {

CharVocab char_vocab(std::string_view text) {
  CharVocab v;
  v.index.fill(-1);
  std::array<bool, 256> seen{};
  for (char c : text) seen[static_cast<unsigned char>(c)] = true;
  for (int b = 0; b < 256; ++b) {
    if (!seen[b]) continue;
    v.index[b] = v.size();
    v.symbols.push_back(static_cast<unsigned char>(b));
  }
  return v;
}

TinyLmExperimentConfig tinylm_experiment_defaults(bool quick) {
  TinyLmExperimentConfig c;
  auto model = [](std::string label, CemFamily family, int steps, int d, int hidden) {
    TinyLmModelSpec s;
    s.label = std::move(label);
    s.family = family;
    s.steps = steps;
    s.diagonal = family == CemFamily::cem ? CemDiagonal::shared : CemDiagonal::none;
    s.d = d;
    s.hidden = hidden;
    return s;
  };
  // Equal width (d = 64, M = 128) for the three headline models; a narrower Llama with about
  // the CEM model's parameter count and a wider CEM with about the Llama's place the two
  // families on one loss-against-parameters plot.
  c.models = {model("llama d=64", CemFamily::standard, 1, 64, 128),
              model("cem T=1 d=64", CemFamily::cem, 1, 64, 128),
              model("cem T=2 d=64", CemFamily::cem, 2, 64, 128),
              model("llama d=48", CemFamily::standard, 1, 48, 96),
              model("cem T=2 d=80", CemFamily::cem, 2, 80, 160)};
  c.seeds = 2;
  c.train.eta = 0.25f;  // as in gp-recursion; better than 1 for CEM T = 1 and 2 in a 400-step probe
  c.train_steps = 1200;
  c.eval_windows = 0;
  if (quick) {
    c.train.context = 32;
    c.train.d = 32;
    c.train.hidden = 64;
    c.train.heads = 2;
    c.train.batch = 8;
    c.train.warmup = 10;
    c.models = {model("llama d=32", CemFamily::standard, 1, 32, 64), model("cem T=1 d=32", CemFamily::cem, 1, 32, 64),
                model("cem T=2 d=32", CemFamily::cem, 2, 32, 64)};
    c.seeds = 1;
    c.train_steps = 120;
    c.max_chars = 40000;
    c.eval_windows = 64;
    c.curve_points = 3;
    c.curve_windows = 16;
    c.sample_chars = 60;
  }
  c.train.decay_steps = c.train_steps;
  return c;
}

std::string tinylm_prepare(const TinyLmExperimentConfig& c, std::string_view text, TinyLmData& out) {
  if (c.max_chars > 0 && text.size() > std::size_t(c.max_chars)) text = text.substr(0, c.max_chars);
  if (text.size() < 1000) return "the text must hold at least 1000 characters (got " + std::to_string(text.size()) + ")";
  if (!(c.val_fraction > 0.0 && c.val_fraction < 0.5)) return "val_fraction must be in (0, 0.5)";
  out.vocab = char_vocab(text);
  const std::size_t split = text.size() - static_cast<std::size_t>(double(text.size()) * c.val_fraction);
  out.train.clear();
  out.validation.clear();
  for (std::size_t i = 0; i < text.size(); ++i) {
    (i < split ? out.train : out.validation).push_back(out.vocab.index[static_cast<unsigned char>(text[i])]);
  }
  return "";
}

std::string validate(const TinyLmExperimentConfig& c, const TinyLmData& data) {
  const TinyLmTrainConfig& t = c.train;
  if (c.models.empty()) return "models must not be empty";
  if (t.context < 2 || t.context > 1024) return "context must be in 2…1024";
  if (data.train.size() < std::size_t(t.context) + 2 || data.validation.size() < std::size_t(t.context) + 2) {
    return "the text is too short for context " + std::to_string(t.context);
  }
  if (t.batch < 1 || t.batch > 1024) return "batch must be in 1…1024";
  if (!(t.lr > 0.0f && t.lr <= 1.0f)) return "lr must be in (0, 1]";
  if (c.seeds < 1 || c.seeds > 100) return "seeds must be in 1…100";
  if (c.train_steps < 1 || c.train_steps > 1000000) return "train_steps must be in 1…1000000";
  if (c.curve_points < 1 || c.curve_windows < 1) return "curve_points and curve_windows must be positive";
  for (const auto& m : c.models) {
    if (m.steps < 1 || m.steps > cem_max_steps) return m.label + ": steps must be in 1…" + std::to_string(cem_max_steps);
    const int d = m.d ? m.d : t.d;
    if (d < 1 || d > cem_max_d || d % t.heads != 0) return m.label + ": d must be a multiple of heads in 1…" + std::to_string(cem_max_d);
  }
  return "";
}

TinyLmBaselines tinylm_baselines(const TinyLmData& data) {
  TinyLmBaselines b;
  const int v = data.vocab.size();
  b.uniform = cem_detail::log(double(v));
  std::vector<double> counts(v, 1.0);  // add-one: every symbol of the text is possible
  for (auto t : data.train) counts[t] += 1.0;
  const double total = double(data.train.size()) + v;
  double loss = 0;
  for (auto t : data.validation) loss -= cem_detail::log(counts[t] / total);
  b.unigram = loss / double(data.validation.size());
  return b;
}

}  // namespace gatelab
