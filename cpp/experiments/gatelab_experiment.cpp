// gatelab_experiment: the native runner of the experiments.
//   gatelab_experiment gp-recursion [--quick] [--seeds N] [--threads K] [--out FILE] [overrides]
//   gatelab_experiment gp-descent --suite grid|diagonal …                                   (gp_descent_commands.cpp)
//   gatelab_experiment lm-variants | lm-job | lm-jobs | lm-time --experiment mlp-lm|tiny-lm|lm-figure …
//                                                                                          (lm_commands.cpp)
// Every (model, seed) job is independent and deterministic; K std::threads take jobs from a
// shared counter, so the results do not depend on K or on scheduling. Progress goes to
// stderr as it happens, the result JSON to FILE (or stdout). scripts/experiments/*.mjs run
// this binary and turn the JSON into tables and SVG plots.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "experiment_gp.hpp"
#include "runner_support.hpp"

using namespace gatelab;

namespace {

using namespace gatelab::runner;

// Keeps only the models whose index is listed in --models (comma-separated), when given.
template <class Spec>
void filter_models(const Args& args, std::vector<Spec>& models) {
  if (!args.has("models")) return;
  std::vector<Spec> kept;
  std::stringstream list(args.text("models", ""));
  for (std::string item; std::getline(list, item, ',');) {
    char* end = nullptr;
    const long i = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || i < 0 || i >= long(models.size())) {
      fail("--models needs indices from 0 to " + std::to_string(models.size() - 1) + " (got '" + item + "')");
    }
    kept.push_back(models[i]);
  }
  models = kept;
}

int gp_recursion(const Args& args, int threads) {
  GpExperimentConfig c = gp_experiment_defaults(args.has("quick"));
  GpTrainConfig& t = c.train;
  c.seeds = args.integer("seeds", c.seeds);
  c.train_steps = args.integer("steps", c.train_steps);
  c.eval_sequences = args.integer("eval", c.eval_sequences);
  t.data.dx = args.integer("dx", t.data.dx);
  t.data.length = args.integer("length", t.data.length);
  t.data.length_scale = args.number("length-scale", t.data.length_scale);
  t.data.noise_std = args.number("noise", t.data.noise_std);
  t.d = args.integer("d", t.d);
  t.layers = args.integer("layers", t.layers);
  t.heads = args.integer("heads", t.heads);
  t.hidden = args.integer("hidden", t.hidden);
  t.eta = static_cast<float>(args.number("eta", t.eta));
  t.batch = args.integer("batch", t.batch);
  t.lr = static_cast<float>(args.number("lr", t.lr));
  t.warmup = args.integer("warmup", t.warmup);
  t.decay_steps = c.train_steps;
  filter_models(args, c.models);
  if (std::string e = validate(c); !e.empty()) fail(e);

  const auto started = std::chrono::steady_clock::now();
  const auto eval = gp_sample_set(t.data, c.eval_sequences, c.eval_seed);
  const GpBaselines baselines = gp_baselines(t.data, eval);
  say(fmt("gp-recursion: %.0f models x %.0f seeds, %.0f steps each", double(c.models.size()), c.seeds, c.train_steps) +
      fmt("; held-out RMSE: GP posterior %.4f, context mean %.4f,", baselines.posterior, baselines.context_mean) +
      fmt(" zero %.4f", baselines.zero));
  const int jobs = static_cast<int>(c.models.size()) * c.seeds;
  std::vector<GpRunResult> runs(jobs);
  std::atomic<int> finished{0};
  run_jobs(jobs, threads, [&](int i) {
    const int model = i / c.seeds, seed = 1 + i % c.seeds;
    const std::string name = c.models[model].label + " seed " + std::to_string(seed);
    double reported = 0;
    runs[i] = gp_run(c, model, seed, eval, baselines, [&](double fraction, double loss) {
      if (fraction - reported < 0.25 && fraction < 1) return;
      reported = fraction;
      say("  " + name + fmt(": %3.0f %%, train MSE %.4f", 100 * fraction, loss));
    });
    const GpRunResult& r = runs[i];
    say(fmt("[%2.0f/%.0f] ", ++finished, jobs) + name +
        fmt(": held-out RMSE %.4f (%.0f params, %.1f s)", r.rmse, double(r.parameters), r.seconds) +
        (r.error.empty() ? "" : " ERROR " + r.error) + (r.diverged ? " DIVERGED" : ""));
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_output(args, gp_experiment_json(c, baselines, runs, seconds, threads));
  return 0;
}

}  // namespace

namespace gatelab::runner {
int lm_command(const Args& args, int threads);          // lm_commands.cpp
int gp_descent_command(const Args& args, int threads);  // gp_descent_commands.cpp
}  // namespace gatelab::runner

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const int threads = std::clamp(args.integer("threads", static_cast<int>(hw)), 1, 64);
  if (args.command == "gp-recursion") return gp_recursion(args, threads);
  if (args.command == "gp-descent") return gp_descent_command(args, threads);
  if (args.command.rfind("lm-", 0) == 0) return lm_command(args, threads);
  fail("unknown experiment '" + args.command + "' (gp-recursion, gp-descent, lm-variants, lm-job, lm-jobs, lm-time)");
}
