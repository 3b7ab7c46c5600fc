// Embind registrations for the paper-A experiments, part 2: the training race, the symmetry
// census, the rank-r approximation and interaction matrices. Lists cross as comma-separated
// strings ("mlp:relu,gated:silu", "1,2"), built and checked by web/lib/paper-a.js and parsed
// again here. A race or a census comes back as a transient handle that JS reads out and
// deletes at once; everything else writes into caller-sized heap buffers.
#include <emscripten/bind.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "bind_paper_a.hpp"
#include "gatelab/paper_a/census.hpp"
#include "gatelab/paper_a/interactions.hpp"
#include "gatelab/train/race.hpp"
#include "gatelab/paper_a/rank_approx.hpp"
#include "gatelab/paper_a/symmetry.hpp"

using namespace emscripten;
using namespace gatelab;
using namespace gatelab::bind;

namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// ---- race ---------------------------------------------------------------------------

struct RaceOptionsJs {
  std::string models, widthRule;
  int steps = 0, seeds = 0, budget = 0, mlpHidden = 0;
};

struct RaceRun {
  std::string error;
  std::vector<RaceResult> results;
};

struct RaceModelInfo {
  std::string label, kind, activation, firstDivergence;
  int hidden = 0, parameters = 0, diverged = 0;
};

std::string to_race(const RaceOptionsJs& r, const TrainOptions& t, const DataOptions& d, Ptr x, Ptr y, int count,
                    RaceOptions& o) {
  if (std::string e = to_trainer(t, o.trainer); !e.empty()) return e;
  if (std::string e = to_dataset(d, o.data); !e.empty()) return e;
  if (std::string e = check_points(d, x, y, count); !e.empty()) return e;
  if (d.task == "user") o.user_data = user_dataset(f32(x), f32(y), count, d.trainFraction, o.data.seed);
  for (const std::string& item : split(r.models)) {
    const std::size_t colon = item.find(':');
    const auto kind = parse_layer_kind(item.substr(0, colon));
    if (!kind || colon == std::string::npos) return "models: '" + item + "' is not 'kind:activation'";
    RaceModel m{*kind, {}};
    if (std::string e = parse_activation_spec(item.substr(colon + 1), t.beta, m.activation, "models"); !e.empty()) return e;
    if (o.models.size() >= static_cast<std::size_t>(max_race_models)) return "models: at most 16";
    o.models.push_back(m);
  }
  if (r.widthRule != "budget" && r.widthRule != "shazeer") return "widthRule must be 'budget' or 'shazeer'";
  o.width_rule = r.widthRule == "budget" ? WidthRule::budget : WidthRule::shazeer;
  o.steps = r.steps;
  o.seeds = r.seeds;
  o.budget = r.budget;
  o.mlp_hidden = r.mlpHidden;
  return validate(o);
}

std::string validate_race(const RaceOptionsJs& r, const TrainOptions& t, const DataOptions& d, Ptr x, Ptr y, int count) {
  RaceOptions o;
  return to_race(r, t, d, x, y, count, o);
}

RaceRun* run_race_js(const RaceOptionsJs& r, const TrainOptions& t, const DataOptions& d, Ptr x, Ptr y, int count) {
  auto run = new RaceRun;
  RaceOptions o;
  run->error = to_race(r, t, d, x, y, count, o);
  if (run->error.empty()) run->results = run_race(o);
  return run;
}

int race_models(const RaceRun& r) { return static_cast<int>(r.results.size()); }
int race_records(const RaceRun& r) { return r.results.empty() ? 0 : static_cast<int>(r.results[0].curves.steps.size()); }
int race_seeds(const RaceRun& r) { return r.results.empty() ? 0 : static_cast<int>(r.results[0].final_values[0].size()); }

RaceModelInfo race_model(const RaceRun& run, int i) {
  if (i < 0 || i >= race_models(run)) return {};
  const RaceResult& r = run.results[i];
  return {r.label, layer_kind_name(r.model.kind), activation_name(r.model.activation.kind), r.first_divergence,
          r.hidden, static_cast<int>(r.parameters), r.diverged};
}

// Layout (records R): steps, then per metric (train loss, test loss, train acc, test acc)
// mean, std, min, max — 17·R floats; then finals, 4 · seeds floats.
void race_curves(const RaceRun& run, int i, Ptr out) {
  if (i < 0 || i >= race_models(run)) return;
  const RaceCurves& c = run.results[i].curves;
  float* o = f32(out);
  for (int s : c.steps) *o++ = static_cast<float>(s);
  for (int k = 0; k < race_metrics; ++k) {
    for (const auto* v : {&c.mean[k], &c.std[k], &c.min[k], &c.max[k]}) o = std::copy(v->begin(), v->end(), o);
  }
  for (int k = 0; k < race_metrics; ++k) {
    const auto& f = run.results[i].final_values[k];
    o = std::copy(f.begin(), f.end(), o);
  }
}

std::string race_error(const RaceRun& r) { return r.error; }

// ---- census -------------------------------------------------------------------------

struct CensusOptionsJs {
  std::string kinds, activations, ranks;
  int dIn = 4, hidden = 3, dOut = 3, inputs = 0;
  float beta = 1;
  double seed = 1, threshold = 1e-12;
};

struct CensusRun {
  std::string error;
  std::vector<CensusRow> rows;
};

struct CensusRowJs {
  std::string kind, activation, explanation;
  int rank = 0, dIn = 0, hidden = 0, dOut = 0, parameters = 0, inputs = 0, jacobianRank = 0, measured = 0,
      predicted = 0;
  double keptMin = 0, droppedMax = 0, gapDecades = 0, exchangeGap = 0;
  bool exchangeApplicable = false, exchangePredicted = false, exchangeMeasured = false;
};

std::string to_census(const CensusOptionsJs& j, CensusOptions& o) {
  o.kinds.clear();
  o.ranks.clear();
  for (const std::string& k : split(j.kinds)) {
    const auto kind = parse_layer_kind(k);
    if (!kind) return "kinds: '" + k + "' is not 'mlp', 'symmetric' or 'gated'";
    o.kinds.push_back(*kind);
  }
  for (const std::string& a : split(j.activations)) {
    const auto act = parse_activation(a);
    if (!act) return "activations: '" + a + "' is not a catalogue name";
    o.activations.push_back(*act);
  }
  for (const std::string& r : split(j.ranks)) o.ranks.push_back(std::atoi(r.c_str()));
  if (std::string e = check_seed(j.seed, "seed"); !e.empty()) return e;
  if (!std::isfinite(j.beta) || std::fabs(j.beta) > max_swish_beta) return "beta must be finite with |beta| <= 100";
  o.d_in = j.dIn;
  o.hidden = j.hidden;
  o.d_out = j.dOut;
  o.beta = j.beta;
  o.seed = static_cast<std::uint64_t>(j.seed);
  o.inputs = j.inputs;
  o.threshold = j.threshold;
  if (o.activations.size() > static_cast<std::size_t>(activation_count) || o.ranks.size() > 64) return "too many entries";
  return validate(o);
}

std::string validate_census(const CensusOptionsJs& j) {
  CensusOptions o;
  return to_census(j, o);
}

CensusRun* run_census_js(const CensusOptionsJs& j) {
  auto run = new CensusRun;
  CensusOptions o;
  run->error = to_census(j, o);
  if (run->error.empty()) run->rows = run_census(o);
  return run;
}

int census_rows(const CensusRun& r) { return static_cast<int>(r.rows.size()); }

CensusRowJs census_row_js(const CensusRun& run, int i) {
  if (i < 0 || i >= census_rows(run)) return {};
  const CensusRow& r = run.rows[i];
  const LayerConfig& c = r.config;
  return {layer_kind_name(c.kind), activation_name(c.activation.kind), r.predicted.explanation,
          c.kind == LayerKind::mlp ? 1 : c.rank, c.d_in, c.hidden, c.d_out, static_cast<int>(r.parameters), r.inputs,
          r.jacobian_rank, r.measured, r.predicted.count, r.kept_min, r.dropped_max, r.gap_decades, r.exchange_gap,
          r.exchange_applicable, r.exchange_predicted, r.exchange_measured};
}

void census_spectrum(const CensusRun& run, int i, Ptr out) {
  if (i < 0 || i >= census_rows(run)) return;
  std::copy(run.rows[i].spectrum.begin(), run.rows[i].spectrum.end(), f32(out));
}

std::string census_error(const CensusRun& r) { return r.error; }

// ---- rank approximation ---------------------------------------------------------------

struct RankOptionsJs {
  std::string activation;
  float beta = 1;
  int dIn = 6, hidden = 4, dOut = 2, inputs = 256;
  double seed = 1;
};

std::string to_rank(const RankOptionsJs& j, RankApproxOptions& o) {
  if (std::string e = parse_activation_spec(j.activation, j.beta, o.activation, "activation"); !e.empty()) return e;
  if (std::string e = check_seed(j.seed, "seed"); !e.empty()) return e;
  o.d_in = j.dIn;
  o.hidden = j.hidden;
  o.d_out = j.dOut;
  o.inputs = j.inputs;
  o.seed = static_cast<std::uint64_t>(j.seed);
  return validate(o);
}

// out: d_in slots of 8 floats (rank, error, parameters, flops, energy, one-per-pair error,
// one-per-pair energy, exact 0/1); rows r = 1 … r*, then zeros (rank 0 ends the rows).
std::string rank_approx_js(const RankOptionsJs& j, Ptr out) {
  RankApproxOptions o;
  if (std::string e = to_rank(j, o); !e.empty()) return e;
  float* p = f32(out);
  float* const end = p + static_cast<std::size_t>(8) * o.d_in;
  for (const RankApproxRow& r : rank_approximation(o)) {
    *p++ = static_cast<float>(r.rank);
    *p++ = static_cast<float>(r.error);
    *p++ = static_cast<float>(r.parameters);
    *p++ = static_cast<float>(r.flops);
    *p++ = static_cast<float>(r.energy);
    *p++ = static_cast<float>(r.one_per_pair_error);
    *p++ = static_cast<float>(r.one_per_pair_energy);
    *p++ = r.exact ? 1.0f : 0.0f;
  }
  while (p < end) *p++ = 0.0f;
  return {};
}

std::string validate_rank(const RankOptionsJs& j) {
  RankApproxOptions o;
  return to_rank(j, o);
}

// ---- interactions -------------------------------------------------------------------

struct InteractionInfo {
  std::string error;
  bool exact = false;
  double rawAsymmetry = 0, exchangeGap = 0, quadratic = 0, output = 0;
};

// u (d_out), x (d_in) or 0; outputs d·d, d·d, d, d·d, d·d floats.
InteractionInfo interactions_js(const Layer& layer, Ptr u, Ptr x, Ptr matrix, Ptr raw, Ptr values, Ptr vectors,
                                Ptr exchanged) {
  InteractionInfo info{validate_interactions(layer)};
  if (!info.error.empty()) return info;
  const Interactions r = interactions(layer, f32(u), x ? f32(x) : nullptr);
  std::copy(r.matrix.begin(), r.matrix.end(), f32(matrix));
  std::copy(r.raw.begin(), r.raw.end(), f32(raw));
  std::copy(r.values.begin(), r.values.end(), f32(values));
  std::copy(r.vectors.begin(), r.vectors.end(), f32(vectors));
  std::copy(r.exchanged_matrix.begin(), r.exchanged_matrix.end(), f32(exchanged));
  info.exact = r.exact;
  info.rawAsymmetry = r.raw_asymmetry;
  info.exchangeGap = r.exchange_gap;
  if (x) {
    info.quadratic = quadratic_form(r.matrix, f32(x), r.d);
    std::vector<float> out(layer.config().d_out);
    layer.forward(f32(x), 1, out.data());
    for (int o = 0; o < layer.config().d_out; ++o) info.output += static_cast<double>(f32(u)[o]) * out[o];
  }
  return info;
}

}  // namespace

EMSCRIPTEN_BINDINGS(paper_a_analysis) {
  constant("maxRaceModels", max_race_models);
  constant("maxRaceSeeds", max_race_seeds);
  constant("maxRaceSteps", max_race_steps);
  constant("maxRaceRecords", max_race_records);
  constant("maxRaceBudget", max_race_budget);
  constant("maxCensusParameters", static_cast<int>(max_census_parameters));
  constant("maxRankApproxDim", max_rank_approx_dim);
  constant("maxInteractionDim", max_interaction_dim);

  value_object<RaceOptionsJs>("PaRaceOptions")
      .field("models", &RaceOptionsJs::models)
      .field("widthRule", &RaceOptionsJs::widthRule)
      .field("steps", &RaceOptionsJs::steps)
      .field("seeds", &RaceOptionsJs::seeds)
      .field("budget", &RaceOptionsJs::budget)
      .field("mlpHidden", &RaceOptionsJs::mlpHidden);
  value_object<RaceModelInfo>("PaRaceModel")
      .field("label", &RaceModelInfo::label)
      .field("kind", &RaceModelInfo::kind)
      .field("activation", &RaceModelInfo::activation)
      .field("firstDivergence", &RaceModelInfo::firstDivergence)
      .field("hidden", &RaceModelInfo::hidden)
      .field("parameters", &RaceModelInfo::parameters)
      .field("diverged", &RaceModelInfo::diverged);
  function("paValidateRace", &validate_race);
  function("paRunRace", &run_race_js, allow_raw_pointers());
  class_<RaceRun>("PaRaceRun")
      .function("error", &race_error)
      .function("modelCount", &race_models)
      .function("recordCount", &race_records)
      .function("seedCount", &race_seeds)
      .function("model", &race_model)
      .function("copyCurves", &race_curves);

  value_object<CensusOptionsJs>("PaCensusOptions")
      .field("kinds", &CensusOptionsJs::kinds)
      .field("activations", &CensusOptionsJs::activations)
      .field("ranks", &CensusOptionsJs::ranks)
      .field("dIn", &CensusOptionsJs::dIn)
      .field("hidden", &CensusOptionsJs::hidden)
      .field("dOut", &CensusOptionsJs::dOut)
      .field("inputs", &CensusOptionsJs::inputs)
      .field("beta", &CensusOptionsJs::beta)
      .field("seed", &CensusOptionsJs::seed)
      .field("threshold", &CensusOptionsJs::threshold);
  value_object<CensusRowJs>("PaCensusRow")
      .field("kind", &CensusRowJs::kind)
      .field("activation", &CensusRowJs::activation)
      .field("explanation", &CensusRowJs::explanation)
      .field("rank", &CensusRowJs::rank)
      .field("dIn", &CensusRowJs::dIn)
      .field("hidden", &CensusRowJs::hidden)
      .field("dOut", &CensusRowJs::dOut)
      .field("parameters", &CensusRowJs::parameters)
      .field("inputs", &CensusRowJs::inputs)
      .field("jacobianRank", &CensusRowJs::jacobianRank)
      .field("measured", &CensusRowJs::measured)
      .field("predicted", &CensusRowJs::predicted)
      .field("keptMin", &CensusRowJs::keptMin)
      .field("droppedMax", &CensusRowJs::droppedMax)
      .field("gapDecades", &CensusRowJs::gapDecades)
      .field("exchangeGap", &CensusRowJs::exchangeGap)
      .field("exchangeApplicable", &CensusRowJs::exchangeApplicable)
      .field("exchangePredicted", &CensusRowJs::exchangePredicted)
      .field("exchangeMeasured", &CensusRowJs::exchangeMeasured);
  function("paValidateCensus", &validate_census);
  function("paRunCensus", &run_census_js, allow_raw_pointers());
  class_<CensusRun>("PaCensusRun")
      .function("error", &census_error)
      .function("rowCount", &census_rows)
      .function("row", &census_row_js)
      .function("copySpectrum", &census_spectrum);

  value_object<RankOptionsJs>("PaRankOptions")
      .field("activation", &RankOptionsJs::activation)
      .field("beta", &RankOptionsJs::beta)
      .field("dIn", &RankOptionsJs::dIn)
      .field("hidden", &RankOptionsJs::hidden)
      .field("dOut", &RankOptionsJs::dOut)
      .field("inputs", &RankOptionsJs::inputs)
      .field("seed", &RankOptionsJs::seed);
  function("paValidateRankApprox", &validate_rank);
  function("paRankApprox", &rank_approx_js);

  value_object<InteractionInfo>("PaInteractionInfo")
      .field("error", &InteractionInfo::error)
      .field("exact", &InteractionInfo::exact)
      .field("rawAsymmetry", &InteractionInfo::rawAsymmetry)
      .field("exchangeGap", &InteractionInfo::exchangeGap)
      .field("quadratic", &InteractionInfo::quadratic)
      .field("output", &InteractionInfo::output);
  function("paInteractions", &interactions_js);
}
