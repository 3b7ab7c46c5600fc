// Nanoseconds per element of every activation's value (activation_forward) and derivative
// (activation_backward) over 1M floats drawn from N(0, 3²), best and median of several
// timed passes after a warm-up. The kernel is called again and again on 4096-element
// chunks, as layers call it, and because V8 has no on-stack replacement for wasm: one long
// call would stay in the baseline compiler and measure that instead.
//   bench_activations            a table
//   bench_activations --json     one JSON object with a row per (activation, direction), for bench/run.mjs
//   bench_activations --quick    64K floats and short timings (a smoke test)
#include <cstdio>
#include <vector>

#include "bench_support.hpp"
#include "gatelab/base/activations.hpp"
#include "gatelab/base/rng.hpp"

using namespace gatelab;

namespace {

using gatelab::bench::platform;

constexpr std::size_t kChunk = 4096;

struct Settings {
  std::size_t elements;
  int repeats;
  double warmup_seconds;  // long enough for V8 to finish its optimising compile
};

using Kernel = void (*)(ActivationSpec, const float*, float*, std::size_t);

struct Timing {
  double best_ns, median_ns;
};

// One pass over all elements in kChunk-float calls, timed as one call per batch.
Timing time_kernel(const Settings& set, Kernel kernel, ActivationSpec s, const std::vector<float>& in,
                   std::vector<float>& out) {
  const auto pass = [&] {
    for (std::size_t i = 0; i < in.size(); i += kChunk) kernel(s, in.data() + i, out.data() + i, kChunk);
  };
  const gatelab::bench::PerCall t = gatelab::bench::time_per_call(pass, {set.warmup_seconds, 0.0, set.repeats});
  return {t.best_s * 1e9 / in.size(), t.median_s * 1e9 / in.size()};
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, quick = false;
  if (!gatelab::bench::parse_flags(argc, argv, "bench_activations", {{"--json", &json}, {"--quick", &quick}})) return 2;
  const Settings set = quick ? Settings{std::size_t(1) << 16, 3, 0.01} : Settings{std::size_t(1) << 20, 15, 0.2};
  std::vector<float> in(set.elements), out(set.elements);
  Pcg32 rng(2026);
  for (float& z : in) z = 3.0f * rng.normal();

  if (json) {
    std::printf("{\"bench\": \"activations\", \"platform\": \"%s\", \"rows\": [", platform());
  } else {
    std::printf(
        "activation ns/element (%s, %zu floats ~ N(0, 9), chunks of %zu, best / median of %d; swish beta 1.7)\n",
        platform(), set.elements, kChunk, set.repeats);
    std::printf("%-12s %18s %18s\n", "activation", "value", "derivative");
  }
  double checksum = 0;
  for (int i = 0; i < activation_count; ++i) {
    const ActivationSpec s{activation_by_index(i), 1.7f};
    const Timing v = time_kernel(set, activation_forward, s, in, out);
    checksum += out[1234];
    const Timing d = time_kernel(set, activation_backward, s, in, out);
    checksum += out[1234];
    if (json) {
      const Timing both[2] = {v, d};
      for (int k = 0; k < 2; ++k) {
        std::printf(
            "%s\n  {\"op\": \"%s_%s\", \"shape\": \"%zu\", \"unit\": \"ns/element\", \"value\": %.4f, \"best\": %.4f}",
            i + k == 0 ? "" : ",", activation_name(s.kind), k == 0 ? "forward" : "backward", set.elements,
            both[k].median_ns, both[k].best_ns);
      }
    } else {
      std::printf("%-12s %8.2f / %7.2f %8.2f / %7.2f\n", activation_name(s.kind), v.best_ns, v.median_ns, d.best_ns,
                  d.median_ns);
    }
  }
  if (json) std::printf("\n], \"checksum\": %.6g}\n", checksum);
  return 0;
}
