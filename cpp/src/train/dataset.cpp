// The 2-D tasks of the training race (see dataset.hpp). Shapes follow TensorFlow
// Playground's, scaled to [−1, 1]²; classes alternate point by point so every task is
// balanced. Angles for the spiral use a portable sine and cosine (arithmetic only), and
// every other shape uses rejection sampling, so no libm call can change a dataset.
#include "gatelab/train/dataset.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gatelab/base/rng.hpp"

namespace gatelab {
namespace {

constexpr double pi = 3.14159265358979323846;

// sin and cos of t by reduction to [−π/4, π/4] and Taylor series to degree 17/16 (error
// below 1e-16 there): +, −, ×, ÷ only.
void portable_sincos(double t, double& s, double& c) {
  const double quarter = pi / 2;
  const double k = std::floor(t / quarter + 0.5);
  const double r = t - k * quarter;
  double sr = 0, cr = 0, term_s = r, term_c = 1, r2 = r * r;
  for (int i = 0; i < 9; ++i) {
    sr += term_s;
    cr += term_c;
    term_s *= -r2 / ((2 * i + 2) * (2 * i + 3));
    term_c *= -r2 / ((2 * i + 1) * (2 * i + 2));
  }
  const int q = static_cast<int>(k - 4 * std::floor(k / 4));  // k mod 4
  s = q == 0 ? sr : q == 1 ? cr : q == 2 ? -sr : -cr;
  c = q == 0 ? cr : q == 1 ? -sr : q == 2 ? -cr : sr;
}

struct Points {
  std::vector<float> x;  // (n, 2)
  std::vector<float> y;  // (n) ±1
  void add(float a, float b, float label) {
    x.push_back(a);
    x.push_back(b);
    y.push_back(label);
  }
};

float label_of(int i) { return i % 2 == 0 ? 1.0f : -1.0f; }

void circle(Pcg32& rng, int n, Points& p) {
  for (int i = 0; i < n; ++i) {
    const float label = label_of(i);
    for (;;) {  // inner disc r < 0.5 is +1, ring 0.7 < r < 1 is −1
      const float a = rng.uniform(-1, 1), b = rng.uniform(-1, 1), r2 = a * a + b * b;
      if (label > 0 ? r2 < 0.25f : (r2 > 0.49f && r2 < 1.0f)) {
        p.add(a, b, label);
        break;
      }
    }
  }
}

void xor_points(Pcg32& rng, int n, Points& p) {
  for (int i = 0; i < n; ++i) {  // a margin of 0.05 keeps points off the axes
    float a = rng.uniform(-0.95f, 0.95f), b = rng.uniform(-0.95f, 0.95f);
    a += a >= 0 ? 0.05f : -0.05f;
    b += b >= 0 ? 0.05f : -0.05f;
    p.add(a, b, a * b >= 0 ? 1.0f : -1.0f);
  }
}

void gaussians(Pcg32& rng, int n, Points& p) {
  for (int i = 0; i < n; ++i) {
    const float label = label_of(i), centre = 0.5f * label;
    p.add(centre + 0.3f * rng.normal(), centre + 0.3f * rng.normal(), label);
  }
}

void spiral(int n, Points& p) {
  const int per_arm = (n + 1) / 2;
  for (int i = 0; i < n; ++i) {
    const float label = label_of(i);
    const double f = static_cast<double>(i / 2) / per_arm;
    const double r = 0.05 + 0.95 * f, t = 1.75 * f * 2 * pi + (label > 0 ? 0.0 : pi);
    double s, c;
    portable_sincos(t, s, c);
    p.add(static_cast<float>(r * s), static_cast<float>(r * c), label);
  }
}

void checkerboard(Pcg32& rng, int n, Points& p) {
  for (int i = 0; i < n; ++i) {  // 4 × 4 cells of side 0.5 on [−1, 1]²
    const float a = rng.uniform(-1, 1), b = rng.uniform(-1, 1);
    const int cell = static_cast<int>((a + 1) * 2) + static_cast<int>((b + 1) * 2);
    p.add(a, b, cell % 2 == 0 ? 1.0f : -1.0f);
  }
}

LayerConfig teacher_config(const DatasetOptions& o) {
  LayerConfig c;
  c.kind = o.teacher_kind;
  c.activation = o.teacher_activation;
  c.d_in = 3;  // (x, y, 1): the constant feature gives the teacher's units biases
  c.hidden = o.teacher_hidden;
  c.d_out = 1;
  c.rank = o.teacher_rank;
  c.seed = o.seed ^ 0x7eac4e5ull;
  return c;
}

void teacher(Pcg32& rng, int n, const DatasetOptions& o, Points& p) {
  std::vector<float> features(static_cast<std::size_t>(n) * 3), out(n);
  for (int i = 0; i < n; ++i) {
    features[i * 3] = rng.uniform(-1, 1);
    features[i * 3 + 1] = rng.uniform(-1, 1);
    features[i * 3 + 2] = 1.0f;
  }
  const Layer layer(teacher_config(o));
  layer.forward_unchecked(features.data(), n, out.data());  // n ≤ max_dataset_points, checked
  // Threshold at the median so the classes are balanced whatever the teacher's offset.
  std::vector<float> sorted(out);
  std::sort(sorted.begin(), sorted.end());
  const float median = sorted[n / 2];
  for (int i = 0; i < n; ++i) p.add(features[i * 3], features[i * 3 + 1], out[i] >= median ? 1.0f : -1.0f);
}

// Shuffles the points with rng and copies them into the two splits.
Dataset split(const Points& p, int count, float fraction, Pcg32& rng) {
  std::vector<int> order(count);
  for (int i = 0; i < count; ++i) order[i] = i;
  for (int i = count - 1; i > 0; --i) std::swap(order[i], order[rng.below(static_cast<std::uint32_t>(i + 1))]);
  const std::size_t n_train = train_count(count, fraction), n_test = count - n_train;
  Dataset d{xt::xtensor<float, 2>::from_shape({n_train, 2}), xt::xtensor<float, 1>::from_shape({n_train}),
            xt::xtensor<float, 2>::from_shape({n_test, 2}), xt::xtensor<float, 1>::from_shape({n_test})};
  for (int i = 0; i < count; ++i) {
    const int src = order[i];
    const bool train = static_cast<std::size_t>(i) < n_train;
    const std::size_t row = train ? i : i - n_train;
    float* x = train ? d.x_train.data() : d.x_test.data();
    float* y = train ? d.y_train.data() : d.y_test.data();
    x[row * 2] = p.x[src * 2];
    x[row * 2 + 1] = p.x[src * 2 + 1];
    y[row] = p.y[src];
  }
  return d;
}

Status fraction_error(float fraction) {
  if (!(fraction > 0.0f && fraction <= 1.0f))
    return out_of_range("train_fraction", "train_fraction must be a number in (0, 1]");
  return {};
}

}  // namespace

const char* task_name(Task task) {
  switch (task) {
    case Task::circle: return "circle";
    case Task::xor_task: return "xor";
    case Task::gaussians: return "gaussians";
    case Task::spiral: return "spiral";
    case Task::checkerboard: return "checkerboard";
    case Task::teacher: return "teacher";
    case Task::user: return "user";
  }
  return "?";
}

Task task_by_index(int i) { return static_cast<Task>(i); }

std::optional<Task> parse_task(std::string_view name) {
  return optional_from<Task>([&](Task& v) { return parse_task(name, v); });
}

Status parse_task(std::string_view name, Task& out) {
  return parse_choice(
      name, "task",
      {Task::circle, Task::xor_task, Task::gaussians, Task::spiral, Task::checkerboard, Task::teacher, Task::user},
      task_name, out);
}

int train_count(int count, float fraction) {
  const int n = static_cast<int>(static_cast<float>(count) * fraction + 0.5f);
  return std::min(std::max(n, 1), count - 1);
}

Status validate(const DatasetOptions& o) {
  if (o.task == Task::user)
    return invalid_value("", "the 'user' task takes its points from validate_user_points/user_dataset");
  if (o.count < 4 || o.count > max_dataset_points) {
    return out_of_range("count", "count must be an integer from 4 to " + std::to_string(max_dataset_points) + " (got " +
                                     std::to_string(o.count) + ")");
  }
  if (!(o.noise >= 0.0f && o.noise <= max_dataset_noise))
    return out_of_range("noise", "noise must be a number from 0 to 2");
  if (Status e = fraction_error(o.train_fraction); !e.ok()) return e;
  if (o.task == Task::teacher) {
    if (o.teacher_hidden < 1 || o.teacher_hidden > max_teacher_hidden) {
      return out_of_range("teacher.hidden",
                          "teacher.hidden must be an integer from 1 to " + std::to_string(max_teacher_hidden));
    }
    if (Status e = validate(teacher_config(o)); !e.ok()) return e.within("teacher");
  }
  return {};
}

Dataset make_dataset(const DatasetOptions& o) {
  Pcg32 rng(o.seed, 0x5eed);
  Points p;
  p.x.reserve(static_cast<std::size_t>(o.count) * 2);
  p.y.reserve(o.count);
  switch (o.task) {
    case Task::circle: circle(rng, o.count, p); break;
    case Task::xor_task: xor_points(rng, o.count, p); break;
    case Task::gaussians: gaussians(rng, o.count, p); break;
    case Task::spiral: spiral(o.count, p); break;
    case Task::checkerboard: checkerboard(rng, o.count, p); break;
    case Task::teacher: teacher(rng, o.count, o, p); break;
    case Task::user: break;
  }
  for (float& v : p.x) v += o.noise * rng.normal();  // jitter after labelling: noisy boundaries
  return split(p, o.count, o.train_fraction, rng);
}

Status validate_user_points(const float* x, const float* y, int count, float fraction) {
  if (count < 2 || count > max_dataset_points) {
    return out_of_range("points", "points must hold from 2 to " + std::to_string(max_dataset_points) + " points (got " +
                                      std::to_string(count) + ")");
  }
  if (Status e = fraction_error(fraction); !e.ok()) return e;
  for (int i = 0; i < 2 * count; ++i) {
    if (!(std::fabs(x[i]) <= max_user_coordinate)) {
      return out_of_range("points.x", "x[" + std::to_string(i) + "] must be finite with |x| <= " +
                                          std::to_string(static_cast<int>(max_user_coordinate)));
    }
  }
  for (int i = 0; i < count; ++i) {
    if (y[i] != -1.0f && y[i] != 0.0f && y[i] != 1.0f)
      return invalid_value("points.y", "y[" + std::to_string(i) + "] must be -1, 0 or 1");
  }
  return {};
}

Dataset user_dataset(const float* x, const float* y, int count, float fraction, std::uint64_t seed) {
  Points p;
  for (int i = 0; i < count; ++i) p.add(x[i * 2], x[i * 2 + 1], y[i] > 0 ? 1.0f : -1.0f);
  Pcg32 rng(seed, 0x5eed);
  return split(p, count, fraction, rng);
}

Status validate_task(const DatasetOptions& o) {
  return o.task == Task::user ? fraction_error(o.train_fraction) : validate(o);
}

namespace {

Status point_count_error() {
  return out_of_range("points", "points must hold from 2 to " + std::to_string(max_dataset_points) + " points");
}

}  // namespace

Status validate_points(const DatasetOptions& o, const float* x, const float* y, int count) {
  if (o.task != Task::user) return {};
  if (count < 2 || count > max_dataset_points || x == nullptr || y == nullptr) return point_count_error();
  return validate_user_points(x, y, count, o.train_fraction);
}

Dataset build_dataset(const DatasetOptions& o, const float* x, const float* y, int count) {
  return o.task == Task::user ? user_dataset(x, y, count, o.train_fraction, o.seed) : make_dataset(o);
}

Status dataset_sizes(const DatasetOptions& o, int user_count, int& train, int& test) {
  if (Status e = validate_task(o); !e.ok()) return e;
  const int count = o.task == Task::user ? user_count : o.count;
  if (count < 2 || count > max_dataset_points) return point_count_error();
  train = train_count(count, o.train_fraction);
  test = count - train;
  return {};
}

void copy_dataset(const Dataset& d, float* x_train, float* y_train, float* x_test, float* y_test) {
  std::copy(d.x_train.begin(), d.x_train.end(), x_train);
  std::copy(d.y_train.begin(), d.y_train.end(), y_train);
  std::copy(d.x_test.begin(), d.x_test.end(), x_test);
  std::copy(d.y_test.begin(), d.y_test.end(), y_test);
}

}  // namespace gatelab
