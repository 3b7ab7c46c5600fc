// One job of the language-model experiments, and the variant table as JSON (experiment_lm.hpp).
#include "experiment_lm.hpp"

#include <chrono>
#include <cmath>
#include <memory>

#include "experiment_json.hpp"
#include "gatelab/paper_a/labels.hpp"
#include "gatelab/train/lm.hpp"

namespace gatelab {

namespace {

const LmVariant* find_variant(const std::vector<LmVariant>& variants, const std::string& name) {
  for (const auto& v : variants) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

}  // namespace

LmConfig lm_job_config(const LmExperimentSettings& s, const LmVariant& v, int seed, float lr, int steps) {
  LmConfig c;
  c.model.family = v.family;
  c.model.d = v.d > 0 ? v.d : s.d;
  c.model.layers = s.layers;
  cem_set_heads(c.model, s.heads);
  cem_set_hidden(c.model, v.hidden);
  c.model.mlp.activation = c.model.std_mlp.activation = v.activation;
  c.model.std_mlp.kind = v.kind;
  c.model.std_mlp.rank = v.rank;
  c.model.std_mlp.symmetrize = v.symmetrize;
  c.model.attention.diagonal = v.diagonal;
  cem_set_shared_descent(c.model, v.steps, s.eta, CemPrecond::none, 0);
  c.model.seed = static_cast<std::uint64_t>(seed);
  c.context = s.context;
  c.batch = s.batch;
  c.optimizer.kind = v.optimizer;
  c.optimizer.learning_rate = lr;
  c.optimizer.momentum = s.momentum;
  c.optimizer.weight_decay = v.optimizer == OptimizerKind::adamw ? s.weight_decay : 0.0f;
  c.optimizer.clip_norm = s.clip_norm;
  c.warmup = s.warmup;
  c.decay_steps = s.decay ? steps : 0;  // the schedule follows the run's length, or stays constant
  c.data_seed = static_cast<std::uint64_t>(seed);
  c.gauge_fix = v.gauge_fix;
  return c;
}

std::vector<int> lm_curve_steps(const LmExperimentSettings& s, int steps) {
  std::vector<int> at;
  if (s.eval_every > 0) {
    for (int k = s.eval_every; k <= steps; k += s.eval_every) at.push_back(k);
    if (at.empty() || at.back() != steps) at.push_back(steps);
  } else {
    for (int point = 1; point <= s.curve_points; ++point) at.push_back(steps * point / s.curve_points);
  }
  return at;
}

namespace {

// The settings object of the table and of every job.
void write_settings(JsonWriter& j, const LmExperimentSettings& s) {
  j.begin_object();
  j.field("experiment", s.experiment)
      .field("d", s.d)
      .field("layers", s.layers)
      .field("heads", s.heads)
      .field("context", s.context);
  j.field("batch", s.batch).field("budget", s.budget).field("steps", s.steps).field("longSteps", s.long_steps);
  j.field("sweepSteps", s.sweep_steps > 0 ? s.sweep_steps : s.steps);
  j.field("warmup", s.warmup)
      .field("decay", s.decay)
      .field("weightDecay", double(s.weight_decay))
      .field("clipNorm", double(s.clip_norm));
  j.field("momentum", double(s.momentum)).field("devFraction", s.dev_fraction);
  j.field("validationFraction", s.validation_fraction).field("maxChars", s.max_chars);
  j.field("evalWindows", s.eval_windows);
  j.field("curvePoints", s.curve_points)
      .field("evalEvery", s.eval_every)
      .field("diagnosticWindows", s.diagnostic_windows);
  j.field("seeds", s.seeds).field("sweepSeed", s.sweep_seed);
  if (s.sweep_seeds > 1) j.field("sweepSeeds", s.sweep_seeds);  // only then: a one-seed table reads as before
  j.field("reference", s.reference);
  j.field("eta", double(s.eta)).field("sampleChars", s.sample_chars);
  j.key("longVariants").begin_array();
  for (const auto& name : s.long_variants) j.value(name);
  j.end_array().end_object();
}

}  // namespace

std::string lm_variants_json(const LmExperimentSettings& s, const std::vector<LmVariant>& variants) {
  JsonWriter j;
  j.begin_object().key("settings");
  write_settings(j, s);
  j.key("variants").begin_array();
  for (const auto& v : variants) {
    if (!v.listed) continue;
    j.begin_object().field("name", v.name).field("label", v.label).field("group", v.group);
    j.field("family", cem_family_name(v.family)).field("d", v.d > 0 ? v.d : s.d).field("steps", v.steps);
    j.field("diagonal", cem_diagonal_name(v.diagonal));
    j.field("kind", layer_kind_name(v.kind)).field("activation", activation_name(v.activation.kind));
    j.field("rank", v.rank).field("symmetrize", double(v.symmetrize)).field("hidden", v.hidden);
    const std::size_t d = v.d > 0 ? v.d : s.d;
    const std::size_t per_unit = v.family == CemFamily::cem ? 2 : v.kind == LayerKind::mlp ? 2 : 2 * v.rank + 1;
    j.field("mlpParameters", std::size_t(v.hidden) * d * per_unit);
    j.field("gaugeFix", v.gauge_fix).field("optimizer", optimizer_name(v.optimizer));
    j.key("learningRates").begin_array();
    for (float lr : v.learning_rates) j.value(double(lr));
    j.end_array().end_object();
  }
  j.end_array().end_object();
  return j.str();
}

std::string lm_run_job(const LmExperimentSettings& s, const std::vector<LmVariant>& variants, const LmJob& job,
                       const std::string& text, std::string* json) {
  const auto started = std::chrono::steady_clock::now();
  const LmVariant* v = find_variant(variants, job.variant);
  if (v == nullptr) return "unknown variant '" + job.variant + "'";
  if (!v->listed) return "the variant '" + job.variant + "' is not among the study's --variants";
  const LmVariant* reference = s.reference.empty() ? nullptr : find_variant(variants, s.reference);
  if (!s.reference.empty() && reference == nullptr) return "the reference variant '" + s.reference + "' is missing";
  if (job.phase != "sweep" && job.phase != "main" && job.phase != "long") return "phase must be sweep, main or long";
  auto corpus = std::make_shared<CharCorpus>();
  const std::string_view used =
      s.max_chars > 0 && text.size() > std::size_t(s.max_chars) ? std::string_view(text).substr(0, s.max_chars) : text;
  if (Status e = make_char_corpus(used, s.dev_fraction, s.validation_fraction, *corpus); !e.ok()) return e.message;
  const int steps = job.phase == "long"                         ? s.long_steps
                    : job.phase == "sweep" && s.sweep_steps > 0 ? s.sweep_steps
                                                                : s.steps;
  const CorpusSplit split = job.phase == "sweep" ? CorpusSplit::dev : CorpusSplit::validation;

  LmConfig config = lm_job_config(s, *v, job.seed, job.learning_rate, steps);
  if (reference != nullptr) {  // every variant of a seed starts with the reference's MLP output RMS (§A20)
    LmSession probe(lm_job_config(s, *reference, job.seed, job.learning_rate, steps), corpus);
    if (!probe.error().ok()) return probe.error().message;
    config.mlp_init_rms = static_cast<float>(probe.mlp_output_rms(0));
  }
  LmSession session(config, corpus);
  if (!session.error().ok()) return session.error().message;

  JsonWriter j;
  j.begin_object().field("variant", v->name).field("phase", job.phase).field("seed", job.seed);
  j.field("lr", double(job.learning_rate)).field("split", corpus_split_name(split)).field("steps", steps);
  j.field("parameters", session.parameter_count()).field("initRms", double(config.mlp_init_rms));
  const CorpusBaselines baselines = corpus_baselines(*corpus);
  j.key("corpus").begin_object().field("vocabulary", corpus->vocab.size()).field("trainChars", corpus->train.size());
  j.field("devChars", corpus->dev.size()).field("validationChars", corpus->validation.size());
  j.field("uniform", baselines.uniform).field("unigram", baselines.unigram).end_object();
  std::vector<int> curve_steps;
  std::vector<double> curve_loss, curve_train;
  std::vector<std::vector<LmBlockDiagnostics>> diagnostics;
  std::vector<std::vector<double>> conditioning;  // --ntk-tokens: at the start, then at every curve point
  const auto measure_conditioning = [&]() -> Status {
    if (job.ntk_tokens == 0) return {};
    conditioning.emplace_back();
    return session.mlp_conditioning(CorpusSplit::validation, job.ntk_tokens, conditioning.back());
  };
  if (Status e = measure_conditioning(); !e.ok()) return e.message;
  double loss = 0;
  for (const int target : lm_curve_steps(s, steps)) {
    if (session.diverged()) break;
    const int before = session.steps_done();
    if (Status e = session.train(target - before); !e.ok()) return e.message;
    if (session.diverged()) break;
    if (Status e = session.evaluate(split, s.eval_windows, &loss); !e.ok()) return e.message;
    double train = 0;
    for (int k = before; k < session.steps_done(); ++k) train += session.train_losses()[k];
    curve_steps.push_back(session.steps_done());
    curve_loss.push_back(loss);
    curve_train.push_back(train / std::max(1, session.steps_done() - before));
    diagnostics.emplace_back();
    if (Status e = session.diagnostics(CorpusSplit::validation, s.diagnostic_windows, diagnostics.back()); !e.ok()) {
      return e.message;
    }
    if (Status e = measure_conditioning(); !e.ok()) return e.message;
  }
  // Losses with every digit a double has: the figure's test compares its curves to these bit for bit.
  j.field("diverged", session.diverged()).key("loss").exact(session.diverged() ? NAN : loss);
  j.field("curveSteps", curve_steps).key(split == CorpusSplit::dev ? "curveDevLoss" : "curveValLoss").exact(curve_loss);
  j.field("curveTrainLoss", curve_train);
  j.key("diagnostics").begin_array();
  for (const auto& point : diagnostics) {
    j.begin_array();
    for (const auto& b : point) {
      j.begin_object().field("antisymmetricShare", b.antisymmetric_share).field("exchangeGap", b.exchange_gap);
      j.field("qkBalance", b.qk_balance).field("qkDrift", b.qk_drift);
      j.field("preactivationQuantiles", std::vector<double>(b.preactivation_quantiles, b.preactivation_quantiles + 5));
      j.end_object();
    }
    j.end_array();
  }
  j.end_array();
  if (job.ntk_tokens > 0) {  // [start, curve points…] × blocks; only when asked, so a main job reads as before
    j.key("ntk").begin_object().field("tokens", job.ntk_tokens).key("conditionNumber").begin_array();
    for (const auto& point : conditioning) j.value(point);
    j.end_array().end_object();
  }
  std::string sample;
  if (!session.diverged() && job.phase != "sweep") {
    if (Status e = session.sample(s.sample_chars, 0.8f, static_cast<std::uint64_t>(job.seed), &sample); !e.ok()) {
      return e.message;
    }
  }
  j.field("sample", sample);
  // The settings the job ran with, and the study's flags that made them (the merge checks them).
  j.key("settings");
  write_settings(j, s);
  j.key("args").begin_array();
  for (const auto& arg : s.study_args) j.value(arg);
  j.end_array();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  j.key("timing").begin_object().field("seconds", seconds).end_object();
  j.end_object();
  *json = j.str();
  return "";
}

}  // namespace gatelab
