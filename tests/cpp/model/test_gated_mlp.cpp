// lab.cem's standard gated MLP is the paper-A slot layer under the Llama names: the same
// forward bits as the layer, W_down read through the transposed view, and the row bound
// reported as a status naming n.
#include <gtest/gtest.h>

#include <vector>

#include "gatelab/model/gated_mlp.hpp"
#include "gatelab/model/tie.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

const CemGatedMlpConfig config{6, 10, {Activation::silu, 1.0f}, 4};

}  // namespace

TEST(GatedMlp, ForwardIsTheSlotLayersBitForBit) {
  ASSERT_TRUE(validate(config).ok());
  const CemGatedMlp mlp(config);
  const Layer layer = standard_mlp(config.d, config.hidden, config.activation, config.seed);
  const int n = 5;
  const auto x = cemtest::randn<float>(n * config.d, 2);
  std::vector<float> a(n * config.d), b(n * config.d);
  ASSERT_OK(mlp.forward(x.data(), n, a.data()));
  EXPECT_OK(layer.forward(x.data(), n, b.data()));
  EXPECT_EQ(a, b);
  EXPECT_EQ(mlp.parameter_count(), layer.parameter_count());
}

TEST(GatedMlp, ViewsUseTheLlamaNamesAndLayout) {
  CemGatedMlp mlp(config);
  const std::vector<ParamView<float>> views = mlp.parameters();
  ASSERT_EQ(views.size(), 3u);
  EXPECT_EQ(views[0].name, "w_gate");
  EXPECT_EQ(views[1].name, "w_up");
  EXPECT_EQ(views[2].name, "w_down");
  EXPECT_EQ(views[0].rows, config.hidden);
  EXPECT_EQ(views[0].cols, config.d);
  // W_down is d × M; element (i, j) is V(j, i) of the layer's V (M × d).
  const ParamView<float>& down = views[2];
  EXPECT_EQ(down.rows, config.d);
  EXPECT_EQ(down.cols, config.hidden);
  EXPECT_TRUE(down.transposed);
  const auto& v = mlp.layer().params().v;
  for (int i = 0; i < config.d; ++i) {
    for (int j = 0; j < config.hidden; ++j) {
      EXPECT_EQ(down.value[stored_index(down, std::size_t(i) * config.hidden + j)], v(j, i));
    }
  }
}

TEST(GatedMlp, RowsOutsideTheCapAreAStatusNamingN) {
  const CemGatedMlp mlp(config);
  std::vector<float> x(config.d), out(config.d);
  for (int n : {0, -1, cem_max_rows + 1}) {
    const Status e = mlp.forward(x.data(), n, out.data());
    EXPECT_EQ(e.code, ErrorCode::out_of_range) << n;
    EXPECT_EQ(e.field, "n");
  }
  EXPECT_EQ(validate(CemGatedMlpConfig{6, 0, {Activation::silu, 1.0f}, 0}),
            validate_standard_mlp(6, 0, {Activation::silu, 1.0f}));
}
