// Losses and the trainer: loss values and gradients against double references, training
// lowers the loss for every kind on every built-in task, the same seed gives bit-identical
// curves, divergence is caught at its step, rolled back and explained, and the grid.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "gatelab/train/race.hpp"
#include "gatelab/base/rng.hpp"
#include "gatelab/train/trainer.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

TrainerOptions trainer_options(LayerKind kind, Activation act, int hidden, float lr = 0.05f) {
  TrainerOptions t;
  t.layer.kind = kind;
  t.layer.activation = {act, 1.0f};
  t.layer.hidden = hidden;
  t.layer.seed = 3;
  t.optimizer = {OptimizerKind::adam, lr};
  t.batch_size = 32;
  return t;
}

Dataset data(Task task, std::uint64_t seed = 1) {
  DatasetOptions o;
  o.task = task;
  o.count = 200;
  o.noise = 0.05f;
  o.seed = seed;
  return make_dataset(o);
}

}  // namespace

TEST(Loss, ValuesAndGradientsMatchDoubleReferences) {
  const float out[] = {-3.0f, -0.2f, 0.0f, 0.7f, 25.0f, -40.0f};
  const float labels[] = {-1, 1, 1, -1, 1, -1};
  float grad[6];
  const LossValue mse = evaluate_loss(LossKind::mse, out, labels, 6, grad);
  double expect = 0;
  for (int i = 0; i < 6; ++i) expect += (out[i] - labels[i]) * (out[i] - labels[i]) / 6.0;
  EXPECT_NEAR(mse.loss, expect, 1e-9 * expect);
  EXPECT_FLOAT_EQ(grad[1], 2 * (-0.2f - 1) / 6);
  EXPECT_NEAR(mse.accuracy, 3.0 / 6, 1e-12);  // −3 ✓, −0.2 ✗, 0 ✗ (0 is not > 0), 0.7 ✗, 25 ✓, −40 ✓

  const LossValue ce = evaluate_loss(LossKind::cross_entropy, out, labels, 6, grad);
  expect = 0;
  for (int i = 0; i < 6; ++i) {
    const double z = out[i], t = labels[i] > 0 ? 1 : 0;
    expect += (std::log1p(std::exp(-std::fabs(z))) + std::fmax(z, 0.0) - t * z) / 6;
    const double g = (1 / (1 + std::exp(-z)) - t) / 6;
    EXPECT_NEAR(grad[i], g, 1e-6) << i;
  }
  EXPECT_NEAR(ce.loss, expect, 1e-6 * expect);
}

// The loss runs its exponentials in chunks through the vector kernels; the bits must be those
// of the plain per-point loop (one padded-vector activation_value per point, sums in index
// order), at sizes below, at and across the chunk length.
TEST(Loss, ChunkedKernelsGiveTheBitsOfAPerPointLoop) {
  Pcg32 rng(17);
  for (int n : {1, 3, 255, 256, 257, 700}) {
    std::vector<float> out(n), labels(n), grad(n);
    for (int i = 0; i < n; ++i) {
      out[i] = 4.0f * rng.normal();
      labels[i] = rng.uniform(-1.0f, 1.0f) > 0 ? 1.0f : -1.0f;
    }
    const LossValue ce = evaluate_loss(LossKind::cross_entropy, out.data(), labels.data(), n, grad.data());
    double sum = 0.0;
    const float inv_n = 1.0f / static_cast<float>(n);
    for (int i = 0; i < n; ++i) {
      const float z = out[i], t = labels[i] > 0 ? 1.0f : 0.0f;
      const double tail = activation_value({Activation::softplus, 1.0f}, z > 0 ? -z : z);
      sum += tail + (z > 0 ? static_cast<double>(z) : 0.0) - static_cast<double>(t) * z;
      float g = (activation_value({Activation::sigmoid, 1.0f}, z) - t) * inv_n;
      if (std::fabs(g) < 1e-20f) g = 0.0f;
      ASSERT_EQ(std::memcmp(&g, &grad[i], sizeof g), 0) << "n " << n << " i " << i;
    }
    const double expected = sum / n;
    EXPECT_EQ(std::memcmp(&expected, &ce.loss, sizeof expected), 0) << "n " << n;

    // The gradient-only call of a training step: the same bits, and "finite" exactly when the
    // loss value is.
    for (LossKind kind : {LossKind::mse, LossKind::cross_entropy}) {
      std::vector<float> only(n);
      evaluate_loss(kind, out.data(), labels.data(), n, grad.data());
      EXPECT_TRUE(loss_gradient(kind, out.data(), labels.data(), n, only.data()));
      EXPECT_EQ(std::memcmp(only.data(), grad.data(), n * sizeof(float)), 0) << loss_name(kind) << " n " << n;
      if (n > 1) {  // in two parts, each told the whole batch's size
        const int half = n / 2;
        std::vector<float> parts(n);
        loss_gradient(kind, out.data(), labels.data(), half, parts.data(), n);
        loss_gradient(kind, out.data() + half, labels.data() + half, n - half, parts.data() + half, n);
        EXPECT_EQ(std::memcmp(parts.data(), grad.data(), n * sizeof(float)), 0) << loss_name(kind) << " n " << n;
      }
      for (float bad : {INFINITY, -INFINITY, NAN}) {
        std::vector<float> spoiled = out;
        spoiled[n / 2] = bad;
        EXPECT_FALSE(loss_gradient(kind, spoiled.data(), labels.data(), n, only.data()));
        EXPECT_FALSE(std::isfinite(evaluate_loss(kind, spoiled.data(), labels.data(), n, nullptr).loss));
      }
    }
  }
}

// A full batch reads the training split in place, in order: the first step is exactly one
// Adam step on the gradient of the mean loss over every training point.
TEST(Trainer, AFullBatchStepIsAnAdamStepOnTheWholeSplit) {
  TrainerOptions o = trainer_options(LayerKind::gated, Activation::silu, 6);
  o.batch_size = 0;
  const Dataset d = data(Task::circle);
  Trainer trainer(o, d);
  Layer layer(trainer_layer_config(o));
  const int n = static_cast<int>(d.y_train.size());
  std::vector<float> x(static_cast<std::size_t>(n) * 3, 1.0f), out(n), grad(n);
  for (int i = 0; i < n; ++i) {
    x[i * 3] = d.x_train(i, 0);
    x[i * 3 + 1] = d.x_train(i, 1);
  }
  ASSERT_OK(layer.forward(x.data(), n, out.data()));
  evaluate_loss(o.loss, out.data(), d.y_train.data(), n, grad.data());
  ASSERT_OK(layer.backward(x.data(), n, grad.data(), nullptr));
  LayerParams grads = layer.grads();
  Optimizer adam(o.optimizer, layer.parameter_count());
  ASSERT_TRUE(adam.step(layer.params(), grads).ok());

  ASSERT_EQ(trainer.step(1), 1);
  const LayerParams& got = trainer.layer().params();
  const LayerParams& want = layer.params();
  EXPECT_EQ(std::memcmp(got.q.data(), want.q.data(), want.q.size() * sizeof(float)), 0);
  EXPECT_EQ(std::memcmp(got.k.data(), want.k.data(), want.k.size() * sizeof(float)), 0);
  EXPECT_EQ(std::memcmp(got.v.data(), want.v.data(), want.v.size() * sizeof(float)), 0);
}

// Per-point gradients below 1e-20 (a confidently right point) are exactly 0, larger ones kept.
TEST(Loss, NegligibleGradientsAreFlushedToZero) {
  const float out[] = {50.0f, -50.0f, 20.0f, 3.0f};
  const float labels[] = {1, -1, 1, 1};
  float grad[4], only[4];
  evaluate_loss(LossKind::cross_entropy, out, labels, 4, grad);
  loss_gradient(LossKind::cross_entropy, out, labels, 4, only);
  // σ(−50) − 0 = 2e-22 is flushed; σ(50) and σ(20) round to 1 in float, so those are 0 already;
  // at z = 3 the gradient is −σ(−3)/4 = −0.012.
  for (float* g : {grad, only}) {
    EXPECT_EQ(g[0], 0.0f);
    EXPECT_EQ(g[1], 0.0f);
    EXPECT_EQ(g[2], 0.0f);
    EXPECT_NEAR(g[3], (1 / (1 + std::exp(3.0)) * -1) / 4, 1e-7);
  }
  const float close[] = {1.0f + 1e-7f}, target[] = {1.0f};
  float mse_grad[1];
  evaluate_loss(LossKind::mse, close, target, 1, mse_grad);
  EXPECT_GT(mse_grad[0], 0.0f);  // 2.4e-7: far above the flush
}

TEST(Loss, CrossEntropyIsStableForHugeLogits) {
  const float out[] = {1e30f, -1e30f};
  const float labels[] = {-1, 1};
  float grad[2];
  const LossValue ce = evaluate_loss(LossKind::cross_entropy, out, labels, 2, grad);
  EXPECT_TRUE(std::isfinite(ce.loss));
  EXPECT_NEAR(ce.loss, 1e30, 1e24);
  EXPECT_FLOAT_EQ(grad[0], 0.5f);
  EXPECT_FLOAT_EQ(grad[1], -0.5f);
}

TEST(Trainer, LowersTheLossForEveryKindOnEveryBuiltinTask) {
  const struct {
    LayerKind kind;
    Activation act;
    int hidden;
  } models[] = {
      {LayerKind::mlp, Activation::relu, 16},
      {LayerKind::symmetric, Activation::relu, 9},
      {LayerKind::gated, Activation::silu, 9},
      {LayerKind::gated, Activation::identity, 9},  // bilinear
  };
  for (int t = 0; t < builtin_task_count; ++t) {
    const Task task = task_by_index(t);
    for (const auto& m : models) {
      const TrainerOptions o = trainer_options(m.kind, m.act, m.hidden);
      ASSERT_OK(validate(o));
      Trainer trainer(o, data(task));
      const float before = trainer.history().front().train_loss;
      EXPECT_EQ(trainer.step(300), 300);
      const TrainRecord& after = trainer.history().back();
      // A clear drop beyond minibatch noise: even a quadric on the spiral gets some of it.
      EXPECT_LT(after.train_loss, before - 0.01f) << task_name(task) << " " << race_label({m.kind, {m.act, 1.0f}});
      EXPECT_FALSE(trainer.divergence().diverged);
    }
  }
}

TEST(Trainer, SolvesTheCircleWithAQuadraticLayer) {
  // The bilinear layer on (x, y, 1) is a general quadric: the circle is exactly learnable.
  Trainer trainer(trainer_options(LayerKind::gated, Activation::identity, 4, 0.05f), data(Task::circle));
  trainer.step(600);
  EXPECT_GE(trainer.history().back().train_accuracy, 0.99f);
  EXPECT_GE(trainer.history().back().test_accuracy, 0.95f);
}

TEST(Trainer, TheSameSeedGivesBitIdenticalCurves) {
  for (LossKind loss : {LossKind::mse, LossKind::cross_entropy}) {
    TrainerOptions o = trainer_options(LayerKind::gated, Activation::gelu, 8);
    o.loss = loss;
    o.optimizer.kind = OptimizerKind::momentum;
    Trainer a(o, data(Task::spiral)), b(o, data(Task::spiral));
    a.step(50);
    b.step(20);
    b.step(30);  // split calls do not change the run
    ASSERT_EQ(a.history().size(), 51u);
    ASSERT_EQ(b.history().size(), 51u);
    for (std::size_t i = 0; i < a.history().size(); ++i) {
      EXPECT_EQ(a.history()[i].train_loss, b.history()[i].train_loss);
      EXPECT_EQ(a.history()[i].test_accuracy, b.history()[i].test_accuracy);
      EXPECT_EQ(a.history()[i].grad_norm, b.history()[i].grad_norm);
    }
    EXPECT_EQ(a.layer().params().q, b.layer().params().q);
    o.layer.seed = 4;
    Trainer c(o, data(Task::spiral));
    c.step(5);
    EXPECT_NE(c.history()[5].train_loss, a.history()[5].train_loss);
  }
}

// FNV-1a over the bits of every float of the curves and the final parameters.
std::uint64_t run_hash(const Trainer& t) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](float f) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    for (int i = 0; i < 4; ++i) h = (h ^ ((bits >> (8 * i)) & 0xffu)) * 1099511628211ull;
  };
  for (const TrainRecord& r : t.history()) {
    for (float f : {r.train_loss, r.test_loss, r.train_accuracy, r.test_accuracy, r.grad_norm}) mix(f);
  }
  for (const auto* p : {&t.layer().params().q, &t.layer().params().k}) {
    for (float f : *p) mix(f);
  }
  for (float f : t.layer().params().v) mix(f);
  return h;
}

TEST(Trainer, HundredStepRunsMatchGoldenHashesNativelyAndInWasm) {
  // The same numbers are checked in the native and the wasm build (and by the JS tests in
  // Node): a change here means replay is no longer bit-identical across platforms.
  struct Golden {
    LayerKind kind;
    Activation act;
    OptimizerKind opt;
    LossKind loss;
    std::uint64_t hash;
  };
  const Golden runs[] = {
      {LayerKind::gated, Activation::silu, OptimizerKind::adam, LossKind::cross_entropy, 7711746193370313250ull},
      {LayerKind::mlp, Activation::gelu, OptimizerKind::momentum, LossKind::mse, 5236717361067013256ull},
      {LayerKind::symmetric, Activation::tanh, OptimizerKind::sgd, LossKind::cross_entropy, 15608253729625421003ull},
  };
  for (const Golden& g : runs) {
    TrainerOptions o = trainer_options(g.kind, g.act, 8);
    o.optimizer.kind = g.opt;
    o.loss = g.loss;
    Trainer t(o, data(Task::spiral, 7));
    t.step(100);
    EXPECT_EQ(run_hash(t), g.hash) << layer_kind_name(g.kind) << " " << std::hex << run_hash(t);
  }
}

TEST(Trainer, DivergenceIsCaughtAtItsStepRolledBackAndBlamesTheLearningRate) {
  TrainerOptions o = trainer_options(LayerKind::gated, Activation::relu2, 8);
  o.loss = LossKind::mse;
  o.optimizer = {OptimizerKind::sgd, 50.0f};
  Trainer trainer(o, data(Task::xor_task));
  const int done = trainer.step(1000);
  ASSERT_TRUE(trainer.divergence().diverged);
  const Divergence& d = trainer.divergence();
  EXPECT_LT(done, 1000);
  EXPECT_EQ(d.step, done + 1);  // every earlier step succeeded
  EXPECT_GE(d.rolled_back_to, d.step - 2);
  EXPECT_EQ(trainer.steps_done(), d.rolled_back_to);
  EXPECT_TRUE(all_finite(trainer.layer().params()));
  EXPECT_EQ(trainer.history().back().step, d.rolled_back_to);
  EXPECT_TRUE(std::isfinite(trainer.evaluate().train_loss));
  EXPECT_NE(d.message.find("at step " + std::to_string(d.step)), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("learning rate 50"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("try <= 5"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("rolled back to step " + std::to_string(d.rolled_back_to)), std::string::npos);
  EXPECT_EQ(trainer.step(10), 0);  // stopped
  // The rolled-back state is the one after step rolled_back_to: replaying that many steps
  // from scratch gives the same parameters.
  Trainer replay(o, data(Task::xor_task));
  replay.step(d.rolled_back_to);
  EXPECT_EQ(replay.layer().params().v, trainer.layer().params().v);
  // A (much) smaller learning rate resumes from there: the rolled-back state is finite but
  // already far out, with gradients near 1e7.
  // A refused rate changes nothing: the trainer stays stopped.
  EXPECT_EQ(trainer.set_learning_rate(0.0f), validate_learning_rate(0.0f));
  EXPECT_TRUE(trainer.divergence().diverged);
  EXPECT_EQ(trainer.options().optimizer.learning_rate, o.optimizer.learning_rate);
  ASSERT_TRUE(trainer.set_learning_rate(1e-9f).ok());
  EXPECT_EQ(trainer.step(20), 20);
  EXPECT_FALSE(trainer.divergence().diverged);
}

TEST(Trainer, OverflowWithTameGradientsIsToldApartFromAGradientBlowUp) {
  // Adam moves each weight by ~lr per step whatever the gradient, so a huge lr overflows
  // the cubic output of a gated layer before the gradient norm has grown a thousandfold.
  TrainerOptions o = trainer_options(LayerKind::gated, Activation::relu2, 8, 1e5f);
  o.loss = LossKind::mse;
  Trainer trainer(o, data(Task::circle));
  trainer.step(200);
  ASSERT_TRUE(trainer.divergence().diverged);
  const std::string& m = trainer.divergence().message;
  EXPECT_EQ(trainer.divergence().cause, "overflow") << m;
  EXPECT_NE(m.find("output overflowed"), std::string::npos) << m;
  EXPECT_NE(m.find("try a learning rate <= 1e+04"), std::string::npos) << m;
  EXPECT_TRUE(all_finite(trainer.layer().params()));
}

TEST(Trainer, FullBatchAndEvalEveryShapeTheHistory) {
  TrainerOptions o = trainer_options(LayerKind::mlp, Activation::tanh, 8);
  o.batch_size = 0;
  o.eval_every = 10;
  Trainer trainer(o, data(Task::gaussians));
  trainer.step(35);
  ASSERT_EQ(trainer.history().size(), 4u);  // steps 0, 10, 20, 30
  EXPECT_EQ(trainer.history()[3].step, 30);
  EXPECT_EQ(trainer.steps_done(), 35);
}

TEST(Trainer, HistoryCopiesOutAsRowsOfItsSixFields) {
  Trainer trainer(trainer_options(LayerKind::gated, Activation::silu, 4), data(Task::circle));
  trainer.step(3);
  ASSERT_EQ(trainer.history().size(), 4u);
  std::vector<float> rows(2 * train_record_fields + 1, -7.0f);
  ASSERT_OK(copy_history(trainer, 2, 2, rows.data()));
  for (int i = 0; i < 2; ++i) {
    const TrainRecord& r = trainer.history()[2 + i];
    const float* row = rows.data() + i * train_record_fields;
    EXPECT_EQ(row[0], static_cast<float>(r.step));
    EXPECT_EQ(row[1], r.train_loss);
    EXPECT_EQ(row[2], r.test_loss);
    EXPECT_EQ(row[3], r.train_accuracy);
    EXPECT_EQ(row[4], r.test_accuracy);
    EXPECT_EQ(row[5], r.grad_norm);
  }
  EXPECT_EQ(rows.back(), -7.0f);
  EXPECT_OK(copy_history(trainer, 4, 0, rows.data()));
  const std::pair<int, int> bad[] = {{3, 2}, {-1, 1}, {0, -1}, {5, 0}, {1, 2147483647}};
  for (auto [from, count] : bad) {
    EXPECT_ERROR(copy_history(trainer, from, count, rows.data()), ErrorCode::out_of_range, "") << from << ", " << count;
  }
}

TEST(Trainer, CallArgumentsAreCheckedWithMessagesNamingThem) {
  EXPECT_OK(validate_step_count(1));
  EXPECT_OK(validate_step_count(max_steps_per_call));
  EXPECT_ERROR(validate_step_count(0), ErrorCode::out_of_range, "n");
  EXPECT_ERROR(validate_step_count(max_steps_per_call + 1), ErrorCode::out_of_range, "n");
  EXPECT_OK(validate_grid(2, 1e4f));
  EXPECT_ERROR(validate_grid(1, 1.0f), ErrorCode::out_of_range, "size");
  EXPECT_ERROR(validate_grid(513, 1.0f), ErrorCode::out_of_range, "size");
  EXPECT_ERROR(validate_grid(8, 0.0f), ErrorCode::out_of_range, "extent");
  EXPECT_ERROR(validate_grid(8, NAN), ErrorCode::out_of_range, "extent");
  EXPECT_OK(validate_learning_rate(1e6f));
  EXPECT_ERROR(validate_learning_rate(0.0f), ErrorCode::out_of_range, "learning_rate");
  EXPECT_ERROR(validate_learning_rate(2e6f), ErrorCode::out_of_range, "learning_rate");
}

TEST(Trainer, GridIsTheLayerOnTheInputPlaneWithRowZeroOnTop) {
  Trainer trainer(trainer_options(LayerKind::symmetric, Activation::tanh, 6), data(Task::circle));
  std::vector<float> grid(5 * 5);
  ASSERT_TRUE(trainer.grid(5, 1.0f, grid.data()).ok());
  const float top_left[] = {-1.0f, 1.0f, 1.0f}, centre[] = {0.0f, 0.0f, 1.0f};
  float out;
  EXPECT_OK(trainer.layer().forward(top_left, 1, &out));
  EXPECT_EQ(grid[0], out);
  EXPECT_OK(trainer.layer().forward(centre, 1, &out));
  EXPECT_EQ(grid[12], out);
  // Bad arguments are validate_grid's refusals, and nothing is written.
  std::vector<float> untouched(4, -3.0f);
  EXPECT_EQ(trainer.grid(1, 1.0f, untouched.data()), validate_grid(1, 1.0f));
  EXPECT_EQ(trainer.grid(2, 0.0f, untouched.data()).field, validate_grid(2, 0.0f).field);
  EXPECT_FALSE(trainer.grid(2, 0.0f, untouched.data()).ok());
  EXPECT_EQ(untouched, std::vector<float>(4, -3.0f));
}

TEST(Trainer, RefusalsNameTheField) {
  TrainerOptions o = trainer_options(LayerKind::gated, Activation::relu, 8);
  o.batch_size = -1;
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "batch_size");
  o = trainer_options(LayerKind::gated, Activation::relu, 8);
  o.eval_every = 0;
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "eval_every");
  o = trainer_options(LayerKind::gated, Activation::relu, 2000);
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "hidden");
  o = trainer_options(LayerKind::gated, Activation::relu, 8, -1.0f);
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "learning_rate");
  o = trainer_options(LayerKind::gated, Activation::relu, 8);
  o.layer.rank = 4;
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "rank");
}
