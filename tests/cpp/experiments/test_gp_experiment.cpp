// GpSession and the gp-recursion experiment: a model's prediction at t does not move when
// y_t or anything later changes, training beats the context mean on held-out sequences while
// never beating the GP posterior mean by more than noise (the leak guard), predict_at agrees
// with predict, the schedule, and a (model, seed) job gives the same result twice.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "experiment_gp.hpp"
#include "gatelab/gp/session.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

GpTrainConfig small_train() {
  GpTrainConfig t;
  t.data.dx = 1;
  t.data.length = 12;
  t.data.length_scale = 0.5;
  t.data.noise_std = 0.1;
  t.d = 16;
  t.layers = 2;
  t.heads = 2;
  t.hidden = 32;
  t.eta = 0.25f;
  t.batch = 8;
  t.lr = 3e-3f;
  t.warmup = 10;
  t.seed = 3;
  return t;
}

GpModelSpec cem_spec(int steps) {
  GpModelSpec s;
  s.label = "cem";
  s.steps = steps;
  return s;
}

}  // namespace

TEST(GpSession, PredictionAtTIgnoresYtAndLaterPairs) {
  for (CemFamily family : {CemFamily::cem, CemFamily::standard}) {
    GpModelSpec spec = cem_spec(2);
    spec.family = family;
    GpSession session(small_train(), spec);
    ASSERT_OK(session.error());
    ASSERT_OK(session.train(3));
    const auto seqs = gp_sample_set(session.config().data, 1, 8);
    const int n = session.config().data.length;
    std::vector<double> a(n), b(n);
    ASSERT_OK(session.predict(seqs[0], a.data()));
    for (int t = 0; t < n; ++t) {
      GpSequence changed = seqs[0];
      for (int j = t; j < n; ++j) changed.y[j] += 5.0;
      for (int j = t + 1; j < n; ++j) changed.x[j] = -changed.x[j];
      ASSERT_OK(session.predict(changed, b.data()));
      EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(double) * (t + 1)), 0)
          << cem_family_name(family) << " t = " << t;
    }
  }
}

TEST(GpSession, LearnsInContextAndNeverBeatsThePosteriorByMoreThanNoise) {
  GpTrainConfig t = small_train();
  t.decay_steps = 250;
  for (GpModelSpec spec : {cem_spec(1), GpModelSpec{"standard", CemFamily::standard, 1, CemDiagonal::none}}) {
    GpSession session(t, spec);
    ASSERT_OK(session.train(250));
    EXPECT_FALSE(session.diverged());
    const auto eval = gp_sample_set(t.data, 200, 99);
    const GpBaselines base = gp_baselines(t.data, eval);
    std::vector<std::vector<double>> pred;
    GpErrors errors;
    for (const auto& s : eval) {
      std::vector<double> p(t.data.length);
      ASSERT_OK(session.predict(s, p.data()));
      errors.add(p.data(), s.y);
      pred.push_back(p);
    }
    EXPECT_LT(errors.rmse(), base.context_mean) << spec.label;
    EXPECT_GT(errors.rmse(), base.posterior * 0.98) << spec.label;
    const GpLeakCheck leak = gp_leak_check(pred, base.posterior_means, eval);
    EXPECT_FALSE(leak.suspicious()) << spec.label << ": z = " << leak.z;
  }
}

TEST(GpSession, PredictAtTheObservedInputEqualsPredict) {
  GpSession session(small_train(), cem_spec(2));
  ASSERT_OK(session.train(2));
  const auto seqs = gp_sample_set(session.config().data, 1, 4);
  std::vector<double> all(session.config().data.length), one(2);
  ASSERT_OK(session.predict(seqs[0], all.data()));
  const double xq[2] = {seqs[0].x[5], 0.25};
  ASSERT_OK(session.predict_at(seqs[0], 5, xq, 2, one.data()));
  EXPECT_NEAR(one[0], all[5], 1e-6);
  EXPECT_ERROR(session.predict_at(seqs[0], 12, xq, 1, one.data()), ErrorCode::out_of_range, "context");
}

TEST(GpSession, ScheduleWarmsUpThenDecays) {
  GpTrainConfig t = small_train();
  t.lr = 1e-2f;
  t.warmup = 4;
  t.decay_steps = 100;
  EXPECT_FLOAT_EQ(gp_learning_rate(t, 0), 2.5e-3f);
  EXPECT_FLOAT_EQ(gp_learning_rate(t, 3), 1e-2f * (1.0f - 0.9f * 3 / 100));
  EXPECT_FLOAT_EQ(gp_learning_rate(t, 500), 1e-3f);
  t.decay_steps = 0;
  EXPECT_FLOAT_EQ(gp_learning_rate(t, 500), 1e-2f);
}

TEST(GpSession, ValidatesAndReportsErrors) {
  GpTrainConfig t = small_train();
  t.batch = 0;
  EXPECT_ERROR(GpSession(t, cem_spec(1)).error(), ErrorCode::out_of_range, "batch");
  t = small_train();
  t.heads = 3;
  EXPECT_ERROR(GpSession(t, cem_spec(1)).error(), ErrorCode::invalid_value, "attention.heads");
  EXPECT_ERROR(GpSession(small_train(), cem_spec(99)).error(), ErrorCode::out_of_range, "steps");
  t = small_train();
  t.data.noise_std = -1;
  GpSession bad(t, cem_spec(1));
  EXPECT_EQ(bad.error().message.rfind("data: ", 0), 0u);
  EXPECT_EQ(bad.train(1), bad.error());
}

TEST(GpExperiment, AJobIsDeterministicAndItsJsonHasTheFields) {
  GpExperimentConfig c;
  c.train = small_train();
  c.models = {cem_spec(2)};
  c.train_steps = 6;
  c.seeds = 1;
  c.eval_sequences = 16;
  c.curve_points = 2;
  c.curve_sequences = 8;
  ASSERT_EQ(validate(c), "");
  const auto eval = gp_sample_set(c.train.data, c.eval_sequences, c.eval_seed);
  const GpBaselines base = gp_baselines(c.train.data, eval);
  const GpRunResult a = gp_run(c, 0, 1, eval, base), b = gp_run(c, 0, 1, eval, base);
  EXPECT_EQ(a.error, "");
  EXPECT_EQ(a.rmse, b.rmse);
  EXPECT_EQ(a.rmse_by_position, b.rmse_by_position);
  EXPECT_EQ(a.curve_steps, (std::vector<int>{3, 6}));
  EXPECT_EQ(a.parameters, GpSession(c.train, c.models[0]).parameter_count());
  const std::string json = gp_experiment_json(c, base, {a}, 1.0, 1);
  for (const char* key :
       {"\"settings\"", "\"baselines\"", "\"runs\"", "\"rmseByPosition\"", "\"leak\"", "\"posterior\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.back(), '}');
}

TEST(GpExperiment, DefaultsAreValid) {
  for (bool quick : {false, true}) {
    const GpExperimentConfig c = gp_experiment_defaults(quick);
    EXPECT_EQ(validate(c), "") << quick;
    EXPECT_EQ(c.models.front().family, CemFamily::standard);
  }
  EXPECT_EQ(gp_experiment_defaults(false).models.size(), 9u);
}
