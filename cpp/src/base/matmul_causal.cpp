// The batched causal products of matmul_causal.hpp. Each problem is small (n × d_h with n the
// context, e.g. 64 × 16), so packing panels as the general products do would cost as much as
// the arithmetic: the kernels read the operands in place (only B of the scores is transposed,
// n·d_h floats per problem) and keep an R × V register tile (matmul_simd.hpp's MR × NV) of
// accumulators, each lane adding its products in increasing index from 0.
#include "gatelab/base/matmul_causal.hpp"

#include <algorithm>
#include <vector>

#include "base/matmul_simd.hpp"

namespace gatelab {
namespace {

using namespace matmul_detail;

// Narrower vectors for the columns past the last full vector (a head of d_h = 8 is narrower
// than AVX-512's 16 lanes): 8 lanes, then 4, then single columns.
typedef float f32x8 __attribute__((vector_size(32)));
typedef float f32x4 __attribute__((vector_size(16)));

// x in every lane, written out (a loop of lane stores is not always turned into one broadcast).
template <class Vec>
inline Vec broadcast(float x) {
  if constexpr (sizeof(Vec) == 16) {
    return Vec{x, x, x, x};
  } else if constexpr (sizeof(Vec) == 32) {
    return Vec{x, x, x, x, x, x, x, x};
  } else {
    return Vec{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
  }
}

// R rows × V vectors (of type Vec, `lanes` floats each) of an output with row stride ldo,
// starting at column c: out(r, c + l) = Σ_{t < steps} coef(r, t) · row_t(c + l), where
// coef(r, t) = coef[t·cs + r·rs] and row_t = x + t·ldx. Every lane starts at 0 and adds in
// increasing t.
template <int R, int V, class Vec>
inline void tile(const float* coef, long rs, long cs, const float* x, long ldx, int steps, float* out, long ldo) {
  constexpr int lanes = sizeof(Vec) / sizeof(float);
  // Every loop over r and v unrolled, so the accumulators live in registers from start to end:
  // left as loops, GCC zeroed them on the stack and stored them through it, which cost a
  // forwarding stall per row on every tile (the scores' tiles have only d_h steps).
  Vec acc[R][V];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) acc[r][v] = Vec{};
  }
  for (int t = 0; t < steps; ++t) {
    Vec xv[V];
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) __builtin_memcpy(&xv[v], x + t * ldx + v * lanes, sizeof(Vec));
    const float* c = coef + t * cs;
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const Vec a = broadcast<Vec>(c[r * rs]);
#pragma GCC unroll 4
      for (int v = 0; v < V; ++v) acc[r][v] = acc[r][v] + a * xv[v];
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) __builtin_memcpy(out + r * ldo + v * lanes, &acc[r][v], sizeof(Vec));
  }
}

// The same for one column, in scalar float: the same sum per element.
template <int R>
inline void column(const float* coef, long rs, long cs, const float* x, long ldx, int steps, float* out, long ldo) {
  for (int r = 0; r < R; ++r) {
    float sum = 0.0f;
    for (int t = 0; t < steps; ++t) sum = sum + coef[t * cs + r * rs] * x[t * ldx];
    out[r * ldo] = sum;
  }
}

// Columns [0, cols) of an R-row block.
template <int R>
void row_block(const float* coef, long rs, long cs, const float* x, long ldx, int steps, float* out, long ldo,
               int cols) {
  int c = 0;
  for (; c + kNV * kLanes <= cols; c += kNV * kLanes)
    tile<R, kNV, vfloat>(coef, rs, cs, x + c, ldx, steps, out + c, ldo);
  for (; c + kLanes <= cols; c += kLanes) tile<R, 1, vfloat>(coef, rs, cs, x + c, ldx, steps, out + c, ldo);
  if constexpr (kLanes > 8) {
    if (c + 8 <= cols) {
      tile<R, 1, f32x8>(coef, rs, cs, x + c, ldx, steps, out + c, ldo);
      c += 8;
    }
  }
  if constexpr (kLanes > 4) {
    if (c + 4 <= cols) {
      tile<R, 1, f32x4>(coef, rs, cs, x + c, ldx, steps, out + c, ldo);
      c += 4;
    }
  }
  for (; c < cols; ++c) column<R>(coef, rs, cs, x + c, ldx, steps, out + c, ldo);
}

// One R-row block, or the last rows of a matrix one by one (their coefficients past the end
// of the matrix must not be read).
template <class Steps>
void blocks(const float* coef, long rs, long cs, long block_step, const float* x, long ldx, float* out, long ldo,
            int rows, int cols, Steps steps_of, long x_step) {
  int i = 0;
  for (; i + kMR <= rows; i += kMR) {
    const auto [first, steps] = steps_of(i, kMR);
    row_block<kMR>(coef + i * block_step + first * cs, rs, cs, x + first * x_step, ldx, steps, out + i * ldo, ldo,
                   cols);
  }
  for (; i < rows; ++i) {
    const auto [first, steps] = steps_of(i, 1);
    row_block<1>(coef + i * block_step + first * cs, rs, cs, x + first * x_step, ldx, steps, out + i * ldo, ldo, cols);
  }
}

// bt (dh×n) = bᵀ, b (n×dh): 4×4 register transposes where both sizes allow, the rest element
// by element (the element-by-element loop was a third of causal_scores' time).
void transpose(const float* b, int n, int dh, float* bt) {
  int j = 0;
  if (dh % 4 == 0) {
    for (; j + 4 <= n; j += 4) {
      for (int t = 0; t < dh; t += 4) transpose4(b + long(j) * dh + t, dh, bt + long(t) * n + j, n);
    }
  }
  for (; j < n; ++j) {
    for (int t = 0; t < dh; ++t) bt[long(t) * n + j] = b[long(j) * dh + t];
  }
}

struct Range {
  int first, steps;
};

}  // namespace

void causal_apply(const float* l, const float* x, float* out, int count, int n, int dh) {
  const long nn = long(n) * n, nd = long(n) * dh;
  for (int b = 0; b < count; ++b) {
    // Row i sums over j ≤ i; a block of rows [i, i + R) runs to its last row's diagonal.
    blocks(
        l + b * nn, n, 1, n, x + b * nd, dh, out + b * nd, dh, n, dh,
        [n](int i, int r) {
          return Range{0, std::min(n, i + r)};
        },
        dh);
  }
}

void causal_apply_transposed(const float* l, const float* x, float* out, int count, int n, int dh) {
  const long nn = long(n) * n, nd = long(n) * dh;
  for (int b = 0; b < count; ++b) {
    // Output row j sums over i ≥ j (L(i, j) = 0 above the diagonal); coef(r, t) = L(t, j + r).
    blocks(
        l + b * nn, 1, n, 1, x + b * nd, dh, out + b * nd, dh, n, dh,
        [n](int j, int) {
          return Range{j, n - j};
        },
        dh);
  }
}

void causal_scores(const float* a, const float* b, float* s, int count, int n, int dh) {
  thread_local std::vector<float> transposed;
  if (transposed.size() < std::size_t(n) * dh) transposed.resize(std::size_t(n) * dh);
  float* bt = transposed.data();
  const long nn = long(n) * n, nd = long(n) * dh;
  for (int p = 0; p < count; ++p) {
    transpose(b + p * nd, n, dh, bt);
    // S(i, j) = Σ_t A(i, t) Bᵀ(t, j) for j ≤ i: a block of rows [i, i + R) needs the columns up
    // to its last row's diagonal, rounded up to whole vectors where the row is long enough.
    const float* ap = a + p * nd;
    float* sp = s + p * nn;
    int i = 0;
    for (; i + kMR <= n; i += kMR) {
      const int cols = std::min<int>(n, round_up(i + kMR, kLanes));
      row_block<kMR>(ap + long(i) * dh, dh, 1, bt, n, dh, sp + long(i) * n, n, cols);
    }
    for (; i < n; ++i) row_block<1>(ap + long(i) * dh, dh, 1, bt, n, dh, sp + long(i) * n, n, i + 1);
  }
}

}  // namespace gatelab
