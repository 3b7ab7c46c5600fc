// Checks shared by the tests of the layers (CEM attention and MLP, the standard baselines, paper A),
// each run by several tests with their own configs and tolerances: the forward is T
// preconditioned descent steps on the energy, the energy falls along them, the backward
// matches finite differences, and the float layer's backward agrees with the double one's.
// They return void (gtest's ASSERTs need that), so callers wrap them in ASSERT_NO_FATAL_FAILURE
// to keep a failed ASSERT inside fatal to the test.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "gatelab/cem/common.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

namespace cemtest {

// forward() of a double layer and of its float copy (same parameters) against `steps` steps
// of y ← y − η P ∇ε(y) from each token's input, with ∇ε by central differences of energy().
// The step (output − input) is compared, so the tolerances are relative to the update.
template <class Layer64, class Layer32>
void expect_forward_is_preconditioned_descent(Layer64& layer, Layer32& single, const std::vector<double>& h, int n,
                                              double double_tol) {
  const int d = layer.config().d;
  const std::vector<float> hf(h.begin(), h.end());
  std::vector<double> out(n * d), P(d * d);
  std::vector<float> outf(n * d);
  ASSERT_OK(layer.forward(h.data(), n, out.data()));
  ASSERT_OK(single.forward(hf.data(), n, outf.data()));
  ASSERT_OK(layer.precond_dense(P.data()));
  for (int i = 0; i < n; ++i) {
    auto energy = [&](const std::vector<double>& y) {
      double e = 0;
      EXPECT_OK(layer.energy(h.data(), n, i, y.data(), &e));
      return e;
    };
    const std::vector<double> start(h.begin() + i * d, h.begin() + (i + 1) * d);
    const auto expected = fd_descent(start, energy, P, layer.step_size(), layer.config().steps);
    std::vector<double> step(d), got(d), gotf(d);
    for (int c = 0; c < d; ++c) {
      step[c] = expected[c] - start[c];
      got[c] = out[i * d + c] - start[c];
      gotf[c] = double(outf[i * d + c]) - double(hf[i * d + c]);
    }
    EXPECT_LE(rel_error(got, step), double_tol) << "double, token " << i;
    EXPECT_LE(rel_error(gotf, step, 1e-6), 1e-4) << "float, token " << i;
  }
}

// energy_trace() of every token falls at each of the layer's steps: strictly, or (strictly =
// false) without ever rising.
template <class Layer>
void expect_energy_falls_at_every_step(const Layer& layer, const std::vector<float>& h, int n, bool strictly) {
  const int steps = layer.config().steps;
  std::vector<double> trace(n * (steps + 1));
  ASSERT_OK(layer.energy_trace(h.data(), n, trace.data()));
  for (int i = 0; i < n; ++i) {
    for (int t = 0; t < steps; ++t) {
      const double before = trace[i * (steps + 1) + t], after = trace[i * (steps + 1) + t + 1];
      if (strictly) {
        EXPECT_LT(after, before) << "token " << i << " step " << t;
      } else {
        EXPECT_LE(after, before) << "token " << i << " step " << t;
      }
    }
  }
}

// layer.backward(h, weights) against central differences (step eps) of the loss
// Σ weights ⊙ forward(h): every parameter tensor and dL/dh, all to relative error tol.
// Writes the analytic dL/dh to grad_h.
template <class Layer64>
void expect_backward_matches_finite_differences(Layer64& layer, std::vector<double>& h, int n,
                                                const std::vector<double>& weights, double eps, double tol,
                                                std::vector<double>& grad_h) {
  std::vector<double> out(weights.size());
  grad_h.assign(h.size(), 0.0);
  auto loss = [&]() {
    EXPECT_OK(layer.forward(h.data(), n, out.data()));
    return weighted_sum(out, weights);
  };
  ASSERT_OK(layer.backward(h.data(), n, weights.data(), grad_h.data()));
  expect_param_grads_match(layer.parameters(), loss, eps, tol);
  EXPECT_LE(rel_error(grad_h, numeric_gradient(h, loss, eps)), tol) << "grad_h";
}

// Copies the double layer's parameters into the float layer, runs its backward on the same
// h and weights, and compares its dL/dh with the double layer's grad_h (to 1e-4: float
// rounding). The float layer's parameter grads are left for the caller to compare.
template <class Layer32, class Layer64>
void expect_float_backward_agrees(Layer32& single, Layer64& layer, const std::vector<double>& h, int n,
                                  const std::vector<double>& weights, const std::vector<double>& grad_h) {
  ASSERT_OK(gatelab::copy_parameters(single.parameters(), layer.parameters()));
  const std::vector<float> hf(h.begin(), h.end()), wf(weights.begin(), weights.end());
  std::vector<float> grad_hf(h.size());
  ASSERT_OK(single.backward(hf.data(), n, wf.data(), grad_hf.data()));
  EXPECT_LE(rel_error(grad_hf, grad_h), 1e-4);
}

}  // namespace cemtest
