// Options shared by the paper-A binding files: the JS-side option objects (value_objects,
// every field filled in by web/lib/paper-a.js) and their conversion into core options,
// each returning "" or a message naming the field.
#pragma once

#include <cstdint>
#include <string>

#include "gatelab/train/dataset.hpp"
#include "gatelab/train/trainer.hpp"

namespace gatelab::bind {

using Ptr = std::uintptr_t;
inline float* f32(Ptr p) { return reinterpret_cast<float*>(p); }

struct DataOptions {
  std::string task, teacherKind, teacherActivation;
  int count = 0, teacherHidden = 8, teacherRank = 1;
  float noise = 0, trainFraction = 0.5f, teacherBeta = 1;
  double seed = 0;
};

struct TrainOptions {
  std::string kind, activation, loss, optimizer;
  float beta = 1, learningRate = 0.01f, momentum = 0.9f, beta1 = 0.9f, beta2 = 0.999f, epsilon = 1e-8f;
  int hidden = 8, rank = 1, batchSize = 32, evalEvery = 1;
  bool biasFeature = true;
  double seed = 0;
};

std::string check_seed(double seed, const char* name);
std::string parse_activation_spec(const std::string& name, float beta, ActivationSpec& out, const char* field);
std::string to_dataset(const DataOptions& j, DatasetOptions& out);
std::string to_trainer(const TrainOptions& j, TrainerOptions& out);
// The dataset for j; for the 'user' task the points come from x (count, 2) and y (count).
std::string build_dataset(const DataOptions& j, Ptr x, Ptr y, int count, Dataset& out);
// Validates user points when the task is 'user' (no-op otherwise).
std::string check_points(const DataOptions& j, Ptr x, Ptr y, int count);

}  // namespace gatelab::bind
