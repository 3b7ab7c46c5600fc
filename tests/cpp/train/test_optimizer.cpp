// Optimizers: the update rules on hand-checkable cases, Adam's bias correction, convergence
// on a quadratic, state save/restore, and refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gatelab/train/optimizer.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

// A gated layer's parameters (2 × 1 × 2 Q and K, 2 × 1 V) filled with one value.
LayerParams params_filled(float value) {
  LayerParams p;
  p.q = xt::xtensor<float, 3>::from_shape({2, 1, 2});
  p.k = xt::xtensor<float, 3>::from_shape({2, 1, 2});
  p.v = xt::xtensor<float, 2>::from_shape({2, 1});
  p.q.fill(value);
  p.k.fill(value);
  p.v.fill(value);
  return p;
}

constexpr std::size_t count = 10;

}  // namespace

TEST(Optimizer, SgdStepsAgainstTheGradient) {
  OptimizerOptions o{OptimizerKind::sgd, 0.5f};
  Optimizer opt(o, count);
  LayerParams p = params_filled(1.0f);
  EXPECT_TRUE(opt.step(p, params_filled(0.2f)).ok());
  EXPECT_FLOAT_EQ(p.q(0, 0, 0), 0.9f);
  EXPECT_FLOAT_EQ(p.v(1, 0), 0.9f);
}

TEST(Optimizer, MomentumAccumulatesVelocity) {
  OptimizerOptions o{OptimizerKind::momentum, 0.1f, 0.5f};
  Optimizer opt(o, count);
  LayerParams p = params_filled(0.0f);
  EXPECT_TRUE(opt.step(p, params_filled(1.0f)).ok());  // v = 1,   θ = −0.1
  EXPECT_TRUE(opt.step(p, params_filled(1.0f)).ok());  // v = 1.5, θ = −0.25
  EXPECT_FLOAT_EQ(p.k(1, 0, 1), -0.25f);
  EXPECT_FLOAT_EQ(opt.state().first[3], 1.5f);
}

TEST(Optimizer, AdamFirstStepIsTheLearningRateTimesTheSignThanksToBiasCorrection) {
  OptimizerOptions o{OptimizerKind::adam, 0.01f};
  for (float g : {1e-3f, 0.5f, -40.0f}) {
    Optimizer opt(o, count);
    LayerParams p = params_filled(0.0f);
    EXPECT_TRUE(opt.step(p, params_filled(g)).ok());
    EXPECT_NEAR(p.q(0, 0, 1), g > 0 ? -0.01f : 0.01f, 1e-6f) << g;
  }
}

TEST(Optimizer, EveryKindMinimisesAQuadratic) {
  // L = ½ Σ (θ − 3)²: gradient θ − 3.
  for (OptimizerKind kind : {OptimizerKind::sgd, OptimizerKind::momentum, OptimizerKind::adam}) {
    OptimizerOptions o{kind, kind == OptimizerKind::adam ? 0.05f : 0.1f};
    Optimizer opt(o, count);
    LayerParams p = params_filled(0.0f), g = params_filled(0.0f);
    for (int step = 0; step < 2000; ++step) {
      for (auto* t : {&p.q, &p.k}) {
        auto& gt = t == &p.q ? g.q : g.k;
        for (std::size_t i = 0; i < t->size(); ++i) gt.data()[i] = t->data()[i] - 3.0f;
      }
      for (std::size_t i = 0; i < p.v.size(); ++i) g.v.data()[i] = p.v.data()[i] - 3.0f;
      EXPECT_TRUE(opt.step(p, g).ok());
    }
    EXPECT_NEAR(p.q(1, 0, 1), 3.0f, 1e-3f) << optimizer_name(kind);
    EXPECT_NEAR(p.v(0, 0), 3.0f, 1e-3f) << optimizer_name(kind);
  }
}

TEST(Optimizer, RestoredStateReplaysTheSameSteps) {
  OptimizerOptions o{OptimizerKind::adam, 0.1f};
  Optimizer opt(o, count);
  LayerParams p = params_filled(1.0f);
  EXPECT_TRUE(opt.step(p, params_filled(0.3f)).ok());
  const OptimizerState saved = opt.state();
  const LayerParams saved_params = p;
  EXPECT_TRUE(opt.step(p, params_filled(-0.7f)).ok());
  const LayerParams first = p;
  opt.restore(saved);
  p = saved_params;
  EXPECT_TRUE(opt.step(p, params_filled(-0.7f)).ok());
  EXPECT_EQ(p.q, first.q);
  EXPECT_EQ(p.v, first.v);
}

TEST(Optimizer, RefusalsNameTheField) {
  auto error = [](OptimizerOptions o) { return validate(o); };
  EXPECT_OK(error({}));
  EXPECT_ERROR(error({OptimizerKind::sgd, 0.0f}), ErrorCode::out_of_range, "learning_rate");
  EXPECT_ERROR(error({OptimizerKind::sgd, NAN}), ErrorCode::out_of_range, "learning_rate");
  EXPECT_ERROR(error({OptimizerKind::sgd, 2e6f}), ErrorCode::out_of_range, "learning_rate");
  EXPECT_ERROR(error({OptimizerKind::momentum, 0.1f, 1.0f}), ErrorCode::out_of_range, "momentum");
  EXPECT_ERROR(error({OptimizerKind::adam, 0.1f, 0.9f, -0.1f}), ErrorCode::out_of_range, "beta1");
  EXPECT_ERROR(error({OptimizerKind::adam, 0.1f, 0.9f, 0.9f, 1.0f}), ErrorCode::out_of_range, "beta2");
  EXPECT_ERROR(error({OptimizerKind::adam, 0.1f, 0.9f, 0.9f, 0.99f, 0.0f}), ErrorCode::out_of_range, "epsilon");
  EXPECT_EQ(parse_optimizer("adam"), OptimizerKind::adam);
  EXPECT_FALSE(parse_optimizer("lion"));
}

TEST(Optimizer, AdamwFirstStepMovesEachParameterByTheLearningRateAgainstItsGradient) {
  std::vector<double> value = {1.0, -2.0, 0.5}, grad = {0.3, -4.0, 1e-3};
  std::vector<ParamView<double>> views = {{"x", value.data(), grad.data(), 3, 1, 3}};
  OptimizerOptions config;
  config.kind = OptimizerKind::adamw;
  config.learning_rate = 0.1f;
  config.epsilon = 1e-12f;
  Optimizer64 adam(config);
  ASSERT_OK(adam.step(views));
  EXPECT_NEAR(value[0], 1.0 - 0.1, 1e-6);
  EXPECT_NEAR(value[1], -2.0 + 0.1, 1e-6);
  EXPECT_NEAR(value[2], 0.5 - 0.1, 1e-6);
  config.learning_rate = -1.0f;
  EXPECT_ERROR(validate(config), ErrorCode::out_of_range, "learning_rate");
  std::vector<ParamView<double>> other = {{"x", value.data(), grad.data(), 2, 1, 2}};
  EXPECT_ERROR(adam.step(other), ErrorCode::invalid_value, "");
}

TEST(Optimizer, AdamwDecaysOnlyTheViewsMarkedForDecay) {
  std::vector<double> matrix = {1.0, -2.0}, gain = {1.0, 3.0}, zero = {0.0, 0.0};
  std::vector<ParamView<double>> views = {{"w", matrix.data(), zero.data(), 2, 1, 2},
                                          {"norm", gain.data(), zero.data(), 2, 1, 2, /*decay=*/false}};
  OptimizerOptions config;
  config.kind = OptimizerKind::adamw;
  config.learning_rate = 0.1f;
  config.weight_decay = 0.5f;
  Optimizer64 adam(config);
  ASSERT_OK(adam.step(views));
  const double factor = 1.0 - double(0.1f * 0.5f);
  EXPECT_DOUBLE_EQ(matrix[0], 1.0 * factor);  // zero gradient: only the decay moved it
  EXPECT_DOUBLE_EQ(matrix[1], -2.0 * factor);
  EXPECT_EQ(gain[0], 1.0);
  EXPECT_EQ(gain[1], 3.0);
}

TEST(Optimizer, ClippingScalesTheGlobalGradientNormForEveryKind) {
  for (OptimizerKind kind : {OptimizerKind::sgd, OptimizerKind::momentum}) {
    std::vector<double> value = {0.0, 0.0}, grad = {3.0, 4.0};  // ‖g‖ = 5
    std::vector<ParamView<double>> views = {{"x", value.data(), grad.data(), 2, 1, 2}};
    OptimizerOptions config;
    config.kind = kind;
    config.learning_rate = 1.0f;
    config.clip_norm = 1.0f;
    Optimizer64 opt(config);
    ASSERT_OK(opt.step(views));
    EXPECT_NEAR(value[0], -0.6, 1e-12) << optimizer_name(kind);
    EXPECT_NEAR(value[1], -0.8, 1e-12) << optimizer_name(kind);
    EXPECT_DOUBLE_EQ(opt.last_gradient_norm(), 5.0);
    EXPECT_EQ(grad[0], 3.0);  // gradients are read, never written
  }
}

TEST(Optimizer, NonFiniteGradientsChangeNothing) {
  std::vector<float> value = {1.0f, 2.0f}, grad = {1.0f, NAN};
  std::vector<ParamView<float>> views = {{"x", value.data(), grad.data(), 2, 1, 2}};
  Optimizer adam(OptimizerOptions{});
  EXPECT_ERROR(adam.step(views), ErrorCode::not_finite, "gradient");
  EXPECT_EQ(value[0], 1.0f);
  EXPECT_EQ(adam.steps_taken(), 0);
}
