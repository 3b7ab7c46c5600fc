// The theorems of paper A as tests (MATH.md A2, A7, A8, A9): the symmetric form is exchange-
// and scaling-invariant for every activation and rank; the gated form breaks the exchange for
// every nonlinear σ; ReGLU keeps scaling for α > 0 only; smooth gates break it; identity keeps
// both; a global query is absorbed into the keys.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gatelab/paper_a/layer.hpp"
#include "gatelab/base/rng.hpp"
#include "gatelab/paper_a/symmetry.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

constexpr int rows = 64;

LayerConfig make_config(LayerKind kind, Activation a, int rank) {
  LayerConfig c;
  c.kind = kind;
  c.activation = {a, 1.0f};
  c.d_in = 4;
  c.hidden = 8;
  c.d_out = 3;
  c.rank = rank;
  c.seed = 21;
  return c;
}

std::vector<float> random_batch(int n, std::uint64_t seed) {
  Pcg32 rng(seed);
  std::vector<float> x(n);
  for (float& f : x) f = rng.normal();
  return x;
}

const std::vector<float>& batch() {
  static const std::vector<float> x = random_batch(rows * 4, 77);
  return x;
}

const float alphas[] = {-3.0f, -0.5f, 0.25f, 2.0f, 7.0f};

}  // namespace

TEST(SymmetricForm, ExchangeAndScalingInvariantForEveryActivationAndRank) {
  for (int a = 0; a < activation_count; ++a) {
    for (int rank : {1, 2, 4}) {
      const Layer layer(make_config(LayerKind::symmetric, activation_by_index(a), rank));
      SCOPED_TRACE(std::string(activation_name(activation_by_index(a))) + " rank " + std::to_string(rank));
      EXPECT_LT(exchange_gap(layer, batch().data(), rows), 1e-6);
      for (float alpha : alphas) EXPECT_LT(scaling_gap(layer, batch().data(), rows, alpha), 1e-6) << alpha;
      const std::vector<float> per_unit = {-2, 0.5f, 3, -0.7f, 1.5f, -1, 4, 0.3f};
      EXPECT_LT(scaling_gap_per_unit(layer, batch().data(), rows, per_unit.data()), 1e-6);
    }
  }
}

TEST(GatedForm, EveryNonlinearActivationBreaksTheExchange) {
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    for (int rank : {1, 2}) {
      const Layer layer(make_config(LayerKind::gated, act, rank));
      const double gap = exchange_gap(layer, batch().data(), rows);
      if (is_linear(act))
        EXPECT_LT(gap, 1e-6) << activation_name(act);
      else
        EXPECT_GT(gap, 1e-2) << activation_name(act);
    }
  }
}

TEST(GatedForm, ReluFamilyKeepsPositiveScalingOnly) {
  for (Activation act : {Activation::relu, Activation::leaky_relu}) {
    const Layer layer(make_config(LayerKind::gated, act, 1));
    for (float alpha : {0.25f, 2.0f, 7.0f}) EXPECT_LT(scaling_gap(layer, batch().data(), rows, alpha), 1e-6);
    for (float alpha : {-3.0f, -0.5f}) EXPECT_GT(scaling_gap(layer, batch().data(), rows, alpha), 1e-2);
  }
}

TEST(GatedForm, SmoothGatesBreakScaling) {
  for (Activation act : {Activation::silu, Activation::swish, Activation::gelu, Activation::gelu_tanh,
                         Activation::sigmoid, Activation::tanh, Activation::softplus, Activation::relu2}) {
    const Layer layer(make_config(LayerKind::gated, act, 1));
    for (float alpha : {0.5f, 2.0f, -2.0f}) {
      EXPECT_GT(scaling_gap(layer, batch().data(), rows, alpha), 1e-2) << activation_name(act) << " " << alpha;
    }
  }
}

TEST(GatedForm, IdentityKeepsBothSymmetries) {
  const Layer layer(make_config(LayerKind::gated, Activation::identity, 2));
  EXPECT_LT(exchange_gap(layer, batch().data(), rows), 1e-6);
  for (float alpha : alphas) EXPECT_LT(scaling_gap(layer, batch().data(), rows, alpha), 1e-6);
}

TEST(GatedForm, IdentityGateEqualsSymmetricForm) {
  const Layer gated(make_config(LayerKind::gated, Activation::identity, 1));
  Layer symmetric(make_config(LayerKind::symmetric, Activation::identity, 1));
  symmetric.params() = gated.params();
  std::vector<float> a(rows * 3), b(rows * 3);
  EXPECT_OK(gated.forward(batch().data(), rows, a.data()));
  EXPECT_OK(symmetric.forward(batch().data(), rows, b.data()));
  EXPECT_LT(relative_gap(a.data(), b.data(), a.size()), 1e-6);
}

TEST(GatedForm, Relu2KeepsDegreeTwoScaling) {
  // A9: σ positively homogeneous of degree p keeps q → αq, k → k/αᵖ for α > 0.
  const Layer layer(make_config(LayerKind::gated, Activation::relu2, 1));
  Layer scaled(layer);
  scaled.params().q *= 3.0f;
  scaled.params().k /= 9.0f;
  std::vector<float> a(rows * 3), b(rows * 3);
  EXPECT_OK(layer.forward(batch().data(), rows, a.data()));
  EXPECT_OK(scaled.forward(batch().data(), rows, b.data()));
  EXPECT_LT(relative_gap(a.data(), b.data(), a.size()), 1e-6);
}

TEST(GatedForm, KeyValueScalingAlwaysHolds) {
  // A9: K is linear in the gated form, so k_j → c k_j, v_j → v_j / c is a symmetry for every σ.
  for (int a = 0; a < activation_count; ++a) {
    const Layer layer(make_config(LayerKind::gated, activation_by_index(a), 1));
    Layer scaled(layer);
    scaled.params().k *= -2.5f;
    scaled.params().v /= -2.5f;
    std::vector<float> x(rows * 3), y(rows * 3);
    EXPECT_OK(layer.forward(batch().data(), rows, x.data()));
    EXPECT_OK(scaled.forward(batch().data(), rows, y.data()));
    EXPECT_LT(relative_gap(x.data(), y.data(), x.size()), 1e-6) << activation_name(activation_by_index(a));
  }
}

TEST(GlobalQuery, IsAbsorbedIntoTheKeys) {
  for (int a = 0; a < activation_count; ++a) {
    const Layer mlp(make_config(LayerKind::mlp, activation_by_index(a), 1));
    const std::vector<float> w_q = random_batch(16, 5);
    std::vector<float> with_query(rows * 3), absorbed(rows * 3);
    forward_with_global_query(mlp, w_q.data(), batch().data(), rows, with_query.data());
    EXPECT_OK(absorb_global_query(mlp, w_q.data()).forward(batch().data(), rows, absorbed.data()));
    EXPECT_LT(relative_gap(with_query.data(), absorbed.data(), absorbed.size()), 1e-6);
  }
}

TEST(ExchangePlane, IsAntisymmetricAndVanishesExactlyForLinearSigma) {
  const int n = 33;
  std::vector<float> plane(n * n);
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    exchange_plane({act, 1.0f}, -3, 3, n, plane.data());
    double largest = 0;
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(plane[i * n + i], 0.0f);
      for (int j = 0; j < n; ++j) {
        EXPECT_EQ(plane[i * n + j], -plane[j * n + i]);
        largest = std::max(largest, std::fabs(static_cast<double>(plane[i * n + j])));
      }
    }
    if (is_linear(act))
      EXPECT_LT(largest, 1e-6) << activation_name(act);
    else
      EXPECT_GT(largest, 0.1) << activation_name(act);
  }
}

TEST(ActivationRatio, IsConstantOnlyForLinearSigma) {
  for (int a = 0; a < activation_count; ++a) {
    const ActivationSpec s{activation_by_index(a), 1.0f};
    const float r1 = activation_ratio(s, -2.0f), r2 = activation_ratio(s, 0.0f), r3 = activation_ratio(s, 1.5f);
    const bool constant = std::fabs(r1 - r2) < 1e-6 && std::fabs(r2 - r3) < 1e-6;
    EXPECT_EQ(constant, is_linear(s.kind)) << activation_name(s.kind);
  }
}

TEST(Homogeneity, EstimateMatchesTheCatalogue) {
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    const HomogeneityEstimate est = estimate_homogeneity({act, 1.0f}, 4);
    const auto degree = homogeneity_degree(act);
    if (degree) {
      EXPECT_NEAR(est.degree, *degree, 1e-4) << activation_name(act);
      EXPECT_LT(est.residual, 1e-4) << activation_name(act);
    } else {
      EXPECT_GT(est.residual, 1e-2) << activation_name(act);
    }
  }
}
