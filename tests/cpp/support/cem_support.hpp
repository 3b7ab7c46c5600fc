// Helpers shared by the CEM tests (test_cem_*.cpp): seeded random vectors, parameter
// randomisation, norms, and the finite-difference gradient check (central stencil on a
// deterministic sample of each parameter tensor, compared norm-wise per tensor).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gatelab/cem/common.hpp"
#include "gatelab/base/rng.hpp"

namespace cemtest {

template <class S>
std::vector<S> randn(std::size_t count, std::uint64_t seed, double scale = 1.0, double mean = 0.0) {
  gatelab::Pcg32 rng(seed, 99u);
  std::vector<S> out(count);
  for (auto& x : out) x = static_cast<S>(mean + scale * rng.normal_double());
  return out;
}

// Every parameter to N(0, scale²), except preconditioner "p" entries to N(0.5, 0.3²).
template <class S>
void randomize(const std::vector<gatelab::ParamView<S>>& views, std::uint64_t seed, double scale) {
  gatelab::Pcg32 rng(seed, 7u);
  for (const auto& v : views) {
    const bool is_p =
        v.name.size() >= 1 && v.name.back() == 'p' && (v.name.size() == 1 || v.name[v.name.size() - 2] == '.');
    for (std::size_t j = 0; j < v.size; ++j) {
      v.value[j] = static_cast<S>(is_p ? 0.5 + 0.3 * rng.normal_double() : scale * rng.normal_double());
    }
  }
}

inline double norm(const std::vector<double>& a) {
  double s = 0;
  for (double x : a) s += x * x;
  return std::sqrt(s);
}

// ‖a − b‖ / max(‖b‖, floor).
template <class A, class B>
double rel_error(const std::vector<A>& a, const std::vector<B>& b, double floor = 1e-12) {
  double diff = 0, ref = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (double(a[i]) - double(b[i])) * (double(a[i]) - double(b[i]));
    ref += double(b[i]) * double(b[i]);
  }
  return std::sqrt(diff) / std::max(std::sqrt(ref), floor);
}

template <class S>
double weighted_sum(const std::vector<S>& out, const std::vector<S>& weights) {
  double s = 0;
  for (std::size_t i = 0; i < out.size(); ++i) s += double(out[i]) * double(weights[i]);
  return s;
}

// Compares each view's grad (filled before the call) with central differences of loss() on
// up to per_tensor entries; loss() must not touch the grads.
template <class S>
void expect_param_grads_match(const std::vector<gatelab::ParamView<S>>& views, const std::function<double()>& loss,
                              double eps, double tol, int per_tensor = 10) {
  for (const auto& v : views) {
    std::vector<double> analytic, numeric;
    const std::size_t stride = v.size <= std::size_t(per_tensor) ? 1 : v.size / per_tensor;
    for (std::size_t j = (stride > 1 ? stride / 2 : 0); j < v.size; j += stride) {
      analytic.push_back(double(v.grad[j]));
      const S saved = v.value[j];
      v.value[j] = saved + S(eps);
      const double plus = loss();
      v.value[j] = saved - S(eps);
      const double minus = loss();
      v.value[j] = saved;
      numeric.push_back((plus - minus) / (2 * eps));
    }
    const double err = rel_error(analytic, numeric, 1e-8);
    EXPECT_LE(err, tol) << "parameter " << v.name << ": analytic[0] = " << analytic[0]
                        << ", numeric[0] = " << numeric[0];
  }
}

// Central differences of loss() with respect to every entry of x.
template <class S>
std::vector<double> numeric_gradient(std::vector<S>& x, const std::function<double()>& loss, double eps) {
  std::vector<double> out(x.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    const S saved = x[j];
    x[j] = saved + S(eps);
    const double plus = loss();
    x[j] = saved - S(eps);
    const double minus = loss();
    x[j] = saved;
    out[j] = (plus - minus) / (2 * eps);
  }
  return out;
}

using EnergyFunction = std::function<double(const std::vector<double>&)>;

// ∇ε(y) by central differences of energy().
inline std::vector<double> numeric_energy_gradient(const std::vector<double>& y, const EnergyFunction& energy,
                                                   double eps) {
  std::vector<double> g(y.size());
  for (std::size_t c = 0; c < y.size(); ++c) {
    std::vector<double> yp = y, ym = y;
    yp[c] += eps;
    ym[c] -= eps;
    g[c] = (energy(yp) - energy(ym)) / (2 * eps);
  }
  return g;
}

// y after `steps` iterations of y ← y − η P ∇ε(y), with ∇ε by central differences of
// energy(y) and P a dense d×d row-major matrix.
inline std::vector<double> fd_descent(std::vector<double> y, const EnergyFunction& energy, const std::vector<double>& P,
                                      double eta, int steps, double eps = 1e-5) {
  const std::size_t d = y.size();
  for (int t = 0; t < steps; ++t) {
    const std::vector<double> g = numeric_energy_gradient(y, energy, eps);
    for (std::size_t a = 0; a < d; ++a) {
      double pg = 0;
      for (std::size_t b = 0; b < d; ++b) pg += P[a * d + b] * g[b];
      y[a] -= eta * pg;
    }
  }
  return y;
}

}  // namespace cemtest
