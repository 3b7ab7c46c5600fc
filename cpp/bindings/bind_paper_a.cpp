// Embind registrations of paper A (docs/MATH.md §A): the layer family, the symmetry probes,
// the census, the rank-r approximation and the interaction matrices; web/lib/ wraps them.
// Lists cross as comma-separated strings ("mlp,gated", "1,2") that the core parses. A census
// comes back as a transient handle that JS reads out and deletes at once.
#include "bind_module.hpp"

#include "gatelab/paper_a/census.hpp"
#include "gatelab/paper_a/interactions.hpp"
#include "gatelab/paper_a/ntk.hpp"
#include "gatelab/paper_a/rank_approx.hpp"
#include "gatelab/paper_a/symmetry.hpp"

using namespace emscripten;
using namespace gatelab;
using namespace gatelab::bind;

namespace {

Status to_config(const val& o, LayerConfig& c) {
  if (Status e = read_layer_fields(o, c); !e.ok()) return e;
  if (Status e = seed_of(o, c.seed); !e.ok()) return e;
  read_fields(o, "dIn", c.d_in, "dOut", c.d_out);
  return validate(c);
}

val layer_options(const Layer& layer) {
  const LayerConfig& c = layer.config();
  return object_of("kind", layer_kind_name(c.kind), "activation", activation_name(c.activation.kind), "beta",
                   c.activation.beta, "dIn", c.d_in, "hidden", c.hidden, "dOut", c.d_out, "rank", c.rank, "seed",
                   static_cast<double>(c.seed), "symmetrize", c.symmetrize);
}

val symmetry_gap(const Layer& layer, Ptr x, int rows, bool exchange, float alpha) {
  const Status e = validate_symmetry_probe(layer, rows);
  if (!e.ok()) return number_result(e, 0);
  return number_result(e, exchange ? exchange_gap(layer, f32(x), rows) : scaling_gap(layer, f32(x), rows, alpha));
}

val scaling_gap_units(const Layer& layer, Ptr x, int rows, Ptr alphas) {
  const Status e = validate_symmetry_probe(layer, rows);
  return number_result(e, e.ok() ? scaling_gap_per_unit(layer, f32(x), rows, f32(alphas)) : 0);
}

// {error, gram (N·N), eigenvalues (N), conditionNumber} as Float64Arrays, N = rows·d_out.
val ntk_js(const Layer& layer, Ptr x, int rows) {
  Ntk k;
  const Status e = run_if_ok(validate_ntk(layer, rows), [&] { k = neural_tangent_kernel(layer, f32(x), rows); });
  return object_of("error", e, "gram", float64_array(k.gram), "eigenvalues", float64_array(k.eigenvalues),
                   "conditionNumber", k.condition_number);
}

Status plane(int act, float beta, float lo, float hi, int n, float symmetrize, Ptr out) {
  return run_if_ok(validate_exchange_plane(act, lo, hi, n, symmetrize), [&] {
    exchange_plane({activation_by_index(act), beta}, lo, hi, n, f32(out), symmetrize);
  });
}

Status curve(int act, float beta, float lo, float hi, int n, Ptr z, Ptr value, Ptr derivative, Ptr ratio) {
  return run_if_ok(validate_activation_curve(act, lo, hi, n), [&] {
    activation_curve({activation_by_index(act), beta}, lo, hi, n, f32(z), f32(value), f32(derivative), f32(ratio));
  });
}

Status to_config(const val& j, CensusOptions& o) {
  const auto list = [&](const char* name) { return get<std::string>(j, name); };
  if (Status e = parse_census_lists(list("kinds"), list("activations"), list("ranks"), o); !e.ok()) return e;
  if (Status e = seed_of(j, o.seed); !e.ok()) return e;
  read_fields(j, "dIn", o.d_in, "hidden", o.hidden, "dOut", o.d_out, "beta", o.beta, "inputs", o.inputs, "threshold",
              o.threshold);
  return validate(o);
}

using CensusRun = Run<CensusRow>;
CensusRun* run_census_js(const val& j) {
  CensusOptions o;
  return new CensusRun(to_config(j, o), [&] { return run_census(o); });
}

// Row i (null when there is none).
val census_row_js(const CensusRun& run, int i) {
  if (i < 0 || i >= run.size()) return val::null();
  const CensusRow& r = run.rows[i];
  const LayerConfig& c = r.config;
  return object_of("kind", layer_kind_name(c.kind), "activation", activation_name(c.activation.kind), "explanation",
                   r.predicted.explanation, "rank", c.kind == LayerKind::mlp ? 1 : c.rank, "dIn", c.d_in, "hidden",
                   c.hidden, "dOut", c.d_out, "parameters", static_cast<int>(r.parameters), "inputs", r.inputs,
                   "jacobianRank", r.jacobian_rank, "measured", r.measured, "predicted", r.predicted.count, "keptMin",
                   r.kept_min, "droppedMax", r.dropped_max, "gapDecades", r.gap_decades, "exchangeGap", r.exchange_gap,
                   "exchangeApplicable", r.exchange_applicable, "exchangePredicted", r.exchange_predicted,
                   "exchangeMeasured", r.exchange_measured);
}

Status to_config(const val& j, RankApproxOptions& o) {
  Status e =
      parse_activation_spec(get<std::string>(j, "activation"), get<float>(j, "beta"), "activation", o.activation);
  if (e.ok()) e = seed_of(j, o.seed);
  if (!e.ok()) return e;
  read_fields(j, "dIn", o.d_in, "hidden", o.hidden, "dOut", o.d_out, "inputs", o.inputs);
  return validate(o);
}

// out: rank_approx_table(rows, d_in), d_in · rank_approx_fields floats (_paRankRow).
Status rank_approx(const val& j, Ptr out) {
  RankApproxOptions o;
  return run_if_ok(to_config(j, o), [&] { copy_out(rank_approx_table(rank_approximation(o), o.d_in), out); });
}

// u (d_out), x (d_in) or 0; outputs d·d, d·d, d, d·d, d·d floats.
val interactions_js(const Layer& layer, Ptr u, Ptr x, Ptr matrix, Ptr raw, Ptr values, Ptr vectors, Ptr exchanged) {
  Interactions r;
  const Status error = run_if_ok(validate_interactions(layer), [&] {
    r = interactions(layer, f32(u), x ? f32(x) : nullptr);
    copy_interactions(r, f32(matrix), f32(raw), f32(values), f32(vectors), f32(exchanged));
  });
  return object_of("error", error, "exact", r.exact, "rawAsymmetry", r.raw_asymmetry, "exchangeGap", r.exchange_gap,
                   "quadratic", r.quadratic, "output", r.output);
}

}  // namespace

// Laid out by hand: clang-format 14 would put each `+[]` lambda on a line of its own.
// clang-format off
EMSCRIPTEN_BINDINGS(gatelab_paper_a) {
  constants({{"_maxCurvePoints", max_curve_points}, {"_maxInteractionDim", max_interaction_dim},
             {"_paRankRow", rank_approx_fields}});

  module_methods<Layer>("Layer")
      .function("options", &layer_options)
      .function("maxRows", &Layer::max_rows)
      .function("backward", &backward<Layer>)
      .function("exchanged", +[](const Layer& l) { return new Layer(l.exchanged()); }, allow_raw_pointers())
      .function("rescaled", +[](const Layer& l, float alpha) { return new Layer(l.rescaled(alpha)); },
                allow_raw_pointers());
  function("_validateLayerOptions", &validate_options<LayerConfig, to_config>);
  function("_createLayer", &create<Layer, LayerConfig, to_config>, allow_raw_pointers());
  function("_liveLayerCount", &Layer::live_count);
  function("_symmetryGap", &symmetry_gap);
  function("_scalingGapPerUnit", &scaling_gap_units);
  function("_symmetryNtk", &ntk_js);
  function("_exchangePlane", &plane);
  function("_activationCurve", &curve);

  function("_paValidateCensus", &validate_options<CensusOptions, to_config>);
  function("_paRunCensus", &run_census_js, allow_raw_pointers());
  class_<CensusRun>("PaCensusRun")
      .function("error", +[](const CensusRun& r) { return r.error; })
      .function("rowCount", &CensusRun::size)
      .function("row", &census_row_js)
      .function("copySpectrum", +[](const CensusRun& r, int i, Ptr out) {
        if (i >= 0 && i < r.size()) copy_out(r.rows[i].spectrum, out);
      });
  function("_paValidateRankApprox", &validate_options<RankApproxOptions, to_config>);
  function("_paRankApprox", &rank_approx);
  function("_paInteractions", &interactions_js);
}
// clang-format on
