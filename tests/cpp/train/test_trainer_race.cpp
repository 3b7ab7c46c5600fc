// The training race: widths match the budget or Shazeer's rule, labels, curves and bands
// are consistent, every model learns, and the race is bit-for-bit reproducible.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gatelab/train/race.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

RaceOptions small_race() {
  RaceOptions o;
  o.data.task = Task::xor_task;
  o.data.count = 160;
  o.data.noise = 0.05f;
  o.trainer.optimizer = {OptimizerKind::adam, 0.03f};
  o.trainer.eval_every = 10;
  o.models = default_race_models();
  o.steps = 200;
  o.seeds = 3;
  o.budget = 112;
  return o;
}

}  // namespace

TEST(Race, WidthsMatchTheParameterBudget) {
  RaceOptions o = small_race();
  ASSERT_OK(validate(o));
  EXPECT_EQ(race_hidden(o, {LayerKind::mlp, {}}), 28);    // 4 parameters per unit on (x, y, 1)
  EXPECT_EQ(race_hidden(o, {LayerKind::gated, {}}), 16);  // 7 per unit
  o.width_rule = WidthRule::shazeer;
  o.mlp_hidden = 30;
  EXPECT_EQ(race_hidden(o, {LayerKind::mlp, {}}), 30);
  EXPECT_EQ(race_hidden(o, {LayerKind::symmetric, {}}), 20);
}

TEST(Race, LabelsNameTheGluFamily) {
  EXPECT_EQ(race_label({LayerKind::gated, {Activation::silu, 1}}), "SwiGLU");
  EXPECT_EQ(race_label({LayerKind::gated, {Activation::identity, 1}}), "Bilinear");
  EXPECT_EQ(race_label({LayerKind::gated, {Activation::sigmoid, 1}}), "GLU");
  EXPECT_EQ(race_label({LayerKind::gated, {Activation::gelu_tanh, 1}}), "GEGLU (tanh)") << "the figures' spelling";
  EXPECT_EQ(race_label({LayerKind::gated, {Activation::tanh, 1}}), "gated (tanh)");
  EXPECT_EQ(race_label({LayerKind::mlp, {Activation::relu, 1}}), "MLP (ReLU)");
}

TEST(Race, EveryModelLearnsAndTheBandsContainTheMean) {
  const RaceOptions o = small_race();
  const std::vector<RaceResult> results = run_race(o);
  ASSERT_EQ(results.size(), o.models.size());
  for (const RaceResult& r : results) {
    EXPECT_EQ(r.parameters, 112u);  // both widths hit the budget exactly
    const RaceCurves& c = r.curves;
    ASSERT_EQ(c.steps.size(), 21u);
    EXPECT_EQ(c.steps.back(), 200);
    EXPECT_LT(c.mean[0].back(), 0.8f * c.mean[0].front()) << r.label;
    for (int k = 0; k < race_metrics; ++k) {
      for (std::size_t i = 0; i < c.steps.size(); ++i) {
        EXPECT_LE(c.min[k][i], c.mean[k][i] + 1e-6f);
        EXPECT_GE(c.max[k][i], c.mean[k][i] - 1e-6f);
        EXPECT_GE(c.std[k][i], 0.0f);
      }
    }
    ASSERT_EQ(r.final_values[1].size(), 3u);
    EXPECT_EQ(r.diverged, 0);
  }
}

TEST(Race, IsReproducibleBitForBitAndIndependentOfTheOtherModels) {
  RaceOptions o = small_race();
  o.steps = 60;
  o.seeds = 2;
  const std::vector<RaceResult> a = run_race(o);
  const std::vector<RaceResult> b = run_race(o);
  RaceOptions only_swiglu = o;
  only_swiglu.models = {{LayerKind::gated, {Activation::silu, 1.0f}}};
  const std::vector<RaceResult> alone = run_race(only_swiglu);
  for (std::size_t k = 0; k < a.size(); ++k) {
    for (int m = 0; m < race_metrics; ++m) EXPECT_EQ(a[k].curves.mean[m], b[k].curves.mean[m]);
  }
  EXPECT_EQ(alone[0].curves.mean[1], a[4].curves.mean[1]);
}

TEST(Race, ADivergedRunIsCountedAndExplained) {
  RaceOptions o = small_race();
  o.models = {{LayerKind::gated, {Activation::relu2, 1.0f}}};
  o.trainer.loss = LossKind::mse;
  o.trainer.optimizer = {OptimizerKind::sgd, 100.0f};
  o.seeds = 2;
  const std::vector<RaceResult> r = run_race(o);
  EXPECT_EQ(r[0].diverged, 2);
  EXPECT_NE(r[0].first_divergence.find("learning rate"), std::string::npos);
  EXPECT_TRUE(std::isfinite(r[0].curves.mean[0].back()));
}

TEST(Race, RefusalsNameTheField) {
  RaceOptions o = small_race();
  o.seeds = 0;
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "seeds");
  o = small_race();
  o.models.clear();
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "models");
  o = small_race();
  o.steps = 100000;
  o.trainer.eval_every = 1;
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "steps");
  o = small_race();
  o.budget = 0;
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "budget");
  o = small_race();
  o.data.count = 2;
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "count");
}

TEST(Race, ModelListsParseAsKindColonActivationAndNameTheirFirstBadEntry) {
  std::vector<RaceModel> models;
  ASSERT_OK(parse_race_models("mlp:relu,,gated:swish", 2.0f, models));
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].kind, LayerKind::mlp);
  EXPECT_EQ(models[0].activation.kind, Activation::relu);
  EXPECT_EQ(models[1].kind, LayerKind::gated);
  EXPECT_EQ(models[1].activation.kind, Activation::swish);
  EXPECT_EQ(models[1].activation.beta, 2.0f);
  models.clear();
  const std::string forms = "' is not 'kind:activation' or 'kind:activation:symmetrize'";
  EXPECT_ERROR(parse_race_models("gated", 1.0f, models), ErrorCode::invalid_value, "models");
  EXPECT_ERROR(parse_race_models("glu:relu", 1.0f, models), ErrorCode::invalid_value, "models");
  EXPECT_ERROR(parse_race_models("gated:relu:", 1.0f, models), ErrorCode::invalid_value, "models");
  EXPECT_ERROR(parse_race_models("gated:relu:half", 1.0f, models), ErrorCode::invalid_value, "models");
  EXPECT_ERROR(parse_race_models("gated:swiglu", 1.0f, models), ErrorCode::invalid_value, "models");
  EXPECT_ERROR(parse_race_models("gated:relu", 101.0f, models), ErrorCode::out_of_range, "beta");
  EXPECT_TRUE(models.empty());
  std::string seventeen;
  for (int i = 0; i < 17; ++i) seventeen += "gated:relu,";
  EXPECT_ERROR(parse_race_models(seventeen, 1.0f, models), ErrorCode::out_of_range, "models");
  EXPECT_EQ(models.size(), 16u);
  EXPECT_EQ(parse_width_rule("budget"), WidthRule::budget);
  EXPECT_EQ(parse_width_rule("shazeer"), WidthRule::shazeer);
  EXPECT_FALSE(parse_width_rule("equal"));
  for (WidthRule r : {WidthRule::budget, WidthRule::shazeer}) EXPECT_EQ(parse_width_rule(width_rule_name(r)), r);
}

TEST(Race, CurvesFlattenToStepsThenFourBandsPerMetricThenFinals) {
  RaceOptions o = small_race();
  o.models = {{LayerKind::gated, {Activation::silu, 1.0f}}};
  o.steps = 40;
  o.seeds = 2;
  const RaceResult r = run_race(o)[0];
  const std::size_t records = r.curves.steps.size();
  ASSERT_EQ(records, 5u);
  ASSERT_EQ(race_curve_floats(r), 17 * records + 4 * 2);
  std::vector<float> flat(race_curve_floats(r) + 1, -7.0f);
  copy_race_curves(r, flat.data());
  EXPECT_EQ(flat.back(), -7.0f);  // nothing past the end
  for (std::size_t i = 0; i < records; ++i) {
    EXPECT_EQ(flat[i], static_cast<float>(r.curves.steps[i]));
    for (int k = 0; k < race_metrics; ++k) {
      const float* band = flat.data() + records * (1 + 4 * k);
      EXPECT_EQ(band[i], r.curves.mean[k][i]);
      EXPECT_EQ(band[records + i], r.curves.std[k][i]);
      EXPECT_EQ(band[2 * records + i], r.curves.min[k][i]);
      EXPECT_EQ(band[3 * records + i], r.curves.max[k][i]);
    }
  }
  for (int k = 0; k < race_metrics; ++k) {
    for (int s = 0; s < 2; ++s) EXPECT_EQ(flat[17 * records + 2 * k + s], r.final_values[k][s]);
  }
}
