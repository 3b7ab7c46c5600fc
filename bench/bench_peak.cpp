// The float32 ceiling of 4-lane SIMD (wasm SIMD128; natively the same 128-bit vectors) on
// this core, measured rather than computed: GFLOP/s of independent chains of vector
// multiplies only, adds only, and both mixed one to one (a matrix product's separate
// multiply and add: f32x4.mul + f32x4.add, 8 flops per pair). Enough chains are in flight to
// hide the latencies, so the rate is bounded by how many vector FP ports accept mul and add
// each cycle: on Zen 3 two multiply + two add pipes (16 flops/cycle); on Intel Golden/Raptor
// Cove (Sapphire/Emerald Rapids) multiplies issue on ports 0 and 1 and adds on ports 1 and 5,
// three ports in all, so mixed mul + add reaches at most 12 flops/cycle. bench/peak.mjs
// reports these beside the nominal peak. Each measurement calls the kernel again and again
// (V8 has no on-stack replacement for wasm) after a warm-up; median of the timed batches.
//   bench_peak [--json] [--quick]
#include <cstdio>

#include "bench_support.hpp"

namespace {

using gatelab::bench::Timing;

typedef float f4 __attribute__((vector_size(16)));

// Operands come through volatile memory so no compiler folds x·1 or x + 0 away.
volatile float g_one = 1.0f, g_zero = 0.0f;

constexpr int kIterations = 4096;

// 12 independent chains per pattern; each kernel does 12·kIterations vector ops.
__attribute__((noinline)) void mul_only(f4* s, f4 a) {
  f4 x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4], x5 = s[5];
  f4 x6 = s[6], x7 = s[7], x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11];
  for (int i = 0; i < kIterations; ++i) {
    x0 = x0 * a;
    x1 = x1 * a;
    x2 = x2 * a;
    x3 = x3 * a;
    x4 = x4 * a;
    x5 = x5 * a;
    x6 = x6 * a;
    x7 = x7 * a;
    x8 = x8 * a;
    x9 = x9 * a;
    x10 = x10 * a;
    x11 = x11 * a;
  }
  s[0] = x0;
  s[1] = x1;
  s[2] = x2;
  s[3] = x3;
  s[4] = x4;
  s[5] = x5;
  s[6] = x6;
  s[7] = x7;
  s[8] = x8;
  s[9] = x9;
  s[10] = x10;
  s[11] = x11;
}

__attribute__((noinline)) void add_only(f4* s, f4 b) {
  f4 x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4], x5 = s[5];
  f4 x6 = s[6], x7 = s[7], x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11];
  for (int i = 0; i < kIterations; ++i) {
    x0 = x0 + b;
    x1 = x1 + b;
    x2 = x2 + b;
    x3 = x3 + b;
    x4 = x4 + b;
    x5 = x5 + b;
    x6 = x6 + b;
    x7 = x7 + b;
    x8 = x8 + b;
    x9 = x9 + b;
    x10 = x10 + b;
    x11 = x11 + b;
  }
  s[0] = x0;
  s[1] = x1;
  s[2] = x2;
  s[3] = x3;
  s[4] = x4;
  s[5] = x5;
  s[6] = x6;
  s[7] = x7;
  s[8] = x8;
  s[9] = x9;
  s[10] = x10;
  s[11] = x11;
}

__attribute__((noinline)) void mul_add(f4* s, f4 a, f4 b) {
  f4 x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4], x5 = s[5];
  f4 y0 = s[6], y1 = s[7], y2 = s[8], y3 = s[9], y4 = s[10], y5 = s[11];
  for (int i = 0; i < kIterations; ++i) {
    x0 = x0 * a;
    y0 = y0 + b;
    x1 = x1 * a;
    y1 = y1 + b;
    x2 = x2 * a;
    y2 = y2 + b;
    x3 = x3 * a;
    y3 = y3 + b;
    x4 = x4 * a;
    y4 = y4 + b;
    x5 = x5 * a;
    y5 = y5 + b;
  }
  s[0] = x0;
  s[1] = x1;
  s[2] = x2;
  s[3] = x3;
  s[4] = x4;
  s[5] = x5;
  s[6] = y0;
  s[7] = y1;
  s[8] = y2;
  s[9] = y3;
  s[10] = y4;
  s[11] = y5;
}

struct Rate {
  double median, best;
};

// GFLOP/s of a kernel call (12 chains × kIterations vector ops of 4 lanes).
template <class F>
Rate measure(F kernel, const Timing& timing) {
  const double flops = 12.0 * kIterations * 4;
  const gatelab::bench::PerCall t = gatelab::bench::time_per_call(kernel, timing);
  return {flops / t.median_s / 1e9, flops / t.best_s / 1e9};
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, quick = false;
  if (!gatelab::bench::parse_flags(argc, argv, "bench_peak", {{"--json", &json}, {"--quick", &quick}})) return 2;
  const float one = g_one, zero = g_zero;
  const f4 a{one, one, one, one}, b{zero, zero, zero, zero};
  f4 state[12];
  for (f4& v : state) v = f4{1.0f, 2.0f, 3.0f, 4.0f};
  const Timing timing = quick ? Timing{0.01, 0.002, 3} : Timing{0.2, 0.01, 21};
  struct Row {
    const char* op;
    Rate rate;
  } rows[] = {
      {"peak_f32x4_mul", measure([&] { mul_only(state, a); }, timing)},
      {"peak_f32x4_add", measure([&] { add_only(state, b); }, timing)},
      {"peak_f32x4_mul+add", measure([&] { mul_add(state, a, b); }, timing)},
  };
  float checksum = 0;
  for (const f4& v : state) checksum += v[0] + v[3];
  const double clock_ghz = gatelab::bench::measure_clock_ghz(quick ? 50 : 300);
  if (json)
    std::printf("{\"bench\": \"peak\", \"clock_ghz\": %.3f, \"rows\": [", clock_ghz);
  else if (clock_ghz > 0)
    std::printf("core clock under load: %.2f GHz (measured)\n", clock_ghz);
  bool first = true;
  for (const Row& r : rows) {
    if (json) {
      std::printf(
          "%s\n  {\"op\": \"%s\", \"shape\": \"12 chains\", \"unit\": \"GFLOP/s\", \"value\": %.3f, "
          "\"best\": %.3f}",
          first ? "" : ",", r.op, r.rate.median, r.rate.best);
      first = false;
    } else {
      std::printf("%-20s %7.2f / %7.2f GFLOP/s (median / best)\n", r.op, r.rate.median, r.rate.best);
    }
  }
  if (json) std::printf("\n], \"checksum\": %g}\n", checksum);
  return 0;
}
