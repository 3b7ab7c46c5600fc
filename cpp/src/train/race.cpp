// The training race (see race.hpp): every (seed, model) pair is one Trainer run; a model's
// run depends only on its own options and the seed, so adding a model to the race never
// changes another's curves. Reductions over seeds run in double in seed order, through the
// library's seed statistics (base/stats.hpp).
#include "gatelab/train/race.hpp"

#include <algorithm>
#include <cmath>

#include "gatelab/base/list.hpp"
#include "gatelab/base/stats.hpp"
#include "gatelab/paper_a/labels.hpp"

namespace gatelab {
namespace {

int parameters_per_unit(const RaceOptions& o, const RaceModel& m) {
  const int d_in = o.trainer.bias_feature ? 3 : 2;
  return m.kind == LayerKind::mlp ? d_in + 1 : 2 * d_in + 1;  // rank 1, d_out = 1
}

float metric(const TrainRecord& r, int i) {
  switch (i) {
    case 0: return r.train_loss;
    case 1: return r.test_loss;
    case 2: return r.train_accuracy;
    default: return r.test_accuracy;
  }
}

TrainerOptions model_options(const RaceOptions& o, const RaceModel& m, int seed_index) {
  TrainerOptions t = o.trainer;
  t.layer.kind = m.kind;
  t.layer.activation = m.activation;
  t.layer.symmetrize = m.symmetrize;
  t.layer.rank = 1;
  t.layer.hidden = race_hidden(o, m);
  t.layer.seed = o.trainer.layer.seed + static_cast<std::uint64_t>(seed_index);
  return t;
}

// Every seed's value of every record for one model (records × metrics × seeds doubles; a
// 5000-step race of 10 seeds keeps ~2 MB), reduced by the library's seed statistics at the
// end. A run shorter than the race (diverged) repeats its last record to the end.
struct Accumulator {
  std::vector<std::vector<double>> values[race_metrics];  // [metric][record][seed]
  int runs = 0;

  explicit Accumulator(int records) {
    for (int k = 0; k < race_metrics; ++k) values[k].assign(records, {});
  }

  void add(const std::vector<TrainRecord>& run) {
    ++runs;
    for (int k = 0; k < race_metrics; ++k) {
      for (std::size_t i = 0; i < values[k].size(); ++i)
        values[k][i].push_back(metric(run[std::min(i, run.size() - 1)], k));
    }
  }

  void finish(int eval_every, RaceCurves& c) const {
    const std::size_t records = values[0].size();
    c.steps.resize(records);
    for (std::size_t i = 0; i < records; ++i) c.steps[i] = static_cast<int>(i) * eval_every;
    for (int k = 0; k < race_metrics; ++k) {
      c.mean[k].resize(records);
      c.std[k].resize(records);
      c.min[k].resize(records);
      c.max[k].resize(records);
      for (std::size_t i = 0; i < records; ++i) {
        const std::vector<double>& v = values[k][i];
        const SampleSummary s = summarize(v);
        c.mean[k][i] = static_cast<float>(s.mean);
        c.std[k][i] = runs > 1 ? static_cast<float>(s.sd) : 0.0f;  // sample SD (n − 1)
        c.min[k][i] = static_cast<float>(*std::min_element(v.begin(), v.end()));
        c.max[k][i] = static_cast<float>(*std::max_element(v.begin(), v.end()));
      }
    }
  }
};

}  // namespace

// The race names its models as the figures and reports do: one label table (paper_a/labels.hpp).
std::string race_label(const RaceModel& m) { return layer_label(m.kind, m.activation.kind, 1, m.symmetrize); }

std::vector<RaceModel> default_race_models() {
  return {{LayerKind::mlp, {Activation::relu, 1.0f}},      {LayerKind::symmetric, {Activation::relu, 1.0f}},
          {LayerKind::gated, {Activation::relu, 1.0f}},    {LayerKind::gated, {Activation::gelu, 1.0f}},
          {LayerKind::gated, {Activation::silu, 1.0f}},    {LayerKind::gated, {Activation::sigmoid, 1.0f}},
          {LayerKind::gated, {Activation::identity, 1.0f}}};
}

int race_hidden(const RaceOptions& o, const RaceModel& m) {
  if (o.width_rule == WidthRule::shazeer) {
    return m.kind == LayerKind::mlp ? o.mlp_hidden : std::max(1, (2 * o.mlp_hidden + 1) / 3);
  }
  const int per_unit = parameters_per_unit(o, m);
  return std::max(1, (o.budget + per_unit / 2) / per_unit);
}

Status validate(const RaceOptions& o) {
  if (o.models.empty() || o.models.size() > static_cast<std::size_t>(max_race_models)) {
    return out_of_range("models", "models must list from 1 to " + std::to_string(max_race_models) + " models");
  }
  if (o.seeds < 1 || o.seeds > max_race_seeds)
    return out_of_range("seeds", "seeds must be an integer from 1 to " + std::to_string(max_race_seeds));
  if (o.steps < 1 || o.steps > max_race_steps)
    return out_of_range("steps", "steps must be an integer from 1 to " + std::to_string(max_race_steps));
  if (o.trainer.eval_every < 1 || o.steps / o.trainer.eval_every + 1 > max_race_records) {
    return out_of_range(
        "steps", "steps / eval_every must be at most " + std::to_string(max_race_records - 1) + " (raise eval_every)");
  }
  if (o.width_rule == WidthRule::budget && (o.budget < 1 || o.budget > max_race_budget)) {
    return out_of_range("budget", "budget must be an integer from 1 to " + std::to_string(max_race_budget));
  }
  if (o.width_rule == WidthRule::shazeer && (o.mlp_hidden < 1 || o.mlp_hidden > max_trainer_units)) {
    return out_of_range("mlp_hidden", "mlp_hidden must be an integer from 1 to " + std::to_string(max_trainer_units));
  }
  if (!o.user_data) {
    if (Status e = validate(o.data); !e.ok()) return e;
  }
  for (const RaceModel& m : o.models) {
    if (Status e = validate(model_options(o, m, 0)); !e.ok()) {
      // The field is the option itself, except λ, which the models list carries.
      return make_status(e.code, e.field == "symmetrize" ? "models" : e.field, race_label(m) + ": " + e.message);
    }
  }
  return {};
}

std::vector<RaceResult> run_race(const RaceOptions& o) {
  const int records = o.steps / o.trainer.eval_every + 1;
  std::vector<RaceResult> results(o.models.size());
  std::vector<Accumulator> curves(o.models.size(), Accumulator(records));
  for (int s = 0; s < o.seeds; ++s) {
    DatasetOptions data = o.data;
    data.seed = o.data.seed + static_cast<std::uint64_t>(s);
    const Dataset dataset = o.user_data ? *o.user_data : make_dataset(data);
    for (std::size_t k = 0; k < o.models.size(); ++k) {
      Trainer trainer(model_options(o, o.models[k], s), dataset);
      trainer.step(o.steps);
      RaceResult& r = results[k];
      if (trainer.divergence().diverged && r.diverged++ == 0) r.first_divergence = trainer.divergence().message;
      if (trainer.history().empty()) {  // the initial loss was not finite
        curves[k].add({{0, NAN, NAN, 0.0f, 0.0f, 0.0f}});
      } else {
        curves[k].add(trainer.history());
      }
      const TrainRecord last = trainer.history().empty() ? TrainRecord{0, NAN, NAN, 0, 0, 0} : trainer.history().back();
      for (int m = 0; m < race_metrics; ++m) r.final_values[m].push_back(metric(last, m));
      if (s == 0) {
        r.model = o.models[k];
        r.label = race_label(o.models[k]);
        r.hidden = trainer.layer().config().hidden;
        r.parameters = trainer.layer().parameter_count();
      }
    }
  }
  for (std::size_t k = 0; k < o.models.size(); ++k) curves[k].finish(o.trainer.eval_every, results[k].curves);
  return results;
}

const char* width_rule_name(WidthRule rule) { return rule == WidthRule::budget ? "budget" : "shazeer"; }

std::optional<WidthRule> parse_width_rule(std::string_view name) {
  return optional_from<WidthRule>([&](WidthRule& v) { return parse_width_rule(name, v); });
}

Status parse_width_rule(std::string_view name, WidthRule& out) {
  return parse_choice(name, "width_rule", {WidthRule::budget, WidthRule::shazeer}, width_rule_name, out);
}

Status parse_race_models(std::string_view list, float beta, std::vector<RaceModel>& out) {
  for (const std::string& item : split_list(list)) {
    const std::size_t colon = item.find(':'), second = item.find(':', colon + 1);
    const auto kind = parse_layer_kind(item.substr(0, colon));
    RaceModel m{kind.value_or(LayerKind::gated), {}};
    if (!kind || colon == std::string::npos ||
        (second != std::string::npos && !parse_float(item.substr(second + 1), m.symmetrize))) {
      return invalid_value("models", "models: '" + item + "' is not 'kind:activation' or 'kind:activation:symmetrize'");
    }
    const std::string activation = item.substr(colon + 1, second == std::string::npos ? second : second - colon - 1);
    if (Status e = parse_activation_spec(activation, beta, "models", m.activation); !e.ok()) return e;
    if (out.size() >= static_cast<std::size_t>(max_race_models))
      return out_of_range("models", "models: at most " + std::to_string(max_race_models));
    out.push_back(m);
  }
  return {};
}

std::size_t race_curve_floats(const RaceResult& r) {
  return (1 + 4 * race_metrics) * r.curves.steps.size() + race_metrics * r.final_values[0].size();
}

void copy_race_curves(const RaceResult& r, float* out) {
  const RaceCurves& c = r.curves;
  for (int s : c.steps) *out++ = static_cast<float>(s);
  for (int k = 0; k < race_metrics; ++k) {
    for (const auto* v : {&c.mean[k], &c.std[k], &c.min[k], &c.max[k]}) out = std::copy(v->begin(), v->end(), out);
  }
  for (int k = 0; k < race_metrics; ++k) out = std::copy(r.final_values[k].begin(), r.final_values[k].end(), out);
}

}  // namespace gatelab
