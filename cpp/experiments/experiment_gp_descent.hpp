// The gp-descent experiments (docs/EXPERIMENTS.md, "Paper B settled fairly"): the questions the
// gp-recursion run left open, each a suite of (model, seed) jobs on the GP in-context task.
//   grid      step size against recursion: η ∈ {1/16, 1/8, 1/4, 1/2} × T ∈ {1, 2, 4, 8}, a learned
//             η per layer (softplus, starting at 1/4, docs/MATH.md §B14) at each T, separate T for
//             attention and MLP, the preconditioners at T = 1, and the standard transformer. Each
//             job is scored on a dev set (where η is chosen) and on the held-out set (reported), and
//             every single-T CEM job is evaluated again at T′ = 1 … 8 (test-time recursion) with
//             per-step probes of its blocks: the energy of every position, whether each step
//             lowered it, and the attention entropy (§B15).
//   diagonal  the diagonal where the paper says it matters: input width dx = 1, 8, 16 with head
//             width 8, none / per-head / shared diagonal, the learned diagonal's norm beside
//             ‖W_Qᵀ W_K‖ per head.
//   small-eta (exploratory, added after the grid) η = 1/32 against 1/16 at T = 2, 4, 8, beside T = 1
//             at its dev-chosen 1/8, because the grid's dev choice for T ≥ 2 was its edge.
// A job is deterministic and independent of the others; its JSON is written on its own, so a
// run can resume, and the JS side (scripts/experiments/gp-descent.mjs) merges and analyses them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiment_gp.hpp"

namespace gatelab {

struct GpDescentSettings {
  GpExperimentConfig base;  // training, width, held-out set; base.models is unused
  int dev_sequences = 256;
  std::uint64_t dev_seed = 20240707;                       // the dev set: its own stream, disjoint from held-out
  std::vector<int> eval_steps = {1, 2, 3, 4, 5, 6, 7, 8};  // T′ of the test-time evaluation
  int test_time_sequences = 256;                           // held-out sequences scored at each T′
  int probe_sequences = 16;                                // held-out sequences the per-step probes average over
};

struct GpDescentJob {
  std::string suite, name;  // name: a stable id, e.g. "cem-t2-eta0.25", "diag-shared-dx8"
  GpModelSpec spec;
  int dx = 1;
  int seed = 1;
};

// The settings every suite shares (quick: the test-sized run).
GpDescentSettings gp_descent_settings(bool quick);
// The data of a job with input width dx: the base data with that dx and the kernel's length
// scale ℓ·√dx. Two uniform inputs on [−1, 1]^dx lie E‖a − b‖² = 2dx/3 apart, so with ℓ fixed
// the correlation exp(−‖a − b‖²/2ℓ²) of two inputs would vanish as dx grows (at dx = 8, ℓ = 0.5:
// about e^{−11}), leaving nothing to learn in context; scaling ℓ keeps it at its dx = 1 value.
GpDataConfig gp_descent_data(const GpDescentSettings& settings, int dx);
// Every job of a suite for seeds 1 … seeds, or "" and an error in *error.
std::vector<GpDescentJob> gp_descent_jobs(const std::string& suite, bool quick, int seeds, std::string* error);

// Runs one job and returns its JSON object (fields documented in gp_descent_job_json).
std::string gp_descent_run(const GpDescentSettings& settings, const GpDescentJob& job);
// The settings and, per dx the suite uses, the held-out baselines: the header of a merged run.
std::string gp_descent_header_json(const std::string& suite, const GpDescentSettings& settings,
                                   const std::vector<int>& dxs);

}  // namespace gatelab
