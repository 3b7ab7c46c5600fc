// main() of the vector-width test executables (tests/cpp/CMakeLists.txt): the matrix products
// built for one x86-64 level (SSE: 4 lanes, AVX2: 8, AVX-512: 16) whatever this machine's own
// width is, so one machine checks that every width's kernels give the same bits. On a CPU
// without that level the executable reports a skip (exit 77) instead of dying on an illegal
// instruction.
#include <gtest/gtest.h>

#include <cstdio>

int main(int argc, char** argv) {
#if defined(__AVX512F__)
  const bool supported = __builtin_cpu_supports("avx512f");
#elif defined(__AVX2__)
  const bool supported = __builtin_cpu_supports("avx2");
#else
  const bool supported = true;
#endif
  if (!supported) {
    std::puts("skipped: this CPU lacks the vector width this executable was built for");
    return 77;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
