// Datasets: shapes and splits, ±1 labels, balance, the geometry each task promises, seeds
// (same seed same bits, another seed other points), user points, and every refusal.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>
#include <string>

#include "gatelab/train/dataset.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

DatasetOptions options(Task task, int count = 200, float noise = 0.0f, std::uint64_t seed = 5) {
  DatasetOptions o;
  o.task = task;
  o.count = count;
  o.noise = noise;
  o.seed = seed;
  return o;
}

// Visits every point of both splits.
template <class F>
void each_point(const Dataset& d, F&& f) {
  for (std::size_t i = 0; i < d.y_train.size(); ++i) f(d.x_train(i, 0), d.x_train(i, 1), d.y_train(i));
  for (std::size_t i = 0; i < d.y_test.size(); ++i) f(d.x_test(i, 0), d.x_test(i, 1), d.y_test(i));
}

}  // namespace

TEST(Dataset, EveryBuiltinTaskHasTheRequestedSplitAndBalancedPlusMinusOneLabels) {
  for (int t = 0; t < builtin_task_count; ++t) {
    const Task task = task_by_index(t);
    DatasetOptions o = options(task, 301, 0.1f);
    o.train_fraction = 0.7f;
    ASSERT_OK(validate(o)) << task_name(task);
    const Dataset d = make_dataset(o);
    EXPECT_EQ(d.y_train.size(), 211u) << task_name(task);
    EXPECT_EQ(d.y_test.size(), 90u);
    EXPECT_EQ(d.x_train.shape()[1], 2u);
    int positive = 0;
    each_point(d, [&](float x, float y, float label) {
      EXPECT_TRUE(label == 1.0f || label == -1.0f);
      EXPECT_TRUE(std::isfinite(x) && std::isfinite(y));
      EXPECT_LT(std::fabs(x), 2.0f);
      positive += label > 0;
    });
    EXPECT_NEAR(positive, 150, task == Task::xor_task || task == Task::checkerboard ? 30 : 2) << task_name(task);
  }
}

TEST(Dataset, NoiselessTasksHaveTheirPromisedGeometry) {
  each_point(make_dataset(options(Task::circle)), [](float x, float y, float label) {
    const float r = std::sqrt(x * x + y * y);
    EXPECT_TRUE(label > 0 ? r < 0.5f : (r > 0.7f && r < 1.0f));
  });
  each_point(make_dataset(options(Task::xor_task)), [](float x, float y, float label) {
    EXPECT_EQ(label, x * y > 0 ? 1.0f : -1.0f);
    EXPECT_GE(std::fabs(x), 0.05f);
  });
  each_point(make_dataset(options(Task::checkerboard)), [](float x, float y, float label) {
    const int cell = static_cast<int>(std::floor((x + 1) * 2) + std::floor((y + 1) * 2));
    EXPECT_EQ(label, cell % 2 == 0 ? 1.0f : -1.0f);
  });
  each_point(make_dataset(options(Task::spiral)),
             [](float x, float y, float) { EXPECT_LE(std::sqrt(x * x + y * y), 1.0f + 1e-6f); });
  double mean_pos = 0;
  each_point(make_dataset(options(Task::gaussians)), [&](float x, float y, float label) {
    if (label > 0) mean_pos += x + y;
  });
  EXPECT_NEAR(mean_pos / 100, 1.0, 0.15);  // the + class sits around (0.5, 0.5)
}

TEST(Dataset, SpiralArmsArePointReflectionsOfEachOther) {
  // With no noise the −1 arm is the +1 arm turned by π: the portable sine and cosine must
  // put every −1 point at minus some +1 point (and the radius within [0.05, 1]).
  const Dataset d = make_dataset(options(Task::spiral, 200));
  std::vector<std::array<float, 2>> pos, neg;
  each_point(d, [&](float x, float y, float label) { (label > 0 ? pos : neg).push_back({x, y}); });
  ASSERT_EQ(pos.size(), neg.size());
  for (const auto& n : neg) {
    double best = 1e9;
    for (const auto& p : pos) best = std::fmin(best, std::hypot(n[0] + p[0], n[1] + p[1]));
    EXPECT_LT(best, 1e-6);
    EXPECT_GE(std::hypot(n[0], n[1]), 0.05 - 1e-6);
    EXPECT_LE(std::hypot(n[0], n[1]), 1.0 + 1e-6);
  }
}

TEST(Dataset, TeacherLabelsAreBalancedForEveryKind) {
  for (LayerKind kind : {LayerKind::mlp, LayerKind::symmetric, LayerKind::gated}) {
    DatasetOptions o = options(Task::teacher, 400);
    o.teacher_kind = kind;
    o.teacher_activation = {Activation::silu, 1.0f};
    ASSERT_OK(validate(o));
    int positive = 0;
    each_point(make_dataset(o), [&](float, float, float label) { positive += label > 0; });
    EXPECT_EQ(positive, 200) << layer_kind_name(kind);
  }
}

TEST(Dataset, TheSameSeedGivesTheSameBitsAndAnotherSeedOtherPoints) {
  const Dataset a = make_dataset(options(Task::checkerboard, 200, 0.2f, 11));
  const Dataset b = make_dataset(options(Task::checkerboard, 200, 0.2f, 11));
  const Dataset c = make_dataset(options(Task::checkerboard, 200, 0.2f, 12));
  EXPECT_EQ(a.x_train, b.x_train);
  EXPECT_EQ(a.y_test, b.y_test);
  EXPECT_NE(a.x_train, c.x_train);
}

TEST(Dataset, UserPointsAreSplitAndZeroMeansMinusOne) {
  const float x[] = {0, 0, 1, 1, -1, 2, 3, -3, 0.5f, 0.5f};
  const float y[] = {1, 0, -1, 1, 0};
  ASSERT_OK(validate_user_points(x, y, 5, 0.6f));
  const Dataset d = user_dataset(x, y, 5, 0.6f, 1);
  EXPECT_EQ(d.y_train.size(), 3u);
  EXPECT_EQ(d.y_test.size(), 2u);
  int positive = 0;
  each_point(d, [&](float, float, float label) {
    EXPECT_TRUE(label == 1.0f || label == -1.0f);
    positive += label > 0;
  });
  EXPECT_EQ(positive, 2);
}

TEST(Dataset, RefusalsNameTheField) {
  auto message = [](DatasetOptions o) { return validate(o); };
  DatasetOptions o = options(Task::circle);
  o.count = 3;
  EXPECT_ERROR(message(o), ErrorCode::out_of_range, "count");
  o.count = max_dataset_points + 1;
  EXPECT_ERROR(message(o), ErrorCode::out_of_range, "count");
  o = options(Task::circle);
  o.noise = -0.1f;
  EXPECT_ERROR(message(o), ErrorCode::out_of_range, "noise");
  o.noise = NAN;
  EXPECT_ERROR(message(o), ErrorCode::out_of_range, "noise");
  o = options(Task::circle);
  o.train_fraction = 0.0f;
  EXPECT_ERROR(message(o), ErrorCode::out_of_range, "train_fraction");
  o = options(Task::teacher);
  o.teacher_hidden = 0;
  EXPECT_ERROR(message(o), ErrorCode::out_of_range, "teacher.hidden");
  o = options(Task::teacher);
  o.teacher_rank = 4;
  EXPECT_ERROR(message(o), ErrorCode::out_of_range, "teacher.rank");
  const float bad_x[] = {0, NAN, 1, 1};
  const float y[] = {1, -1};
  EXPECT_ERROR(validate_user_points(bad_x, y, 2, 0.5f), ErrorCode::out_of_range, "points.x");
  const float x[] = {0, 0, 1, 1};
  const float bad_y[] = {1, 2};
  EXPECT_ERROR(validate_user_points(x, bad_y, 2, 0.5f), ErrorCode::invalid_value, "points.y");
  EXPECT_ERROR(validate_user_points(x, y, 1, 0.5f), ErrorCode::out_of_range, "points");
  EXPECT_EQ(parse_task("xor"), Task::xor_task);
  EXPECT_FALSE(parse_task("moons"));
}

TEST(Dataset, TrainCountKeepsBothSplitsNonEmpty) {
  EXPECT_EQ(train_count(10, 0.5f), 5);
  EXPECT_EQ(train_count(10, 1.0f), 9);
  EXPECT_EQ(train_count(10, 0.01f), 1);
}

TEST(Dataset, EitherKindOfTaskIsCheckedBuiltAndSizedAlike) {
  const float x[] = {0, 0, 1, 1, -1, 2, 3, -3, 0.5f, 0.5f};
  const float y[] = {1, 0, -1, 1, 0};
  DatasetOptions user = options(Task::user);
  user.count = 0;  // ignored: the points decide
  user.train_fraction = 0.6f;
  EXPECT_ERROR(validate(user), ErrorCode::invalid_value, "");
  EXPECT_OK(validate_task(user));
  EXPECT_OK(validate_points(user, x, y, 5));
  const Dataset mine = build_dataset(user, x, y, 5);
  const Dataset direct = user_dataset(x, y, 5, 0.6f, user.seed);
  EXPECT_EQ(mine.x_train, direct.x_train);
  EXPECT_EQ(mine.y_test, direct.y_test);
  int train = 0, test = 0;
  ASSERT_OK(dataset_sizes(user, 5, train, test));
  EXPECT_EQ(train, 3);
  EXPECT_EQ(test, 2);

  const DatasetOptions circle = options(Task::circle, 200);
  EXPECT_EQ(validate_task(circle), validate(circle));
  EXPECT_OK(validate_points(circle, nullptr, nullptr, 0));  // points are ignored
  EXPECT_EQ(build_dataset(circle, nullptr, nullptr, 0).x_train, make_dataset(circle).x_train);
  ASSERT_OK(dataset_sizes(circle, 0, train, test));
  EXPECT_EQ(train + test, 200);
  EXPECT_EQ(train, train_count(200, circle.train_fraction));
}

TEST(Dataset, UserTaskRefusalsNameTheFieldOrThePoints) {
  const float x[] = {0, 0, 1, 1};
  const float y[] = {1, -1};
  DatasetOptions user = options(Task::user);
  const std::string points = "points must hold from 2 to " + std::to_string(max_dataset_points) + " points";
  EXPECT_EQ(validate_points(user, x, y, 1), points);
  EXPECT_EQ(validate_points(user, nullptr, y, 2), points);
  EXPECT_EQ(validate_points(user, x, nullptr, 2), points);
  EXPECT_EQ(validate_points(user, x, y, max_dataset_points + 1), points);
  int train = -1, test = -1;
  EXPECT_EQ(dataset_sizes(user, 1, train, test), points);
  EXPECT_EQ(train, -1);
  user.train_fraction = 0.0f;
  EXPECT_ERROR(validate_task(user), ErrorCode::out_of_range, "train_fraction");
  EXPECT_ERROR(dataset_sizes(user, 2, train, test), ErrorCode::out_of_range, "train_fraction");
  DatasetOptions circle = options(Task::circle, 3);
  EXPECT_EQ(dataset_sizes(circle, 0, train, test), validate(circle));
}

TEST(Dataset, CopyOutGivesTheFourSplitsRowMajor) {
  const Dataset d = build_dataset(options(Task::spiral, 30, 0.05f), nullptr, nullptr, 0);
  const std::size_t tr = d.y_train.size(), te = d.y_test.size();
  std::vector<float> xtr(2 * tr), ytr(tr), xte(2 * te), yte(te);
  copy_dataset(d, xtr.data(), ytr.data(), xte.data(), yte.data());
  EXPECT_EQ(xtr[2 * (tr - 1) + 1], d.x_train(tr - 1, 1));
  EXPECT_EQ(ytr[tr - 1], d.y_train(tr - 1));
  EXPECT_EQ(xte[2 * 3], d.x_test(3, 0));
  EXPECT_EQ(yte[0], d.y_test(0));
  EXPECT_EQ(std::vector<float>(d.x_test.begin(), d.x_test.end()), xte);
}
