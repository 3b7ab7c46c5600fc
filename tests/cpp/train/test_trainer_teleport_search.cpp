// Probing the orbit and the best factor on a grid (docs/MATH.md §A21): a probe keeps the trainer as
// it was, its loss is the loss, its next loss is what a full-batch sgd step reaches; each goal's best
// factors never make their goal worse and usually improve it; the balance drift is 0 at creation and
// an RMS of the balance change; bad grids and SwiGLU are refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gatelab/train/trainer.hpp"

using namespace gatelab;

namespace {

TrainerOptions gd(Activation act, LayerKind kind = LayerKind::gated) {
  TrainerOptions t;
  t.layer.kind = kind;
  t.layer.activation = {act, 1.0f};
  t.layer.hidden = 6;
  t.layer.seed = 3;
  t.optimizer = {OptimizerKind::sgd, 0.2f};
  t.batch_size = 0;
  return t;
}

Dataset xor_data() {
  DatasetOptions o;
  o.task = Task::xor_task;
  o.count = 100;
  o.seed = 4;
  return make_dataset(o);
}

}  // namespace

TEST(TeleportSearch, ProbeMeasuresWithoutMovingAndPredictsTheNextFullBatchStep) {
  Trainer trainer(gd(Activation::relu), xor_data());
  trainer.step(10);
  const std::vector<double> before = trainer.balance();
  const std::vector<float> ones(6, 1.0f), moved = {0.5f, 2.0f, 1.0f, 3.0f, 0.3f, 1.5f};
  OrbitProbe here, there;
  ASSERT_EQ(trainer.probe_orbit(ones.data(), here), "");
  ASSERT_EQ(trainer.probe_orbit(moved.data(), there), "");
  EXPECT_EQ(trainer.balance(), before);  // nothing moved
  EXPECT_EQ(here.grad_norm, trainer.gradient_norm());
  EXPECT_NEAR(there.loss, here.loss, 1e-5 * here.loss);
  EXPECT_GT(std::fabs(there.grad_norm - here.grad_norm), 1e-3 * here.grad_norm);
  EXPECT_NE(there.next_loss, here.next_loss);
  ASSERT_EQ(trainer.step(1), 1);
  EXPECT_NEAR(here.next_loss, trainer.evaluate().train_loss, 1e-6 * here.next_loss);
}

TEST(TeleportSearch, BestFactorsNeverWorsenTheirGoal) {
  for (LayerKind kind : {LayerKind::gated, LayerKind::symmetric}) {
    for (TeleportGoal goal : {TeleportGoal::gradient, TeleportGoal::step}) {
      Trainer trainer(gd(Activation::relu, kind), xor_data());
      trainer.step(15);
      TeleportSearch search;
      search.goal = goal;
      std::vector<float> best(6, 0.0f);
      ASSERT_EQ(trainer.best_factors(search, best.data()), "");
      const std::vector<float> ones(6, 1.0f);
      OrbitProbe now, then;
      ASSERT_EQ(trainer.probe_orbit(ones.data(), now), "");
      ASSERT_EQ(trainer.probe_orbit(best.data(), then), "");
      for (float c : best) EXPECT_TRUE(c >= 0.25f && c <= 4.0f) << c;
      if (goal == TeleportGoal::gradient) {
        EXPECT_LT(then.grad_norm, now.grad_norm);
      } else {
        EXPECT_LT(then.next_loss, now.next_loss);
      }
      TeleportResult r;
      ASSERT_EQ(trainer.teleport(best.data(), r), "");
      EXPECT_NEAR(r.grad_norm_after, then.grad_norm, 1e-6 * then.grad_norm);
    }
  }
}

TEST(TeleportSearch, DriftStartsAtZeroAndRefusalsNameTheirField) {
  Trainer trainer(gd(Activation::identity), xor_data());
  EXPECT_EQ(trainer.balance_drift(), 0.0);
  const std::vector<double> start = trainer.balance();
  trainer.step(30);
  const std::vector<double> end = trainer.balance();
  double sum = 0;
  for (std::size_t j = 0; j < end.size(); ++j) sum += (end[j] - start[j]) * (end[j] - start[j]);
  EXPECT_DOUBLE_EQ(trainer.balance_drift(), std::sqrt(sum / end.size()));

  std::vector<float> out(6, 7.0f);
  TeleportSearch bad;
  bad.points = 4;
  EXPECT_EQ(trainer.best_factors(bad, out.data()).field, "points");
  bad.points = 5;
  bad.reach = 1.0f;
  EXPECT_EQ(trainer.best_factors(bad, out.data()).field, "reach");
  EXPECT_EQ(out[0], 7.0f);
  TeleportGoal goal;
  EXPECT_EQ(parse_teleport_goal("up", goal).field, "goal");

  Trainer swiglu(gd(Activation::silu), xor_data());
  EXPECT_EQ(swiglu.best_factors({}, out.data()).code, ErrorCode::unsupported);
  OrbitProbe p;
  EXPECT_EQ(swiglu.probe_orbit(out.data(), p).code, ErrorCode::unsupported);
}
