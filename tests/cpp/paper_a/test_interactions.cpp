// Interaction matrices reproduce the layer: x B_u xᵀ = u·f(x) for every x when σ is the
// identity (symmetric and gated), x M_u(x) xᵀ = u·f(x) at x for every σ; sym() is the
// exchange quotient; eigenpairs reconstruct the matrix.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gatelab/paper_a/interactions.hpp"
#include "gatelab/base/rng.hpp"
#include "support/rounded.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;
using gatelab::testing_support::rounded;

namespace {

std::vector<float> normals(Pcg32& rng, int n) {
  std::vector<float> v(n);
  for (float& f : v) f = rng.normal();
  return v;
}

double u_dot_f(const Layer& layer, const float* u, const float* x) {
  std::vector<float> out(layer.config().d_out);
  EXPECT_OK(layer.forward(x, 1, out.data()));
  double s = 0;
  for (int o = 0; o < layer.config().d_out; ++o) s += static_cast<double>(u[o]) * out[o];
  return s;
}

}  // namespace

TEST(Interactions, WeightBasedMatrixReproducesABilinearLayerEverywhere) {
  for (LayerKind kind : {LayerKind::symmetric, LayerKind::gated}) {
    for (int rank : {1, 3}) {
      const Layer layer({kind, {Activation::identity, 1.0f}, 5, 7, 3, rank, 2});
      Pcg32 rng(4);
      const std::vector<float> u = normals(rng, 3);
      const Interactions b = interactions(layer, u.data(), nullptr);
      EXPECT_TRUE(b.exact);
      for (int trial = 0; trial < 20; ++trial) {
        const std::vector<float> x = normals(rng, 5);
        const double expect = u_dot_f(layer, u.data(), x.data());
        EXPECT_NEAR(quadratic_form(b.matrix, x.data(), 5), expect, 1e-5 * (1 + std::fabs(expect)));
        EXPECT_NEAR(quadratic_form(b.raw, x.data(), 5), expect, 1e-5 * (1 + std::fabs(expect)));
      }
    }
  }
}

TEST(Interactions, EffectiveMatrixAtXReproducesEveryActivation) {
  for (int a = 0; a < activation_count; ++a) {
    for (LayerKind kind : {LayerKind::symmetric, LayerKind::gated}) {
      const Layer layer({kind, {activation_by_index(a), 1.0f}, 4, 6, 2, 2, 3});
      Pcg32 rng(8);
      const std::vector<float> u = normals(rng, 2);
      for (int trial = 0; trial < 10; ++trial) {
        const std::vector<float> x = normals(rng, 4);
        const Interactions m = interactions(layer, u.data(), x.data());
        EXPECT_TRUE(m.exact);
        const double expect = u_dot_f(layer, u.data(), x.data());
        EXPECT_NEAR(quadratic_form(m.matrix, x.data(), 4), expect, 2e-5 * (1 + std::fabs(expect)))
            << layer_kind_name(kind) << " " << activation_name(activation_by_index(a));
      }
    }
  }
}

TEST(Interactions, SymmetrisingIsTheExchangeQuotient) {
  Pcg32 rng(5);
  const std::vector<float> u = normals(rng, 2);
  // Weight-based: the Q ↔ K layer has the transposed raw matrix and the same symmetric one.
  const Layer sym({LayerKind::symmetric, {Activation::silu, 1.0f}, 4, 5, 2, 1, 6});
  const Interactions b = interactions(sym, u.data(), nullptr);
  EXPECT_GT(b.raw_asymmetry, 0.1);
  EXPECT_LT(b.exchange_gap, 1e-15);  // equal up to the order of the double sums
  EXPECT_FALSE(b.exact);             // σ is not the identity: B_u is the pre-activation view only
  // At an input, the symmetric form's matrix is still exchange-invariant; a nonlinear gated
  // layer's is not — the broken symmetry, seen in the effective matrices.
  const std::vector<float> x = normals(rng, 4);
  EXPECT_LT(interactions(sym, u.data(), x.data()).exchange_gap, 1e-6);
  const Layer gated({LayerKind::gated, {Activation::silu, 1.0f}, 4, 5, 2, 1, 6});
  EXPECT_GT(interactions(gated, u.data(), x.data()).exchange_gap, 1e-3);
  const Layer bilinear({LayerKind::gated, {Activation::identity, 1.0f}, 4, 5, 2, 1, 6});
  EXPECT_LT(interactions(bilinear, u.data(), x.data()).exchange_gap, 1e-6);
}

TEST(Interactions, EigenpairsReconstructTheMatrixLargestMagnitudeFirst) {
  const Layer layer({LayerKind::symmetric, {Activation::identity, 1.0f}, 6, 8, 3, 2, 9});
  const float u[] = {1.0f, -0.5f, 0.25f};
  const Interactions b = interactions(layer, u, nullptr);
  for (int i = 1; i < 6; ++i) EXPECT_GE(std::fabs(b.values[i - 1]), std::fabs(b.values[i]));
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c < 6; ++c) {
      double s = 0;
      for (int i = 0; i < 6; ++i) s += b.values[i] * b.vectors[i * 6 + r] * b.vectors[i * 6 + c];
      EXPECT_NEAR(s, b.matrix[r * 6 + c], 1e-12);
    }
  }
}

TEST(Interactions, AtAnInputTheResultCarriesTheQuadraticFormAndTheLayersReadOut) {
  const Layer layer({LayerKind::gated, {Activation::gelu, 1.0f}, 4, 6, 3, 2, 12});
  Pcg32 rng(13);
  const std::vector<float> u = normals(rng, 3);
  const std::vector<float> x = normals(rng, 4);
  const Interactions m = interactions(layer, u.data(), x.data());
  EXPECT_EQ(m.quadratic, quadratic_form(m.matrix, x.data(), 4));
  EXPECT_EQ(m.output, u_dot_f(layer, u.data(), x.data()));
  EXPECT_NEAR(m.quadratic, m.output, 2e-5 * (1 + std::fabs(m.output)));
  const Interactions b = interactions(layer, u.data(), nullptr);
  EXPECT_EQ(b.quadratic, 0.0);
  EXPECT_EQ(b.output, 0.0);
}

TEST(Interactions, CopyOutRoundsEachArrayIntoItsBuffer) {
  const Layer layer({LayerKind::gated, {Activation::silu, 1.0f}, 4, 5, 2, 1, 3});
  const float u[] = {0.5f, -1.0f};
  const Interactions r = interactions(layer, u, nullptr);
  std::vector<float> matrix(16), raw(16), values(4), vectors(16), exchanged(16);
  copy_interactions(r, matrix.data(), raw.data(), values.data(), vectors.data(), exchanged.data());
  EXPECT_EQ(matrix, rounded(r.matrix));
  EXPECT_EQ(raw, rounded(r.raw));
  EXPECT_EQ(values, rounded(r.values));
  EXPECT_EQ(vectors, rounded(r.vectors));
  EXPECT_EQ(exchanged, rounded(r.exchanged_matrix));
  EXPECT_NE(raw, matrix);  // a gated layer's raw matrix is not symmetric
}

TEST(Interactions, MlpIsRefused) {
  const Layer mlp({LayerKind::mlp, {Activation::relu, 1.0f}, 3, 4, 1, 1, 1});
  EXPECT_ERROR(validate_interactions(mlp), ErrorCode::unsupported, "");
}
