#!/usr/bin/env bash
# Builds the C++ tests natively with AddressSanitizer + UndefinedBehaviorSanitizer and runs
# them (`npm run test:sanitize`; CI runs it after npm test). Any report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f build/asan/CMakeCache.txt ]; then
  cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGATELAB_SANITIZE=ON >/dev/null
fi
cmake --build build/asan -j"$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build/asan --output-on-failure -j"$jobs"
