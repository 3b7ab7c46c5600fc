// What every C++ benchmark shares: the clock, the platform name, the core-clock measurement
// the timing method and the flag parser, so that the rows of bench/run.mjs are measured one way.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <initializer_list>
#include <string>
#include <vector>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

namespace gatelab::bench {

inline double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// This process's CPU time in seconds: time spent descheduled on a busy machine does not
// count, so rates measured on it move much less with the load than wall-clock ones. In wasm
// under Node it is process.cpuUsage() (all of node's threads: after the warm-up, the
// benchmark's); where no CPU clock exists (a browser) it is the wall clock.
inline double cpu_seconds() {
#if defined(__EMSCRIPTEN__)
  // JavaScript inside the macro: clang-format would split its !== into != =.
  // clang-format off
  return EM_ASM_DOUBLE({
    if (typeof process !== 'undefined' && process.cpuUsage) {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    }
    return performance.now() / 1e3;
  });
  // clang-format on
#else
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
#endif
}

inline const char* platform() {
#if defined(__EMSCRIPTEN__)
  return "wasm";
#else
  return "native";
#endif
}

// The core clock under load in GHz, from a chain of dependent register-to-register integer
// adds (one cycle each on every x86-64 core; add-immediate chains are folded by recent Intel
// renamers, so the addend is a register); 0 where it cannot be measured (wasm, other CPUs).
// The fastest of many short attempts (2M cycles, under a millisecond: some run unpreempted
// even on a busy or overcommitted virtual machine).
inline double measure_clock_ghz(int attempts) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
  double best = 0;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    const long iterations = 200000;
    long x = 0, one = 1;
    const double t0 = now_seconds();
    for (long i = 0; i < iterations; ++i) {
      asm volatile(
          "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
          "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
          : "+r"(x)
          : "r"(one));
    }
    best = std::max(best, iterations * 10.0 / (now_seconds() - t0) / 1e9);
  }
  return best;
#else
  (void)attempts;
  return 0;
#endif
}

struct Timing {
  double warmup_s;  // long enough for V8 to tier the wasm up (it has no on-stack replacement)
  double batch_s;   // each timed batch lasts at least this long
  int repeats;      // timed batches
};

struct PerCall {
  double median_s, best_s;  // seconds per call
};

// Calls fn until timing.warmup_s has passed (and at least 3 times), then times
// timing.repeats batches; each batch runs until timing.batch_s has passed, so a coarse clock
// (a browser's ticks in 5–100 µs steps) still gives sound rates; a batch also runs until the
// clock has moved, so a batch_s of 0 never reports 0 s per call. Median and best per call.
// `clock` measures the batches (now_seconds, or cpu_seconds on a busy machine).
template <class F>
PerCall time_per_call(F&& fn, const Timing& timing, double (*clock)() = now_seconds) {
  const double start = now_seconds();
  for (long calls = 0; calls < 3 || now_seconds() - start < timing.warmup_s; ++calls) fn();
  std::vector<double> per_call;
  for (int r = 0; r < timing.repeats; ++r) {
    long n = 0;
    const double t0 = clock();
    double dt = 0;
    do {
      fn();
      ++n;
      dt = clock() - t0;
    } while (dt < timing.batch_s || dt <= 0);  // a coarse clock can tick 0 over a short call
    per_call.push_back(dt / n);
  }
  std::sort(per_call.begin(), per_call.end());
  return {per_call[per_call.size() / 2], per_call.front()};
}

// A benchmark's switches (--json, --quick, …): each argument must be one of flags, and sets its
// bool. Anything else prints "usage: <name> [--json] …" and gives false, and main returns 2.
struct Flag {
  const char* name;
  bool* set;
};
inline bool parse_flags(int argc, char** argv, const char* name, std::initializer_list<Flag> flags) {
  for (int i = 1; i < argc; ++i) {
    const auto is_arg = [&](const Flag& f) { return std::strcmp(argv[i], f.name) == 0; };
    const Flag* flag = std::find_if(flags.begin(), flags.end(), is_arg);
    if (flag == flags.end()) {
      std::string usage = std::string("usage: ") + name;
      for (const Flag& f : flags) usage += std::string(" [") + f.name + "]";
      std::fprintf(stderr, "%s\n", usage.c_str());
      return false;
    }
    *flag->set = true;
  }
  return true;
}

}  // namespace gatelab::bench
