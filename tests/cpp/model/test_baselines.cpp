// The standard baselines of the CEM experiments: RMSNorm, untied causal multi-head attention
// and the standard gated MLP (the paper-A gated layer in the transformer's slot) — forwards
// against direct formulas, causality, and backward passes against finite differences.
#include <gtest/gtest.h>

#include <cstring>

#include "gatelab/model/baselines.hpp"
#include "gatelab/model/transformer.hpp"
#include "support/cem_layer_checks.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

TEST(CemRmsNorm, NormalisesRowsAndMatchesFiniteDifferences) {
  const int n = 3, d = 5;
  auto x = cemtest::randn<double>(n * d, 1, 2.0);
  auto gain = cemtest::randn<double>(d, 2, 0.5, 1.0);
  const auto weights = cemtest::randn<double>(n * d, 3);
  std::vector<double> ones(d, 1.0), y(n * d), inv(n), dx(n * d), dgain(d, 0.0);
  cem_rmsnorm_forward(x.data(), ones.data(), n, d, 1e-5, y.data(), inv.data());
  for (int i = 0; i < n; ++i) {
    double ms = 0;
    for (int c = 0; c < d; ++c) ms += y[i * d + c] * y[i * d + c] / d;
    EXPECT_NEAR(ms, 1.0, 1e-4);
  }
  auto loss = [&]() {
    cem_rmsnorm_forward(x.data(), gain.data(), n, d, 1e-5, y.data(), inv.data());
    return cemtest::weighted_sum(y, weights);
  };
  loss();
  cem_rmsnorm_backward(x.data(), gain.data(), inv.data(), weights.data(), n, d, dx.data(), dgain.data());
  EXPECT_LE(cemtest::rel_error(dx, cemtest::numeric_gradient(x, loss, 1e-6)), 1e-7);
  EXPECT_LE(cemtest::rel_error(dgain, cemtest::numeric_gradient(gain, loss, 1e-6)), 1e-7);
}

TEST(CemStdAttention, FirstTokenAttendsOnlyToItselfAndLaterTokensChangeNothingBefore) {
  const int d = 8, n = 6;
  CemStdAttention layer({d, 2, 0.0f, 3});
  auto x = cemtest::randn<float>(n * d, 4);
  std::vector<float> a(n * d), b(n * d);
  ASSERT_OK(layer.forward(x.data(), n, a.data()));
  // Token 0: α = 1 on itself, so out_0 = W_O (W_V x_0).
  const auto& p = layer.params();
  for (int c = 0; c < d; ++c) {
    double expected = 0;
    for (int k = 0; k < d; ++k) {
      double v = 0;
      for (int e = 0; e < d; ++e) v += double(p.wv(k, e)) * x[e];
      expected += double(p.wo(c, k)) * v;
    }
    EXPECT_NEAR(a[c], expected, 1e-5);
  }
  for (int c = 0; c < d; ++c) x[4 * d + c] *= -1.0f;
  ASSERT_OK(layer.forward(x.data(), n, b.data()));
  EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(float) * 4 * d), 0);
}

TEST(CemStdAttention, BackwardMatchesFiniteDifferences) {
  const int d = 6, n = 5;
  for (int heads : {1, 2, 3}) {
    SCOPED_TRACE("heads = " + std::to_string(heads));
    CemStdAttention64 layer({d, heads, 0.0f, 7});
    cemtest::randomize(layer.parameters(), 9, 0.6);
    auto x = cemtest::randn<double>(n * d, 10);
    const auto weights = cemtest::randn<double>(n * d, 11);
    std::vector<double> dx;
    ASSERT_NO_FATAL_FAILURE(cemtest::expect_backward_matches_finite_differences(layer, x, n, weights, 1e-6, 1e-6, dx));
  }
}

// The standard gated MLP is the paper-A gated layer in the transformer's slot layout
// (Q = W_gate, K = W_up, V = W_downᵀ): its forward is the SwiGLU formula and its backward
// matches finite differences.
TEST(StandardGatedMlp, ForwardIsTheGatedFormulaAndBackwardMatchesFiniteDifferences) {
  const int d = 5, m = 7, n = 3;
  CemTransformerConfig slot;
  slot.d = d;
  cem_set_hidden(slot, m);
  LayerConfig config = cem_block_std_mlp_config(slot, 0);
  config.seed = 2;
  Layer64 layer(config);
  cem_init_mlp_slot(layer);
  auto x = cemtest::randn<double>(n * d, 12);
  std::vector<double> out(n * d), dx;
  EXPECT_OK(layer.forward(x.data(), n, out.data()));
  const auto& p = layer.params();
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < d; ++c) {
      double expected = 0;
      for (int k = 0; k < m; ++k) {
        double zg = 0, zu = 0;
        for (int e = 0; e < d; ++e) {
          zg += p.q(k, 0, e) * x[i * d + e];
          zu += p.k(k, 0, e) * x[i * d + e];
        }
        expected += p.v(k, c) * (zg / (1.0 + std::exp(-zg))) * zu;  // reference only
      }
      EXPECT_NEAR(out[i * d + c], expected, 1e-6);
    }
  }
  const auto weights = cemtest::randn<double>(n * d, 13);
  // SiLU comes from the float catalogue even here: wider step, looser bound.
  ASSERT_NO_FATAL_FAILURE(cemtest::expect_backward_matches_finite_differences(layer, x, n, weights, 1e-3, 2e-3, dx));
}

TEST(CemBaselines, CountParametersAndValidate) {
  CemStdAttention attn({8, 2, 0.0f, 0});
  EXPECT_EQ(attn.parameter_count(), 4u * 64);
  CemTransformerConfig slot;
  slot.d = 8;
  cem_set_hidden(slot, 24);
  const Layer mlp(cem_block_std_mlp_config(slot, 0));
  EXPECT_EQ(mlp.parameter_count(), 3u * 8 * 24);
  EXPECT_ERROR(validate(CemStdAttentionConfig{9, 2, 0.0f, 0}), ErrorCode::invalid_value, "heads");
  cem_set_hidden(slot, 0);
  EXPECT_ERROR(validate(cem_block_std_mlp_config(slot, 0)), ErrorCode::out_of_range, "hidden");
  EXPECT_ERROR(validate(slot), ErrorCode::out_of_range, "mlp.hidden");
}

TEST(CemStdAttention, SequencesInOneCallGiveTheBitsOfOneCallPerSequence) {
  // forward_sequences / backward_sequences (all rows' projections in one product, the kept q,
  // k, v, α read back) against forward / backward(accumulate) sequence by sequence. The last
  // case keeps too many attention weights to hold (backward recomputes them from q and k).
  struct Case {
    int d, heads, n, sequences;
  };
  for (const Case c : {Case{16, 4, 8, 3}, Case{12, 3, 5, 1}, Case{8, 8, 512, 3}}) {
    CemStdAttention together({c.d, c.heads, 0.0f, 21}), apart({c.d, c.heads, 0.0f, 21});
    const int rows = c.n * c.sequences;
    const auto x = cemtest::randn<float>(std::size_t(rows) * c.d, 22);
    const auto g = cemtest::randn<float>(std::size_t(rows) * c.d, 23);
    std::vector<float> out(x.size()), out1(x.size()), dx(x.size()), dx1(x.size());
    ASSERT_OK(together.forward_sequences(x.data(), c.n, c.sequences, out.data()));
    ASSERT_OK(together.backward_sequences(x.data(), c.n, c.sequences, g.data(), dx.data()));
    for (int b = 0; b < c.sequences; ++b) {
      const std::size_t at = std::size_t(b) * c.n * c.d;
      ASSERT_OK(apart.forward(x.data() + at, c.n, out1.data() + at));
      ASSERT_OK(apart.backward(x.data() + at, c.n, g.data() + at, dx1.data() + at, true));
    }
    EXPECT_EQ(std::memcmp(out.data(), out1.data(), out.size() * sizeof(float)), 0) << c.n;
    EXPECT_EQ(std::memcmp(dx.data(), dx1.data(), dx.size() * sizeof(float)), 0) << c.n;
    const auto a = together.parameters(), b = apart.parameters();
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(std::memcmp(a[i].grad, b[i].grad, a[i].size * sizeof(float)), 0) << a[i].name << " " << c.n;
    }
  }
}
