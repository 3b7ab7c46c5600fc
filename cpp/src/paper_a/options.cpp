// Paper A's entry points: lab.createLayer, lab.census and lab.rankApprox (docs/MATH.md §A). Ranges
// are the constants the checks read (layer.cpp, census.cpp, rank_approx.cpp); defaults are read
// from default-constructed options.
#include "gatelab/paper_a/options.hpp"

#include "gatelab/base/activations.hpp"
#include "gatelab/paper_a/census.hpp"
#include "gatelab/paper_a/labels.hpp"
#include "gatelab/paper_a/rank_approx.hpp"

namespace gatelab {

void add_paper_a_options(OptionEntries& entries, NameSets& names) {
  using T = OptionType;
  const double dim = max_layer_dim, beta = max_swish_beta;
  entries.push_back({"createLayer",
                     {{"kind", T::name, "kinds"},
                      {"activation", T::name, "activations"},
                      {"beta", T::number, "", {}, -beta, beta},
                      {"d_in", T::integer, "", {}, 1, dim},
                      {"hidden", T::integer, "", {}, 1, dim},
                      {"d_out", T::integer, "", {}, 1, dim},
                      {"rank", T::integer},
                      {"seed", T::seed},
                      {"symmetrize", T::number, "", {}, 0, 1}}});
  const CensusOptions census;
  entries.push_back({"census",
                     {{"kinds", T::list, "kinds"},
                      {"activations", T::list, "activations"},
                      {"ranks", T::list},
                      {"d_in", T::integer, "", default_number(census.d_in), 1, dim},
                      {"hidden", T::integer, "", default_number(census.hidden), 1, dim},
                      {"d_out", T::integer, "", default_number(census.d_out), 1, dim},
                      {"inputs", T::integer, "", default_number(census.inputs), 0, max_census_inputs},
                      {"beta", T::number, "", default_number(census.beta), -beta, beta},
                      {"seed", T::seed, "", default_number(double(census.seed))},
                      {"threshold", T::number, "", default_number(census.threshold)}}});
  const RankApproxOptions approx;
  entries.push_back({"rankApprox",
                     {{"activation", T::name, "activations", default_name(activation_name(approx.activation.kind))},
                      {"beta", T::number, "", default_number(approx.activation.beta), -beta, beta},
                      {"d_in", T::integer, "", default_number(approx.d_in), 1, max_rank_approx_dim},
                      {"hidden", T::integer, "", default_number(approx.hidden), 1, dim},
                      {"d_out", T::integer, "", default_number(approx.d_out), 1, dim},
                      {"inputs", T::integer, "", default_number(approx.inputs), 1, max_rank_approx_inputs},
                      {"seed", T::seed, "", default_number(double(approx.seed))}}});

  // What readers see, index by index with the kinds and the activations (for figures drawn
  // before the module loads): the kind labels, activation labels and short labels, and the gated
  // layer's own name per activation ("" when it has none).
  NameSet kinds{"kinds", {}}, kind_labels{"kindLabels", {}};
  for (int i = 0; i < layer_kind_count; ++i) {
    kinds.values.push_back(layer_kind_name(layer_kind_by_index(i)));
    kind_labels.values.push_back(layer_kind_label(layer_kind_by_index(i)));
  }
  NameSet labels{"activationLabels", {}}, short_labels{"activationShortLabels", {}}, gated{"gatedNames", {}};
  for (int i = 0; i < activation_count; ++i) {
    const Activation a = activation_by_index(i);
    labels.values.push_back(activation_label(a));
    short_labels.values.push_back(activation_short_label(a));
    gated.values.push_back(gated_variant_name(a) ? gated_variant_name(a) : "");
  }
  for (NameSet* set : {&kinds, &kind_labels, &labels, &short_labels, &gated}) names.push_back(std::move(*set));
}

}  // namespace gatelab
