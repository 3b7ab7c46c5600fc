// Display names of the paper-A layer family: the one table of kinds, their labels and the
// names the gated variants go by (Shazeer 2020; docs/MATH.md §A5), which the figures, the
// experiment reports and lab.layerKinds / lab.layerLabel read.
#pragma once

#include <string>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

inline constexpr int layer_kind_count = 4;
LayerKind layer_kind_by_index(int i);          // catalogue order: mlp, symmetric, gated, bigated
const char* layer_kind_label(LayerKind kind);  // "MLP", "symmetric", "gated", "bigated"

// The gated layer's name for σ: Bilinear (identity), ReGLU, GEGLU, GEGLU (tanh), SwiGLU, GLU
// (sigmoid); nullptr for activations without a name of their own.
const char* gated_variant_name(Activation a);

// A layer as readers know it: "SwiGLU", "gated (tanh)", "symmetric (ReLU)", "MLP (GELU)",
// "symgated (SiLU)" (symmetrize = 1), "SiLU·SiLU" (bigated); then ", rank 2" when rank > 1 and ", λ = 0.5" for a
// symmetrize strictly between 0 and 1.
std::string layer_label(LayerKind kind, Activation activation, int rank = 1, float symmetrize = 0.0f);
inline std::string layer_label(const LayerConfig& c) {
  return layer_label(c.kind, c.activation.kind, c.rank, c.symmetrize);
}

}  // namespace gatelab
