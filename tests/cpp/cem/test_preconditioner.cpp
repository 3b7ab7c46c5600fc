// The CEM preconditioner (MATH.md B5): applying it equals multiplying by the dense P; the
// Jacobi smallest eigenvalue matches closed forms; the paper's form is indefinite for some
// U, V while psd is not; the backward matches finite differences.
#include <gtest/gtest.h>

#include "gatelab/cem/preconditioner.hpp"
#include "gatelab/base/eigen.hpp"
#include "support/cem_support.hpp"

using namespace gatelab;

namespace {

CemPrecondParamsT<double> random_params(CemPrecond kind, int d, int r, std::uint64_t seed) {
  CemPrecondParamsT<double> p = cem_precond_zeros<double>(kind, d, r);
  CemPrecondParamsT<double> g = cem_precond_zeros<double>(kind, d, r);
  std::vector<ParamView<double>> views;
  cem_precond_views(kind, p, g, "", views);
  cemtest::randomize(views, seed, 0.5);
  return p;
}

}  // namespace

TEST(CemPreconditioner, ApplyEqualsDenseProduct) {
  const int d = 5, n = 3, r = 2;
  for (CemPrecond kind : {CemPrecond::none, CemPrecond::paper, CemPrecond::psd}) {
    const auto params = random_params(kind, d, r, 3);
    const auto g = cemtest::randn<double>(n * d, 1);
    std::vector<double> out(n * d), dense(d * d), expected(n * d, 0.0);
    cem_precond_apply(kind, params, g.data(), n, d, out.data());
    cem_precond_dense(kind, params, d, dense.data());
    for (int i = 0; i < n; ++i) {
      for (int a = 0; a < d; ++a) {
        for (int b = 0; b < d; ++b) {
          expected[i * d + a] += dense[a * d + b] * g[i * d + b];
          EXPECT_DOUBLE_EQ(dense[a * d + b], dense[b * d + a]) << "P is symmetric";
        }
      }
    }
    EXPECT_LE(cemtest::rel_error(out, expected), 1e-14) << cem_precond_name(kind);
  }
}

TEST(CemPreconditioner, SmallestEigenvalueMatchesClosedForms) {
  // Rank one, p = log(e − 1): P = I + u vᵀ + v uᵀ has eigenvalues 1 + u·v ± ‖u‖‖v‖ and 1.
  const int d = 6;
  auto params = cem_precond_zeros<double>(CemPrecond::paper, d, 1);
  params.p.fill(0.541324854612918);
  const auto u = cemtest::randn<double>(d, 4), v = cemtest::randn<double>(d, 5);
  double uv = 0, uu = 0, vv = 0;
  for (int c = 0; c < d; ++c) {
    params.u(c, 0) = u[c];
    params.v(c, 0) = v[c];
    uv += u[c] * v[c];
    uu += u[c] * u[c];
    vv += v[c] * v[c];
  }
  const double expected = std::min(1.0, 1.0 + uv - std::sqrt(uu * vv));
  EXPECT_NEAR(cem_precond_min_eigenvalue(CemPrecond::paper, params, d), expected, 1e-10);
  EXPECT_LT(expected, 0.0) << "random u, v of norm ~√6 make the paper's P indefinite";

  // psd with the same U is never below the diagonal's smallest entry.
  auto psd = cem_precond_zeros<double>(CemPrecond::psd, d, 1);
  psd.p = params.p;
  psd.u = params.u;
  EXPECT_NEAR(cem_precond_min_eigenvalue(CemPrecond::psd, psd, d), 1.0, 1e-10);

  // A general symmetric matrix: A = H diag(λ) H with the reflection H = I − 2wwᵀ/‖w‖².
  const int m = 7;
  const double lambdas[m] = {3.0, -0.25, 1.5, 0.1, -2.5, 4.0, 0.0};
  const auto w = cemtest::randn<double>(m, 6);
  const double ww = cemtest::norm(w) * cemtest::norm(w);
  std::vector<double> H(m * m), A(m * m, 0.0);
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) H[a * m + b] = (a == b ? 1.0 : 0.0) - 2 * w[a] * w[b] / ww;
  }
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) {
      for (int k = 0; k < m; ++k) A[a * m + b] += H[a * m + k] * lambdas[k] * H[k * m + b];
    }
  }
  EXPECT_NEAR(symmetric_eigenvalues(A.data(), m).back(), -2.5, 1e-12);  // descending: last is smallest
}

TEST(CemPreconditioner, BackwardMatchesFiniteDifferences) {
  const int d = 4, n = 3, r = 2;
  for (CemPrecond kind : {CemPrecond::paper, CemPrecond::psd}) {
    auto params = random_params(kind, d, r, 8);
    auto grads = cem_precond_zeros<double>(kind, d, r);
    auto g = cemtest::randn<double>(n * d, 2);
    const auto weights = cemtest::randn<double>(n * d, 3);
    std::vector<double> out(n * d), dg(n * d);
    auto loss = [&]() {
      cem_precond_apply(kind, params, g.data(), n, d, out.data());
      return cemtest::weighted_sum(out, weights);
    };
    cem_precond_backward(kind, params, g.data(), weights.data(), n, d, dg.data(), grads);
    std::vector<ParamView<double>> views;
    cem_precond_views(kind, params, grads, "", views);
    cemtest::expect_param_grads_match(views, loss, 1e-6, 1e-7);
    EXPECT_LE(cemtest::rel_error(dg, cemtest::numeric_gradient(g, loss, 1e-6)), 1e-7);
  }
}

TEST(CemPreconditioner, InitialisationIsIdentityForPaperAndLearnable) {
  const int d = 6, r = 2;
  Pcg32 rng(1);
  const auto params = cem_precond_init<double>(CemPrecond::paper, d, r, rng);
  std::vector<double> dense(d * d);
  cem_precond_dense(CemPrecond::paper, params, d, dense.data());
  for (int a = 0; a < d; ++a) {
    for (int b = 0; b < d; ++b) EXPECT_NEAR(dense[a * d + b], a == b ? 1.0 : 0.0, 1e-15);
  }
  // U ≠ 0 with V = 0 keeps P = I yet gives V a gradient (U = V = 0 would be a saddle).
  auto grads = cem_precond_zeros<double>(CemPrecond::paper, d, r);
  const auto g = cemtest::randn<double>(2 * d, 1), w = cemtest::randn<double>(2 * d, 2);
  cem_precond_backward(CemPrecond::paper, params, g.data(), w.data(), 2, d, static_cast<double*>(nullptr), grads);
  double vnorm = 0;
  for (double x : grads.v) vnorm += x * x;
  EXPECT_GT(vnorm, 1e-6);
  EXPECT_TRUE(parse_cem_precond("psd") == CemPrecond::psd);
}
