// Teleporting along the inverse-scaling orbit (docs/MATH.md §A21): it keeps the function of every
// layer that has the orbit (symmetric with any σ; gated and mlp with a degree-1 σ, gated at any λ)
// and moves the balance by the factors as the algebra says; every other layer, and every bad
// factor, is refused with nothing changed; the balance is ‖q_j‖² − ‖k_j‖² (mlp: ‖k_j‖² − ‖v_j‖²).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gatelab/base/rng.hpp"
#include "gatelab/paper_a/orbit.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

LayerConfig config(LayerKind kind, Activation act, int rank = 1, float lambda = 0.0f) {
  LayerConfig c;
  c.kind = kind;
  c.activation = {act, 1.0f};
  c.d_in = 4;
  c.hidden = 5;
  c.d_out = 3;
  c.rank = rank;
  c.symmetrize = lambda;
  c.seed = 23;
  return c;
}

std::vector<float> forward(const Layer& layer, const std::vector<float>& x, int rows) {
  std::vector<float> out(static_cast<std::size_t>(rows) * layer.config().d_out);
  EXPECT_OK(layer.forward(x.data(), rows, out.data()));
  return out;
}

std::vector<double> balance(const Layer& layer) {
  std::vector<double> b(layer.config().hidden);
  unit_balance(layer.params(), layer.config(), b.data());
  return b;
}

bool same_params(const LayerParams& a, const LayerParams& b) { return a.q == b.q && a.k == b.k && a.v == b.v; }

const std::vector<float> kFactors = {0.5f, 2.0f, 1.0f, 3.0f, 0.125f};

}  // namespace

TEST(Orbit, TeleportKeepsTheFunctionAndMovesTheBalanceWhereTheOrbitExists) {
  Pcg32 rng(1);
  const int rows = 16;
  std::vector<float> x(rows * 4);
  for (float& v : x) v = rng.normal();
  for (const LayerConfig& c :
       {config(LayerKind::gated, Activation::relu), config(LayerKind::gated, Activation::relu, 2, 0.5f),
        config(LayerKind::gated, Activation::relu, 1, 1.0f), config(LayerKind::gated, Activation::identity, 2),
        config(LayerKind::gated, Activation::leaky_relu), config(LayerKind::symmetric, Activation::silu, 2),
        config(LayerKind::mlp, Activation::relu), config(LayerKind::mlp, Activation::identity)}) {
    SCOPED_TRACE(std::string(layer_kind_name(c.kind)) + " " + activation_name(c.activation.kind) + " rank " +
                 std::to_string(c.rank) + " lambda " + std::to_string(c.symmetrize));
    ASSERT_OK(teleport_problem(c));
    Layer layer(c);
    const std::vector<float> before = forward(layer, x, rows);
    const LayerParams start = layer.params();
    ASSERT_OK(teleport(layer.params(), c, kFactors.data()));
    const std::vector<float> after = forward(layer, x, rows);
    for (std::size_t i = 0; i < before.size(); ++i) EXPECT_NEAR(after[i], before[i], 1e-5 * (1 + std::fabs(before[i])));
    // ‖c q‖² − ‖k / c‖² per unit, from the norms of the start (up: q, or k for mlp).
    Layer original(c);
    original.params() = start;
    const std::vector<double> b0 = balance(original), b1 = balance(layer);
    const auto& up = c.kind == LayerKind::mlp ? start.k : start.q;
    const std::size_t per_unit = up.size() / c.hidden;
    for (int j = 0; j < c.hidden; ++j) {
      double up2 = 0;
      for (std::size_t e = j * per_unit; e < (j + 1) * per_unit; ++e) up2 += double(up.data()[e]) * up.data()[e];
      const double down2 = up2 - b0[j], f = kFactors[j];
      EXPECT_NEAR(b1[j], f * f * up2 - down2 / (f * f), 1e-5 * (f * f * up2 + down2 / (f * f))) << "unit " << j;
    }
  }
}

TEST(Orbit, LayersWithoutTheOrbitAreRefusedAsUnsupported) {
  for (const LayerConfig& c :
       {config(LayerKind::gated, Activation::silu), config(LayerKind::gated, Activation::gelu, 1, 1.0f),
        config(LayerKind::gated, Activation::sigmoid), config(LayerKind::gated, Activation::relu2),
        config(LayerKind::mlp, Activation::gelu), config(LayerKind::mlp, Activation::relu2)}) {
    const Status e = teleport_problem(c);
    EXPECT_EQ(e.code, ErrorCode::unsupported) << activation_name(c.activation.kind);
    Layer layer(c);
    const LayerParams start = layer.params();
    EXPECT_EQ(teleport(layer.params(), c, kFactors.data()).code, ErrorCode::unsupported);
    EXPECT_TRUE(same_params(layer.params(), start));
  }
  EXPECT_ERROR(teleport_problem(config(LayerKind::gated, Activation::relu2)), ErrorCode::unsupported, "");
  EXPECT_ERROR(teleport_problem(config(LayerKind::gated, Activation::silu)), ErrorCode::unsupported, "");
}

TEST(Orbit, BadFactorsAreRefusedAndChangeNothing) {
  const LayerConfig c = config(LayerKind::gated, Activation::relu);
  Layer layer(c);
  layer.params().k(2, 0, 1) = 1e30f;  // unit 2: dividing by 1e-10 overflows
  const LayerParams start = layer.params();
  for (float bad : {0.0f, -1.0f, NAN, INFINITY, 1e-10f}) {
    std::vector<float> factors(kFactors);
    factors[2] = bad;
    const Status e = teleport(layer.params(), c, factors.data());
    EXPECT_EQ(e.code, ErrorCode::out_of_range) << bad;
    EXPECT_EQ(e.field, "factors") << bad;
    EXPECT_TRUE(same_params(layer.params(), start)) << bad;
  }
}

TEST(Orbit, BalanceIsTheDifferenceOfSquaredNormsPerUnit) {
  LayerConfig c = config(LayerKind::gated, Activation::relu, 2);
  c.hidden = 2;
  c.d_in = 2;
  Layer layer(c);
  auto& p = layer.params();
  p.q.fill(1.0f);       // unit j: ‖q_j‖² = 4 (2 pairs of 2)
  p.k.fill(0.5f);       // ‖k_j‖² = 1
  p.k(1, 1, 0) = 2.0f;  // unit 1: ‖k_1‖² = 0.75 + 4
  EXPECT_EQ(balance(layer), (std::vector<double>{3.0, -0.75}));
  c.kind = LayerKind::mlp;
  Layer mlp(c);
  mlp.params().k.fill(2.0f);  // ‖k_j‖² = 8
  mlp.params().v.fill(1.0f);  // ‖v_j‖² = 3
  EXPECT_EQ(balance(mlp), (std::vector<double>{5.0, 5.0}));
}
