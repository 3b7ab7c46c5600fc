// The controls of the CEM descent that paper B's step-size questions need (docs/MATH.md §B14,
// §B15): a learned step size η = softplus(θ) whose gradient matches finite differences in both
// layers, starts at the configured η and is not weight-decayed; set_steps changes T for later
// calls exactly as a layer built with that T; the attention entropy is the entropy of the
// softmax the forward used, and one memory that dominates the scores drives it toward 0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "gatelab/cem/attention.hpp"
#include "gatelab/cem/mlp.hpp"
#include "gatelab/model/transformer.hpp"
#include "support/cem_layer_checks.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

CemAttentionConfig attention_config(int steps, CemDiagonal diag, CemPrecond pre, bool learn) {
  CemAttentionConfig c;
  c.d = 6;
  c.heads = 2;
  c.steps = steps;
  c.eta = 0.25f;
  c.diagonal = diag;
  c.precond = pre;
  c.precond_rank = pre == CemPrecond::none ? 0 : 2;
  c.learn_eta = learn;
  c.seed = 5;
  return c;
}

CemMlpConfig mlp_config(int steps, CemPrecond pre, bool learn) {
  CemMlpConfig c;
  c.d = 4;
  c.hidden = 6;
  c.steps = steps;
  c.eta = 0.25f;
  c.precond = pre;
  c.precond_rank = pre == CemPrecond::none ? 0 : 2;
  c.learn_eta = learn;
  c.seed = 6;
  return c;
}

}  // namespace

TEST(CemDescentControls, LearnedEtaStartsAtTheConfiguredStepAndIsOneUndecayedParameter) {
  for (float eta : {0.0625f, 0.25f, 1.0f, 20.0f}) {
    CemAttentionConfig ac = attention_config(2, CemDiagonal::shared, CemPrecond::none, true);
    ac.eta = eta;
    CemAttention learned(ac);
    ac.learn_eta = false;
    CemAttention fixed(ac);
    EXPECT_NEAR(learned.step_size(), eta, 1e-6 * eta + 1e-7) << eta;
    EXPECT_EQ(learned.parameter_count(), fixed.parameter_count() + 1);
    const auto views = learned.parameters();
    ASSERT_EQ(views.back().name, "eta");
    EXPECT_FALSE(views.back().decay);
    EXPECT_NEAR(cem_eta_from_theta(cem_theta_from_eta(eta)), eta, 1e-12 * eta);
  }
  EXPECT_NEAR(cem_theta_from_eta(0.25), -1.2586915494460325, 1e-12);  // MATH.md §B14
  CemMlp mlp(mlp_config(2, CemPrecond::none, true));
  EXPECT_EQ(mlp.parameters().back().name, "eta");
  EXPECT_NEAR(mlp.step_size(), 0.25f, 1e-7);
}

TEST(CemDescentControls, LearnedEtaGradientMatchesFiniteDifferencesInAttention) {
  const int n = 5, d = 6;
  for (CemPrecond pre : {CemPrecond::none, CemPrecond::paper}) {
    for (CemDiagonal diag : {CemDiagonal::none, CemDiagonal::shared}) {
      SCOPED_TRACE(std::string(cem_precond_name(pre)) + " " + cem_diagonal_name(diag));
      CemAttention64 layer(attention_config(3, diag, pre, true));
      cemtest::randomize(layer.parameters(), 31, 0.6);
      auto h = cemtest::randn<double>(n * d, 32);
      const auto weights = cemtest::randn<double>(n * d, 33);
      std::vector<double> grad_h;
      ASSERT_NO_FATAL_FAILURE(
          cemtest::expect_backward_matches_finite_differences(layer, h, n, weights, 1e-6, 1e-6, grad_h));
      EXPECT_NE(layer.grads().theta(0), 0.0);
    }
  }
}

TEST(CemDescentControls, LearnedEtaGradientMatchesFiniteDifferencesInTheMlp) {
  const int n = 3, d = 4;
  for (CemPrecond pre : {CemPrecond::none, CemPrecond::psd}) {
    SCOPED_TRACE(cem_precond_name(pre));
    CemMlp64 layer(mlp_config(2, pre, true));
    cemtest::randomize(layer.parameters(), 41, 0.6);
    auto h = cemtest::randn<double>(n * d, 42);
    const auto weights = cemtest::randn<double>(n * d, 43);
    std::vector<double> grad_h;
    ASSERT_NO_FATAL_FAILURE(
        cemtest::expect_backward_matches_finite_differences(layer, h, n, weights, 1e-3, 3e-3, grad_h));
    EXPECT_NE(layer.grads().theta(0), 0.0);
  }
}

TEST(CemDescentControls, SetStepsGivesTheBitsOfALayerBuiltWithThatDepth) {
  const int n = 4;
  const auto h = cemtest::randn<float>(n * 6, 51);
  CemAttention trained(attention_config(1, CemDiagonal::shared, CemPrecond::none, false));
  cemtest::randomize(trained.parameters(), 52, 0.5);
  for (int steps : {1, 3, 8}) {
    CemAttention built(attention_config(steps, CemDiagonal::shared, CemPrecond::none, false));
    ASSERT_OK(copy_parameters(built.parameters(), trained.parameters()));
    ASSERT_OK(trained.set_steps(steps));
    EXPECT_EQ(trained.config().steps, steps);
    std::vector<float> a(n * 6), b(n * 6);
    ASSERT_OK(trained.forward(h.data(), n, a.data()));
    ASSERT_OK(built.forward(h.data(), n, b.data()));
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0) << steps;
  }
  EXPECT_ERROR(trained.set_steps(0), ErrorCode::out_of_range, "steps");
  EXPECT_ERROR(trained.set_steps(cem_max_steps + 1), ErrorCode::out_of_range, "steps");
  EXPECT_EQ(trained.config().steps, 8);  // a refused call changes nothing

  CemMlp mlp(mlp_config(2, CemPrecond::none, false));
  EXPECT_OK(mlp.set_steps(5));
  EXPECT_EQ(mlp.config().steps, 5);
  EXPECT_ERROR(mlp.set_steps(-1), ErrorCode::out_of_range, "steps");
}

TEST(CemDescentControls, TransformerSetStepsReachesEveryCemLayer) {
  CemTransformerConfig c;
  c.d_in = 3;
  c.d = 8;
  cem_set_heads(c, 2);
  cem_set_hidden(c, 8);
  c.layers = 2;
  c.seed = 7;
  CemTransformer model(c);
  ASSERT_OK(model.set_steps(4, 3));
  for (int l = 0; l < 2; ++l) {
    EXPECT_EQ(model.cem_attention(l)->config().steps, 4);
    EXPECT_EQ(model.cem_mlp(l)->config().steps, 3);
  }
  EXPECT_ERROR(model.set_steps(0, 1), ErrorCode::out_of_range, "steps");
  c.family = CemFamily::standard;
  CemTransformer standard(c);
  EXPECT_ERROR(standard.set_steps(2, 2), ErrorCode::unsupported, "");
}

TEST(CemDescentControls, AttentionEntropyIsThatOfTheForwardsSoftmax) {
  const int n = 5, d = 6;
  CemAttention layer(attention_config(2, CemDiagonal::none, CemPrecond::none, false));
  const auto h = cemtest::randn<float>(n * d, 61);
  std::vector<double> entropy(n * 2);
  ASSERT_OK(layer.attention_entropy(h.data(), n, entropy.data()));
  for (int i = 0; i < n; ++i) {
    for (int t = 0; t < 2; ++t) {
      const double e = entropy[i * 2 + t];
      EXPECT_GE(e, -1e-9);
      EXPECT_LE(e, std::log(double(i + 1)) + 1e-9) << "token " << i;  // at most uniform over i + 1 memories
    }
  }
  EXPECT_NEAR(entropy[0], 0.0, 1e-12);  // token 0 has one memory
  // Step 0 reads the scores at y⁰ = h: recompute head by head in double.
  const int dh = d / 2;
  const double beta = layer.beta();
  for (int i = 1; i < n; ++i) {
    double mean = 0;
    for (int k = 0; k < 2; ++k) {
      std::vector<double> s(i + 1);
      double top = -1e300, sum = 0, ent = 0;
      for (int j = 0; j <= i; ++j) {
        double score = 0;
        for (int a = 0; a < dh; ++a) {
          double q = 0, key = 0;
          for (int c2 = 0; c2 < d; ++c2) {
            q += double(layer.params().wq(k * dh + a, c2)) * h[i * d + c2];
            key += double(layer.params().wk(k * dh + a, c2)) * h[j * d + c2];
          }
          score += q * key;
        }
        s[j] = beta * score;
        top = std::max(top, s[j]);
      }
      for (double& v : s) sum += std::exp(v - top);
      for (double v : s) {
        const double p = std::exp(v - top) / sum;
        ent -= p * std::log(p);
      }
      mean += ent / 2;
    }
    EXPECT_NEAR(entropy[i * 2], mean, 1e-5) << "token " << i;
  }
}

TEST(CemDescentControls, ADominantMemoryDrivesTheEntropyTowardZero) {
  const int n = 4, d = 6;
  CemAttentionConfig c = attention_config(1, CemDiagonal::none, CemPrecond::none, false);
  c.heads = 1;
  CemAttention layer(c);
  // W_Q = W_K = s·I and h_j = e_j: the score of memory j is s²⟨h_i, h_j⟩ = s²δ_ij, so a large s
  // makes token i's own memory take all of α, a small one leaves α near uniform.
  for (double s : {0.5, 6.0}) {
    layer.params().wq.fill(0);
    layer.params().wk.fill(0);
    for (int a = 0; a < d; ++a) {
      layer.params().wq(a, a) = float(s);
      layer.params().wk(a, a) = float(s);
    }
    std::vector<float> h(n * d, 0.0f);
    for (int j = 0; j < n; ++j) h[j * d + j] = 1.0f;
    std::vector<double> entropy(n);
    ASSERT_OK(layer.attention_entropy(h.data(), n, entropy.data()));
    if (s > 1) {
      EXPECT_LT(entropy[n - 1], 0.05);
    } else {
      EXPECT_GT(entropy[n - 1], 0.5);
    }
  }
}
