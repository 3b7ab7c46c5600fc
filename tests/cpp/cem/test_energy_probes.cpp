// Energy probes of the CEM layers (docs/MATH.md §B15): the trajectory is the forward's own
// iterates bit for bit (each step equals the forward of a copy with that many steps); the
// energy gradient matches finite differences of energy() and, at y = h_i, is minus one plain
// step; the energy grid is energy() at the slice's points; the preconditioner's spectrum is
// ascending, starts at the smallest eigenvalue and sums to the trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "gatelab/cem/attention.hpp"
#include "gatelab/cem/mlp.hpp"
#include "gatelab/cem/probes.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

CemAttentionConfig attention_config(int steps, CemDiagonal diag, CemPrecond pre, float eta = 0.4f) {
  CemAttentionConfig c;
  c.d = 6;
  c.heads = 2;
  c.steps = steps;
  c.eta = eta;
  c.diagonal = diag;
  c.precond = pre;
  c.precond_rank = pre == CemPrecond::none ? 0 : 2;
  c.seed = 5;
  return c;
}

CemMlpConfig mlp_config(int steps, Activation act, CemPrecond pre, float eta = 0.4f) {
  CemMlpConfig c;
  c.d = 5;
  c.hidden = 7;
  c.activation = {act, act == Activation::swish ? 1.5f : 1.0f};
  c.steps = steps;
  c.eta = eta;
  c.precond = pre;
  c.precond_rank = pre == CemPrecond::none ? 0 : 2;
  c.seed = 9;
  return c;
}

const CemDiagonal kDiagonals[] = {CemDiagonal::none, CemDiagonal::per_head, CemDiagonal::shared};
const CemPrecond kPreconds[] = {CemPrecond::none, CemPrecond::paper, CemPrecond::psd};
const Activation kActivations[] = {Activation::relu, Activation::silu, Activation::swish, Activation::gelu_tanh,
                                   Activation::identity};

// Block t of the trajectory is the output of the same weights run for t steps, bit for bit.
template <class L, class Config>
void expect_trajectory_is_forward_iterates(L& layer, const Config& config, int n) {
  const int d = config.d, steps = config.steps;
  const std::size_t nd = std::size_t(n) * d;
  const auto h = cemtest::randn<float>(nd, 21);
  std::vector<float> ys((steps + 1) * nd), out(nd);
  ASSERT_OK(layer.trajectory(h.data(), n, ys.data()));
  EXPECT_EQ(std::memcmp(ys.data(), h.data(), sizeof(float) * nd), 0);
  for (int t = 1; t <= steps; ++t) {
    Config partial_config = config;
    partial_config.steps = t;
    L partial(partial_config);
    partial.params() = layer.params();
    ASSERT_OK(partial.forward(h.data(), n, out.data()));
    EXPECT_EQ(std::memcmp(ys.data() + t * nd, out.data(), sizeof(float) * nd), 0) << "step " << t;
  }
  ASSERT_OK(layer.forward(h.data(), n, out.data()));
  EXPECT_EQ(std::memcmp(ys.data() + steps * nd, out.data(), sizeof(float) * nd), 0);
}

// −∇ε at y = h_i is one plain step (T = 1, η = 1, P = I) of the same weights, minus h_i.
template <class L, class Config>
void expect_gradient_is_minus_plain_step(const L& layer, Config plain_config, int n) {
  const int d = plain_config.d;
  plain_config.steps = 1;
  plain_config.eta = 1.0f;
  plain_config.precond = CemPrecond::none;
  plain_config.precond_rank = 0;
  L plain(plain_config);
  const auto identity = plain.params().precond;
  plain.params() = layer.params();
  plain.params().precond = identity;
  const auto h = cemtest::randn<float>(std::size_t(n) * d, 4);
  std::vector<float> out(std::size_t(n) * d);
  ASSERT_OK(plain.forward(h.data(), n, out.data()));
  for (int i = 0; i < n; ++i) {
    std::vector<double> grad(d), step(d);
    ASSERT_OK(layer.energy_gradient(h.data(), n, i, h.data() + i * d, grad.data()));
    for (int c = 0; c < d; ++c) {
      step[c] = double(out[i * d + c]) - double(h[i * d + c]);
      grad[c] = -grad[c];
    }
    EXPECT_LE(cemtest::rel_error(grad, step, 1e-6), 2e-5) << "token " << i;
  }
}

// ∇ε at a random point against central differences of energy() (double layers).
template <class L>
void expect_gradient_matches_energy(const L& layer, int n, double tol) {
  const int d = layer.config().d;
  const auto h = cemtest::randn<double>(std::size_t(n) * d, 6);
  for (int i : {0, n / 2, n - 1}) {
    const auto y = cemtest::randn<double>(d, 30 + i, 0.8);
    std::vector<double> grad(d);
    ASSERT_OK(layer.energy_gradient(h.data(), n, i, y.data(), grad.data()));
    auto energy = [&](const std::vector<double>& at) {
      double e = 0;
      EXPECT_OK(layer.energy(h.data(), n, i, at.data(), &e));
      return e;
    };
    EXPECT_LE(cemtest::rel_error(grad, cemtest::numeric_energy_gradient(y, energy, 1e-5), 1e-8), tol) << "token " << i;
  }
}

template <class L>
void expect_spectrum_ascending_from_min_to_trace(const L& layer) {
  const int d = layer.config().d;
  std::vector<double> values(d), dense(std::size_t(d) * d);
  double lambda = 0;
  ASSERT_OK(layer.precond_spectrum(values.data()));
  ASSERT_OK(layer.precond_min_eigenvalue(&lambda));
  ASSERT_OK(layer.precond_dense(dense.data()));
  EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
  EXPECT_NEAR(values[0], lambda, 1e-12);
  double trace = 0, sum = 0;
  for (int a = 0; a < d; ++a) trace += dense[std::size_t(a) * d + a];
  for (double v : values) sum += v;
  EXPECT_NEAR(sum, trace, 1e-9 * std::max(1.0, std::abs(trace)));
}

}  // namespace

TEST(CemEnergyProbes, AttentionTrajectoryIsTheForwardsIterates) {
  for (CemDiagonal diag : kDiagonals) {
    for (CemPrecond pre : kPreconds) {
      SCOPED_TRACE(std::string(cem_diagonal_name(diag)) + " " + cem_precond_name(pre));
      const CemAttentionConfig config = attention_config(3, diag, pre);
      CemAttention layer(config);
      cemtest::randomize(layer.parameters(), 2, 0.6);
      ASSERT_NO_FATAL_FAILURE(expect_trajectory_is_forward_iterates(layer, config, 5));
    }
  }
}

TEST(CemEnergyProbes, MlpTrajectoryIsTheForwardsIterates) {
  for (CemPrecond pre : kPreconds) {
    SCOPED_TRACE(cem_precond_name(pre));
    const CemMlpConfig config = mlp_config(4, Activation::silu, pre);
    CemMlp layer(config);
    cemtest::randomize(layer.parameters(), 3, 0.6);
    ASSERT_NO_FATAL_FAILURE(expect_trajectory_is_forward_iterates(layer, config, 4));
  }
}

TEST(CemEnergyProbes, TrajectoryRefusesMoreThanTheTensorCap) {
  CemAttentionConfig config = attention_config(16, CemDiagonal::none, CemPrecond::none);
  config.d = 1024;
  config.heads = 1;
  CemAttention layer(config);
  ASSERT_OK(layer.error());
  float h = 0, out = 0;  // never read: the cap is checked first
  EXPECT_ERROR(layer.trajectory(&h, 4096, &out), ErrorCode::out_of_range, "n");
  EXPECT_ERROR(layer.trajectory(&h, 0, &out), ErrorCode::out_of_range, "n");
  EXPECT_ERROR(layer.trajectory(&h, 1, nullptr), ErrorCode::invalid_value, "");
}

TEST(CemEnergyProbes, AttentionEnergyGradientMatchesFiniteDifferences) {
  for (CemDiagonal diag : kDiagonals) {
    SCOPED_TRACE(cem_diagonal_name(diag));
    CemAttention64 layer(attention_config(1, diag, CemPrecond::paper));
    cemtest::randomize(layer.parameters(), 12, 0.7);
    ASSERT_NO_FATAL_FAILURE(expect_gradient_matches_energy(layer, 6, 1e-7));
  }
}

TEST(CemEnergyProbes, AttentionEnergyGradientIsMinusOnePlainStep) {
  for (CemDiagonal diag : kDiagonals) {
    SCOPED_TRACE(cem_diagonal_name(diag));
    const CemAttentionConfig config = attention_config(3, diag, CemPrecond::paper);
    CemAttention layer(config);
    cemtest::randomize(layer.parameters(), 13, 0.7);
    ASSERT_NO_FATAL_FAILURE(expect_gradient_is_minus_plain_step(layer, config, 6));
  }
}

TEST(CemEnergyProbes, MlpEnergyGradientMatchesFiniteDifferencesAndThePlainStep) {
  for (Activation act : kActivations) {
    SCOPED_TRACE(activation_name(act));
    const CemMlpConfig config = mlp_config(2, act, CemPrecond::psd);
    if (has_antiderivative(act)) {
      CemMlp64 layer64(config);
      cemtest::randomize(layer64.parameters(), 14, 0.7);
      // φ is taken at float precision (the catalogue's), so the match is to ~1e-6.
      ASSERT_NO_FATAL_FAILURE(expect_gradient_matches_energy(layer64, 4, 1e-5));
    }
    CemMlp layer(config);
    cemtest::randomize(layer.parameters(), 15, 0.7);
    ASSERT_NO_FATAL_FAILURE(expect_gradient_is_minus_plain_step(layer, config, 4));
  }
}

TEST(CemEnergyProbes, EnergyGradientChecksItsArguments) {
  CemAttention attention(attention_config(1, CemDiagonal::none, CemPrecond::none));
  CemMlp mlp(mlp_config(1, Activation::relu, CemPrecond::none));
  const auto h = cemtest::randn<float>(6 * 3, 1);
  std::vector<double> out(6);
  EXPECT_ERROR(attention.energy_gradient(h.data(), 3, 3, h.data(), out.data()), ErrorCode::out_of_range, "i");
  EXPECT_ERROR(attention.energy_gradient(h.data(), 3, 0, nullptr, out.data()), ErrorCode::invalid_value, "y");
  EXPECT_ERROR(mlp.energy_gradient(h.data(), 3, -1, h.data(), out.data()), ErrorCode::out_of_range, "i");
  EXPECT_ERROR(mlp.energy_gradient(h.data(), 3, 0, h.data(), nullptr), ErrorCode::invalid_value, "");
  CemMlpConfig bad = mlp_config(1, Activation::relu, CemPrecond::none);
  bad.hidden = 0;
  EXPECT_EQ(CemMlp(bad).energy_gradient(h.data(), 3, 0, h.data(), out.data()), validate(bad));
}

TEST(CemEnergyProbes, EnergyGridIsTheEnergyAtTheSlicesPoints) {
  const CemAttentionConfig config = attention_config(1, CemDiagonal::shared, CemPrecond::none);
  CemAttention layer(config);
  cemtest::randomize(layer.parameters(), 16, 0.7);
  const int n = 4, d = config.d, g = 5;
  const auto h = cemtest::randn<float>(n * d, 17);
  const auto origin = cemtest::randn<float>(d, 18);
  const auto axes = cemtest::randn<float>(2 * d, 19);
  const CemSlice slice{origin.data(), axes.data(), -2.0f, 1.5f, g};
  std::vector<double> grid(g * g);
  ASSERT_OK(cem_energy_grid(layer, h.data(), n, 2, slice, grid.data()));
  for (int r : {0, 2, g - 1}) {
    for (int c : {0, 3, g - 1}) {
      const double u = -2.0 + 3.5 * c / (g - 1), v = -2.0 + 3.5 * r / (g - 1);
      std::vector<float> y(d);
      for (int k = 0; k < d; ++k) y[k] = static_cast<float>(origin[k] + u * axes[k] + v * axes[d + k]);
      double e = 0;
      ASSERT_OK(layer.energy(h.data(), n, 2, y.data(), &e));
      EXPECT_EQ(grid[r * g + c], e) << "r = " << r << ", c = " << c;
    }
  }
  // The corners are the endpoints exactly: u_0 = lo, u_{G−1} = hi.
  std::vector<float> corner(d);
  for (int k = 0; k < d; ++k) corner[k] = static_cast<float>(origin[k] + 1.5 * axes[k] + -2.0 * axes[d + k]);
  double e = 0;
  ASSERT_OK(layer.energy(h.data(), n, 2, corner.data(), &e));
  EXPECT_EQ(grid[g - 1], e);
}

TEST(CemEnergyProbes, EnergyGridChecksTheSliceAndPassesOnEnergyErrors) {
  CemMlp mlp(mlp_config(1, Activation::gelu_tanh, CemPrecond::none));
  CemMlp relu(mlp_config(1, Activation::relu, CemPrecond::none));
  const auto h = cemtest::randn<float>(5 * 2, 1);
  const auto axes = cemtest::randn<float>(10, 2);
  std::vector<double> out(4);
  CemSlice s{h.data(), axes.data(), -1.0f, 1.0f, 2};
  EXPECT_ERROR(cem_energy_grid(mlp, h.data(), 2, 0, s, out.data()), ErrorCode::unsupported, "activation");
  EXPECT_ERROR(cem_energy_grid(relu, h.data(), 2, 2, s, out.data()), ErrorCode::out_of_range, "i");
  EXPECT_ERROR(cem_energy_grid(relu, h.data(), 2, 0, s, nullptr), ErrorCode::invalid_value, "");
  s.g = 513;
  EXPECT_ERROR(cem_energy_grid(relu, h.data(), 2, 0, s, out.data()), ErrorCode::out_of_range, "G");
  s = {h.data(), axes.data(), 1.0f, 1.0f, 2};
  EXPECT_ERROR(cem_energy_grid(relu, h.data(), 2, 0, s, out.data()), ErrorCode::not_finite, "");
  s = {h.data(), nullptr, -1.0f, 1.0f, 2};
  EXPECT_ERROR(cem_energy_grid(relu, h.data(), 2, 0, s, out.data()), ErrorCode::invalid_value, "");
}

TEST(CemEnergyProbes, SpectrumIsAscendingFromTheSmallestEigenvalueToTheTrace) {
  for (CemPrecond pre : kPreconds) {
    SCOPED_TRACE(cem_precond_name(pre));
    CemAttention attention(attention_config(1, CemDiagonal::none, pre));
    cemtest::randomize(attention.parameters(), 20, 0.8);
    ASSERT_NO_FATAL_FAILURE(expect_spectrum_ascending_from_min_to_trace(attention));
    CemMlp mlp(mlp_config(1, Activation::relu, pre));
    cemtest::randomize(mlp.parameters(), 21, 0.8);
    ASSERT_NO_FATAL_FAILURE(expect_spectrum_ascending_from_min_to_trace(mlp));
  }
  CemAttention identity(attention_config(1, CemDiagonal::none, CemPrecond::none));
  std::vector<double> values(6);
  ASSERT_OK(identity.precond_spectrum(values.data()));
  EXPECT_EQ(values, std::vector<double>(6, 1.0));
}

TEST(CemEnergyProbes, SpectrumHasItsOwnCap) {
  CemMlpConfig config = mlp_config(1, Activation::relu, CemPrecond::psd);
  config.d = 513;
  config.hidden = 1;
  CemMlp layer(config);
  ASSERT_OK(layer.error());
  std::vector<double> values(513);
  EXPECT_ERROR(layer.precond_spectrum(values.data()), ErrorCode::unsupported, "");
  EXPECT_ERROR(CemMlp(mlp_config(1, Activation::relu, CemPrecond::psd)).precond_spectrum(nullptr),
               ErrorCode::invalid_value, "");
}
