// CEM MLP (docs/MATH.md §B3, §B5, §B6): the output is T steps of y − η P ∇ε with ∇ε by finite
// differences of energy() for every activation with an antiderivative; one step with P = I is
// the gated MLP with W_down = η Wᵀ (computed here directly); energy falls for psd P and small
// η; tokens are independent; the backward matches finite differences; configs are validated.
#include <gtest/gtest.h>

#include <cstring>

#include "gatelab/cem/mlp.hpp"
#include "support/cem_layer_checks.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

CemMlpConfig make_config(int d, int hidden, Activation act, int steps, CemPrecond pre, int rank, float eta = 0.3f) {
  CemMlpConfig c;
  c.d = d;
  c.hidden = hidden;
  c.activation = {act, 1.0f};
  c.steps = steps;
  c.eta = eta;
  c.precond = pre;
  c.precond_rank = rank;
  c.seed = 4;
  return c;
}

const CemPrecond kPreconds[] = {CemPrecond::none, CemPrecond::paper, CemPrecond::psd};

}  // namespace

TEST(CemMlp, OutputIsPreconditionedStepsOnTheEnergy) {
  const int d = 4, m = 6, n = 3;
  int tested = 0;
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    if (!has_antiderivative(act)) continue;
    ++tested;
    for (CemPrecond pre : kPreconds) {
      const CemMlpConfig config = make_config(d, m, act, 2, pre, 2);
      SCOPED_TRACE(std::string(activation_name(act)) + " precond=" + cem_precond_name(pre));
      CemMlp64 layer(config);
      cemtest::randomize(layer.parameters(), 3 + a, 0.7);
      CemMlp single(config);
      ASSERT_OK(copy_parameters(single.parameters(), layer.parameters()));
      const auto h = cemtest::randn<double>(n * d, 5);
      // The double layer evaluates φ in float (activations.hpp is float-only): ~1e-7.
      ASSERT_NO_FATAL_FAILURE(cemtest::expect_forward_is_preconditioned_descent(layer, single, h, n, 1e-5));
    }
  }
  EXPECT_GE(tested, 2) << "docs/MATH.md §B3 names at least relu and identity";
}

TEST(CemMlp, EnergyNeedsAnAntiderivative) {
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    CemMlp layer(make_config(4, 6, act, 1, CemPrecond::none, 0));
    const auto h = cemtest::randn<float>(8, 1);
    std::vector<float> out(8);
    std::vector<double> trace(4);
    double e = 0;
    EXPECT_OK(layer.forward(h.data(), 2, out.data()));
    if (has_antiderivative(act)) {
      EXPECT_OK(layer.energy(h.data(), 2, 0, h.data(), &e)) << activation_name(act);
      EXPECT_OK(layer.energy_trace(h.data(), 2, trace.data()));
    } else {
      EXPECT_ERROR(layer.energy(h.data(), 2, 0, h.data(), &e), ErrorCode::unsupported, "activation");
      EXPECT_ERROR(layer.energy_trace(h.data(), 2, trace.data()), ErrorCode::unsupported, "activation");
    }
  }
}

TEST(CemMlp, OneTiedStepIsTheGatedMlpWithDownProjectionEtaWTransposed) {
  const int d = 5, m = 7, n = 4;
  const float eta = 0.6f;
  for (int a = 0; a < activation_count; ++a) {
    const ActivationSpec spec{activation_by_index(a), 1.0f};
    CemMlp layer(make_config(d, m, spec.kind, 1, CemPrecond::none, 0, eta));
    const auto h = cemtest::randn<float>(n * d, 8);
    std::vector<float> out(n * d);
    ASSERT_OK(layer.forward(h.data(), n, out.data()));
    const auto& W = layer.params().w;
    const auto& U = layer.params().u;
    std::vector<double> update(n * d), gated(n * d, 0.0);
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < m; ++k) {  // gated MLP: W_down (φ(W_up x) ⊙ W_gate x), W_down = η Wᵀ
        double up = 0, gate = 0;
        for (int c = 0; c < d; ++c) {
          up += double(W(k, c)) * h[i * d + c];
          gate += double(U(k, c)) * h[i * d + c];
        }
        const double hidden = activation_value(spec, float(up)) * gate;
        for (int c = 0; c < d; ++c) gated[i * d + c] += eta * double(W(k, c)) * hidden;
      }
      for (int c = 0; c < d; ++c) update[i * d + c] = double(out[i * d + c]) - h[i * d + c];
    }
    EXPECT_LE(cemtest::rel_error(update, gated), 2e-5) << activation_name(spec.kind);
  }
}

TEST(CemMlp, EnergyFallsAtEveryStepWithPsdPreconditionerAndSmallStep) {
  const int d = 6, m = 10, n = 5;
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    if (!has_antiderivative(act)) continue;
    SCOPED_TRACE(activation_name(act));
    CemMlp layer(make_config(d, m, act, 8, CemPrecond::psd, 2, 0.02f));
    cemtest::randomize(layer.parameters(), 40 + a, 0.4);
    const auto h = cemtest::randn<float>(n * d, 2);
    ASSERT_NO_FATAL_FAILURE(cemtest::expect_energy_falls_at_every_step(layer, h, n, false));
  }
}

TEST(CemMlp, TokensAreIndependent) {
  const int d = 6, n = 5;
  CemMlp layer(make_config(d, 9, Activation::silu, 2, CemPrecond::paper, 2));
  cemtest::randomize(layer.parameters(), 6, 0.5);
  auto h = cemtest::randn<float>(n * d, 3);
  std::vector<float> a(n * d), b(n * d);
  ASSERT_OK(layer.forward(h.data(), n, a.data()));
  for (int c = 0; c < d; ++c) h[3 * d + c] -= 1.0f;
  ASSERT_OK(layer.forward(h.data(), n, b.data()));
  EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(float) * 3 * d), 0);
  EXPECT_EQ(std::memcmp(a.data() + 4 * d, b.data() + 4 * d, sizeof(float) * d), 0);
}

TEST(CemMlp, BackwardMatchesFiniteDifferences) {
  const int d = 4, m = 6, n = 3;
  // φ and φ' come from the float catalogue even in the double layer, so the finite
  // differences use a wider step and the comparison a looser bound than for attention.
  for (Activation act : {Activation::silu, Activation::gelu_tanh, Activation::tanh, Activation::softplus,
                         Activation::relu2, Activation::identity, Activation::sigmoid}) {
    for (CemPrecond pre : kPreconds) {
      SCOPED_TRACE(std::string(activation_name(act)) + " precond=" + cem_precond_name(pre));
      const CemMlpConfig config = make_config(d, m, act, 2, pre, 2);
      CemMlp64 layer(config);
      cemtest::randomize(layer.parameters(), 12, 0.6);
      auto h = cemtest::randn<double>(n * d, 14);
      const auto weights = cemtest::randn<double>(n * d, 15);
      std::vector<double> grad_h;
      ASSERT_NO_FATAL_FAILURE(
          cemtest::expect_backward_matches_finite_differences(layer, h, n, weights, 1e-3, 3e-3, grad_h));

      CemMlp single(config);
      ASSERT_NO_FATAL_FAILURE(cemtest::expect_float_backward_agrees(single, layer, h, n, weights, grad_h));
      EXPECT_LE(cemtest::rel_error(std::vector<float>(single.grads().w.begin(), single.grads().w.end()),
                                   std::vector<double>(layer.grads().w.begin(), layer.grads().w.end())),
                1e-4);
    }
  }
}

TEST(CemMlp, CountsParametersAndRejectsBadConfigs) {
  CemMlp layer(make_config(8, 32, Activation::relu, 1, CemPrecond::paper, 2));
  EXPECT_EQ(layer.parameter_count(), 2u * 8 * 32 + 8 + 2 * 8 * 2);
  CemMlpConfig c = make_config(8, 32, Activation::swish, 1, CemPrecond::none, 0);
  c.activation.beta = 0.0f;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "activation.beta");
  c = make_config(8, 0, Activation::relu, 1, CemPrecond::none, 0);
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "hidden");
  c = make_config(8, 4, Activation::relu, 1, CemPrecond::psd, 9);
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "precond_rank");
  CemMlp broken(c);
  std::vector<float> h(16), out(16);
  EXPECT_EQ(broken.forward(h.data(), 2, out.data()), broken.error());
  EXPECT_EQ(broken.backward(h.data(), 2, out.data(), nullptr), broken.error());
}

TEST(CemMlp, ActivationByNameKeepsBetaForSwishOnly) {
  ActivationSpec spec;
  ASSERT_OK(parse_cem_activation("swish", 2.5f, spec));
  EXPECT_EQ(spec.kind, Activation::swish);
  EXPECT_EQ(spec.beta, 2.5f);
  ASSERT_OK(parse_cem_activation("silu", 2.5f, spec));
  EXPECT_EQ(spec.kind, Activation::silu);
  EXPECT_EQ(spec.beta, 1.0f);
  EXPECT_ERROR(parse_cem_activation("swiglu", 1.0f, spec), ErrorCode::invalid_value, "activation");
  EXPECT_EQ(spec.kind, Activation::silu);  // unchanged on error
}
