// Embind registrations for the paper-A experiments, part 1: datasets and the trainer, and
// the option conversions both parts share (bind_paper_a.hpp). Part 2, the race, census,
// rank-r approximation and interactions, is bind_paper_a_analysis.cpp; web/lib/paper-a.js
// wraps both. Same conventions as bindings.cpp: coarse calls, arrays by heap pointer, every
// problem returned as an error string ("" = ok), never thrown; the JS layer validates
// first and these functions check again whatever C++ relies on.
#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "bind_paper_a.hpp"
#include "gatelab/train/trainer.hpp"

using namespace emscripten;
using namespace gatelab;

namespace gatelab::bind {

std::string check_seed(double seed, const char* name) {
  if (!(seed >= 0 && seed <= 4294967295.0) || std::floor(seed) != seed) {
    return std::string(name) + " must be an integer from 0 to 4294967295";
  }
  return {};
}

std::string parse_activation_spec(const std::string& name, float beta, ActivationSpec& out, const char* field) {
  const auto a = parse_activation(name);
  if (!a) return std::string(field) + " must be one of the catalogue names (got '" + name + "')";
  if (!std::isfinite(beta) || std::fabs(beta) > max_swish_beta) return "beta must be finite with |beta| <= 100";
  out = {*a, beta};
  return {};
}

std::string to_dataset(const DataOptions& j, DatasetOptions& o) {
  const auto task = parse_task(j.task);
  if (!task) return "task must be one of 'circle', 'xor', 'gaussians', 'spiral', 'checkerboard', 'teacher', 'user'";
  const auto kind = parse_layer_kind(j.teacherKind);
  if (!kind) return "teacher.kind must be 'mlp', 'symmetric' or 'gated'";
  if (std::string e = check_seed(j.seed, "seed"); !e.empty()) return e;
  o.task = *task;
  o.count = j.count;
  o.noise = j.noise;
  o.train_fraction = j.trainFraction;
  o.seed = static_cast<std::uint64_t>(j.seed);
  o.teacher_kind = *kind;
  o.teacher_hidden = j.teacherHidden;
  o.teacher_rank = j.teacherRank;
  if (std::string e = parse_activation_spec(j.teacherActivation, j.teacherBeta, o.teacher_activation, "teacher.activation");
      !e.empty()) {
    return e;
  }
  if (o.task == Task::user) {
    return o.train_fraction > 0 && o.train_fraction <= 1 ? std::string() : "trainFraction must be a number in (0, 1]";
  }
  return validate(o);
}

std::string check_points(const DataOptions& j, Ptr x, Ptr y, int count) {
  if (j.task != "user") return {};
  if (count < 2 || count > max_dataset_points || !x || !y) {
    return "points must hold from 2 to " + std::to_string(max_dataset_points) + " points";
  }
  return validate_user_points(f32(x), f32(y), count, j.trainFraction);
}

std::string build_dataset(const DataOptions& j, Ptr x, Ptr y, int count, Dataset& out) {
  DatasetOptions o;
  if (std::string e = to_dataset(j, o); !e.empty()) return e;
  if (std::string e = check_points(j, x, y, count); !e.empty()) return e;
  out = o.task == Task::user ? user_dataset(f32(x), f32(y), count, o.train_fraction, o.seed) : make_dataset(o);
  return {};
}

std::string to_trainer(const TrainOptions& j, TrainerOptions& t) {
  const auto kind = parse_layer_kind(j.kind);
  if (!kind) return "kind must be 'mlp', 'symmetric' or 'gated' (got '" + j.kind + "')";
  const auto loss = parse_loss(j.loss);
  if (!loss) return "loss must be 'mse' or 'cross_entropy'";
  const auto opt = parse_optimizer(j.optimizer);
  if (!opt) return "optimizer must be 'sgd', 'momentum' or 'adam'";
  if (std::string e = check_seed(j.seed, "seed"); !e.empty()) return e;
  if (std::string e = parse_activation_spec(j.activation, j.beta, t.layer.activation, "activation"); !e.empty()) return e;
  t.layer.kind = *kind;
  t.layer.hidden = j.hidden;
  t.layer.rank = j.rank;
  t.layer.seed = static_cast<std::uint64_t>(j.seed);
  t.bias_feature = j.biasFeature;
  t.loss = *loss;
  t.optimizer = {*opt, j.learningRate, j.momentum, j.beta1, j.beta2, j.epsilon};
  t.batch_size = j.batchSize;
  t.eval_every = j.evalEvery;
  return validate(t);
}

}  // namespace gatelab::bind

using namespace gatelab::bind;

namespace {

struct Sizes {
  std::string error;
  int train = 0, test = 0;
};

Sizes dataset_sizes(const DataOptions& j, int user_count) {
  DatasetOptions o;
  Sizes s{to_dataset(j, o)};
  if (!s.error.empty()) return s;
  const int count = o.task == Task::user ? user_count : o.count;
  if (count < 2 || count > max_dataset_points) {
    s.error = "points must hold from 2 to " + std::to_string(max_dataset_points) + " points";
    return s;
  }
  s.train = train_count(count, o.train_fraction);
  s.test = count - s.train;
  return s;
}

void copy_dataset(const Dataset& d, Ptr xtr, Ptr ytr, Ptr xte, Ptr yte) {
  std::copy(d.x_train.begin(), d.x_train.end(), f32(xtr));
  std::copy(d.y_train.begin(), d.y_train.end(), f32(ytr));
  std::copy(d.x_test.begin(), d.x_test.end(), f32(xte));
  std::copy(d.y_test.begin(), d.y_test.end(), f32(yte));
}

std::string make_dataset_into(const DataOptions& j, Ptr x, Ptr y, int count, Ptr xtr, Ptr ytr, Ptr xte, Ptr yte) {
  Dataset d;
  std::string e = build_dataset(j, x, y, count, d);
  if (e.empty()) copy_dataset(d, xtr, ytr, xte, yte);
  return e;
}

// ---- trainer ------------------------------------------------------------------------

struct StepResult {
  std::string error;
  int done = 0;
  bool diverged = false;
  int step = 0, rolledBackTo = 0;
  std::string cause, message;
};

std::string validate_trainer(const TrainOptions& t, const DataOptions& d, Ptr x, Ptr y, int count) {
  TrainerOptions o;
  if (std::string e = to_trainer(t, o); !e.empty()) return e;
  DatasetOptions dopt;
  if (std::string e = to_dataset(d, dopt); !e.empty()) return e;
  return check_points(d, x, y, count);
}

// Precondition (checked by the JS layer through paValidateTrainer): everything is valid.
Trainer* create_trainer(const TrainOptions& t, const DataOptions& d, Ptr x, Ptr y, int count) {
  TrainerOptions o;
  to_trainer(t, o);
  Dataset data;
  build_dataset(d, x, y, count, data);
  return new Trainer(o, std::move(data));
}

StepResult trainer_step(Trainer& trainer, int n) {
  StepResult r;
  if (n < 1 || n > max_steps_per_call) {
    r.error = "n must be an integer from 1 to " + std::to_string(max_steps_per_call);
    return r;
  }
  r.done = trainer.step(n);
  const Divergence& d = trainer.divergence();
  r.diverged = d.diverged;
  r.step = d.step;
  r.rolledBackTo = d.rolled_back_to;
  r.cause = d.cause;
  r.message = d.message;
  return r;
}

int history_size(const Trainer& t) { return static_cast<int>(t.history().size()); }

// Records [from, from + count) as rows of train_record_fields floats.
std::string copy_history(const Trainer& t, int from, int count, Ptr out) {
  const int size = history_size(t);
  if (from < 0 || count < 0 || from + count > size) return "history range out of bounds";
  float* o = f32(out);
  for (int i = 0; i < count; ++i) {
    const TrainRecord& r = t.history()[from + i];
    const float row[train_record_fields] = {static_cast<float>(r.step), r.train_loss, r.test_loss,
                                            r.train_accuracy, r.test_accuracy, r.grad_norm};
    std::copy(row, row + train_record_fields, o + static_cast<std::size_t>(i) * train_record_fields);
  }
  return {};
}

std::string trainer_grid(const Trainer& t, int g, float extent, Ptr out) {
  if (g < 2 || g > max_grid_side) return "size must be an integer from 2 to " + std::to_string(max_grid_side);
  if (!(extent > 0 && extent <= max_grid_extent)) return "extent must be a number in (0, 10000]";
  t.grid(g, extent, f32(out));
  return {};
}

std::string set_learning_rate(Trainer& t, float lr) {
  if (!(lr > 0 && lr <= max_learning_rate)) return "learningRate must be a number in (0, 1000000]";
  t.set_learning_rate(lr);
  return {};
}

int trainer_param_size(const Trainer& t, int which) {
  const LayerParams& p = t.layer().params();
  return static_cast<int>(which == 0 ? p.q.size() : which == 1 ? p.k.size() : p.v.size());
}

void trainer_params(const Trainer& t, Ptr q, Ptr k, Ptr v) {
  const LayerParams& p = t.layer().params();
  std::copy(p.q.begin(), p.q.end(), f32(q));
  std::copy(p.k.begin(), p.k.end(), f32(k));
  std::copy(p.v.begin(), p.v.end(), f32(v));
}

int trainer_counts(const Trainer& t, int which) {
  return static_cast<int>(which == 0 ? t.data().y_train.size() : t.data().y_test.size());
}

void trainer_data(const Trainer& t, Ptr xtr, Ptr ytr, Ptr xte, Ptr yte) { copy_dataset(t.data(), xtr, ytr, xte, yte); }

int trainer_steps(const Trainer& t) { return t.steps_done(); }
int trainer_d_in(const Trainer& t) { return t.layer().config().d_in; }
int trainer_parameter_count(const Trainer& t) { return static_cast<int>(t.layer().parameter_count()); }

}  // namespace

EMSCRIPTEN_BINDINGS(paper_a) {
  constant("maxDatasetPoints", max_dataset_points);
  constant("maxGridSide", max_grid_side);
  constant("maxStepsPerCall", max_steps_per_call);
  constant("maxTrainerUnits", max_trainer_units);
  constant("maxLearningRate", static_cast<double>(max_learning_rate));
  constant("trainRecordFields", train_record_fields);

  value_object<DataOptions>("PaDataOptions")
      .field("task", &DataOptions::task)
      .field("count", &DataOptions::count)
      .field("noise", &DataOptions::noise)
      .field("trainFraction", &DataOptions::trainFraction)
      .field("seed", &DataOptions::seed)
      .field("teacherKind", &DataOptions::teacherKind)
      .field("teacherActivation", &DataOptions::teacherActivation)
      .field("teacherBeta", &DataOptions::teacherBeta)
      .field("teacherHidden", &DataOptions::teacherHidden)
      .field("teacherRank", &DataOptions::teacherRank);
  value_object<TrainOptions>("PaTrainOptions")
      .field("kind", &TrainOptions::kind)
      .field("activation", &TrainOptions::activation)
      .field("beta", &TrainOptions::beta)
      .field("hidden", &TrainOptions::hidden)
      .field("rank", &TrainOptions::rank)
      .field("seed", &TrainOptions::seed)
      .field("biasFeature", &TrainOptions::biasFeature)
      .field("loss", &TrainOptions::loss)
      .field("optimizer", &TrainOptions::optimizer)
      .field("learningRate", &TrainOptions::learningRate)
      .field("momentum", &TrainOptions::momentum)
      .field("beta1", &TrainOptions::beta1)
      .field("beta2", &TrainOptions::beta2)
      .field("epsilon", &TrainOptions::epsilon)
      .field("batchSize", &TrainOptions::batchSize)
      .field("evalEvery", &TrainOptions::evalEvery);
  value_object<Sizes>("PaSizes").field("error", &Sizes::error).field("train", &Sizes::train).field("test", &Sizes::test);
  value_object<StepResult>("PaStepResult")
      .field("error", &StepResult::error)
      .field("done", &StepResult::done)
      .field("diverged", &StepResult::diverged)
      .field("step", &StepResult::step)
      .field("rolledBackTo", &StepResult::rolledBackTo)
      .field("cause", &StepResult::cause)
      .field("message", &StepResult::message);

  function("paDatasetSizes", &dataset_sizes);
  function("paMakeDataset", &make_dataset_into);
  function("paValidateTrainer", &validate_trainer);
  function("paCreateTrainer", &create_trainer, allow_raw_pointers());
  class_<Trainer>("PaTrainer")
      .function("step", &trainer_step)
      .function("historySize", &history_size)
      .function("copyHistory", &copy_history)
      .function("grid", &trainer_grid)
      .function("setLearningRate", &set_learning_rate)
      .function("paramSize", &trainer_param_size)
      .function("getParams", &trainer_params)
      .function("count", &trainer_counts)
      .function("getData", &trainer_data)
      .function("stepsDone", &trainer_steps)
      .function("dIn", &trainer_d_in)
      .function("parameterCount", &trainer_parameter_count);
}
