// Tests of the fast matrix products (nn, tn, nt, with and without accumulate) against the
// double-precision references over all shapes built from {1, 3, 17, 64, 255}, at k = 0, and
// for the determinism promise: bit-equality with a plain in-order float loop, and a golden
// hash of output bits that the native and the wasm build must both reproduce.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gatelab/base/matmul.hpp"
#include "gatelab/base/rng.hpp"

namespace {

using Kernel = void (*)(const float*, const float*, float*, int, int, int, bool);

struct Variant {
  const char* name;
  Kernel fast, reference;
  // Strides of op(A) and op(B) in the stored arrays, for the loops written in this file.
  bool a_transposed, b_transposed;
};

const Variant kVariants[] = {
    {"nn", gatelab::matmul_nn, gatelab::reference::matmul_nn, false, false},
    {"tn", gatelab::matmul_tn, gatelab::reference::matmul_tn, true, false},
    {"nt", gatelab::matmul_nt, gatelab::reference::matmul_nt, false, true},
};

std::vector<float> random_floats(gatelab::Pcg32& rng, long count) {
  std::vector<float> v(count);
  for (float& x : v) x = rng.uniform(-1.0f, 1.0f);
  return v;
}

// op(A)(i,p) and op(B)(p,j) read from the stored (possibly transposed) arrays.
float a_at(const Variant& v, const std::vector<float>& a, int m, int k, int i, int p) {
  return v.a_transposed ? a[static_cast<long>(p) * m + i] : a[static_cast<long>(i) * k + p];
}
float b_at(const Variant& v, const std::vector<float>& b, int k, int n, int p, int j) {
  return v.b_transposed ? b[static_cast<long>(j) * k + p] : b[static_cast<long>(p) * n + j];
}

// Checks fast against reference for one shape: |fast − ref| ≤ (k+3)·2⁻²⁴·(Σ|a||b| + |c₀|),
// the float summation bound plus the reference's own final rounding.
void check_against_reference(const Variant& v, int m, int k, int n, bool accumulate, std::uint64_t seed) {
  gatelab::Pcg32 rng(seed);
  const std::vector<float> a = random_floats(rng, static_cast<long>(m) * k);
  const std::vector<float> b = random_floats(rng, static_cast<long>(k) * n);
  const std::vector<float> c0 = random_floats(rng, static_cast<long>(m) * n);
  std::vector<float> fast = c0, ref = c0;
  v.fast(a.data(), b.data(), fast.data(), m, k, n, accumulate);
  v.reference(a.data(), b.data(), ref.data(), m, k, n, accumulate);
  const double unit = std::ldexp(1.0, -24);
  int failures = 0;
  for (int i = 0; i < m && failures < 3; ++i) {
    for (int j = 0; j < n && failures < 3; ++j) {
      const long at = static_cast<long>(i) * n + j;
      double scale = accumulate ? std::fabs(c0[at]) : 0.0;
      for (int p = 0; p < k; ++p) scale += std::fabs(a_at(v, a, m, k, i, p) * b_at(v, b, k, n, p, j));
      const double tolerance = (k + 3) * unit * scale + 1e-30;
      if (std::fabs(fast[at] - ref[at]) > tolerance) {
        ++failures;
        ADD_FAILURE() << v.name << " m=" << m << " k=" << k << " n=" << n << " accumulate=" << accumulate << " at ("
                      << i << "," << j << "): fast " << fast[at] << " reference " << ref[at] << " tolerance "
                      << tolerance;
      }
    }
  }
}

const int kSizes[] = {1, 3, 17, 64, 255};

class MatmulShapes : public ::testing::TestWithParam<int> {};

TEST_P(MatmulShapes, MatchesReferenceOnAllShapeCombinations) {
  const Variant& v = kVariants[GetParam()];
  std::uint64_t seed = 100;
  for (int m : kSizes)
    for (int k : kSizes)
      for (int n : kSizes)
        for (bool accumulate : {false, true}) check_against_reference(v, m, k, n, accumulate, ++seed);
}

std::string variant_name(const ::testing::TestParamInfo<int>& info) { return kVariants[info.param].name; }
INSTANTIATE_TEST_SUITE_P(Variants, MatmulShapes, ::testing::Values(0, 1, 2), variant_name);

TEST(Matmul, ZeroInnerDimensionGivesZeroOrLeavesC) {
  const float a[1] = {1.0f}, b[1] = {1.0f};
  for (const Variant& v : kVariants) {
    std::vector<float> c(3 * 5, 7.0f);
    v.fast(a, b, c.data(), 3, 0, 5, true);
    for (float x : c) EXPECT_EQ(x, 7.0f) << v.name;
    v.fast(a, b, c.data(), 3, 0, 5, false);
    for (float x : c) EXPECT_EQ(x, 0.0f) << v.name;
  }
}

TEST(Matmul, EmptyOutputTouchesNothing) {
  const float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4};
  float c[4] = {9, 9, 9, 9};
  for (const Variant& v : kVariants) {
    v.fast(a, b, c, 0, 2, 2, false);
    v.fast(a, b, c, 2, 2, 0, false);
  }
  for (float x : c) EXPECT_EQ(x, 9.0f);
}

// The determinism promise: each element equals c = ((c₀ + a₀b₀) + a₁b₁) + … in float with
// separate multiply and add, bit for bit, whatever the tiling, k blocking, orientation
// (narrow outputs are computed transposed) or vector width.
TEST(Matmul, BitIdenticalToInOrderFloatLoop) {
  struct Shape {
    int m, k, n;
  };
  // Crosses every blocking boundary: k blocks (k > 256), m blocks, column blocks (n > 2048;
  // m > 2048 for a narrow output, which is computed transposed) and single rows/columns.
  const Shape shapes[] = {{5, 7, 9},    {37, 300, 45}, {130, 513, 19}, {3, 5, 2100}, {200, 33, 1},
                          {300, 20, 2}, {1, 600, 70},  {64, 64, 64},   {9, 1, 300},  {2500, 3, 1}};
  std::uint64_t seed = 7;
  for (const Variant& v : kVariants) {
    for (const Shape& s : shapes) {
      for (bool accumulate : {false, true}) {
        gatelab::Pcg32 rng(++seed);
        const std::vector<float> a = random_floats(rng, static_cast<long>(s.m) * s.k);
        const std::vector<float> b = random_floats(rng, static_cast<long>(s.k) * s.n);
        std::vector<float> fast = random_floats(rng, static_cast<long>(s.m) * s.n), plain = fast;
        v.fast(a.data(), b.data(), fast.data(), s.m, s.k, s.n, accumulate);
        for (int i = 0; i < s.m; ++i) {
          for (int j = 0; j < s.n; ++j) {
            float sum = accumulate ? plain[static_cast<long>(i) * s.n + j] : 0.0f;
            for (int p = 0; p < s.k; ++p) {
              const float product = a_at(v, a, s.m, s.k, i, p) * b_at(v, b, s.k, s.n, p, j);
              sum = sum + product;
            }
            plain[static_cast<long>(i) * s.n + j] = sum;
          }
        }
        EXPECT_EQ(std::memcmp(fast.data(), plain.data(), sizeof(float) * fast.size()), 0)
            << v.name << " m=" << s.m << " k=" << s.k << " n=" << s.n << " accumulate=" << accumulate;
      }
    }
  }
}

// FNV-1a over the output bits of fixed random products. The same constant is checked by the
// native build (x86-64, -march=native) and the wasm build of this test.
TEST(Matmul, OutputBitsAreTheSameEverywhere) {
  struct Shape {
    int m, k, n;
  };
  const Shape shapes[] = {{37, 300, 45}, {50, 20, 3}};  // the second is computed transposed
  std::uint64_t hash = 1469598103934665603ULL;
  for (const Shape& s : shapes)
    for (const Variant& v : kVariants) {
      for (bool accumulate : {false, true}) {
        gatelab::Pcg32 rng(2024);
        const int m = s.m, k = s.k, n = s.n;
        const std::vector<float> a = random_floats(rng, static_cast<long>(m) * k);
        const std::vector<float> b = random_floats(rng, static_cast<long>(k) * n);
        std::vector<float> c = random_floats(rng, static_cast<long>(m) * n);
        v.fast(a.data(), b.data(), c.data(), m, k, n, accumulate);
        for (float x : c) {
          std::uint32_t bits;
          std::memcpy(&bits, &x, sizeof bits);
          hash = (hash ^ bits) * 1099511628211ULL;
        }
      }
    }
  EXPECT_EQ(hash, 109454985534843141ULL);
}

}  // namespace
