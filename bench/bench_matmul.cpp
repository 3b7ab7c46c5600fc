// Benchmark of the matrix products in matmul.hpp: GFLOP/s (2·m·k·n per call) of nn, tn and
// nt at square sizes and at the shapes the layers use, built natively and as wasm (run the
// .js with node). Each measurement calls the kernel again and again (V8 has no on-stack
// replacement for wasm, so one long call would stay in the baseline compiler), after a
// warm-up, and reports the median of several timed batches.
//   bench_matmul            a table
//   bench_matmul --json     one JSON object with a row per shape (nn, the layout the peers
//                           are compared on), for bench/run.mjs; --all adds tn and nt
//   bench_matmul --quick    tiny sizes and short timings (a smoke test)
// The table ends with the batched causal products attention runs (matmul_causal.hpp) at the
// LM's size, whose GFLOP/s count only the products on and below the diagonal.
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "gatelab/base/matmul.hpp"
#include "gatelab/base/matmul_causal.hpp"
#include "gatelab/base/rng.hpp"

namespace {

using gatelab::bench::platform;
using gatelab::bench::Timing;

struct Shape {
  int m, k, n;
  const char* note;
};

using Kernel = void (*)(const float*, const float*, float*, int, int, int, bool);

struct Variant {
  const char* name;
  Kernel kernel;
};

const Variant kVariants[] = {{"nn", gatelab::matmul_nn}, {"tn", gatelab::matmul_tn}, {"nt", gatelab::matmul_nt}};

struct Rate {
  double median, best;
};

// Median and best GFLOP/s of `kernel` on one shape.
Rate measure(Kernel kernel, const Shape& s, const Timing& timing) {
  gatelab::Pcg32 rng(1234);
  std::vector<float> a(static_cast<size_t>(s.m) * s.k), b(static_cast<size_t>(s.k) * s.n);
  std::vector<float> c(static_cast<size_t>(s.m) * s.n);
  for (float& x : a) x = rng.uniform(-1.0f, 1.0f);
  for (float& x : b) x = rng.uniform(-1.0f, 1.0f);
  const double flops = 2.0 * s.m * s.k * s.n;
  const gatelab::bench::PerCall t =
      gatelab::bench::time_per_call([&] { kernel(a.data(), b.data(), c.data(), s.m, s.k, s.n, false); }, timing);
  return {flops / t.median_s / 1e9, flops / t.best_s / 1e9};
}

const char* vector_width() {
#if defined(__EMSCRIPTEN__)
  return "simd128";
#elif defined(__AVX512F__)
  return "avx512";
#elif defined(__AVX__)
  return "avx";
#else
  return "sse";
#endif
}

// The same list as bench/suite/shapes.mjs (the TF.js and ONNX Runtime Web rows): keep equal.
std::vector<Shape> shapes(bool quick) {
  if (quick) return {{16, 16, 16, "square"}, {33, 17, 9, "odd"}, {64, 64, 64, "square"}};
  std::vector<Shape> list;
  for (int n : {64, 128, 256, 512, 1024}) list.push_back({n, n, n, "square"});
  list.push_back({500, 2, 16, "layer: 2 inputs -> 16 hidden, 500 points"});
  list.push_back({500, 16, 1, "layer: 16 hidden -> 1 output, 500 points"});
  list.push_back({16384, 3, 16, "layer: a 128x128 grid through a first layer (x, y, 1) -> 16"});
  list.push_back({64, 64, 256, "layer: 64 -> 256, 64 tokens"});
  list.push_back({1024, 64, 128, "LM: 1024 tokens, 64 -> 128 (the MLP's first products)"});
  list.push_back({1024, 128, 64, "LM: 1024 tokens, 128 -> 64 (the MLP's output product)"});
  list.push_back({64, 16, 64, "LM: one head's scores, 64 x 16 . 16 x 64"});
  list.push_back({64, 64, 16, "LM: one head's weights times values, 64 x 64 . 64 x 16"});
  return list;
}

std::string shape_name(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.k) + "x" + std::to_string(s.n);
}

// The three batched causal products at the LM bench row's attention: 64 problems (16 sequences ×
// 4 heads) of n = 64, d_h = 16; L is a causal softmax-like matrix (zero above the diagonal).
void print_causal(const Timing& timing) {
  constexpr int kCount = 64, kN = 64, kDh = 16;
  gatelab::Pcg32 rng(1234);
  std::vector<float> a(kCount * kN * kDh), b(a.size()), l(kCount * kN * kN), out(kCount * kN * kN);
  for (float& x : a) x = rng.uniform(-1.0f, 1.0f);
  for (float& x : b) x = rng.uniform(-1.0f, 1.0f);
  for (int i = 0; i < kCount * kN; ++i) {
    for (int j = 0; j < kN; ++j) l[i * kN + j] = j <= i % kN ? rng.uniform(0.0f, 1.0f) : 0.0f;
  }
  const double flops = 2.0 * kCount * kN * (kN + 1) / 2 * kDh;
  const struct {
    const char* name;
    std::function<void()> call;
  } kernels[] = {
      {"causal_scores", [&] { gatelab::causal_scores(a.data(), b.data(), out.data(), kCount, kN, kDh); }},
      {"causal_apply", [&] { gatelab::causal_apply(l.data(), a.data(), out.data(), kCount, kN, kDh); }},
      {"causal_apply_transposed",
       [&] { gatelab::causal_apply_transposed(l.data(), a.data(), out.data(), kCount, kN, kDh); }},
  };
  std::printf(
      "\nbatched causal products, %d problems of n %d, d_h %d (GFLOP/s on and below the diagonal; "
      "median / best)\n",
      kCount, kN, kDh);
  for (const auto& k : kernels) {
    const gatelab::bench::PerCall t = gatelab::bench::time_per_call(k.call, timing);
    std::printf("%-24s %6.1f / %4.1f\n", k.name, flops / t.median_s / 1e9, flops / t.best_s / 1e9);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, quick = false, all = false;
  if (!gatelab::bench::parse_flags(argc, argv, "bench_matmul",
                                   {{"--json", &json}, {"--quick", &quick}, {"--all", &all}}))
    return 2;
  const Timing timing = quick ? Timing{0.02, 0.005, 3} : Timing{0.3, 0.01, 21};
  const std::vector<Shape> list = shapes(quick);
  const double clock_ghz = gatelab::bench::measure_clock_ghz(quick ? 50 : 300);

  if (json) {
    std::printf("{\"bench\": \"matmul\", \"platform\": \"%s\", \"vector\": \"%s\", \"clock_ghz\": %.3f, \"rows\": [",
                platform(), vector_width(), clock_ghz);
  } else {
    std::printf("matmul GFLOP/s (%s, %s; m x k x n; median / best of %d batches)\n", platform(), vector_width(),
                timing.repeats);
    if (clock_ghz > 0) std::printf("core clock under load: %.2f GHz (measured)\n", clock_ghz);
    std::printf("%-16s %13s %13s %13s   %s\n", "shape", "nn", "tn", "nt", "");
  }
  bool first = true;
  for (const Shape& s : list) {
    const int variants = json && !all ? 1 : 3;
    Rate rate[3];
    // The first shape warms up for longer: V8 tiers a wasm function up only after a budget
    // of calls, which took up to 0.6 s here (until then n = 64 ran at ~60 % speed).
    Timing t = timing;
    if (&s == &list.front()) t.warmup_s = quick ? t.warmup_s : 1.5;
    for (int v = 0; v < variants; ++v) rate[v] = measure(kVariants[v].kernel, s, t);
    if (!json) {
      std::printf("%-16s", shape_name(s).c_str());
      for (const Rate& r : rate) std::printf(" %6.1f / %4.1f", r.median, r.best);
      std::printf("   %s\n", s.note);
      std::fflush(stdout);
      continue;
    }
    for (int v = 0; v < variants; ++v) {
      std::printf(
          "%s\n  {\"op\": \"matmul_%s\", \"shape\": \"%s\", \"m\": %d, \"k\": %d, \"n\": %d, "
          "\"note\": \"%s\", \"unit\": \"GFLOP/s\", \"value\": %.3f, \"best\": %.3f}",
          first ? "" : ",", kVariants[v].name, shape_name(s).c_str(), s.m, s.k, s.n, s.note, rate[v].median,
          rate[v].best);
      first = false;
    }
  }
  if (json) std::printf("\n]}\n");
  if (!json && !quick) print_causal(timing);
  return 0;
}
