// The float32 ceilings of this core, measured rather than computed: GFLOP/s of independent
// chains of vector multiplies only, adds only, and both mixed one to one (a matrix product's
// separate multiply and add, 2 flops per lane per pair), at two widths:
//   f32x4          wasm SIMD128's width (natively the same 128-bit vectors);
//   f32x8, f32x16  the native build's own width (8 lanes with AVX/AVX2, 16 with AVX-512),
//                  the ceiling the native matrix products are measured against.
// Enough chains are in flight to hide the latencies, so the rate is bounded by how many vector
// FP ports accept mul and add each cycle: on Zen 3/4 two multiply + two add pipes of 256 bits
// (16 flops/cycle at 4 lanes, 32 at 8; Zen 4 runs a 512-bit op as two 256-bit halves, so 16
// lanes give no more than 8); on Intel Golden/Raptor Cove (Sapphire/Emerald Rapids) multiplies
// issue on ports 0 and 1 and adds on ports 1 and 5, three ports in all, so mixed mul + add
// reaches at most 12 flops/cycle per vector lane group. bench/peak.mjs reports these beside
// the nominal peak. Each measurement calls the kernel again and again (V8 has no on-stack
// replacement for wasm) after a warm-up; median of the timed batches.
//   bench_peak [--json] [--quick]
#include <cstdio>
#include <string>
#include <vector>

#include "bench_support.hpp"

namespace {

using gatelab::bench::Timing;

template <int N>
struct Vec {
  typedef float type __attribute__((vector_size(4 * N)));
};

// Operands come through volatile memory so no compiler folds x·1 or x + 0 away.
volatile float g_one = 1.0f, g_zero = 0.0f;

constexpr int kIterations = 4096;
// Independent chains per kernel: 12 covers a 3-4 cycle latency on 3-4 ports at every width
// (16 registers at 4 and 8 lanes, 32 with AVX-512).
constexpr int kChains = 12;

template <class V>
V splat(float x) {
  V v;
  for (int l = 0; l < int(sizeof(V) / sizeof(float)); ++l) v[l] = x;
  return v;
}

// Each kernel does kChains·kIterations vector ops.
template <class V>
__attribute__((noinline)) void mul_only(V* s, V a) {
  V x[kChains];
#pragma GCC unroll 12
  for (int c = 0; c < kChains; ++c) x[c] = s[c];
  for (int i = 0; i < kIterations; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) x[c] = x[c] * a;
  }
#pragma GCC unroll 12
  for (int c = 0; c < kChains; ++c) s[c] = x[c];
}

template <class V>
__attribute__((noinline)) void add_only(V* s, V b) {
  V x[kChains];
#pragma GCC unroll 12
  for (int c = 0; c < kChains; ++c) x[c] = s[c];
  for (int i = 0; i < kIterations; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) x[c] = x[c] + b;
  }
#pragma GCC unroll 12
  for (int c = 0; c < kChains; ++c) s[c] = x[c];
}

// Half the chains multiply, half add, interleaved.
template <class V>
__attribute__((noinline)) void mul_add(V* s, V a, V b) {
  V x[kChains];
#pragma GCC unroll 12
  for (int c = 0; c < kChains; ++c) x[c] = s[c];
  for (int i = 0; i < kIterations; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; c += 2) {
      x[c] = x[c] * a;
      x[c + 1] = x[c + 1] + b;
    }
  }
#pragma GCC unroll 12
  for (int c = 0; c < kChains; ++c) s[c] = x[c];
}

struct Rate {
  double median, best;
};

struct Row {
  std::string op;
  Rate rate;
};

// The three rows at N lanes: GFLOP/s of a kernel call (kChains × kIterations vector ops).
template <int N>
void measure_width(const Timing& timing, std::vector<Row>& rows, float& checksum) {
  using V = typename Vec<N>::type;
  const V a = splat<V>(g_one), b = splat<V>(g_zero);
  V state[kChains];
  for (int c = 0; c < kChains; ++c) state[c] = splat<V>(1.0f + c);
  const double flops = double(kChains) * kIterations * N;
  auto rate = [&](auto kernel) {
    const gatelab::bench::PerCall t = gatelab::bench::time_per_call(kernel, timing);
    return Rate{flops / t.median_s / 1e9, flops / t.best_s / 1e9};
  };
  const std::string prefix = "peak_f32x" + std::to_string(N) + "_";
  rows.push_back({prefix + "mul", rate([&] { mul_only<V>(state, a); })});
  rows.push_back({prefix + "add", rate([&] { add_only<V>(state, b); })});
  rows.push_back({prefix + "mul+add", rate([&] { mul_add<V>(state, a, b); })});
  for (const V& v : state) checksum += v[0] + v[N - 1];
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, quick = false;
  if (!gatelab::bench::parse_flags(argc, argv, "bench_peak", {{"--json", &json}, {"--quick", &quick}})) return 2;
  const Timing timing = quick ? Timing{0.01, 0.002, 3} : Timing{0.2, 0.01, 21};
  std::vector<Row> rows;
  float checksum = 0;
  measure_width<4>(timing, rows, checksum);
  // The native build's own width (the matrix products' vfloat): only where it is wider.
#if !defined(__EMSCRIPTEN__) && defined(__AVX512F__)
  measure_width<8>(timing, rows, checksum);
  measure_width<16>(timing, rows, checksum);
#elif !defined(__EMSCRIPTEN__) && defined(__AVX__)
  measure_width<8>(timing, rows, checksum);
#endif
  const double clock_ghz = gatelab::bench::measure_clock_ghz(quick ? 50 : 300);
  if (json)
    std::printf("{\"bench\": \"peak\", \"platform\": \"%s\", \"clock_ghz\": %.3f, \"rows\": [",
                gatelab::bench::platform(), clock_ghz);
  else if (clock_ghz > 0)
    std::printf("core clock under load: %.2f GHz (measured)\n", clock_ghz);
  bool first = true;
  for (const Row& r : rows) {
    if (json) {
      std::printf(
          "%s\n  {\"op\": \"%s\", \"shape\": \"%d chains\", \"unit\": \"GFLOP/s\", \"value\": %.3f, "
          "\"best\": %.3f}",
          first ? "" : ",", r.op.c_str(), kChains, r.rate.median, r.rate.best);
      first = false;
    } else {
      std::printf("%-20s %7.2f / %7.2f GFLOP/s (median / best)\n", r.op.c_str(), r.rate.median, r.rate.best);
    }
  }
  if (json) std::printf("\n], \"checksum\": %g}\n", checksum);
  return 0;
}
