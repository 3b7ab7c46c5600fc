// The trainer's symmetry handles (docs/MATH.md §A14, §A21) and symmetrize in training: the
// full-split gradient norm is the norm a full-batch step records; teleporting keeps the loss
// and moves the gradient norm; the balance is conserved under small-step gradient descent for
// ReGLU and the bilinear layer (the drift shrinks with the step, as the O(η²) law says) but
// not for SwiGLU (first order; and teleport is refused there); a symmetrised model trains and
// races, and symmetrize on another kind is refused naming it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gatelab/train/race.hpp"
#include "gatelab/train/trainer.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

TrainerOptions sgd_options(Activation act, float lr, float lambda = 0.0f) {
  TrainerOptions t;
  t.layer.kind = LayerKind::gated;
  t.layer.activation = {act, 1.0f};
  t.layer.hidden = 6;
  t.layer.seed = 5;
  t.layer.symmetrize = lambda;
  t.optimizer = {OptimizerKind::sgd, lr};
  t.batch_size = 0;  // full batch: the gradient of the training loss itself
  return t;
}

Dataset circle() {
  DatasetOptions o;
  o.task = Task::circle;
  o.count = 120;
  o.seed = 2;
  return make_dataset(o);
}

// RMS over units of balance(end) − balance(start) after `steps` steps.
double balance_drift(const TrainerOptions& options, int steps) {
  Trainer trainer(options, circle());
  const std::vector<double> start = trainer.balance();
  EXPECT_EQ(trainer.step(steps), steps);
  const std::vector<double> end = trainer.balance();
  double sum = 0;
  for (std::size_t j = 0; j < start.size(); ++j) sum += (end[j] - start[j]) * (end[j] - start[j]);
  return std::sqrt(sum / start.size());
}

}  // namespace

TEST(TrainerOrbit, GradientNormIsWhatTheNextFullBatchStepRecords) {
  Trainer trainer(sgd_options(Activation::silu, 0.1f), circle());
  for (int i = 0; i < 3; ++i) {
    const double norm = trainer.gradient_norm();
    ASSERT_EQ(trainer.step(1), 1);
    EXPECT_EQ(trainer.history().back().grad_norm, static_cast<float>(norm));
  }
}

TEST(TrainerOrbit, TeleportKeepsTheLossAndMovesTheGradientNorm) {
  for (float lambda : {0.0f, 1.0f}) {
    Trainer trainer(sgd_options(Activation::relu, 0.1f, lambda), circle());
    trainer.step(20);
    const double norm = trainer.gradient_norm();
    const float loss = trainer.evaluate().train_loss;
    const std::vector<float> factors = {0.25f, 4.0f, 1.0f, 2.0f, 0.5f, 3.0f};
    TeleportResult r;
    ASSERT_OK(trainer.teleport(factors.data(), r));
    EXPECT_EQ(r.grad_norm_before, norm);
    EXPECT_EQ(static_cast<float>(r.loss_before), loss);
    EXPECT_NEAR(r.loss_after, r.loss_before, 1e-5 * r.loss_before) << lambda;
    EXPECT_GT(std::fabs(r.grad_norm_after - r.grad_norm_before), 1e-2 * r.grad_norm_before) << lambda;
    EXPECT_EQ(r.grad_norm_after, trainer.gradient_norm());
    EXPECT_EQ(trainer.step(5), 5);  // training goes on from the teleported weights
  }
}

TEST(TrainerOrbit, BalanceIsConservedToSecondOrderForReGluAndBilinearButNotForSwiGlu) {
  // The same time η·T = 2 at η and at η/4: an O(η²) drift per step sums to O(η), which falls
  // about fourfold; a first-order drift does not fall.
  for (Activation act : {Activation::relu, Activation::identity}) {
    const double coarse = balance_drift(sgd_options(act, 0.05f), 40);
    const double fine = balance_drift(sgd_options(act, 0.0125f), 160);
    EXPECT_GT(coarse, 0.0) << activation_name(act);
    EXPECT_LT(fine, 0.4 * coarse) << activation_name(act);
  }
  const double coarse = balance_drift(sgd_options(Activation::silu, 0.05f), 40);
  const double fine = balance_drift(sgd_options(Activation::silu, 0.0125f), 160);
  EXPECT_GT(fine, 0.7 * coarse);
  EXPECT_GT(fine, 100 * balance_drift(sgd_options(Activation::relu, 0.0125f), 160));

  Trainer swiglu(sgd_options(Activation::silu, 0.05f), circle());
  const LayerParams start = swiglu.layer().params();
  const std::vector<float> ones(6, 1.0f);
  TeleportResult r;
  EXPECT_EQ(swiglu.teleport(ones.data(), r).code, ErrorCode::unsupported);
  EXPECT_TRUE(swiglu.layer().params().q == start.q && swiglu.layer().params().k == start.k);
}

TEST(TrainerOrbit, SymmetrizeTrainsRacesAndIsRefusedOnOtherKinds) {
  TrainerOptions t = sgd_options(Activation::silu, 0.1f, 1.0f);
  ASSERT_OK(validate(t));
  Trainer symgated(t, circle());
  EXPECT_EQ(symgated.layer().config().symmetrize, 1.0f);
  symgated.step(50);
  EXPECT_LT(symgated.history().back().train_loss, symgated.history().front().train_loss);
  t.layer.kind = LayerKind::mlp;
  const Status e = validate(t);
  EXPECT_EQ(e.code, ErrorCode::unsupported);
  EXPECT_EQ(e.field, "symmetrize");
  t.layer.kind = LayerKind::gated;
  t.layer.symmetrize = 1.5f;
  EXPECT_EQ(validate(t).code, ErrorCode::out_of_range);
  EXPECT_EQ(validate(t).field, "symmetrize");

  RaceOptions race;
  race.data.task = Task::xor_task;
  race.data.count = 80;
  race.trainer.eval_every = 10;
  race.steps = 40;
  race.seeds = 2;
  ASSERT_OK(parse_race_models("gated:silu,gated:silu:1,gated:relu:0.25", 1.0f, race.models));
  EXPECT_EQ(race.models[1].symmetrize, 1.0f);
  EXPECT_EQ(race.models[2].symmetrize, 0.25f);
  ASSERT_OK(validate(race));
  const std::vector<RaceResult> results = run_race(race);
  EXPECT_EQ(results[0].label, "SwiGLU");
  EXPECT_EQ(results[1].label, "symgated (SiLU)");
  EXPECT_EQ(results[2].label, "ReGLU, λ = 0.25");
  EXPECT_EQ(results[1].model.symmetrize, 1.0f);
  EXPECT_NE(results[0].curves.mean[0].back(), results[1].curves.mean[0].back());
  race.models.clear();
  ASSERT_OK(parse_race_models("mlp:relu:0.5", 1.0f, race.models));
  const Status refused = validate(race);
  EXPECT_EQ(refused.code, ErrorCode::unsupported);
  EXPECT_EQ(refused.field, "models");  // λ lives in the models list
}
