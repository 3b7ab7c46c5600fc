// The display-name table: every kind and activation has a label, the gated variants carry
// Shazeer's names, and layer labels read as the literature names them.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gatelab/paper_a/labels.hpp"

using namespace gatelab;

TEST(Labels, EveryActivationAndKindHasADistinctLabel) {
  std::set<std::string> labels, shorts;
  for (int i = 0; i < activation_count; ++i) {
    labels.insert(activation_label(activation_by_index(i)));
    shorts.insert(activation_short_label(activation_by_index(i)));
  }
  EXPECT_EQ(labels.size(), std::size_t(activation_count));
  EXPECT_EQ(shorts.size(), std::size_t(activation_count));
  EXPECT_STREQ(layer_kind_label(layer_kind_by_index(0)), "MLP");
  EXPECT_EQ(layer_kind_by_index(2), LayerKind::gated);
  EXPECT_EQ(layer_kind_by_index(3), LayerKind::bigated);
  EXPECT_STREQ(layer_kind_name(layer_kind_by_index(3)), "bigated");
  EXPECT_EQ(layer_kind_count, 4);
}

TEST(Labels, LayersReadAsTheLiteratureNamesThem) {
  EXPECT_EQ(layer_label(LayerKind::gated, Activation::silu), "SwiGLU");
  EXPECT_EQ(layer_label(LayerKind::gated, Activation::identity), "Bilinear");
  EXPECT_EQ(layer_label(LayerKind::gated, Activation::sigmoid), "GLU");
  EXPECT_EQ(layer_label(LayerKind::gated, Activation::tanh), "gated (tanh)");
  EXPECT_EQ(layer_label(LayerKind::symmetric, Activation::relu), "symmetric (ReLU)");
  EXPECT_EQ(layer_label(LayerKind::mlp, Activation::gelu), "MLP (GELU)");
  EXPECT_EQ(layer_label(LayerKind::gated, Activation::silu, 1, 1.0f), "symgated (SiLU)");
  EXPECT_EQ(layer_label(LayerKind::gated, Activation::silu, 1, 0.5f), "SwiGLU, λ = 0.5");
  EXPECT_EQ(layer_label(LayerKind::symmetric, Activation::relu, 2), "symmetric (ReLU), rank 2");
  EXPECT_EQ(gated_variant_name(Activation::softplus), nullptr);
  EXPECT_EQ(layer_label(LayerKind::bigated, Activation::silu), "SiLU·SiLU");
  EXPECT_EQ(layer_label(LayerKind::bigated, Activation::relu, 2), "ReLU·ReLU, rank 2");
  EXPECT_EQ(layer_label(LayerKind::mlp, Activation::relu2), "MLP (ReLU²)");
}
