// Two-dimensional binary classification tasks for the training race (docs/MATH.md §T1):
// circle, xor, two gaussians, spiral, checkerboard, a teacher network of any kind, and the
// user's own points. Points lie in about [−1, 1]²; labels are ±1 (a user's 0 is read as −1).
// Everything is drawn from one Pcg32 seed, then shuffled and split into train and test, so a
// seed names a dataset exactly, natively and in wasm.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <xtensor/xtensor.hpp>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

enum class Task { circle, xor_task, gaussians, spiral, checkerboard, teacher, user };
inline constexpr int task_count = 7;

const char* task_name(Task task);  // "circle", "xor", "gaussians", "spiral", "checkerboard", "teacher", "user"
std::optional<Task> parse_task(std::string_view name);
Status parse_task(std::string_view name, Task& out);  // the same as a status naming "task"
Task task_by_index(int i);  // catalogue order; the first six are the built-in (generated) tasks
inline constexpr int builtin_task_count = 6;

// Documented caps.
inline constexpr int max_dataset_points = 20000;
inline constexpr float max_dataset_noise = 2.0f;
inline constexpr float max_user_coordinate = 1e4f;
inline constexpr int max_teacher_hidden = 256;

struct DatasetOptions {
  Task task = Task::circle;
  int count = 200;              // total points, train + test
  float noise = 0.1f;           // std of Gaussian jitter added to the inputs (gaussians: extra spread)
  float train_fraction = 0.5f;  // both splits get at least one point
  std::uint64_t seed = 0;
  // teacher: a random layer (d_in = 2 + constant feature, d_out = 1) labels sign(f(x) − median).
  LayerKind teacher_kind = LayerKind::gated;
  ActivationSpec teacher_activation{Activation::relu, 1.0f};
  int teacher_hidden = 8;
  int teacher_rank = 1;
};

struct Dataset {
  xt::xtensor<float, 2> x_train;  // (n_train, 2)
  xt::xtensor<float, 1> y_train;  // (n_train) ±1
  xt::xtensor<float, 2> x_test;   // (n_test, 2)
  xt::xtensor<float, 1> y_test;   // (n_test) ±1
};

// ok when the options are valid (task ≠ user), else a status naming the field.
Status validate(const DatasetOptions& options);
// Points in the train split for count points: round(count · fraction), clamped to [1, count − 1].
int train_count(int count, float train_fraction);

// Precondition: validate(options) is ok.
Dataset make_dataset(const DatasetOptions& options);

// User points: x (count, 2), y (count) with labels in {−1, 0, 1} (0 → −1); shuffled by seed.
Status validate_user_points(const float* x, const float* y, int count, float train_fraction);
Dataset user_dataset(const float* x, const float* y, int count, float train_fraction, std::uint64_t seed);

// Either kind of task, for callers that hold the options and maybe the user's points:
// validate() for a generated task; for the user task, whose points come separately, only
// the train fraction.
Status validate_task(const DatasetOptions& options);
// For the user task: x (count, 2) and y (count) hold 2 … max_dataset_points valid user
// points; ok for every other task (the points are then ignored and may be null).
Status validate_points(const DatasetOptions& options, const float* x, const float* y, int count);
// The dataset: generated, or the user's points split by options.seed. Precondition:
// validate_task and validate_points are ok.
Dataset build_dataset(const DatasetOptions& options, const float* x, const float* y, int count);
// Copies the four splits out, row-major: x_train (n_train, 2), y_train, x_test (n_test, 2), y_test.
void copy_dataset(const Dataset& data, float* x_train, float* y_train, float* x_test, float* y_test);
// The train and test sizes build_dataset will give (user_count points for the user task), or
// why there is no such dataset.
Status dataset_sizes(const DatasetOptions& options, int user_count, int& train, int& test);

}  // namespace gatelab
