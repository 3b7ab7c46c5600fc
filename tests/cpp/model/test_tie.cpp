// The weight tie (docs/MATH.md §B2, §B3, §B9): a one-step CEM layer without diagonal or
// preconditioner is h + one standard layer with tied weights, which standard_from_tied and
// gated_from_tied build (tie gap 0); the tie problems name what stands in the way; the
// standard MLP's options are checked as a CEM MLP's and then as a layer config.
#include <gtest/gtest.h>

#include <vector>

#include "gatelab/model/tie.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

CemAttentionConfig attention_config(int steps = 1, CemDiagonal diag = CemDiagonal::none,
                                    CemPrecond pre = CemPrecond::none) {
  CemAttentionConfig c;
  c.d = 6;
  c.heads = 3;
  c.steps = steps;
  c.eta = 0.7f;
  c.diagonal = diag;
  c.precond = pre;
  c.precond_rank = pre == CemPrecond::none ? 0 : 1;
  c.seed = 21;
  return c;
}

CemMlpConfig mlp_config(Activation act, int steps = 1, CemPrecond pre = CemPrecond::none) {
  CemMlpConfig c;
  c.d = 5;
  c.hidden = 9;
  c.activation = {act, 1.0f};
  c.steps = steps;
  c.eta = 0.6f;
  c.precond = pre;
  c.precond_rank = pre == CemPrecond::none ? 0 : 1;
  c.seed = 22;
  return c;
}

// ‖(a − h) − b‖ / ‖b‖: the CEM layer's update against the standard layer's output.
double update_error(const std::vector<float>& a, const std::vector<float>& h, const std::vector<float>& b) {
  std::vector<double> update(a.size());
  for (std::size_t e = 0; e < a.size(); ++e) update[e] = double(a[e]) - h[e];
  return cemtest::rel_error(update, b);
}

}  // namespace

TEST(Tie, OneStepAttentionIsTheResidualPlusTheTiedStandardAttention) {
  CemAttention cem(attention_config());
  cemtest::randomize(cem.parameters(), 4, 0.5);
  ASSERT_OK(attention_tie_problem(cem));
  const CemStdAttention standard = standard_from_tied(cem);
  ASSERT_OK(standard.error());
  EXPECT_EQ(standard.beta(), cem.beta());
  EXPECT_EQ(attention_tie_gap(cem, standard), 0.0);
  const int n = 5, d = 6;
  const auto h = cemtest::randn<float>(n * d, 3);
  std::vector<float> a(n * d), b(n * d);
  ASSERT_OK(cem.forward(h.data(), n, a.data()));
  ASSERT_OK(standard.forward(h.data(), n, b.data()));
  EXPECT_LE(update_error(a, h, b), 1e-5);
  CemStdAttention loosened = standard;
  loosened.params().wo(1, 2) += 0.25f;
  EXPECT_NEAR(attention_tie_gap(cem, loosened), 0.25, 1e-6);
}

TEST(Tie, OneStepMlpIsTheResidualPlusTheTiedGatedMlp) {
  for (Activation act : {Activation::silu, Activation::relu, Activation::gelu_tanh}) {
    SCOPED_TRACE(activation_name(act));
    CemMlp cem(mlp_config(act));
    ASSERT_OK(mlp_tie_problem(cem));
    const Layer gated = gated_from_tied(cem);
    EXPECT_EQ(gated.config().kind, LayerKind::gated);
    EXPECT_EQ(gated.config().rank, 1);
    EXPECT_EQ(mlp_tie_gap(cem, gated), 0.0);
    const int n = 4, d = 5;
    const auto h = cemtest::randn<float>(n * d, 5);
    std::vector<float> a(n * d), b(n * d);
    ASSERT_OK(cem.forward(h.data(), n, a.data()));
    EXPECT_OK(gated.forward(h.data(), n, b.data()));
    EXPECT_LE(update_error(a, h, b), 2e-5);
    Layer loosened = gated;
    loosened.params().v(3, 1) -= 0.5f;
    EXPECT_NEAR(mlp_tie_gap(cem, loosened), 0.5, 1e-6);
  }
}

TEST(Tie, ProblemsNameWhatHasNoStandardCounterpart) {
  EXPECT_ERROR(attention_tie_problem(CemAttention(attention_config(2))), ErrorCode::unsupported, "");
  EXPECT_ERROR(attention_tie_problem(CemAttention(attention_config(1, CemDiagonal::shared))), ErrorCode::unsupported,
               "");
  EXPECT_ERROR(attention_tie_problem(CemAttention(attention_config(1, CemDiagonal::none, CemPrecond::psd))),
               ErrorCode::unsupported, "");
  CemAttentionConfig bad = attention_config();
  bad.heads = 4;
  EXPECT_EQ(attention_tie_problem(CemAttention(bad)), validate(bad));
  EXPECT_ERROR(mlp_tie_problem(CemMlp(mlp_config(Activation::relu, 3))), ErrorCode::unsupported, "");
  EXPECT_ERROR(mlp_tie_problem(CemMlp(mlp_config(Activation::relu, 1, CemPrecond::paper))), ErrorCode::unsupported, "");
}

TEST(Tie, StandardMlpOptionsAreCheckedAsACemMlpsThenAsALayers) {
  EXPECT_OK(validate_standard_mlp(8, 16, {Activation::silu, 1.0f}));
  EXPECT_EQ(validate_standard_mlp(8, 0, {Activation::silu, 1.0f}),
            cem_validate_gated_mlp(8, 0, {Activation::silu, 1.0f}));
  EXPECT_EQ(validate_standard_mlp(8, 16, {Activation::swish, 0.0f}),
            cem_validate_gated_mlp(8, 16, {Activation::swish, 0.0f}));
  // Within the CEM caps (d ≤ 1024, hidden ≤ 8192) but beyond a layer's (≤ 4096).
  const Status layer_error = validate(standard_mlp_config(8, 5000, {Activation::silu, 1.0f}, 0));
  ASSERT_ERROR(layer_error, ErrorCode::out_of_range, "hidden");
  EXPECT_EQ(validate_standard_mlp(8, 5000, {Activation::silu, 1.0f}), layer_error);
  const Layer mlp = standard_mlp(8, 16, {Activation::silu, 1.0f}, 3);
  EXPECT_EQ(mlp.config().d_in, 8);
  EXPECT_EQ(mlp.config().d_out, 8);
  EXPECT_EQ(mlp.config().hidden, 16);
}
