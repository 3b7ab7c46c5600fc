// The empirical NTK (docs/MATH.md §A22): its Gram matrix against J Jᵀ of a central-difference
// Jacobian of the double-precision reference layer, for every kind (and symmetrize λ > 0); the
// eigenvalues descend and sum to the trace; the condition number is λ_1 / λ_k with
// k = min(rows·d_out, P), +∞ for a Jacobian of lower rank; the exchange (a permutation of θ)
// leaves the kernel of a λ = 1 layer unchanged; the caps are refused naming what to shrink.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gatelab/base/rng.hpp"
#include "gatelab/paper_a/ntk.hpp"
#include "support/reference_layer.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

LayerConfig config(LayerKind kind, Activation act, int rank = 1, float lambda = 0.0f) {
  LayerConfig c;
  c.kind = kind;
  c.activation = {act, 1.0f};
  c.d_in = 3;
  c.hidden = 4;
  c.d_out = 2;
  c.rank = rank;
  c.symmetrize = lambda;
  c.seed = 17;
  return c;
}

std::vector<float> inputs(int rows, int d, std::uint64_t seed) {
  Pcg32 rng(seed);
  std::vector<float> x(static_cast<std::size_t>(rows) * d);
  for (float& v : x) v = rng.normal();
  return x;
}

// J (rows·d_out, P) by central differences of the double reference, parameters in [Q | K | V] order.
std::vector<std::vector<double>> reference_jacobian(const Layer& layer, const std::vector<float>& x, int rows) {
  const LayerConfig& c = layer.config();
  reference::Params p = reference::params_of(layer);
  const std::vector<double> xd(x.begin(), x.end());
  const std::size_t n = static_cast<std::size_t>(rows) * c.d_out;
  std::vector<std::vector<double>> columns;
  for (std::vector<double>* block : {&p.q, &p.k, &p.v}) {
    for (double& theta : *block) {
      const double saved = theta, h = 1e-6;
      theta = saved + h;
      const std::vector<double> up = reference::forward(c, p, xd, rows);
      theta = saved - h;
      const std::vector<double> down = reference::forward(c, p, xd, rows);
      theta = saved;
      std::vector<double> column(n);
      for (std::size_t a = 0; a < n; ++a) column[a] = (up[a] - down[a]) / (2 * h);
      columns.push_back(column);
    }
  }
  return columns;
}

}  // namespace

TEST(Ntk, GramIsJJTransposeOfTheFiniteDifferenceJacobianForEveryKind) {
  const int rows = 3;
  const auto x = inputs(rows, 3, 1);
  for (const LayerConfig& c :
       {config(LayerKind::gated, Activation::silu, 2), config(LayerKind::gated, Activation::silu, 1, 0.5f),
        config(LayerKind::gated, Activation::relu, 2, 1.0f), config(LayerKind::symmetric, Activation::gelu, 2),
        config(LayerKind::mlp, Activation::relu), config(LayerKind::mlp, Activation::identity)}) {
    SCOPED_TRACE(std::string(layer_kind_name(c.kind)) + " " + activation_name(c.activation.kind) + " rank " +
                 std::to_string(c.rank) + " lambda " + std::to_string(c.symmetrize));
    const Layer layer(c);
    ASSERT_OK(validate_ntk(layer, rows));
    const Ntk k = neural_tangent_kernel(layer, x.data(), rows);
    const int n = rows * c.d_out;
    ASSERT_EQ(k.outputs, n);
    ASSERT_EQ(k.gram.size(), static_cast<std::size_t>(n * n));
    const auto columns = reference_jacobian(layer, x, rows);
    ASSERT_EQ(columns.size(), layer.parameter_count());
    std::vector<double> expected(n * n, 0.0);
    for (const auto& column : columns) {
      for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) expected[a * n + b] += column[a] * column[b];
      }
    }
    const double scale = *std::max_element(expected.begin(), expected.end());
    ASSERT_GT(scale, 0.0);
    for (int i = 0; i < n * n; ++i) EXPECT_NEAR(k.gram[i], expected[i], 1e-4 * scale) << i;
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) EXPECT_EQ(k.gram[a * n + b], k.gram[b * n + a]);  // summed once, mirrored
    }
  }
}

TEST(Ntk, EigenvaluesDescendAndSumToTheTraceAndTheConditionNumberIsTheirRatio) {
  // N = 6 < P = 44: k = N. Then N = 8 > P = 3 (one mlp unit on d_in = 2): k = P, and λ_4 … λ_8 vanish.
  LayerConfig tall = config(LayerKind::mlp, Activation::silu);
  tall.hidden = 1;
  tall.d_in = 2;
  tall.d_out = 1;
  for (const auto& [c, rows] : {std::pair{config(LayerKind::gated, Activation::silu, 2), 3}, std::pair{tall, 8}}) {
    const Layer layer(c);
    const auto x = inputs(rows, c.d_in, 2);
    const Ntk k = neural_tangent_kernel(layer, x.data(), rows);
    const int n = rows * c.d_out;
    double trace = 0.0, sum = 0.0;
    for (int a = 0; a < n; ++a) trace += k.gram[a * n + a];
    for (int a = 0; a < n; ++a) {
      sum += k.eigenvalues[a];
      if (a > 0) EXPECT_LE(k.eigenvalues[a], k.eigenvalues[a - 1]);
    }
    EXPECT_NEAR(sum, trace, 1e-12 * trace);
    const std::size_t rank = std::min<std::size_t>(n, layer.parameter_count());
    ASSERT_GT(k.eigenvalues[rank - 1], 0.0);
    EXPECT_EQ(k.condition_number, k.eigenvalues[0] / k.eigenvalues[rank - 1]);
    EXPECT_GE(k.condition_number, 1.0);
    for (int a = static_cast<int>(rank); a < n; ++a) EXPECT_LT(std::fabs(k.eigenvalues[a]), 1e-12 * k.eigenvalues[0]);
  }
}

TEST(Ntk, AJacobianOfLowerRankHasAnInfiniteConditionNumber) {
  Layer layer(config(LayerKind::gated, Activation::relu));
  layer.params().q.fill(0.0f);  // a = b = 0 and V = 0: every output's gradient is 0
  layer.params().k.fill(0.0f);
  layer.params().v.fill(0.0f);
  const auto x = inputs(2, 3, 3);
  const Ntk k = neural_tangent_kernel(layer, x.data(), 2);
  EXPECT_TRUE(std::all_of(k.gram.begin(), k.gram.end(), [](double v) { return v == 0.0; }));
  EXPECT_EQ(k.condition_number, INFINITY);
}

TEST(Ntk, TheExchangePermutesParametersSoASymmetrisedLayerKeepsItsKernel) {
  const auto x = inputs(4, 3, 4);
  const Layer layer(config(LayerKind::gated, Activation::silu, 2, 1.0f));
  const Ntk k = neural_tangent_kernel(layer, x.data(), 4);
  const Ntk swapped = neural_tangent_kernel(layer.exchanged(), x.data(), 4);
  for (std::size_t i = 0; i < k.gram.size(); ++i) EXPECT_NEAR(swapped.gram[i], k.gram[i], 1e-5 * k.eigenvalues[0]);
}

TEST(Ntk, FloatAndDoubleLayersAgree) {
  const LayerConfig c = config(LayerKind::gated, Activation::gelu, 2, 0.25f);
  const Layer layer(c);
  Layer64 wide(c);
  copy_params(layer.params(), wide.params());
  const auto x = inputs(3, 3, 5);
  const std::vector<double> xd(x.begin(), x.end());
  const Ntk k = neural_tangent_kernel(layer, x.data(), 3);
  const NtkT<double> k64 = neural_tangent_kernel(wide, xd.data(), 3);
  for (std::size_t i = 0; i < k.eigenvalues.size(); ++i)
    EXPECT_NEAR(k.eigenvalues[i], k64.eigenvalues[i], 1e-5 * k64.eigenvalues[0]);
}

TEST(Ntk, RefusesBatchesAndLayersAboveItsCaps) {
  LayerConfig c = config(LayerKind::gated, Activation::silu);
  const Layer layer(c);
  EXPECT_OK(validate_ntk(layer, 128));  // 128 · 2 = 256
  const Status rows = validate_ntk(layer, 129);
  EXPECT_EQ(rows.code, ErrorCode::out_of_range);
  EXPECT_EQ(rows.field, "rows");
  EXPECT_ERROR(rows, ErrorCode::out_of_range, "rows");
  EXPECT_EQ(validate_ntk(layer, 0).field, "rows");
  c.hidden = 700;  // 700 · (2·3 + 2) = 5600 parameters fit; 3000 units do not
  EXPECT_OK(validate_ntk(Layer(c), 1));
  c.hidden = 3000;
  const Status big = validate_ntk(Layer(c), 1);
  EXPECT_EQ(big.code, ErrorCode::out_of_range);
  EXPECT_EQ(big.field, "");
  EXPECT_ERROR(big, ErrorCode::out_of_range, "");
}
