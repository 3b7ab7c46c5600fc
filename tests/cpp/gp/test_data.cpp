// GP in-context regression data (gp_data.hpp): the posterior against closed forms, the
// sampler's covariance, the context-mean baseline, the tokens never showing y_t at or before
// position t, the leak guard's power, and the same bits natively and in wasm.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "gatelab/gp/data.hpp"
#include "gatelab/gp/session.hpp"
#include "support/golden_hash.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

GpDataConfig config_1d() {
  GpDataConfig c;
  c.dx = 1;
  c.length = 8;
  c.length_scale = 0.5;
  c.signal_var = 1.3;
  c.noise_std = 0.2;
  return c;
}

GpSequence fixed_sequence(const std::vector<double>& x, const std::vector<double>& y) { return {x, y}; }

}  // namespace

TEST(GpPosterior, OneObservationMatchesTheClosedForm) {
  const GpDataConfig c = config_1d();
  const double x0 = 0.3, y0 = 0.8, x1 = -0.1;
  const GpSequence seq = fixed_sequence({x0, x1}, {y0, 0.0});
  const GpPosterior p = gp_posterior(c, seq);
  const double s2 = c.signal_var, n2 = c.noise_std * c.noise_std;
  const double k = s2 * std::exp(-(x0 - x1) * (x0 - x1) / (2 * c.length_scale * c.length_scale));
  // Position 0: the prior. Position 1: mean k/(s² + σ²)·y0, variance s² − k²/(s² + σ²) + σ².
  EXPECT_DOUBLE_EQ(p.mean[0], 0.0);
  EXPECT_NEAR(p.var[0], s2 + n2, 1e-15);
  EXPECT_NEAR(p.mean[1], k / (s2 + n2) * y0, 1e-14);
  EXPECT_NEAR(p.var[1], s2 - k * k / (s2 + n2) + n2, 1e-14);
  // The same through the query interface.
  const double xq[2] = {x1, x0};
  const GpPosterior q = gp_posterior_at(c, seq, 1, xq, 2);
  EXPECT_NEAR(q.mean[0], p.mean[1], 1e-15);
  EXPECT_NEAR(q.var[0], p.var[1], 1e-15);
  EXPECT_NEAR(q.mean[1], s2 / (s2 + n2) * y0, 1e-14);  // at the observed input itself
}

TEST(GpPosterior, TwoObservationsMatchTheExplicitInverse) {
  GpDataConfig c = config_1d();
  c.dx = 2;
  const std::vector<double> x = {0.1, -0.4, 0.5, 0.2, -0.3, 0.0};
  const GpSequence seq = fixed_sequence(x, {0.7, -0.2, 0.0});
  const GpPosterior p = gp_posterior(c, seq);
  const double n2 = c.noise_std * c.noise_std;
  const double a = gp_kernel(c, &x[0], &x[0]) + n2, b = gp_kernel(c, &x[0], &x[2]), d = gp_kernel(c, &x[2], &x[2]) + n2;
  const double det = a * d - b * b;
  const double k0 = gp_kernel(c, &x[0], &x[4]), k1 = gp_kernel(c, &x[2], &x[4]);
  // [k0 k1] K⁻¹ [y0 y1]ᵀ and [k0 k1] K⁻¹ [k0 k1]ᵀ with K⁻¹ = [d −b; −b a]/det.
  const double w0 = (d * k0 - b * k1) / det, w1 = (a * k1 - b * k0) / det;
  EXPECT_NEAR(p.mean[2], w0 * 0.7 + w1 * -0.2, 1e-13);
  EXPECT_NEAR(p.var[2], c.signal_var - (w0 * k0 + w1 * k1) + n2, 1e-13);
}

TEST(GpSample, HasTheKernelsCovariance) {
  GpDataConfig c = config_1d();
  c.length = 2;
  const int count = 4000;
  const auto seqs = gp_sample_set(c, count, 5);
  // E[y0²] = s² + σ²; E[y0 y1 − k(x0, x1)] = 0 for the inputs each sequence drew.
  double sq = 0, cross = 0, cross_sq = 0;
  for (const auto& s : seqs) {
    sq += s.y[0] * s.y[0] / count;
    const double e = s.y[0] * s.y[1] - gp_kernel(c, &s.x[0], &s.x[1]);
    cross += e / count;
    cross_sq += e * e / count;
  }
  const double var = c.signal_var + c.noise_std * c.noise_std;
  EXPECT_NEAR(sq, var, 4 * var * std::sqrt(2.0 / count));
  EXPECT_NEAR(cross, 0.0, 4 * std::sqrt(cross_sq / count));
  for (const auto& s : seqs) {
    for (double v : s.x) ASSERT_TRUE(v >= -1.0 && v < 1.0);
  }
}

TEST(GpSample, PosteriorMeanBeatsTheContextMeanAndIsCalibrated) {
  const GpDataConfig c = config_1d();
  const auto seqs = gp_sample_set(c, 400, 9);
  GpErrors posterior, context;
  double z2 = 0;
  for (const auto& s : seqs) {
    const GpPosterior p = gp_posterior(c, s);
    posterior.add(p.mean.data(), s.y);
    context.add(gp_context_mean(s).data(), s.y);
    for (int t = 0; t < c.length; ++t) z2 += (s.y[t] - p.mean[t]) * (s.y[t] - p.mean[t]) / p.var[t];
  }
  EXPECT_LT(posterior.rmse(), context.rmse());
  // Standardised errors have unit variance when the posterior is right.
  EXPECT_NEAR(z2 / (400.0 * c.length), 1.0, 0.08);
  // Later positions have more context: the posterior error shrinks.
  const auto by = posterior.rmse_by_position();
  EXPECT_LT(by.back(), by.front());
}

TEST(GpBaseline, ContextMeanIsTheRunningMeanOfEarlierTargets) {
  const GpSequence s = fixed_sequence({0, 0, 0, 0}, {1.0, 3.0, -1.0, 5.0});
  EXPECT_EQ(gp_context_mean(s), (std::vector<double>{0.0, 1.0, 2.0, 1.0}));
}

TEST(GpTokens, PositionTNeverSeesYt) {
  GpDataConfig c = config_1d();
  c.dx = 2;
  Pcg32 rng(3);
  GpSequence s = gp_sample(c, rng);
  const int w = gp_token_width(c), n = c.length;
  ASSERT_EQ(w, 7);
  std::vector<float> a(n * w), b(n * w);
  gp_tokens(c, s, a.data());
  // Token 3 = [x3, x2, y2, 1, 1]; token 0 = [x0, 0, 0, 0, 1].
  EXPECT_EQ(a[3 * w + 0], float(s.x[6]));
  EXPECT_EQ(a[3 * w + 2], float(s.x[4]));
  EXPECT_EQ(a[3 * w + 4], float(s.y[2]));
  EXPECT_EQ(a[3 * w + 5], 1.0f);
  EXPECT_EQ(a[0 * w + 4], 0.0f);
  EXPECT_EQ(a[0 * w + 5], 0.0f);
  EXPECT_EQ(a[0 * w + 6], 1.0f);
  for (int t = 0; t < n; ++t) {
    GpSequence changed = s;
    changed.y[t] += 10.0;
    gp_tokens(c, changed, b.data());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(float) * (t + 1) * w), 0)
        << "y_" << t << " leaked into tokens ≤ " << t;
    if (t + 1 < n) EXPECT_NE(a[(t + 1) * w + 4], b[(t + 1) * w + 4]);
  }
}

TEST(GpLeakCheck, FlagsAPredictorThatSeesTheTargetAndNotTheOptimalOne) {
  const GpDataConfig c = config_1d();
  const auto seqs = gp_sample_set(c, 300, 11);
  std::vector<std::vector<double>> posterior, cheat, context;
  Pcg32 rng(1);
  for (const auto& s : seqs) {
    posterior.push_back(gp_posterior(c, s).mean);
    context.push_back(gp_context_mean(s));
    // Knows y_t up to a little noise: what a leak of the target into the context gives.
    std::vector<double> leak = s.y;
    for (auto& v : leak) v += 0.05 * rng.normal_double();
    cheat.push_back(leak);
  }
  EXPECT_TRUE(gp_leak_check(cheat, posterior, seqs).suspicious());
  EXPECT_LT(gp_leak_check(cheat, posterior, seqs).z, -10);
  EXPECT_FALSE(gp_leak_check(posterior, posterior, seqs).suspicious());
  EXPECT_FALSE(gp_leak_check(context, posterior, seqs).suspicious());
  EXPECT_GT(gp_leak_check(context, posterior, seqs).z, 3);
}

TEST(GpData, Validates) {
  GpDataConfig c = config_1d();
  EXPECT_OK(validate(c));
  c.dx = 0;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "dx");
  c = config_1d();
  c.noise_std = 0;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "noise_std");
  c = config_1d();
  c.length = 100000;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "length");
  EXPECT_EQ(parse_gp_inputs("normal"), GpInputs::normal);
  EXPECT_FALSE(parse_gp_inputs("cauchy").has_value());
}

TEST(GpData, CallArgumentsAreCheckedWithMessagesNamingThem) {
  const GpDataConfig c = config_1d();
  const double xq[1] = {0.0};
  EXPECT_OK(gp_validate_count(1));
  EXPECT_OK(gp_validate_count(gp_max_sample_count));
  EXPECT_ERROR(gp_validate_count(0), ErrorCode::out_of_range, "count");
  EXPECT_ERROR(gp_validate_count(gp_max_sample_count + 1), ErrorCode::out_of_range, "count");
  EXPECT_OK(gp_validate_queries(xq, 1));
  EXPECT_ERROR(gp_validate_queries(xq, 0), ErrorCode::out_of_range, "xq");
  EXPECT_ERROR(gp_validate_queries(xq, gp_max_queries + 1), ErrorCode::out_of_range, "xq");
  EXPECT_ERROR(gp_validate_queries(nullptr, 1), ErrorCode::out_of_range, "xq");
  EXPECT_OK(gp_validate_context(c, 0));
  EXPECT_OK(gp_validate_context(c, c.length));
  EXPECT_ERROR(gp_validate_context(c, -1), ErrorCode::out_of_range, "context");
  EXPECT_ERROR(gp_validate_context(c, c.length + 1), ErrorCode::out_of_range, "context");
  EXPECT_OK(gp_validate_steps_per_call(gp_max_steps_per_call));
  EXPECT_ERROR(gp_validate_steps_per_call(0), ErrorCode::out_of_range, "n");
}

TEST(GpData, SameBitsNativelyAndInWasm) {
  GpDataConfig c = config_1d();
  c.dx = 2;
  c.inputs = GpInputs::normal;
  const auto seqs = gp_sample_set(c, 20, 42);
  golden::Fnv1a fnv;
  for (const auto& s : seqs) {
    fnv.add(s.x);
    fnv.add(s.y);
    const GpPosterior p = gp_posterior(c, s);
    fnv.add(p.mean);
    fnv.add(p.var);
  }
  std::printf("gp data hash %016llx\n", (unsigned long long)fnv.hash);
  EXPECT_EQ(fnv.hash, 0x04d3273dd43f6c1bULL);
}
