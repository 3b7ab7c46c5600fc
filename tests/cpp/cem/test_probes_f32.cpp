// The float32 forms of the CEM energy probes (cem/probes.hpp), which web/lib reads: each value is
// the double probe's rounded once, and every refusal (a bad n, i or G, a null output) is the
// double probe's own status.
#include <gtest/gtest.h>

#include <vector>

#include "gatelab/cem/attention.hpp"
#include "gatelab/cem/mlp.hpp"
#include "gatelab/cem/probes.hpp"
#include "support/cem_support.hpp"
#include "support/rounded.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;
using gatelab::testing_support::rounded;

namespace {

template <class L>
void expect_f32_probes_round_the_double_ones(L& layer) {
  const int d = layer.config().d, n = 3, steps = layer.config().steps, g = 4;
  cemtest::randomize(layer.parameters(), 31, 0.6);
  const auto h = cemtest::randn<float>(n * d, 32);
  const auto y = cemtest::randn<float>(d, 33);
  const auto axes = cemtest::randn<float>(2 * d, 34);
  const CemSlice slice{y.data(), axes.data(), -1.0f, 2.0f, g};

  std::vector<double> grad(d), trace(n * (steps + 1)), grid(g * g), dense(d * d), spectrum(d);
  std::vector<float> grad32(d), trace32(trace.size()), grid32(grid.size()), dense32(d * d), spectrum32(d);
  ASSERT_OK(layer.energy_gradient(h.data(), n, 1, y.data(), grad.data()));
  ASSERT_OK(energy_gradient_f32(layer, h.data(), n, 1, y.data(), grad32.data()));
  EXPECT_EQ(grad32, rounded(grad));
  ASSERT_OK(layer.energy_trace(h.data(), n, trace.data()));
  ASSERT_OK(energy_trace_f32(layer, h.data(), n, trace32.data()));
  EXPECT_EQ(trace32, rounded(trace));
  ASSERT_OK(cem_energy_grid(layer, h.data(), n, 2, slice, grid.data()));
  ASSERT_OK(energy_grid_f32(layer, h.data(), n, 2, slice, grid32.data()));
  EXPECT_EQ(grid32, rounded(grid));
  ASSERT_OK(layer.precond_dense(dense.data()));
  ASSERT_OK(precond_dense_f32(layer, dense32.data()));
  EXPECT_EQ(dense32, rounded(dense));
  ASSERT_OK(layer.precond_spectrum(spectrum.data()));
  ASSERT_OK(precond_spectrum_f32(layer, spectrum32.data()));
  EXPECT_EQ(spectrum32, rounded(spectrum));

  // Refusals are the probes' own, and leave the output untouched.
  std::vector<float> untouched(trace32.size(), -7.0f);
  EXPECT_EQ(energy_gradient_f32(layer, h.data(), n, n, y.data(), untouched.data()),
            layer.energy_gradient(h.data(), n, n, y.data(), grad.data()));
  EXPECT_EQ(energy_gradient_f32(layer, h.data(), n, 0, y.data(), nullptr),
            layer.energy_gradient(h.data(), n, 0, y.data(), nullptr));
  EXPECT_EQ(energy_trace_f32(layer, h.data(), 0, untouched.data()), layer.energy_trace(h.data(), 0, trace.data()));
  EXPECT_EQ(energy_trace_f32(layer, h.data(), n, nullptr), layer.energy_trace(h.data(), n, nullptr));
  CemSlice wide = slice;
  wide.g = cem_max_grid + 1;
  EXPECT_EQ(energy_grid_f32(layer, h.data(), n, 0, wide, untouched.data()),
            cem_energy_grid(layer, h.data(), n, 0, wide, grid.data()));
  EXPECT_EQ(precond_dense_f32(layer, nullptr), layer.precond_dense(nullptr));
  EXPECT_EQ(precond_spectrum_f32(layer, nullptr), layer.precond_spectrum(nullptr));
  EXPECT_EQ(untouched, std::vector<float>(trace32.size(), -7.0f));
}

}  // namespace

TEST(CemProbesF32, AttentionProbesAreTheDoubleOnesRounded) {
  CemAttentionConfig c;
  c.d = 6;
  c.heads = 2;
  c.steps = 2;
  c.diagonal = CemDiagonal::shared;
  c.precond = CemPrecond::psd;
  c.precond_rank = 2;
  c.seed = 3;
  CemAttention layer(c);
  ASSERT_OK(layer.error());
  expect_f32_probes_round_the_double_ones(layer);
}

TEST(CemProbesF32, MlpProbesAreTheDoubleOnesRounded) {
  CemMlpConfig c;
  c.d = 5;
  c.hidden = 7;
  c.steps = 3;
  c.activation = {Activation::relu, 1.0f};
  c.precond = CemPrecond::paper;
  c.precond_rank = 2;
  c.seed = 4;
  CemMlp layer(c);
  ASSERT_OK(layer.error());
  expect_f32_probes_round_the_double_ones(layer);
}
