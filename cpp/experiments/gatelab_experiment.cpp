// gatelab_experiment: the native runner of paper B's experiments (issue 6).
//   gatelab_experiment gp-recursion [--quick] [--seeds N] [--threads K] [--out FILE] [overrides]
//   gatelab_experiment tiny-lm --text FILE [--quick] [--seeds N] [--threads K] [--out FILE] [overrides]
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
#include "experiment_tinylm.hpp"

using namespace gatelab;

namespace {

std::mutex print_mutex;

void say(const std::string& line) {
  std::lock_guard<std::mutex> lock(print_mutex);
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "gatelab_experiment: %s\n", message.c_str());
  std::exit(2);
}

struct Args {
  std::string command;
  std::map<std::string, std::string> options;
  bool has(const std::string& k) const { return options.count(k) != 0; }
  double number(const std::string& k, double fallback) const {
    auto it = options.find(k);
    if (it == options.end()) return fallback;
    char* end = nullptr;
    const double v = std::strtod(it->second.c_str(), &end);
    if (end == it->second.c_str() || *end != '\0') fail("--" + k + " must be a number (got '" + it->second + "')");
    return v;
  }
  int integer(const std::string& k, int fallback) const { return static_cast<int>(number(k, fallback)); }
  std::string text(const std::string& k, const std::string& fallback) const {
    auto it = options.find(k);
    return it == options.end() ? fallback : it->second;
  }
};

Args parse(int argc, char** argv) {
  Args a;
  if (argc < 2) fail("usage: gatelab_experiment gp-recursion|tiny-lm [--quick] [--seeds N] [--threads K] [--out FILE]");
  a.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string k = argv[i];
    if (k.rfind("--", 0) != 0) fail("unexpected argument '" + k + "'");
    k = k.substr(2);
    if (k == "quick") {
      a.options[k] = "1";
    } else {
      if (i + 1 >= argc) fail("--" + k + " needs a value");
      a.options[k] = argv[++i];
    }
  }
  return a;
}

// Runs jobs 0 … count−1 on `threads` threads; job(i) must be thread-safe.
void run_jobs(int count, int threads, const std::function<void(int)>& job) {
  std::atomic<int> next{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (int i = next++; i < count; i = next++) job(i);
    });
  }
  for (auto& t : pool) t.join();
}

std::string fmt(const char* format, double a, double b = 0, double c = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

void write_output(const Args& args, const std::string& json) {
  const std::string out = args.text("out", "");
  if (out.empty()) {
    std::fwrite(json.data(), 1, json.size(), stdout);
    std::fputc('\n', stdout);
    return;
  }
  std::ofstream f(out, std::ios::binary);
  if (!f) fail("cannot write " + out);
  f << json << '\n';
}

// Keeps only the models whose index is listed in --models (comma-separated), when given.
template <class Spec>
void filter_models(const Args& args, std::vector<Spec>& models) {
  if (!args.has("models")) return;
  std::vector<Spec> kept;
  std::stringstream list(args.text("models", ""));
  for (std::string item; std::getline(list, item, ',');) {
    const int i = std::atoi(item.c_str());
    if (i < 0 || i >= int(models.size())) fail("--models index " + item + " out of range");
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
    say(fmt("[%2.0f/%.0f] ", ++finished, jobs) + name + fmt(": held-out RMSE %.4f (%.0f params, %.1f s)", r.rmse,
        double(r.parameters), r.seconds) + (r.error.empty() ? "" : " ERROR " + r.error) + (r.diverged ? " DIVERGED" : ""));
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_output(args, gp_experiment_json(c, baselines, runs, seconds, threads));
  return 0;
}

int tiny_lm(const Args& args, int threads) {
  if (!args.has("text")) fail("tiny-lm needs --text FILE");
  std::ifstream f(args.text("text", ""), std::ios::binary);
  if (!f) fail("cannot read " + args.text("text", ""));
  std::stringstream buffer;
  buffer << f.rdbuf();
  const std::string text = buffer.str();

  TinyLmExperimentConfig c = tinylm_experiment_defaults(args.has("quick"));
  c.seeds = args.integer("seeds", c.seeds);
  c.train_steps = args.integer("steps", c.train_steps);
  c.train.context = args.integer("context", c.train.context);
  c.train.batch = args.integer("batch", c.train.batch);
  c.train.lr = static_cast<float>(args.number("lr", c.train.lr));
  c.train.eta = static_cast<float>(args.number("eta", c.train.eta));
  c.train.layers = args.integer("layers", c.train.layers);
  c.max_chars = args.integer("chars", c.max_chars);
  filter_models(args, c.models);
  const auto started = std::chrono::steady_clock::now();
  TinyLmData data;
  if (std::string e = tinylm_prepare(c, text, data); !e.empty()) fail(e);
  if (std::string e = validate(c, data); !e.empty()) fail(e);
  const TinyLmBaselines baselines = tinylm_baselines(data);
  say(fmt("tiny-lm: %.0f models x %.0f seeds, %.0f steps each", double(c.models.size()), c.seeds, c.train_steps) +
      fmt("; %.0f train / %.0f validation characters,", double(data.train.size()), double(data.validation.size())) +
      fmt(" vocabulary %.0f; unigram %.4f nats", data.vocab.size(), baselines.unigram));
  const int jobs = static_cast<int>(c.models.size()) * c.seeds;
  std::vector<TinyLmRunResult> runs(jobs);
  std::atomic<int> finished{0};
  run_jobs(jobs, threads, [&](int i) {
    const int model = i / c.seeds, seed = 1 + i % c.seeds;
    const std::string name = c.models[model].label + " seed " + std::to_string(seed);
    double reported = 0;
    runs[i] = tinylm_run(c, model, seed, data, [&](double fraction, double loss) {
      if (fraction - reported < 0.25 && fraction < 1) return;
      reported = fraction;
      say("  " + name + fmt(": %3.0f %%, train loss %.4f", 100 * fraction, loss));
    });
    const TinyLmRunResult& r = runs[i];
    say(fmt("[%2.0f/%.0f] ", ++finished, jobs) + name + fmt(": validation loss %.4f, perplexity %.3f", r.val_loss,
        r.val_perplexity) + fmt(" (%.0f params, %.1f s)", double(r.parameters), r.seconds) +
        (r.error.empty() ? "" : " ERROR " + r.error) + (r.diverged ? " DIVERGED" : ""));
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_output(args, tinylm_experiment_json(c, data, baselines, runs, seconds, threads));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const int threads = std::clamp(args.integer("threads", static_cast<int>(hw)), 1, 64);
  if (args.command == "gp-recursion") return gp_recursion(args, threads);
  if (args.command == "tiny-lm") return tiny_lm(args, threads);
  fail("unknown experiment '" + args.command + "' (gp-recursion, tiny-lm)");
}
