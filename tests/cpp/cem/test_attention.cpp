// CEM attention (MATH.md B2, B4–B6): the output is T steps of y − η P ∇ε with ∇ε taken by
// finite differences of energy(); causality is bit-exact; energy falls for psd P and small η
// and can rise for the paper's indefinite P; T = 1 equals standard attention with W_V = W_K,
// W_O = η W_Qᵀ; the backward matches finite differences; configs are validated.
#include <gtest/gtest.h>

#include <cstring>

#include "gatelab/cem/attention.hpp"
#include "gatelab/model/baselines.hpp"
#include "support/cem_layer_checks.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

CemAttentionConfig make_config(int d, int heads, int steps, CemDiagonal diag, CemPrecond pre, int rank,
                               float eta = 0.3f) {
  CemAttentionConfig c;
  c.d = d;
  c.heads = heads;
  c.steps = steps;
  c.eta = eta;
  c.diagonal = diag;
  c.precond = pre;
  c.precond_rank = rank;
  c.seed = 11;
  return c;
}

const CemDiagonal kDiagonals[] = {CemDiagonal::none, CemDiagonal::per_head, CemDiagonal::shared};
const CemPrecond kPreconds[] = {CemPrecond::none, CemPrecond::paper, CemPrecond::psd};

std::string label(const CemAttentionConfig& c) {
  return std::string("diag=") + cem_diagonal_name(c.diagonal) + " heads=" + std::to_string(c.heads) +
         " precond=" + cem_precond_name(c.precond);
}

}  // namespace

TEST(CemAttention, OutputIsPreconditionedStepsOnTheEnergy) {
  const int d = 4, n = 5;
  for (CemDiagonal diag : kDiagonals) {
    for (int heads : {1, 2}) {
      for (CemPrecond pre : kPreconds) {
        const CemAttentionConfig config = make_config(d, heads, 2, diag, pre, 2);
        SCOPED_TRACE(label(config));
        CemAttention64 layer(config);
        ASSERT_OK(layer.error());
        cemtest::randomize(layer.parameters(), 3, 0.7);
        CemAttention single(config);
        ASSERT_OK(copy_parameters(single.parameters(), layer.parameters()));
        const auto h = cemtest::randn<double>(n * d, 5);
        ASSERT_NO_FATAL_FAILURE(cemtest::expect_forward_is_preconditioned_descent(layer, single, h, n, 1e-6));
      }
    }
  }
}

TEST(CemAttention, LaterTokensNeverChangeEarlierOutputs) {
  const int d = 8, n = 9, changed = 6;
  for (CemDiagonal diag : kDiagonals) {
    const CemAttentionConfig config = make_config(d, 2, 3, diag, CemPrecond::paper, 2);
    CemAttention layer(config);
    cemtest::randomize(layer.parameters(), 8, 0.5);
    auto h = cemtest::randn<float>(n * d, 1);
    std::vector<float> a(n * d), b(n * d);
    ASSERT_OK(layer.forward(h.data(), n, a.data()));
    for (int c = 0; c < d; ++c) h[changed * d + c] += 0.75f;
    ASSERT_OK(layer.forward(h.data(), n, b.data()));
    EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(float) * changed * d), 0) << cem_diagonal_name(diag);
    EXPECT_NE(std::memcmp(a.data() + changed * d, b.data() + changed * d, sizeof(float) * d), 0);
  }
}

TEST(CemAttention, EnergyFallsAtEveryStepWithPsdPreconditionerAndSmallStep) {
  const int d = 8, n = 7;
  for (CemDiagonal diag : kDiagonals) {
    SCOPED_TRACE(cem_diagonal_name(diag));
    CemAttention layer(make_config(d, 2, 8, diag, CemPrecond::psd, 3, 0.05f));
    cemtest::randomize(layer.parameters(), 21, 0.4);
    double lambda = 0;
    ASSERT_OK(layer.precond_min_eigenvalue(&lambda));
    EXPECT_GT(lambda, 0.0);
    const auto h = cemtest::randn<float>(n * d, 4);
    ASSERT_NO_FATAL_FAILURE(cemtest::expect_energy_falls_at_every_step(layer, h, n, true));
  }
}

TEST(CemAttention, PaperPreconditionerCanBeIndefiniteAndRaiseTheEnergy) {
  // P = I + U Vᵀ + V Uᵀ with U = e, V = −e (e a unit vector): P = I − 2 e eᵀ, a reflection
  // with eigenvalues 1 and −1. With e along token i's gradient, gᵀ P g = −‖g‖² < 0.
  const int d = 6, n = 5, i = n - 1;
  const CemAttentionConfig config = make_config(d, 2, 1, CemDiagonal::shared, CemPrecond::paper, 1, 0.01f);
  CemAttention64 layer(config);
  cemtest::randomize(layer.parameters(), 2, 0.6);
  auto& pre = layer.params().precond;
  pre.p.fill(0.541324854612918);  // softplus = 1
  const auto h = cemtest::randn<double>(n * d, 9);
  const std::vector<double> y(h.begin() + i * d, h.begin() + (i + 1) * d);
  auto energy = [&](const std::vector<double>& at) {
    double e = 0;
    EXPECT_TRUE(layer.energy(h.data(), n, i, at.data(), &e).ok());
    return e;
  };
  const std::vector<double> g = cemtest::numeric_energy_gradient(y, energy, 1e-6);
  const double gn = cemtest::norm(g);
  for (int c = 0; c < d; ++c) {
    pre.u(c, 0) = g[c] / gn;
    pre.v(c, 0) = -g[c] / gn;
  }
  double lambda = 0;
  ASSERT_OK(layer.precond_min_eigenvalue(&lambda));
  EXPECT_NEAR(lambda, -1.0, 1e-9);
  std::vector<double> trace(n * 2);
  ASSERT_OK(layer.energy_trace(h.data(), n, trace.data()));
  EXPECT_GT(trace[i * 2 + 1], trace[i * 2]) << "the step along −P∇ε raised the energy";
}

TEST(CemAttention, OneTiedStepEqualsStandardAttentionWithTiedWeights) {
  const int d = 8, n = 6;
  for (int heads : {1, 2}) {
    const CemAttentionConfig config = make_config(d, heads, 1, CemDiagonal::none, CemPrecond::none, 0, 0.7f);
    CemAttention cem(config);
    CemStdAttention standard({d, heads, 0.0f, 5});
    ASSERT_EQ(cem.beta(), standard.beta());
    standard.params().wq = cem.params().wq;
    standard.params().wk = cem.params().wk;
    standard.params().wv = cem.params().wk;                              // W_V = W_K
    standard.params().wo = config.eta * xt::transpose(cem.params().wq);  // W_O = η W_Qᵀ
    const auto h = cemtest::randn<float>(n * d, 13);
    std::vector<float> a(n * d), b(n * d);
    ASSERT_OK(cem.forward(h.data(), n, a.data()));
    ASSERT_OK(standard.forward(h.data(), n, b.data()));
    std::vector<double> update(n * d);
    for (int e = 0; e < n * d; ++e) update[e] = double(a[e]) - h[e];
    EXPECT_LE(cemtest::rel_error(update, b), 1e-5) << "heads = " << heads;
  }
}

TEST(CemAttention, BackwardMatchesFiniteDifferences) {
  const int d = 6, n = 5;
  std::vector<CemAttentionConfig> configs;
  for (CemDiagonal diag : kDiagonals) {
    for (CemPrecond pre : kPreconds) configs.push_back(make_config(d, 2, 2, diag, pre, 2));
  }
  configs.push_back(make_config(d, 1, 3, CemDiagonal::shared, CemPrecond::paper, 1));
  for (const auto& config : configs) {
    SCOPED_TRACE(label(config));
    CemAttention64 layer(config);
    cemtest::randomize(layer.parameters(), 17, 0.6);
    auto h = cemtest::randn<double>(n * d, 23);
    const auto weights = cemtest::randn<double>(n * d, 29);
    std::vector<double> grad_h;
    ASSERT_NO_FATAL_FAILURE(
        cemtest::expect_backward_matches_finite_differences(layer, h, n, weights, 1e-6, 1e-6, grad_h));

    // The float layer's backward agrees with the double one.
    CemAttention single(config);
    ASSERT_NO_FATAL_FAILURE(cemtest::expect_float_backward_agrees(single, layer, h, n, weights, grad_h));
    const auto views64 = layer.parameters();
    const auto views32 = single.parameters();
    for (std::size_t v = 0; v < views64.size(); ++v) {
      std::vector<double> g64(views64[v].grad, views64[v].grad + views64[v].size);
      std::vector<float> g32(views32[v].grad, views32[v].grad + views32[v].size);
      EXPECT_LE(cemtest::rel_error(g32, g64), 1e-4) << views64[v].name;
    }
  }
}

TEST(CemAttention, BackwardAccumulatesWhenAsked) {
  const int d = 4, n = 3;
  CemAttention64 layer(make_config(d, 2, 2, CemDiagonal::per_head, CemPrecond::psd, 1));
  const auto h = cemtest::randn<double>(n * d, 1);
  const auto w = cemtest::randn<double>(n * d, 2);
  ASSERT_OK(layer.backward(h.data(), n, w.data(), nullptr));
  const std::vector<double> once(layer.grads().wq.begin(), layer.grads().wq.end());
  ASSERT_OK(layer.backward(h.data(), n, w.data(), nullptr, true));
  for (std::size_t j = 0; j < once.size(); ++j) EXPECT_DOUBLE_EQ(layer.grads().wq.data()[j], 2 * once[j]);
}

TEST(CemAttention, StartsWithIdentityPreconditionerAndCountsParameters) {
  const int d = 8;
  for (CemPrecond pre : kPreconds) {
    CemAttention layer(make_config(d, 2, 1, CemDiagonal::shared, pre, 3));
    double lambda = 0;
    ASSERT_OK(layer.precond_min_eigenvalue(&lambda));
    // P = I up to the float rounding of p = log(e − 1); psd adds UUᵀ of rank 3 < d, which
    // leaves the smallest eigenvalue at 1.
    EXPECT_NEAR(lambda, 1.0, 1e-6) << cem_precond_name(pre);
    const std::size_t precond = pre == CemPrecond::none ? 0 : (pre == CemPrecond::paper ? d + 2 * d * 3 : d + d * 3);
    EXPECT_EQ(layer.parameter_count(), 2u * d * d + d + precond) << cem_precond_name(pre);
  }
  CemAttention per_head(make_config(d, 4, 1, CemDiagonal::per_head, CemPrecond::none, 0));
  EXPECT_EQ(per_head.parameter_count(), 2u * d * d + 4u * d);
}

TEST(CemAttention, RejectsBadConfigsAndCallsWithMessages) {
  CemAttentionConfig c = make_config(8, 3, 1, CemDiagonal::none, CemPrecond::none, 0);
  EXPECT_ERROR(validate(c), ErrorCode::invalid_value, "heads");
  c.heads = 2;
  EXPECT_OK(validate(c));
  c.steps = 0;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "steps");
  c.steps = cem_max_steps + 1;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "steps");
  c.steps = 1;
  c.eta = -1.0f;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "eta");
  c.eta = std::nanf("");
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "eta");
  c.eta = 1.0f;
  c.d = cem_max_d * 2;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "d");
  c.d = 8;
  c.precond = CemPrecond::paper;
  c.precond_rank = 9;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "precond_rank");
  c.precond_rank = 2;
  c.beta = -1.0f;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "beta");

  CemAttention broken(make_config(8, 3, 1, CemDiagonal::none, CemPrecond::none, 0));
  std::vector<float> h(16), out(16);
  EXPECT_EQ(broken.forward(h.data(), 2, out.data()), broken.error());
  EXPECT_TRUE(broken.parameters().empty());
  EXPECT_EQ(broken.parameter_count(), 0u);

  CemAttention layer(make_config(8, 2, 1, CemDiagonal::none, CemPrecond::none, 0));
  EXPECT_ERROR(layer.forward(h.data(), 0, out.data()), ErrorCode::out_of_range, "n");
  EXPECT_ERROR(layer.forward(h.data(), cem_max_rows + 1, out.data()), ErrorCode::out_of_range, "n");
  EXPECT_ERROR(layer.forward(nullptr, 2, out.data()), ErrorCode::invalid_value, "");
  EXPECT_ERROR(layer.backward(h.data(), 2, nullptr, nullptr), ErrorCode::invalid_value, "");
  double e = 0;
  EXPECT_ERROR(layer.energy(h.data(), 2, 2, h.data(), &e), ErrorCode::out_of_range, "i");
  EXPECT_OK(layer.energy(h.data(), 2, 1, h.data(), &e));
  EXPECT_TRUE(parse_cem_diagonal("shared").has_value());
  EXPECT_FALSE(parse_cem_precond("bogus").has_value());
}

TEST(CemAttention, OptionNamesParseAsStatusesNamingTheOption) {
  // The JS API's 'per-head' and the core's 'per_head' are one diagonal.
  for (const char* name : {"per-head", "per_head"}) {
    CemDiagonal d = CemDiagonal::none;
    ASSERT_TRUE(parse_cem_diagonal(name, d).ok()) << name;
    EXPECT_EQ(d, CemDiagonal::per_head);
  }
  CemDiagonal d = CemDiagonal::shared;
  const Status bad = parse_cem_diagonal("diag", d);
  EXPECT_EQ(bad.code, ErrorCode::invalid_value);
  EXPECT_EQ(bad.field, "diagonal");
  // Kept as text: a refused name's message lists the accepted names (unknown_choice), which is
  // what a reader needs from it.
  EXPECT_EQ(bad, "diagonal must be 'none', 'per_head' or 'shared' (got 'diag')");
  EXPECT_EQ(d, CemDiagonal::shared) << "a refused name leaves the value as it was";
  CemPrecond p = CemPrecond::none;
  EXPECT_EQ(parse_cem_precond("spd", p).field, "precond");
  CemFamily f = CemFamily::cem;
  EXPECT_TRUE(parse_cem_family("standard", f).ok());
  EXPECT_EQ(f, CemFamily::standard);
}
