// The symmetrised gated unit (docs/MATH.md §A11) and gauge fixing (§A13): λ = 0 is the gated
// layer bit for bit, λ = 1 is exchange-symmetric for every σ, the exchange gap falls with λ,
// the double instantiation's backward matches finite differences at every λ (the same check as
// the CEM layers'), validation names symmetrize, and gauge fixing keeps the function where
// the inverse-scaling symmetry holds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "gatelab/base/rng.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/paper_a/symmetry.hpp"
#include "support/cem_layer_checks.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

LayerConfig gated(Activation a, float lambda, int rank = 1) {
  LayerConfig c;
  c.kind = LayerKind::gated;
  c.activation = {a, 1.0f};
  c.d_in = 4;
  c.hidden = 6;
  c.d_out = 3;
  c.rank = rank;
  c.seed = 21;
  c.symmetrize = lambda;
  return c;
}

std::vector<float> inputs(int rows, int d, std::uint64_t seed) {
  Pcg32 rng(seed);
  std::vector<float> x(static_cast<std::size_t>(rows) * d);
  for (float& v : x) v = rng.normal();
  return x;
}

}  // namespace

TEST(Symmetrize, ZeroIsTheGatedLayerBitForBit) {
  const auto x = inputs(9, 4, 1);
  for (int a = 0; a < activation_count; ++a) {
    LayerConfig plain = gated(activation_by_index(a), 0.0f, 2);
    Layer layer(plain), same(plain);
    std::vector<float> out(9 * 3), again(9 * 3);
    EXPECT_OK(layer.forward(x.data(), 9, out.data()));
    EXPECT_OK(same.forward(x.data(), 9, again.data()));
    EXPECT_EQ(std::memcmp(out.data(), again.data(), out.size() * sizeof(float)), 0);
  }
}

TEST(Symmetrize, OneIsExchangeSymmetricForEveryActivationAndTheGapFallsWithLambda) {
  const int rows = 32;
  const auto x = inputs(rows, 4, 2);
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    for (int rank : {1, 2}) {
      SCOPED_TRACE(std::string(activation_name(act)) + " rank " + std::to_string(rank));
      EXPECT_LT(exchange_gap(Layer(gated(act, 1.0f, rank)), x.data(), rows), 1e-6);
      if (is_linear(act)) continue;
      double previous = INFINITY;
      for (float lambda : {0.0f, 0.25f, 0.5f, 0.75f}) {
        const double gap = exchange_gap(Layer(gated(act, lambda, rank)), x.data(), rows);
        EXPECT_GT(gap, 1e-4) << "lambda " << lambda;
        EXPECT_LT(gap, previous) << "lambda " << lambda;
        previous = gap;
      }
    }
  }
}

TEST(Symmetrize, DoubleBackwardMatchesFiniteDifferencesAtEveryLambda) {
  for (Activation act : {Activation::relu, Activation::silu, Activation::gelu, Activation::sigmoid}) {
    for (float lambda : {0.25f, 0.5f, 1.0f}) {
      SCOPED_TRACE(std::string(activation_name(act)) + " lambda " + std::to_string(lambda));
      Layer64 layer(gated(act, lambda, 2));
      auto x = cemtest::randn<double>(5 * 4, 3);
      const auto weights = cemtest::randn<double>(5 * 3, 4);
      std::vector<double> dx;
      // σ comes from the float catalogue even in double: a wider step and a looser bound.
      ASSERT_NO_FATAL_FAILURE(
          cemtest::expect_backward_matches_finite_differences(layer, x, 5, weights, 1e-3, 3e-3, dx));
    }
  }
}

TEST(Symmetrize, ValidationNamesSymmetrize) {
  for (float bad : {-0.1f, 1.5f, NAN, INFINITY}) {
    EXPECT_ERROR(validate(gated(Activation::silu, bad)), ErrorCode::out_of_range, "symmetrize") << bad;
  }
  LayerConfig mlp = gated(Activation::relu, 0.5f);
  mlp.kind = LayerKind::mlp;
  EXPECT_ERROR(validate(mlp), ErrorCode::unsupported, "symmetrize");
  mlp.kind = LayerKind::symmetric;
  EXPECT_ERROR(validate(mlp), ErrorCode::unsupported, "symmetrize");
  EXPECT_OK(validate(gated(Activation::silu, 1.0f)));
}

TEST(GaugeFix, KeepsTheFunctionWhereInverseScalingHoldsAndNormalisesQ) {
  const int rows = 16;
  const auto x = inputs(rows, 4, 5);
  std::vector<LayerConfig> kept = {gated(Activation::relu, 0.0f), gated(Activation::relu, 1.0f, 2),
                                   gated(Activation::relu2, 0.0f)};
  LayerConfig symmetric = gated(Activation::silu, 0.0f, 2);
  symmetric.kind = LayerKind::symmetric;
  kept.push_back(symmetric);
  for (const LayerConfig& c : kept) {
    SCOPED_TRACE(std::string(layer_kind_name(c.kind)) + " " + activation_name(c.activation.kind));
    ASSERT_OK(gauge_fix_problem(c));
    Layer layer(c);
    std::vector<float> before(rows * 3), after(rows * 3);
    EXPECT_OK(layer.forward(x.data(), rows, before.data()));
    layer.gauge_fix();
    EXPECT_OK(layer.forward(x.data(), rows, after.data()));
    for (std::size_t i = 0; i < before.size(); ++i) EXPECT_NEAR(after[i], before[i], 1e-5 * (1 + std::fabs(before[i])));
    const auto& q = layer.params().q;
    for (std::size_t p = 0; p < q.size() / 4; ++p) {
      double n2 = 0;
      for (int e = 0; e < 4; ++e) n2 += double(q.data()[p * 4 + e]) * q.data()[p * 4 + e];
      EXPECT_NEAR(n2, 1.0, 1e-6);
    }
  }
  EXPECT_ERROR(gauge_fix_problem(gated(Activation::silu, 0.0f)), ErrorCode::out_of_range, "");
  EXPECT_ERROR(gauge_fix_problem(gated(Activation::relu2, 0.5f)), ErrorCode::unsupported, "");
  LayerConfig mlp = gated(Activation::relu, 0.0f);
  mlp.kind = LayerKind::mlp;
  EXPECT_ERROR(gauge_fix_problem(mlp), ErrorCode::unsupported, "");
}
