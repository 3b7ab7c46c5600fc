// Embind registrations of the seed statistics (base/stats.hpp) behind lab.stats: arrays of
// doubles in as JS arrays (a few values per seed, so no heap copies), summaries out as objects.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <vector>

#include "gatelab/base/stats.hpp"

using namespace emscripten;
using namespace gatelab;

namespace {

SampleSummary summary_of(const val& values) { return summarize(vecFromJSArray<double>(values)); }

SampleSummary paired_of(const val& a, const val& b) {
  return summarize_paired(vecFromJSArray<double>(a), vecFromJSArray<double>(b));
}

val holm_of(const val& p) {
  const std::vector<double> adjusted = holm_adjust(vecFromJSArray<double>(p));
  val out = val::array();
  for (std::size_t i = 0; i < adjusted.size(); ++i) out.set(i, adjusted[i]);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(stats) {
  value_object<SampleSummary>("SampleSummary")
      .field("n", &SampleSummary::n)
      .field("mean", &SampleSummary::mean)
      .field("sd", &SampleSummary::sd)
      .field("se", &SampleSummary::se)
      .field("ciLow", &SampleSummary::ci_low)
      .field("ciHigh", &SampleSummary::ci_high)
      .field("t", &SampleSummary::t)
      .field("p", &SampleSummary::p);
  function("_statsSummary", &summary_of);
  function("_statsPaired", &paired_of);
  function("_statsHolm", &holm_of);
  function("_statsTQuantile", &student_t_quantile);
}
