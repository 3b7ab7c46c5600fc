// Milliseconds per training step of the small CEM transformer of the experiments (MATH.md
// B7): d = 64, 4 heads, T = 2 descent steps in attention and MLP, 2 blocks, MLP width 256,
// a sequence of 64 tokens of (x, y) pairs predicting one number each. One step is
// zero_grad + forward + MSE gradient + backward + AdamW update, exactly what a training loop
// does; the standard-transformer baseline of the same size is measured too. Built natively
// and as wasm (run the .js with node); each step is its own call (V8 has no on-stack
// replacement for wasm), after a warm-up, median of several timed batches.
//   bench_cem            a table
//   bench_cem --json     one JSON object with a row per family, for bench/run.mjs
//   bench_cem --quick    a tiny model and short timings (a smoke test)
//   bench_cem --small    the figures' size (d = 16, 2 heads, M = 32, 8 tokens) with full timings
//   bench_cem --cpu      time by this process's CPU time (a busy machine; see bench_support.hpp)
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "gatelab/model/transformer.hpp"
#include "gatelab/train/optimizer.hpp"
#include "gatelab/base/rng.hpp"

using namespace gatelab;

namespace {

using bench::platform;

struct Settings {
  int d, heads, hidden, seq;
  bench::Timing timing;
};

struct Result {
  double median_ms, best_ms;
  std::size_t parameters;
  double checksum;
  std::string error;
};

// One training step on (x, y); returns "" or the first error.
std::string train_step(CemTransformer& model, const std::vector<float>& x, const std::vector<float>& y,
                       std::vector<float>& out, std::vector<float>& grad, int n, Optimizer& adamw) {
  model.zero_grad();
  if (Status e = model.forward(x.data(), n, out.data()); !e.ok()) return e.message;
  for (int i = 0; i < n; ++i) grad[i] = 2.0f * (out[i] - y[i]) / static_cast<float>(n);
  if (Status e = model.backward(grad.data(), nullptr); !e.ok()) return e.message;
  return adamw.step(model.parameters()).message;
}

Result measure(CemFamily family, const Settings& s, double (*clock)()) {
  CemTransformerConfig c;
  c.family = family;
  c.d_in = 2;
  c.d = s.d;
  c.d_out = 1;
  c.layers = 2;
  cem_set_heads(c, s.heads);
  cem_set_hidden(c, s.hidden);
  c.attention.steps = 2;
  c.mlp.steps = 2;
  c.seed = 7;
  Result r{};
  if (Status e = validate(c); !e.ok()) {
    r.error = e.message;
    return r;
  }
  CemTransformer model(c);
  if (!model.error().ok()) {
    r.error = model.error().message;
    return r;
  }
  r.parameters = model.parameter_count();
  Pcg32 rng(99);
  std::vector<float> x(static_cast<std::size_t>(s.seq) * 2), y(s.seq), out(s.seq), grad(s.seq);
  for (int i = 0; i < s.seq; ++i) {  // a noisy sine: the in-context regression data of B7
    x[2 * i] = rng.uniform(-2.0f, 2.0f);
    x[2 * i + 1] = 0.5f * x[2 * i] + 0.1f * rng.normal();
    y[i] = x[2 * i + 1];
  }
  OptimizerOptions options;
  options.kind = OptimizerKind::adamw;
  options.learning_rate = 1e-4f;
  Optimizer adam(options);

  // One checked step first: an error would make every timed step meaningless.
  if (std::string e = train_step(model, x, y, out, grad, s.seq, adam); !e.empty()) {
    r.error = e;
    return r;
  }
  const bench::PerCall t =
      bench::time_per_call([&] { train_step(model, x, y, out, grad, s.seq, adam); }, s.timing, clock);
  r.median_ms = t.median_s * 1e3;
  r.best_ms = t.best_s * 1e3;
  for (float v : out) r.checksum += v;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, quick = false, small = false, cpu = false;
  if (!gatelab::bench::parse_flags(argc, argv, "bench_cem",
                                   {{"--json", &json}, {"--quick", &quick}, {"--small", &small}, {"--cpu", &cpu}}))
    return 2;
  double (*clock)() = cpu ? bench::cpu_seconds : bench::now_seconds;
  const bench::Timing full{0.5, 0.05, 15};
  const Settings s = quick   ? Settings{16, 2, 32, 8, {0.02, 0.005, 3}}
                     : small ? Settings{16, 2, 32, 8, full}
                             : Settings{64, 4, 256, 64, full};
  const std::string shape = "d" + std::to_string(s.d) + " h" + std::to_string(s.heads) + " T2 L2 M" +
                            std::to_string(s.hidden) + " seq" + std::to_string(s.seq);
  if (json) {
    std::printf("{\"bench\": \"cem\", \"platform\": \"%s\", \"rows\": [", platform());
  } else {
    std::printf("transformer training step, ms (%s; %s; median / best of %d batches)\n", platform(), shape.c_str(),
                s.timing.repeats);
  }
  bool first = true;
  int status = 0;
  for (CemFamily family : {CemFamily::cem, CemFamily::standard}) {
    const Result r = measure(family, s, clock);
    const char* name = family == CemFamily::cem ? "cem_train_step" : "std_train_step";
    if (!r.error.empty()) {
      std::fprintf(stderr, "bench_cem: %s: %s\n", name, r.error.c_str());
      status = 1;
      continue;
    }
    if (json) {
      std::printf(
          "%s\n  {\"op\": \"%s\", \"shape\": \"%s\", \"parameters\": %zu, \"unit\": \"ms\", "
          "\"value\": %.5f, \"best\": %.5f, \"checksum\": %.6g}",
          first ? "" : ",", name, shape.c_str(), r.parameters, r.median_ms, r.best_ms, r.checksum);
      first = false;
    } else {
      std::printf("%-16s %9.3f / %9.3f ms   (%zu parameters)\n", name, r.median_ms, r.best_ms, r.parameters);
    }
  }
  if (json) std::printf("\n]}\n");
  return status;
}
