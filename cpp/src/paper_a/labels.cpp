// Display names of the paper-A layers (see labels.hpp).
#include "gatelab/paper_a/labels.hpp"

#include <cstdio>

namespace gatelab {

LayerKind layer_kind_by_index(int i) {
  static constexpr LayerKind kinds[layer_kind_count] = {LayerKind::mlp, LayerKind::symmetric, LayerKind::gated,
                                                        LayerKind::bigated};
  return i >= 0 && i < layer_kind_count ? kinds[i] : LayerKind::gated;
}

const char* layer_kind_label(LayerKind kind) {
  switch (kind) {
    case LayerKind::mlp: return "MLP";
    case LayerKind::symmetric: return "symmetric";
    case LayerKind::gated: return "gated";
    case LayerKind::bigated: return "bigated";
  }
  return "?";
}

const char* gated_variant_name(Activation a) {
  switch (a) {
    case Activation::identity: return "Bilinear";
    case Activation::relu: return "ReGLU";
    case Activation::gelu: return "GEGLU";
    case Activation::gelu_tanh: return "GEGLU (tanh)";
    case Activation::silu: return "SwiGLU";
    case Activation::sigmoid: return "GLU";
    default: return nullptr;
  }
}

std::string layer_label(LayerKind kind, Activation activation, int rank, float symmetrize) {
  const std::string plain = activation_label(activation);
  std::string label;
  if (kind == LayerKind::bigated) {
    label = plain + "·" + plain;  // "SiLU·SiLU": both factors activated (§A23)
  } else if (kind != LayerKind::gated) {
    label = std::string(layer_kind_label(kind)) + " (" + plain + ")";
  } else if (symmetrize == 1.0f) {
    label = "symgated (" + plain + ")";
  } else {
    const char* named = gated_variant_name(activation);
    label = named ? std::string(named) : "gated (" + plain + ")";
  }
  if (kind != LayerKind::mlp && rank > 1) label += ", rank " + std::to_string(rank);
  if (kind == LayerKind::gated && symmetrize != 0.0f && symmetrize != 1.0f) {
    char lambda[32];
    std::snprintf(lambda, sizeof lambda, ", λ = %g", static_cast<double>(symmetrize));
    label += lambda;
  }
  return label;
}

}  // namespace gatelab
