// The gp-recursion experiment (docs/MATH.md §B7): models of equal width and depth — a
// standard transformer and CEM tied attention + tied MLP with T = 1, 2, 4, 8, with and without
// a shared diagonal, with and without a preconditioner — each trained for several seeds on
// fresh GP sequences (GpSession), then scored on one held-out set beside the exact GP
// posterior mean (the best achievable), the running context mean and the prior mean 0.
// gp_run is one (model, seed) job: deterministic, independent of the others, so a runner may
// spread jobs over threads and still get the same numbers. gp_experiment_json writes the
// configuration, the baselines and every job's result (the JS side makes the tables).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gatelab/gp/session.hpp"
#include "gatelab/gp/data.hpp"

namespace gatelab {

struct GpExperimentConfig {
  GpTrainConfig train;  // train.seed is replaced by each job's seed
  std::vector<GpModelSpec> models;
  int seeds = 3;  // seeds 1 … seeds
  int train_steps = 1200;
  int eval_sequences = 512;
  std::uint64_t eval_seed = 20240601;  // the held-out set (a stream no training seed uses)
  int curve_points = 10;               // held-out RMSE measured this many times while training
  int curve_sequences = 128;           // … on the first this many held-out sequences
};

// The settings of `npm run experiment -- gp-recursion` (quick: the test-sized run).
GpExperimentConfig gp_experiment_defaults(bool quick);
// standard; cem T = 1, 2, 4, 8 (shared diagonal); T = 2 without a diagonal and with a per-head
// diagonal; T = 2 with the paper's and with the positive-definite preconditioner (rank r).
std::vector<GpModelSpec> gp_default_models(int precond_rank);
std::string validate(const GpExperimentConfig& config);

struct GpBaselines {
  std::vector<double> posterior_rmse, context_mean_rmse, zero_rmse;  // by position (n)
  std::vector<double> posterior_sd;                  // mean predictive sd by position (the expected error)
  double posterior = 0, context_mean = 0, zero = 0;  // overall RMSE
  std::vector<std::vector<double>> posterior_means;  // per held-out sequence
};
GpBaselines gp_baselines(const GpDataConfig& data, const std::vector<GpSequence>& eval);

struct GpRunResult {
  int model = 0, seed = 0;
  std::string label, error;
  std::size_t parameters = 0;
  bool diverged = false;
  std::vector<double> rmse_by_position;
  double rmse = 0;
  std::vector<int> curve_steps;
  std::vector<double> curve_rmse;        // held-out RMSE on the curve subset
  std::vector<double> curve_train_loss;  // mean train MSE over each curve interval
  GpLeakCheck leak;
  double seconds = 0;
};

// Errors of a session's predictions on the first `count` sequences of a set; keeps the
// predictions when asked.
GpErrors gp_evaluate(GpSession& session, const std::vector<GpSequence>& set, int count,
                     std::vector<std::vector<double>>* predictions = nullptr);

// progress(fraction done, latest train loss) is called about every 5 % of the steps.
using GpProgress = std::function<void(double, double)>;
GpRunResult gp_run(const GpExperimentConfig& config, int model, int seed, const std::vector<GpSequence>& eval,
                   const GpBaselines& baselines, const GpProgress& progress = {});

std::string gp_experiment_json(const GpExperimentConfig& config, const GpBaselines& baselines,
                               const std::vector<GpRunResult>& runs, double seconds, int threads);

}  // namespace gatelab
