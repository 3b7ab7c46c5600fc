// Rank-r approximation of the full bilinear attention MLP: the error falls with r and
// vanishes at r = d_in, parameters and FLOPs grow linearly, each truncation is the best
// rank-r symmetric matrix (Eckart–Young), and rank 1 is the symmetric form of A4.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gatelab/paper_a/rank_approx.hpp"
#include "gatelab/base/rng.hpp"

using namespace gatelab;

TEST(RankApprox, ErrorFallsWithRankAndVanishesAtFullRank) {
  for (Activation a : {Activation::identity, Activation::relu, Activation::silu, Activation::tanh}) {
    RankApproxOptions o;
    o.activation = {a, 1.0f};
    o.d_in = 6;
    o.hidden = 5;
    ASSERT_EQ(validate(o), "");
    const std::vector<RankApproxRow> rows = rank_approximation(o);
    ASSERT_EQ(rows.size(), 6u);
    for (std::size_t i = 1; i < rows.size(); ++i) {
      EXPECT_LT(rows[i].error, rows[i - 1].error) << activation_name(a) << " r=" << rows[i].rank;
      EXPECT_GT(rows[i].energy, rows[i - 1].energy);
    }
    EXPECT_LT(rows.back().error, 1e-5) << activation_name(a);
    EXPECT_NEAR(rows.back().energy, 1.0, 1e-12);
    EXPECT_GT(rows.front().error, 0.05);
  }
}

TEST(RankApprox, ParametersAndFlopsGrowLinearlyInRank) {
  RankApproxOptions o;
  const std::vector<RankApproxRow> rows = rank_approximation(o);
  for (const RankApproxRow& r : rows) {
    EXPECT_EQ(r.parameters, static_cast<std::size_t>(o.hidden * (2 * r.rank * o.d_in + o.d_out)));
    EXPECT_EQ(r.flops, 2.0 * (2 * o.hidden * r.rank * o.d_in + o.hidden * r.rank + o.hidden * o.d_out) + o.hidden);
  }
}

TEST(RankApprox, TruncationKeepsTheLargestMagnitudeEigenvaluesOfEachUnit) {
  // Unit score matrix with known spectrum: Q = K = diag-like rows give S = diag(λ).
  LayerConfig c{LayerKind::symmetric, {Activation::identity, 1.0f}, 3, 1, 1, 3, 1};
  Layer layer(c);
  auto& p = layer.params();
  p.q.fill(0.0f);
  p.k.fill(0.0f);
  p.v.fill(1.0f);
  const float lambda[] = {0.5f, -4.0f, 2.0f};
  for (int t = 0; t < 3; ++t) {
    p.q(0, t, t) = 1.0f;
    p.k(0, t, t) = lambda[t];
  }
  double energy = 0;
  const Layer r1 = truncate_rank(layer, 1, &energy);
  EXPECT_NEAR(energy, 16.0 / (0.25 + 16 + 4), 1e-12);
  // q kᵀ of the kept factor is −4 e₂ e₂ᵀ.
  EXPECT_NEAR(r1.params().q(0, 0, 1) * r1.params().k(0, 0, 1), -4.0f, 1e-6f);
  EXPECT_NEAR(r1.params().q(0, 0, 0), 0.0f, 1e-7f);
  const Layer r2 = truncate_rank(layer, 2, &energy);
  EXPECT_NEAR(energy, 20.0 / 20.25, 1e-12);
  const float x[] = {0.3f, -0.7f, 1.1f};
  float out;
  r2.forward(x, 1, &out);
  EXPECT_NEAR(out, -4.0f * 0.49f + 2.0f * 1.21f, 1e-5f);
}

TEST(RankApprox, RefusalsNameTheField) {
  RankApproxOptions o;
  o.d_in = 0;
  EXPECT_NE(validate(o).find("dIn"), std::string::npos);
  o = {};
  o.d_in = 65;
  EXPECT_NE(validate(o).find("dIn"), std::string::npos);
  o = {};
  o.inputs = 0;
  EXPECT_NE(validate(o).find("inputs"), std::string::npos);
  o = {};
  o.hidden = 0;
  EXPECT_NE(validate(o).find("hidden"), std::string::npos);
}
