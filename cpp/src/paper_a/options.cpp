// Paper A's entry points: lab.createLayer, lab.census and lab.rankApprox (docs/MATH.md §A).
#include "gatelab/paper_a/options.hpp"

#include "gatelab/base/activations.hpp"
#include "gatelab/paper_a/labels.hpp"

namespace gatelab {

void add_paper_a_options(OptionEntries& entries, NameSets& names) {
  using T = OptionType;
  const double dim = max_layer_dim, beta = max_swish_beta;
  entries.push_back({"createLayer",
                     {{"kind", T::name, "kinds"},
                      {"activation", T::name, "activations"},
                      {"beta", T::number, "", -beta, beta},
                      {"d_in", T::integer, "", 1, dim},
                      {"hidden", T::integer, "", 1, dim},
                      {"d_out", T::integer, "", 1, dim},
                      {"rank", T::integer},
                      {"seed", T::seed},
                      {"symmetrize", T::number, "", 0, 1}}});
  entries.push_back({"census",
                     {{"kinds", T::list, "kinds"},
                      {"activations", T::list, "activations"},
                      {"ranks", T::list},
                      {"d_in", T::integer},
                      {"hidden", T::integer},
                      {"d_out", T::integer},
                      {"inputs", T::integer},
                      {"beta", T::number},
                      {"seed", T::seed},
                      {"threshold", T::number}}});
  entries.push_back({"rankApprox",
                     {{"activation", T::name, "activations"},
                      {"beta", T::number},
                      {"d_in", T::integer},
                      {"hidden", T::integer},
                      {"d_out", T::integer},
                      {"inputs", T::integer},
                      {"seed", T::seed}}});

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
