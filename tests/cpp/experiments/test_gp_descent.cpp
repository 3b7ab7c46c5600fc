// The gp-descent experiment and the session controls it needs: a model spec's own η, learned η
// and MLP depth reach the transformer; evaluating at another T (test-time recursion) gives the
// bits of the model set to that T and leaves the trained T in place; a job is deterministic,
// carries its probes, and the suites list the grid the issue asks for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <regex>

#include "experiment_gp_descent.hpp"
#include "gatelab/gp/session.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

GpTrainConfig small_train() {
  GpTrainConfig t = gp_experiment_defaults(true).train;
  t.data.length = 8;
  t.d = 8;
  t.hidden = 8;
  t.batch = 2;
  t.seed = 5;
  return t;
}

std::string without_seconds(const std::string& json) {
  return std::regex_replace(json, std::regex("\"seconds\":[^,}]*"), "");
}

}  // namespace

TEST(GpDescent, SpecEtaLearnedEtaAndMlpDepthReachTheModel) {
  GpModelSpec spec;
  spec.steps = 2;
  spec.mlp_steps = 3;
  spec.eta = 0.125f;
  spec.learn_eta = true;
  const CemTransformerConfig m = gp_model_config(small_train(), spec);
  EXPECT_EQ(m.attention.steps, 2);
  EXPECT_EQ(m.mlp.steps, 3);
  EXPECT_EQ(m.attention.eta, 0.125f);
  EXPECT_EQ(m.mlp.eta, 0.125f);
  EXPECT_TRUE(m.attention.learn_eta);
  spec.eta = 0;
  EXPECT_EQ(gp_model_config(small_train(), spec).attention.eta, small_train().eta);
  spec.mlp_steps = cem_max_steps + 1;
  EXPECT_ERROR(validate(small_train(), spec), ErrorCode::out_of_range, "mlp_steps");
  spec.mlp_steps = 0;
  spec.eta = -1;
  EXPECT_ERROR(validate(small_train(), spec), ErrorCode::out_of_range, "eta");
}

TEST(GpDescent, StepSizesAreEachLayersEta) {
  GpModelSpec spec;
  spec.steps = 2;
  spec.eta = 0.125f;
  spec.learn_eta = true;
  GpSession session(small_train(), spec);
  const int layers = session.config().layers;
  std::vector<float> eta(2 * layers, -1.0f);
  ASSERT_OK(session.step_sizes(eta.data()));
  for (float v : eta) EXPECT_NEAR(v, 0.125f, 1e-6f);  // learned η starts at the spec's
  ASSERT_OK(session.train(20));
  ASSERT_OK(session.step_sizes(eta.data()));
  for (int l = 0; l < layers; ++l) {
    EXPECT_EQ(eta[2 * l], session.model().cem_attention(l)->step_size());
    EXPECT_EQ(eta[2 * l + 1], session.model().cem_mlp(l)->step_size());
  }
  EXPECT_NE(eta[0], 0.125f);  // and moves with training
  spec.family = CemFamily::standard;
  spec.diagonal = CemDiagonal::none;
  GpSession standard(small_train(), spec);
  EXPECT_ERROR(standard.step_sizes(eta.data()), ErrorCode::unsupported, "");
}

TEST(GpDescent, EvaluatingAtAnotherDepthIsTheModelAtThatDepth) {
  GpModelSpec spec;
  spec.steps = 1;
  GpSession session(small_train(), spec);
  ASSERT_OK(session.train(3));
  const auto seqs = gp_sample_set(session.config().data, 1, 9);
  const int n = session.config().data.length;
  std::vector<double> trained(n), at3(n), direct(n), again(n);
  ASSERT_OK(session.predict(seqs[0], trained.data()));
  ASSERT_OK(session.set_eval_steps(3));
  ASSERT_OK(session.predict(seqs[0], at3.data()));
  EXPECT_EQ(session.model().config().attention.steps, 1);  // restored after the call
  ASSERT_OK(session.set_eval_steps(0));
  ASSERT_OK(session.model().set_steps(3, 3));
  ASSERT_OK(session.predict(seqs[0], direct.data()));
  EXPECT_EQ(std::memcmp(at3.data(), direct.data(), sizeof(double) * n), 0);
  EXPECT_NE(std::memcmp(at3.data(), trained.data(), sizeof(double) * n), 0);
  ASSERT_OK(session.model().set_steps(1, 1));
  ASSERT_OK(session.predict(seqs[0], again.data()));
  EXPECT_EQ(std::memcmp(again.data(), trained.data(), sizeof(double) * n), 0);

  EXPECT_ERROR(session.set_eval_steps(-1), ErrorCode::out_of_range, "eval_steps");
  EXPECT_ERROR(session.set_eval_steps(cem_max_steps + 1), ErrorCode::out_of_range, "eval_steps");
  spec.family = CemFamily::standard;
  spec.diagonal = CemDiagonal::none;
  GpSession standard(small_train(), spec);
  EXPECT_ERROR(standard.set_eval_steps(2), ErrorCode::unsupported, "");
  EXPECT_OK(standard.set_eval_steps(0));
}

TEST(GpDescent, SuitesListTheGridAndTheDiagonals) {
  std::string error;
  const auto grid = gp_descent_jobs("grid", false, 4, &error);
  ASSERT_EQ(error, "");
  // standard + 4 η × 4 T + learned η at 4 T + 2 split depths + 2 preconditioners, × 4 seeds.
  EXPECT_EQ(grid.size(), (1u + 16 + 4 + 2 + 2) * 4);
  int learned = 0;
  for (const auto& j : grid) learned += j.spec.learn_eta ? 1 : 0;
  EXPECT_EQ(learned, 16);
  const auto diagonal = gp_descent_jobs("diagonal", false, 4, &error);
  EXPECT_EQ(diagonal.size(), 3u * 3 * 4);
  // Heads of width 8 at every input width, and the kernel's length scale 0.5·√dx.
  const GpDescentSettings full = gp_descent_settings(false);
  EXPECT_EQ(full.base.train.d / full.base.train.heads, 8);
  for (const auto& j : diagonal) {
    EXPECT_TRUE(j.dx == 1 || j.dx == 8 || j.dx == 16) << j.name;
    EXPECT_DOUBLE_EQ(gp_descent_data(full, j.dx).length_scale, 0.5 * std::sqrt(double(j.dx))) << j.name;
  }
  // The exploratory small-eta suite: T = 1 at 1/8, then 1/16 and 1/32 at T = 2, 4, 8, named as
  // the grid names them so a shared jobs folder reuses the grid's references.
  const auto small = gp_descent_jobs("small-eta", false, 4, &error);
  EXPECT_EQ(small.size(), (1u + 3 * 2) * 4);
  for (const auto& j : small) {
    if (j.spec.steps > 1 && j.spec.eta == 0.0625f) {
      EXPECT_TRUE(std::any_of(grid.begin(), grid.end(), [&](const GpDescentJob& g) { return g.name == j.name; }))
          << j.name;
    }
  }
  gp_descent_jobs("nope", false, 4, &error);
  EXPECT_NE(error.find("unknown suite"), std::string::npos);
}

TEST(GpDescent, AJobIsDeterministicAndCarriesItsProbes) {
  GpDescentSettings settings = gp_descent_settings(true);
  settings.base.train_steps = 20;
  settings.base.eval_sequences = 16;
  settings.dev_sequences = 8;
  settings.test_time_sequences = 8;
  std::string error;
  const auto jobs = gp_descent_jobs("grid", true, 1, &error);
  const GpDescentJob* t2 = nullptr;
  for (const auto& j : jobs) {
    if (j.name == "cem-t2-eta0.25") t2 = &j;
  }
  ASSERT_NE(t2, nullptr);
  const std::string a = gp_descent_run(settings, *t2), b = gp_descent_run(settings, *t2);
  EXPECT_EQ(without_seconds(a), without_seconds(b));
  for (const char* field : {"\"devRmse\"", "\"rmse\"", "\"leakZ\"", "\"learnedEta\"", "\"diagNorms\"", "\"testTime\"",
                            "\"energyByPosition\"", "\"entropyByPosition\"", "\"descended\"", "\"mlpDescended\""}) {
    EXPECT_NE(a.find(field), std::string::npos) << field;
  }
  const std::string header = gp_descent_header_json("grid", settings, {1});
  EXPECT_NE(header.find("\"posterior\""), std::string::npos);
}
