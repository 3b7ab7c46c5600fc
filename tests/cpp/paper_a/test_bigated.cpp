// The bigated unit σ(a)σ(b) (docs/MATH.md §A23): exchange-symmetric bit for bit for every σ,
// Bilinear's bits at σ = identity, not symgated's function, and inverse scaling (gauge fixing,
// teleport) accepted exactly where §A23 derives it: any positively homogeneous σ, power 1.
// Forward and backward against double central differences: test_layer_gradients (layer_cases).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gatelab/base/rng.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/paper_a/orbit.hpp"
#include "gatelab/paper_a/symmetry.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

LayerConfig config(LayerKind kind, Activation a, int rank = 1, float lambda = 0.0f) {
  LayerConfig c;
  c.kind = kind;
  c.activation = {a, 1.0f};
  c.d_in = 4;
  c.hidden = 6;
  c.d_out = 3;
  c.rank = rank;
  c.seed = 23;
  c.symmetrize = lambda;
  return c;
}

std::vector<float> inputs(int rows, int d, std::uint64_t seed) {
  Pcg32 rng(seed);
  std::vector<float> x(static_cast<std::size_t>(rows) * d);
  for (float& v : x) v = rng.normal();
  return x;
}

std::vector<float> run(const Layer& layer, const std::vector<float>& x, int rows) {
  std::vector<float> out(static_cast<std::size_t>(rows) * layer.config().d_out);
  EXPECT_OK(layer.forward(x.data(), rows, out.data()));
  return out;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST(Bigated, ExchangedLayerGivesTheSameBitsForEveryActivation) {
  const int rows = 32;
  const auto x = inputs(rows, 4, 1);
  for (int i = 0; i < activation_count; ++i) {
    for (int rank : {1, 2}) {
      const Layer layer(config(LayerKind::bigated, activation_by_index(i), rank));
      SCOPED_TRACE(std::string(activation_name(activation_by_index(i))) + " rank " + std::to_string(rank));
      EXPECT_TRUE(same_bits(run(layer, x, rows), run(layer.exchanged(), x, rows)));
      EXPECT_EQ(exchange_gap(layer, x.data(), rows), 0.0);
    }
  }
}

TEST(Bigated, IdentityIsBilinearBitForBitAndSiluIsNeitherSwigluNorSymgated) {
  const int rows = 16;
  const auto x = inputs(rows, 4, 2);
  EXPECT_TRUE(same_bits(run(Layer(config(LayerKind::bigated, Activation::identity, 2)), x, rows),
                        run(Layer(config(LayerKind::gated, Activation::identity, 2)), x, rows)));
  const auto bi = run(Layer(config(LayerKind::bigated, Activation::silu)), x, rows);
  const auto sym = run(Layer(config(LayerKind::gated, Activation::silu, 1, 1.0f)), x, rows);
  const auto swiglu = run(Layer(config(LayerKind::gated, Activation::silu)), x, rows);
  double d_sym = 0, d_swiglu = 0;
  for (std::size_t i = 0; i < bi.size(); ++i) {
    d_sym = std::max(d_sym, std::fabs(double(bi[i]) - sym[i]));
    d_swiglu = std::max(d_swiglu, std::fabs(double(bi[i]) - swiglu[i]));
  }
  EXPECT_GT(d_sym, 1e-3);
  EXPECT_GT(d_swiglu, 1e-3);
}

TEST(Bigated, InverseScalingHoldsForEveryHomogeneousDegreeWithPowerOne) {
  const int rows = 16;
  const auto x = inputs(rows, 4, 3);
  for (Activation a : {Activation::relu, Activation::relu2, Activation::leaky_relu}) {
    const LayerConfig c = config(LayerKind::bigated, a, 2);
    SCOPED_TRACE(activation_name(a));
    ASSERT_EQ(gauge_fix_problem(c), "");
    EXPECT_EQ(teleport_problem(c), "");
    Layer layer(c);
    const auto before = run(layer, x, rows);
    const auto scaled = run(layer.rescaled(2.5f), x, rows);
    layer.gauge_fix();
    const auto after = run(layer, x, rows);
    for (std::size_t i = 0; i < before.size(); ++i) {
      EXPECT_NEAR(after[i], before[i], 1e-5 * (1 + std::fabs(before[i])));
      EXPECT_NEAR(scaled[i], before[i], 1e-5 * (1 + std::fabs(before[i])));
    }
  }
  // Non-homogeneous σ: no inverse scaling, refused; and SiLU·SiLU really changes under it.
  const LayerConfig silu = config(LayerKind::bigated, Activation::silu);
  EXPECT_NE(gauge_fix_problem(silu), "");
  EXPECT_NE(teleport_problem(silu), "");
  const Layer layer(silu);
  const auto before = run(layer, x, rows), scaled = run(layer.rescaled(2.5f), x, rows);
  double most = 0;
  for (std::size_t i = 0; i < before.size(); ++i) most = std::max(most, std::fabs(double(scaled[i]) - before[i]));
  EXPECT_GT(most, 1e-3);
}

TEST(Bigated, NamesParseAndSymmetrizeIsRefused) {
  EXPECT_EQ(parse_layer_kind("bigated"), LayerKind::bigated);
  EXPECT_STREQ(layer_kind_name(LayerKind::bigated), "bigated");
  const Status refused = validate(config(LayerKind::bigated, Activation::silu, 1, 0.5f));
  EXPECT_EQ(refused.code, ErrorCode::unsupported);
  EXPECT_EQ(refused.field, "symmetrize");
  EXPECT_EQ(Layer(config(LayerKind::bigated, Activation::silu, 2)).parameter_count(),
            Layer(config(LayerKind::gated, Activation::silu, 2)).parameter_count());
}
