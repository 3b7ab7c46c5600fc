// Embind registrations of the display-name table (paper_a/labels.hpp, base/activations.hpp)
// behind lab.layerKinds, lab.activationInfo(name) and lab.layerLabel(layer).
#include <emscripten/bind.h>

#include <string>

#include "gatelab/paper_a/labels.hpp"

using namespace emscripten;
using namespace gatelab;

namespace {

std::string kind_name(int i) { return layer_kind_name(layer_kind_by_index(i)); }
std::string kind_label(int i) { return layer_kind_label(layer_kind_by_index(i)); }
std::string activation_label_at(int i) { return activation_label(activation_by_index(i)); }
std::string activation_short_label_at(int i) { return activation_short_label(activation_by_index(i)); }
std::string gated_name_at(int i) {  // "" when the gated layer with this σ has no name of its own
  const char* name = gated_variant_name(activation_by_index(i));
  return name ? name : "";
}
std::string layer_label_of(int kind, int activation, int rank, float symmetrize) {
  return layer_label(layer_kind_by_index(kind), activation_by_index(activation), rank, symmetrize);
}

}  // namespace

EMSCRIPTEN_BINDINGS(labels) {
  constant("_layerKindCount", layer_kind_count);
  function("_layerKindName", &kind_name);
  function("_layerKindLabel", &kind_label);
  function("_activationLabel", &activation_label_at);
  function("_activationShortLabel", &activation_short_label_at);
  function("_gatedVariantName", &gated_name_at);
  function("_layerLabel", &layer_label_of);
}
