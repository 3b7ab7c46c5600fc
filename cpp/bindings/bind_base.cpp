// Embind registrations of the base area: the version, the library-wide caps, the activations'
// properties, the layer-label rule (paper_a/labels.hpp; the names themselves are in the option
// catalogue, web/lib/catalogue.js, which cpp/tools/gatelab_catalogue prints) and the seed statistics
// (base/stats.hpp; a few numbers per seed cross as JS arrays).
#include "bind_common.hpp"

#include "gatelab/base/activations.hpp"
#include "gatelab/base/stats.hpp"
#include "gatelab/paper_a/labels.hpp"
#include "gatelab/paper_a/layer.hpp"

using namespace emscripten;
using namespace gatelab;
using namespace gatelab::bind;

namespace {

std::vector<double> doubles(const val& a) { return convertJSArrayToNumberVector<double>(a); }  // one bulk copy

val summary_of(const SampleSummary& s) {
  return object_of("n", s.n, "mean", s.mean, "sd", s.sd, "se", s.se, "ciLow", s.ci_low, "ciHigh", s.ci_high, "t", s.t,
                   "p", s.p);
}

// A Status crosses as {code, field, message} in the JS API's names (api_names). JS never hands
// one back, but embind's value objects need setters: these keep what JS gives.
std::string status_code(const Status& s) { return error_code_name(s.code); }
std::string status_field(const Status& s) { return renamed(s, api_names()).field; }
std::string status_message(const Status& s) { return renamed(s, api_names()).message; }
void set_code(Status& s, std::string code) { s.code = code == "ok" ? ErrorCode::ok : ErrorCode::invalid_value; }
void set_field(Status& s, std::string field) { s.field = std::move(field); }
void set_message(Status& s, std::string message) { s.message = std::move(message); }

}  // namespace

// Laid out by hand: clang-format 14 would put each `+[]` lambda on a line of its own.
// clang-format off
EMSCRIPTEN_BINDINGS(gatelab_base) {
  value_object<Status>("Status")
      .field("code", &status_code, &set_code)
      .field("field", &status_field, &set_field)
      .field("message", &status_message, &set_message);
  function("_version", +[] { return std::string(GATELAB_VERSION); });
  constants({{"_maxLayerDim", max_layer_dim}, {"_maxLayerParams", max_layer_params},
             {"_maxBatchFloats", max_batch_floats}, {"_maxSwishBeta", max_swish_beta}});
  function("_activationDegree", +[](int i) { return homogeneity_degree(activation_by_index(i)).value_or(-1); });
  function("_activationLinear", +[](int i) { return is_linear(activation_by_index(i)); });
  function("_layerLabel", +[](int kind, int activation, int rank, float symmetrize) {
    return layer_label(layer_kind_by_index(kind), activation_by_index(activation), rank, symmetrize);
  });
  function("_statsSummary", +[](const val& v) { return summary_of(summarize(doubles(v))); });
  function("_statsPaired", +[](const val& a, const val& b) { return summary_of(summarize_paired(doubles(a), doubles(b))); });
  function("_statsHolm", +[](const val& p) { return val::array(holm_adjust(doubles(p))); });
  function("_statsTQuantile", &student_t_quantile);
  function("_statsBands", +[](const val& v, int seeds) {
    const SeedBands b = seed_bands(doubles(v), seeds);
    return object_of("mean", float64_array(b.mean), "sd", float64_array(b.sd), "min", float64_array(b.min), "max",
                     float64_array(b.max));
  });
}
// clang-format on
