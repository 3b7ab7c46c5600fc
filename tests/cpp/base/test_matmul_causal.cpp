// Tests of the batched causal products (matmul_causal.hpp) against their naive reference: a
// plain in-order float loop over the full product, whose bits they must reproduce where a
// caller reads them (on and below the diagonal for the scores; everywhere for the products by
// a lower-triangular L, whose entries above the diagonal are +0 as causal_softmax leaves
// them). Shapes cross every tile edge of every vector width (n and d_h not multiples of 4, 8
// or 16, and n below a tile), and a golden hash ties the bits to the other builds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gatelab/base/matmul_causal.hpp"
#include "gatelab/base/rng.hpp"
#include "support/golden_hash.hpp"

namespace {

struct Shape {
  int count, n, dh;
};
const Shape kShapes[] = {{1, 1, 1},  {3, 5, 3},  {2, 7, 16}, {4, 64, 16}, {2, 33, 20},
                         {1, 17, 9}, {2, 40, 8}, {3, 9, 33}, {1, 100, 5}};

std::vector<float> random_floats(gatelab::Pcg32& rng, std::size_t count) {
  std::vector<float> v(count);
  for (float& x : v) x = rng.uniform(-1.0f, 1.0f);
  return v;
}

// A random lower-triangular L per problem, +0 above the diagonal.
std::vector<float> random_lower(gatelab::Pcg32& rng, int count, int n) {
  std::vector<float> l = random_floats(rng, std::size_t(count) * n * n);
  for (int p = 0; p < count; ++p) {
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) l[(std::size_t(p) * n + i) * n + j] = 0.0f;
    }
  }
  return l;
}

// C (m×n) = Σ_t A(i, t)·B(t, j) from 0 in increasing t, separate multiply and add: the per-element
// order every product of the library promises.
void plain(const float* a, long ars, long acs, const float* b, long brs, long bcs, float* c, int m, int k, int n) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int t = 0; t < k; ++t) {
        const float product = a[i * ars + t * acs] * b[t * brs + j * bcs];
        sum = sum + product;
      }
      c[long(i) * n + j] = sum;
    }
  }
}

TEST(MatmulCausal, ScoresEqualTheInOrderProductOnAndBelowTheDiagonal) {
  gatelab::Pcg32 rng(11);
  for (const Shape& s : kShapes) {
    const std::size_t nd = std::size_t(s.n) * s.dh, nn = std::size_t(s.n) * s.n;
    const std::vector<float> a = random_floats(rng, s.count * nd), b = random_floats(rng, s.count * nd);
    std::vector<float> fast(s.count * nn, 7.0f), ref(s.count * nn);
    gatelab::causal_scores(a.data(), b.data(), fast.data(), s.count, s.n, s.dh);
    for (int p = 0; p < s.count; ++p) {
      plain(a.data() + p * nd, s.dh, 1, b.data() + p * nd, 1, s.dh, ref.data() + p * nn, s.n, s.dh, s.n);
      for (int i = 0; i < s.n; ++i) {
        for (int j = 0; j <= i; ++j) {
          const std::size_t at = p * nn + std::size_t(i) * s.n + j;
          ASSERT_EQ(std::memcmp(&fast[at], &ref[at], sizeof(float)), 0)
              << "n=" << s.n << " dh=" << s.dh << " problem " << p << " (" << i << "," << j << "): fast " << fast[at]
              << " in-order " << ref[at];
        }
      }
    }
  }
}

// L·X and Lᵀ·X against the in-order full products (the zeros above the diagonal included).
TEST(MatmulCausal, ProductsByALowerTriangleEqualTheFullInOrderProducts) {
  gatelab::Pcg32 rng(12);
  for (const Shape& s : kShapes) {
    const std::size_t nd = std::size_t(s.n) * s.dh, nn = std::size_t(s.n) * s.n;
    const std::vector<float> l = random_lower(rng, s.count, s.n), x = random_floats(rng, s.count * nd);
    std::vector<float> apply(s.count * nd), applied_t(s.count * nd), ref(s.count * nd), ref_t(s.count * nd);
    gatelab::causal_apply(l.data(), x.data(), apply.data(), s.count, s.n, s.dh);
    gatelab::causal_apply_transposed(l.data(), x.data(), applied_t.data(), s.count, s.n, s.dh);
    for (int p = 0; p < s.count; ++p) {
      plain(l.data() + p * nn, s.n, 1, x.data() + p * nd, s.dh, 1, ref.data() + p * nd, s.n, s.n, s.dh);
      plain(l.data() + p * nn, 1, s.n, x.data() + p * nd, s.dh, 1, ref_t.data() + p * nd, s.n, s.n, s.dh);
    }
    EXPECT_EQ(std::memcmp(apply.data(), ref.data(), sizeof(float) * apply.size()), 0)
        << "L·X, n=" << s.n << " dh=" << s.dh;
    EXPECT_EQ(std::memcmp(applied_t.data(), ref_t.data(), sizeof(float) * ref_t.size()), 0)
        << "Lᵀ·X, n=" << s.n << " dh=" << s.dh;
  }
}

// A zero row of L (a row of α that underflowed, or a zero gradient) gives +0, as the full
// product's sum from +0 does, never −0.
TEST(MatmulCausal, ZeroCoefficientsGivePlusZero) {
  const int n = 6, dh = 5;
  std::vector<float> l(n * n, 0.0f), x(n * dh, -1.0f), out(n * dh, 7.0f);
  gatelab::causal_apply(l.data(), x.data(), out.data(), 1, n, dh);
  for (float v : out) EXPECT_FALSE(std::signbit(v)) << v;
  gatelab::causal_apply_transposed(l.data(), x.data(), out.data(), 1, n, dh);
  for (float v : out) EXPECT_FALSE(std::signbit(v)) << v;
}

// The same constant in every build: natively at each vector width and in wasm.
TEST(MatmulCausal, OutputBitsAreTheSameEverywhere) {
  gatelab::Pcg32 rng(2026);
  golden::Fnv1a fnv;
  for (const Shape& s : {Shape{4, 64, 16}, Shape{2, 33, 20}}) {
    const std::size_t nd = std::size_t(s.n) * s.dh, nn = std::size_t(s.n) * s.n;
    const std::vector<float> a = random_floats(rng, s.count * nd), b = random_floats(rng, s.count * nd);
    const std::vector<float> l = random_lower(rng, s.count, s.n);
    std::vector<float> scores(s.count * nn, 0.0f), out(s.count * nd);
    gatelab::causal_scores(a.data(), b.data(), scores.data(), s.count, s.n, s.dh);
    for (int p = 0; p < s.count; ++p) {
      for (int i = 0; i < s.n; ++i) {
        for (int j = 0; j <= i; ++j) fnv.add(scores[(std::size_t(p) * s.n + i) * s.n + j]);
      }
    }
    gatelab::causal_apply(l.data(), a.data(), out.data(), s.count, s.n, s.dh);
    fnv.add(out.data(), out.size());
    gatelab::causal_apply_transposed(l.data(), b.data(), out.data(), s.count, s.n, s.dh);
    fnv.add(out.data(), out.size());
  }
  EXPECT_EQ(fnv.hash, 7731616956439998418ULL);
}

}  // namespace
