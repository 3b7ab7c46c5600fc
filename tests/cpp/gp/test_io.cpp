// The float32 boundary (gp/io.hpp), what the bindings hand web/lib: each call gives the double
// core's results rounded to float, samples lie sequence after sequence, a refused call names
// the code and field it did in the bindings (web/lib's tests read them) and writes nothing,
// and a session stays usable, unchanged, after refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gatelab/gp/io.hpp"
#include "support/rounded.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;
using gatelab::testing_support::rounded;

namespace {

constexpr float unwritten = -12345.0f;  // what a buffer holds where a call must not write

GpDataConfig config_2d() {
  GpDataConfig c;
  c.dx = 2;
  c.length = 5;
  c.length_scale = 0.6;
  c.signal_var = 1.2;
  c.noise_std = 0.15;
  return c;
}

std::vector<float> buffer(std::size_t n) { return std::vector<float>(n, unwritten); }
std::vector<double> widened(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }
// The first n floats of b, and whether the rest is untouched.
std::vector<float> head(const std::vector<float>& b, std::size_t n) { return {b.begin(), b.begin() + n}; }
bool untouched_from(const std::vector<float>& b, std::size_t from) {
  for (std::size_t i = from; i < b.size(); ++i)
    if (b[i] != unwritten) return false;
  return true;
}

// A sequence as it crosses from JS (float32), and the doubles the core reads from it.
struct FloatSequence {
  std::vector<float> x, y;
  GpSequence doubles() const { return {widened(x), widened(y)}; }
};
FloatSequence float_sequence(const GpDataConfig& c, std::uint64_t seed) {
  const GpSequence s = gp_sample_set(c, 1, seed)[0];
  return {rounded(s.x), rounded(s.y)};
}

GpTrainConfig small_train() {
  GpTrainConfig t;
  t.data = config_2d();
  t.d = 8;
  t.layers = 1;
  t.heads = 2;
  t.hidden = 8;
  t.batch = 2;
  t.warmup = 1;
  t.seed = 5;
  return t;
}

}  // namespace

TEST(GpIo, SampleLaysSequenceIAtOffsetITimesNDx) {
  const GpDataConfig c = config_2d();
  const int count = 3, n = c.length, dx = c.dx;
  std::vector<float> x = buffer(std::size_t(count + 1) * n * dx), y = buffer(std::size_t(count + 1) * n);
  ASSERT_TRUE(gp_sample_into(c, count, 11, x.data(), y.data()).ok());
  const std::vector<GpSequence> seqs = gp_sample_set(c, count, 11);
  for (int i = 0; i < count; ++i) {
    const std::vector<float> xi(x.begin() + i * n * dx, x.begin() + (i + 1) * n * dx);
    const std::vector<float> yi(y.begin() + i * n, y.begin() + (i + 1) * n);
    EXPECT_EQ(xi, rounded(seqs[i].x)) << "sequence " << i;
    EXPECT_EQ(yi, rounded(seqs[i].y)) << "sequence " << i;
  }
  EXPECT_NE(head(y, n), std::vector<float>(y.begin() + n, y.begin() + 2 * n)) << "the sequences differ";
  EXPECT_TRUE(untouched_from(x, std::size_t(count) * n * dx));
  EXPECT_TRUE(untouched_from(y, std::size_t(count) * n));
  // The same seed, the same bits; another seed, another set.
  std::vector<float> x2 = buffer(x.size()), y2 = buffer(y.size());
  ASSERT_TRUE(gp_sample_into(c, count, 11, x2.data(), y2.data()).ok());
  EXPECT_EQ(x2, x);
  ASSERT_TRUE(gp_sample_into(c, count, 12, x2.data(), y2.data()).ok());
  EXPECT_NE(x2, x);
}

TEST(GpIo, SampleRefusesABadCountOrConfigAndWritesNothing) {
  GpDataConfig c = config_2d();
  std::vector<float> x = buffer(64), y = buffer(64);
  for (int count : {0, -1, gp_max_sample_count + 1}) {
    const Status e = gp_sample_into(c, count, 1, x.data(), y.data());
    EXPECT_ERROR(e, ErrorCode::out_of_range, "count");
    EXPECT_EQ(e, gp_validate_count(count));
  }
  c.dx = 0;  // the config before the count
  const Status e = gp_sample_into(c, 0, 1, x.data(), y.data());
  EXPECT_EQ(e, validate(c));
  EXPECT_ERROR(e, ErrorCode::out_of_range, "dx");
  EXPECT_TRUE(untouched_from(x, 0));
  EXPECT_TRUE(untouched_from(y, 0));
}

TEST(GpIo, PosteriorIsTheDoublePosteriorRoundedToFloat) {
  const GpDataConfig c = config_2d();
  const std::size_t n = c.length;
  const FloatSequence s = float_sequence(c, 3);
  std::vector<float> mean = buffer(n + 1), var = buffer(n + 1), context = buffer(n + 1);
  ASSERT_TRUE(gp_posterior_into(c, s.x.data(), s.y.data(), mean.data(), var.data(), context.data()).ok());
  const GpPosterior p = gp_posterior(c, s.doubles());
  EXPECT_EQ(head(mean, n), rounded(p.mean));
  EXPECT_EQ(head(var, n), rounded(p.var));
  EXPECT_EQ(head(context, n), rounded(gp_context_mean(s.doubles())));
  EXPECT_NE(mean[n - 1], 0.0f) << "a posterior mean after 4 pairs";
  EXPECT_TRUE(untouched_from(mean, n) && untouched_from(var, n) && untouched_from(context, n));
}

TEST(GpIo, PosteriorRefusesANullSequenceAfterTheConfig) {
  GpDataConfig c = config_2d();
  const FloatSequence s = float_sequence(c, 3);
  std::vector<float> mean = buffer(8), var = buffer(8), context = buffer(8);
  using Pair = std::pair<const float*, const float*>;
  for (const auto& [x, y] : std::vector<Pair>{{nullptr, s.y.data()}, {s.x.data(), nullptr}}) {
    EXPECT_ERROR(gp_posterior_into(c, x, y, mean.data(), var.data(), context.data()), ErrorCode::invalid_value, "");
  }
  c.noise_std = 0;
  EXPECT_EQ(gp_posterior_into(c, nullptr, nullptr, mean.data(), var.data(), context.data()).field, "noise_std");
  EXPECT_TRUE(untouched_from(mean, 0) && untouched_from(var, 0) && untouched_from(context, 0));
}

TEST(GpIo, PosteriorAtIsTheDoublePosteriorAtRoundedToFloat) {
  const GpDataConfig c = config_2d();
  const FloatSequence s = float_sequence(c, 4);
  const std::vector<float> xq = {0.25f, -0.5f, 0.1f, 0.9f, -1.0f, 0.0f};  // 3 queries of dx = 2
  const int m = 3;
  for (int context : {0, 2, c.length}) {
    std::vector<float> mean = buffer(m + 1), var = buffer(m + 1);
    ASSERT_TRUE(gp_posterior_at_into(c, s.x.data(), s.y.data(), context, xq.data(), m, mean.data(), var.data()).ok());
    const GpPosterior p = gp_posterior_at(c, s.doubles(), context, widened(xq).data(), m);
    EXPECT_EQ(head(mean, m), rounded(p.mean)) << "context " << context;
    EXPECT_EQ(head(var, m), rounded(p.var)) << "context " << context;
    EXPECT_TRUE(untouched_from(mean, m) && untouched_from(var, m));
  }
}

TEST(GpIo, PosteriorAtChecksTheSequenceThenContextThenQueries) {
  const GpDataConfig c = config_2d();
  const FloatSequence s = float_sequence(c, 4);
  const std::vector<float> xq(2 * 2, 0.5f);
  std::vector<float> mean = buffer(8), var = buffer(8);
  auto call = [&](const float* x, int context, const float* q, int m) {
    return gp_posterior_at_into(c, x, s.y.data(), context, q, m, mean.data(), var.data());
  };
  EXPECT_ERROR(call(nullptr, -1, nullptr, 0), ErrorCode::invalid_value, "");
  for (int context : {-1, c.length + 1}) {
    EXPECT_ERROR(call(s.x.data(), context, nullptr, 0), ErrorCode::out_of_range, "context");
  }
  using Queries = std::pair<const float*, int>;
  for (const auto& [q, m] : std::vector<Queries>{{nullptr, 2}, {xq.data(), 0}, {xq.data(), gp_max_queries + 1}}) {
    const Status e = call(s.x.data(), 1, q, m);
    EXPECT_ERROR(e, ErrorCode::out_of_range, "xq");
    EXPECT_EQ(e, gp_validate_queries(q, m));
  }
  EXPECT_TRUE(untouched_from(mean, 0) && untouched_from(var, 0));
}

TEST(GpIo, PredictionsAreTheSessionsRoundedToFloat) {
  GpSession session(small_train(), GpModelSpec{});
  ASSERT_TRUE(session.error().ok()) << session.error();
  ASSERT_TRUE(gp_train_call(session, 3).ok());
  const GpDataConfig& c = session.config().data;
  const std::size_t n = c.length;
  const FloatSequence s = float_sequence(c, 6);
  std::vector<float> out = buffer(n + 1);
  ASSERT_TRUE(gp_predict_into(session, s.x.data(), s.y.data(), out.data()).ok());
  std::vector<double> expected(n);
  ASSERT_TRUE(session.predict(s.doubles(), expected.data()).ok());
  EXPECT_EQ(head(out, n), rounded(expected));
  EXPECT_TRUE(untouched_from(out, n));

  const std::vector<float> xq = {0.3f, -0.2f, -0.7f, 0.6f};  // 2 queries of dx = 2
  const int m = 2, context = 3;
  std::vector<float> at = buffer(m + 1);
  ASSERT_TRUE(gp_predict_at_into(session, s.x.data(), s.y.data(), context, xq.data(), m, at.data()).ok());
  std::vector<double> expected_at(m);
  ASSERT_TRUE(session.predict_at(s.doubles(), context, widened(xq).data(), m, expected_at.data()).ok());
  EXPECT_EQ(head(at, m), rounded(expected_at));
  EXPECT_NE(at[0], at[1]) << "the two queries are answered separately";
  EXPECT_TRUE(untouched_from(at, m));
}

TEST(GpIo, PredictionsRefuseWhatTheBindingsRefused) {
  GpSession session(small_train(), GpModelSpec{});
  const GpDataConfig& c = session.config().data;
  const FloatSequence s = float_sequence(c, 6);
  const std::vector<float> xq(4, 0.1f);
  std::vector<float> out = buffer(8);
  EXPECT_ERROR(gp_predict_into(session, nullptr, s.y.data(), nullptr), ErrorCode::invalid_value, "");
  EXPECT_ERROR(gp_predict_into(session, s.x.data(), s.y.data(), nullptr), ErrorCode::invalid_value, "out");
  auto at = [&](const float* y, int context, const float* q, int m, float* o) {
    return gp_predict_at_into(session, s.x.data(), y, context, q, m, o);
  };
  EXPECT_ERROR(at(nullptr, 9, nullptr, 0, out.data()), ErrorCode::invalid_value, "");
  // The queries before the session's own checks: a null xq is out_of_range "xq", not the
  // session's invalid_value.
  EXPECT_ERROR(at(s.y.data(), 9, nullptr, 2, out.data()), ErrorCode::out_of_range, "xq");
  EXPECT_ERROR(at(s.y.data(), 9, xq.data(), 0, out.data()), ErrorCode::out_of_range, "xq");
  EXPECT_ERROR(at(s.y.data(), c.length, xq.data(), 2, out.data()), ErrorCode::out_of_range, "context");
  EXPECT_ERROR(at(s.y.data(), 1, xq.data(), 2, nullptr), ErrorCode::invalid_value, "");
  EXPECT_TRUE(untouched_from(out, 0));
}

TEST(GpIo, AnInvalidSessionRefusesAfterTheSequenceCheck) {
  GpTrainConfig t = small_train();
  t.heads = 3;  // does not divide d = 8
  GpSession session(t, GpModelSpec{});
  ASSERT_FALSE(session.error().ok());
  const FloatSequence s = float_sequence(t.data, 6);
  std::vector<float> out = buffer(8);
  // The null sequence's (invalid_value, ""), checked before the session's own refusal (a heads field).
  EXPECT_ERROR(gp_predict_into(session, nullptr, s.y.data(), out.data()), ErrorCode::invalid_value, "");
  EXPECT_EQ(gp_predict_into(session, s.x.data(), s.y.data(), out.data()), session.error());
  EXPECT_EQ(gp_predict_at_into(session, s.x.data(), s.y.data(), 1, s.x.data(), 1, out.data()), session.error());
  EXPECT_TRUE(untouched_from(out, 0));
}

TEST(GpIo, LossesAreTheSessionsRoundedToFloat) {
  GpSession session(small_train(), GpModelSpec{});
  ASSERT_TRUE(gp_train_call(session, 4).ok());
  std::vector<float> out = buffer(3);
  ASSERT_TRUE(gp_losses_into(session, 1, 2, out.data()).ok());
  EXPECT_EQ(head(out, 2), rounded({session.losses().begin() + 1, session.losses().begin() + 3}));
  EXPECT_TRUE(untouched_from(out, 2));
  std::vector<float> none = buffer(2);
  EXPECT_TRUE(gp_losses_into(session, 4, 0, none.data()).ok());
  for (const auto& [from, count] : std::vector<std::pair<int, int>>{{-1, 1}, {0, 5}, {3, 2}, {5, 0}, {0, -1}}) {
    const Status e = gp_losses_into(session, from, count, none.data());
    EXPECT_ERROR(e, ErrorCode::out_of_range, "") << from << ", " << count;
  }
  EXPECT_ERROR(gp_losses_into(session, 0, 1, nullptr), ErrorCode::invalid_value, "out");
  EXPECT_TRUE(untouched_from(none, 0));
}

TEST(GpIo, TrainCallChecksTheStepsPerCall) {
  GpSession session(small_train(), GpModelSpec{});
  for (int steps : {0, -1, gp_max_steps_per_call + 1}) {
    EXPECT_ERROR(gp_train_call(session, steps), ErrorCode::out_of_range, "n");
  }
  EXPECT_EQ(session.steps_done(), 0);
  ASSERT_TRUE(gp_train_call(session, 2).ok());
  EXPECT_EQ(session.steps_done(), 2);
}

// Refused calls change nothing: the session predicts the same bits after them, and trains on
// exactly as a session that never saw them.
TEST(GpIo, TheSessionStaysUsableAfterRefusals) {
  GpSession session(small_train(), GpModelSpec{}), control(small_train(), GpModelSpec{});
  ASSERT_TRUE(gp_train_call(session, 2).ok());
  ASSERT_TRUE(gp_train_call(control, 2).ok());
  const GpDataConfig& c = session.config().data;
  const FloatSequence s = float_sequence(c, 8);
  std::vector<float> before = buffer(c.length), after = buffer(c.length), scratch = buffer(8);
  ASSERT_TRUE(gp_predict_into(session, s.x.data(), s.y.data(), before.data()).ok());

  EXPECT_FALSE(gp_train_call(session, 0).ok());
  EXPECT_FALSE(gp_train_call(session, gp_max_steps_per_call + 1).ok());
  EXPECT_FALSE(gp_predict_into(session, nullptr, nullptr, scratch.data()).ok());
  EXPECT_FALSE(gp_predict_at_into(session, s.x.data(), s.y.data(), c.length, s.x.data(), 1, scratch.data()).ok());
  EXPECT_FALSE(gp_predict_at_into(session, s.x.data(), s.y.data(), 0, nullptr, 1, scratch.data()).ok());
  EXPECT_FALSE(gp_losses_into(session, 0, 3, scratch.data()).ok());

  ASSERT_TRUE(gp_predict_into(session, s.x.data(), s.y.data(), after.data()).ok());
  EXPECT_EQ(after, before);
  ASSERT_TRUE(gp_train_call(session, 3).ok());
  ASSERT_TRUE(gp_train_call(control, 3).ok());
  EXPECT_EQ(session.losses(), control.losses());
  ASSERT_TRUE(gp_predict_into(session, s.x.data(), s.y.data(), after.data()).ok());
  ASSERT_TRUE(gp_predict_into(control, s.x.data(), s.y.data(), before.data()).ok());
  EXPECT_EQ(after, before);
}
