// The direct path of the matrix products (see matmul.cpp): small and thin products computed
// row by row without packing, with the same per-element order as the packed path.
#include <algorithm>
#include <cstring>
#include <vector>

#include "base/matmul_simd.hpp"

namespace gatelab::matmul_detail {
namespace {

// ---- small products without packing ----------------------------------------------------
// The layers of the figures multiply by a 2- or 3-wide input, a 16-unit hidden layer or a
// single output: products like 500×3·3×16, 500×16·16×1 or 16×500·500×3, where packing
// panels and zero-padded tiles cost more than the arithmetic. They run directly: C' = A'·B'
// row by row, each row's columns in vectors, B' read in place when its rows are contiguous
// (else copied once, transposed, into scratch). Same per-element order as the packed path:
// each element starts at 0 (or C's old value) and adds its products in increasing k with a
// separate multiply and add, so which path runs never changes a bit.

// kLanes consecutive outputs of a row (stride cs) into or out of a vector.
inline vfloat load_out(const float* p, long cs) {
  if (cs == 1) return load(p);
  float lanes[kLanes];
  for (int l = 0; l < kLanes; ++l) lanes[l] = p[l * cs];
  return load(lanes);
}
inline void store_out(float* p, long cs, vfloat v) {
  if (cs == 1) return store(p, v);
  float lanes[kLanes];
  store(lanes, v);
  for (int l = 0; l < kLanes; ++l) p[l * cs] = lanes[l];
}

// R rows × V vectors of C' at once (R·V independent accumulators: the chains over k overlap,
// and each loaded B' vector serves R rows). arow[r] points at A'(i + r, 0), crow[r] at
// C'(i + r, j); B'(p, j + l) = b[p·ldb + l]. With `rest` < kLanes only that many columns
// are read back and written (V = 1; b then has kLanes readable, zero-padded columns).
template <int R, int V>
void direct_block(const float* const* arow, long acs, const float* b, long ldb, float* const* crow, long cs, int k,
                  bool load_c, int rest = kLanes) {
  vfloat acc[R][V];
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < V; ++v) {
      if (!load_c) {
        acc[r][v] = vfloat{};
      } else if (rest == kLanes) {
        acc[r][v] = load_out(crow[r] + v * kLanes * cs, cs);
      } else {
        float lanes[kLanes] = {};
        for (int l = 0; l < rest; ++l) lanes[l] = crow[r][l * cs];
        acc[r][v] = load(lanes);
      }
    }
  }
  for (int p = 0; p < k; ++p, b += ldb) {
    vfloat bv[V];
    for (int v = 0; v < V; ++v) bv[v] = load(b + v * kLanes);
    for (int r = 0; r < R; ++r) {
      const vfloat x = splat(arow[r][p * acs]);
      for (int v = 0; v < V; ++v) acc[r][v] = acc[r][v] + x * bv[v];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < V; ++v) {
      if (rest == kLanes) {
        store_out(crow[r] + v * kLanes * cs, cs, acc[r][v]);
      } else {
        float lanes[kLanes];
        store(lanes, acc[r][v]);
        for (int l = 0; l < rest; ++l) crow[r][l * cs] = lanes[l];
      }
    }
  }
}

// Up to four rows starting at row i of C', all columns: blocks of kDirectV vectors, then
// single vectors, then the last n mod kLanes columns from the zero-padded copy `tail`.
constexpr int kDirectV = kLanes >= 16 ? 1 : 2;
template <int R>
void direct_rows_block(View a, const float* bp, long ldb, const float* tail, const Out& c, int i, int k, int n,
                       bool load_c) {
  const float* arow[R];
  float* crow[R];
  for (int r = 0; r < R; ++r) {
    arow[r] = a.p + (i + r) * a.rs;
    crow[r] = c.p + (i + r) * c.rs;
  }
  int j = 0;
  float* cj[R];
  for (; j + kDirectV * kLanes <= n; j += kDirectV * kLanes) {
    for (int r = 0; r < R; ++r) cj[r] = crow[r] + j * c.cs;
    direct_block<R, kDirectV>(arow, a.cs, bp + j, ldb, cj, c.cs, k, load_c);
  }
  for (; j + kLanes <= n; j += kLanes) {
    for (int r = 0; r < R; ++r) cj[r] = crow[r] + j * c.cs;
    direct_block<R, 1>(arow, a.cs, bp + j, ldb, cj, c.cs, k, load_c);
  }
  if (j < n) {
    for (int r = 0; r < R; ++r) cj[r] = crow[r] + j * c.cs;
    direct_block<R, 1>(arow, a.cs, tail, kLanes, cj, c.cs, k, load_c, n - j);
  }
}

// The same for k = K ≤ 4 and a row-major C': B' is tiny (an input layer's weights), so each
// block of V vectors of columns [j, j + V·kLanes) keeps all of its K·V B' vectors in registers
// while the rows stream past: per row only K broadcasts, the products and V stores. With
// rest < kLanes (V = 1) b holds kLanes zero-padded columns and only `rest` are written.
template <int K, int V>
void small_k_block(View a, const float* b, long ldb, const Out& c, int m, int j, bool load_c, int rest) {
  vfloat bv[K][V];
  for (int p = 0; p < K; ++p) {
    for (int v = 0; v < V; ++v) bv[p][v] = load(b + p * ldb + v * kLanes);
  }
  for (int i = 0; i < m; ++i) {
    const float* arow = a.p + i * a.rs;
    float* crow = c.p + i * c.rs + j;
    vfloat acc[V];
    for (int v = 0; v < V; ++v) {
      if (!load_c) {
        acc[v] = vfloat{};
      } else if (rest == kLanes) {
        acc[v] = load(crow + v * kLanes);
      } else {
        float lanes[kLanes] = {};
        for (int l = 0; l < rest; ++l) lanes[l] = crow[l];
        acc[v] = load(lanes);
      }
    }
    for (int p = 0; p < K; ++p) {
      const vfloat x = splat(arow[p * a.cs]);
      for (int v = 0; v < V; ++v) acc[v] = acc[v] + x * bv[p][v];
    }
    for (int v = 0; v < V; ++v) {
      if (rest == kLanes) {
        store(crow + v * kLanes, acc[v]);
      } else {
        float lanes[kLanes];
        store(lanes, acc[v]);
        for (int l = 0; l < rest; ++l) crow[l] = lanes[l];
      }
    }
  }
}

template <int K>
void small_k_rows(View a, const float* bp, long ldb, const float* tail, const Out& c, int m, int n, bool load_c) {
  int j = 0;
  for (; j + kDirectV * kLanes <= n; j += kDirectV * kLanes) {
    small_k_block<K, kDirectV>(a, bp + j, ldb, c, m, j, load_c, kLanes);
  }
  for (; j + kLanes <= n; j += kLanes) small_k_block<K, 1>(a, bp + j, ldb, c, m, j, load_c, kLanes);
  if (j < n) small_k_block<K, 1>(a, tail, kLanes, c, m, j, load_c, n - j);
}

// C'(i, j) for i < m, j < n, k ≥ 1: A'(i, p) = a.p[i·a.rs + p·a.cs], B'(p, j) = bp[p·ldb + j].
void direct_rows(View a, const float* bp, long ldb, const Out& c, int m, int k, int n, bool load_c) {
  // The last n mod kLanes columns of B', zero-padded to a vector per k.
  thread_local std::vector<float> tail_buffer;
  const int rest = n % kLanes;
  const float* tail = nullptr;
  if (rest) {
    tail_buffer.assign(static_cast<std::size_t>(k) * kLanes, 0.0f);
    for (int p = 0; p < k; ++p) {
      for (int l = 0; l < rest; ++l) tail_buffer[static_cast<std::size_t>(p) * kLanes + l] = bp[p * ldb + n - rest + l];
    }
    tail = tail_buffer.data();
  }
  if (c.cs == 1 && k <= 4) {
    switch (k) {
      case 1: return small_k_rows<1>(a, bp, ldb, tail, c, m, n, load_c);
      case 2: return small_k_rows<2>(a, bp, ldb, tail, c, m, n, load_c);
      case 3: return small_k_rows<3>(a, bp, ldb, tail, c, m, n, load_c);
      default: return small_k_rows<4>(a, bp, ldb, tail, c, m, n, load_c);
    }
  }
  int i = 0;
  for (; i + 4 <= m; i += 4) direct_rows_block<4>(a, bp, ldb, tail, c, i, k, n, load_c);
  switch (m - i) {
    case 3: direct_rows_block<3>(a, bp, ldb, tail, c, i, k, n, load_c); break;
    case 2: direct_rows_block<2>(a, bp, ldb, tail, c, i, k, n, load_c); break;
    case 1: direct_rows_block<1>(a, bp, ldb, tail, c, i, k, n, load_c); break;
    default: break;
  }
}

// C'(m×n) = op(A')·op(B') through direct_rows; B' is copied transposed into scratch when its
// rows are not contiguous, at most kDirectCopy floats at a time (columns of C' are
// independent, so a wide B' goes in column chunks).
constexpr long kDirectCopy = 1 << 15;
void direct(View a, View b, const Out& c, int m, int k, int n, bool load_c) {
  if (b.cs == 1) {
    direct_rows(a, b.p, b.rs, c, m, k, n, load_c);
    return;
  }
  const int chunk = static_cast<int>(std::max<long>(kLanes, kDirectCopy / k / kLanes * kLanes));
  if (n > chunk) {
    for (int j = 0; j < n; j += chunk) {
      direct(a, View{b.p + j * b.cs, b.rs, b.cs}, Out{c.p + j * c.cs, c.rs, c.cs}, m, k, std::min(chunk, n - j),
             load_c);
    }
    return;
  }
  thread_local std::vector<float> copy;
  if (static_cast<long>(copy.size()) < static_cast<long>(k) * n) copy.resize(static_cast<long>(k) * n);
  int p0 = 0, j0 = 0;
  if (b.rs == 1) {  // B'ᵀ is row-major (rows of length k, stride cs): 4×4 block transposes
    for (; j0 + 4 <= n; j0 += 4) {
      for (int p = 0; p + 4 <= k; p += 4)
        transpose4(b.p + j0 * b.cs + p, b.cs, copy.data() + static_cast<long>(p) * n + j0, n);
    }
    p0 = k / 4 * 4;
  }
  for (int p = 0; p < k; ++p) {  // what the blocks left: columns from j0, and rows from p0 before j0
    for (int j = p < p0 ? j0 : 0; j < n; ++j) copy[static_cast<long>(p) * n + j] = b.p[p * b.rs + j * b.cs];
  }
  direct_rows(a, copy.data(), n, c, m, k, n, load_c);
}

// C (m×n) for n ≤ 3 with A's rows contiguous (a.cs == 1), e.g. a layer's single output over
// a batch: four rows of C per vector, A's 4×4 blocks transposed in registers (no copy), each
// column of A's block times a splat of B(p, j). Rows past the last multiple of four go
// through direct_rows. Same per-element order as everywhere.
template <int N>
void thin_columns_n(View a, View b, float* c, int m, int k, bool load_c) {
  constexpr int n = N;
  const int m4 = m / 4 * 4, k4 = k / 4 * 4;
  for (int i = 0; i < m4; i += 4) {
    f32x4 acc[N] = {};
    const float* a0 = a.p + i * a.rs;
    for (int j = 0; j < n; ++j) {
      if (load_c) acc[j] = f32x4{c[i * n + j], c[(i + 1) * n + j], c[(i + 2) * n + j], c[(i + 3) * n + j]};
    }
    for (int p = 0; p < k4; p += 4) {
      f32x4 r0, r1, r2, r3;
      __builtin_memcpy(&r0, a0 + p, 16);
      __builtin_memcpy(&r1, a0 + a.rs + p, 16);
      __builtin_memcpy(&r2, a0 + 2 * a.rs + p, 16);
      __builtin_memcpy(&r3, a0 + 3 * a.rs + p, 16);
      const f32x4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);
      const f32x4 t1 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
      const f32x4 t2 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
      const f32x4 t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
      const f32x4 col[4] = {__builtin_shufflevector(t0, t2, 0, 1, 4, 5), __builtin_shufflevector(t0, t2, 2, 3, 6, 7),
                            __builtin_shufflevector(t1, t3, 0, 1, 4, 5), __builtin_shufflevector(t1, t3, 2, 3, 6, 7)};
      for (int q = 0; q < 4; ++q) {
        for (int j = 0; j < n; ++j) {
          const float x = b.p[(p + q) * b.rs + j * b.cs];
          acc[j] = acc[j] + col[q] * f32x4{x, x, x, x};
        }
      }
    }
    for (int p = k4; p < k; ++p) {
      const f32x4 col{a0[p], a0[a.rs + p], a0[2 * a.rs + p], a0[3 * a.rs + p]};
      for (int j = 0; j < n; ++j) {
        const float x = b.p[p * b.rs + j * b.cs];
        acc[j] = acc[j] + col * f32x4{x, x, x, x};
      }
    }
    for (int j = 0; j < n; ++j) {
      for (int l = 0; l < 4; ++l) c[(i + l) * n + j] = acc[j][l];
    }
  }
  if (m4 < m) direct(View{a.p + m4 * a.rs, a.rs, a.cs}, b, Out{c + m4 * n, n, 1}, m - m4, k, n, load_c);
}

// N is a template parameter so the accumulators live in registers.
void thin_columns(View a, View b, float* c, int m, int k, int n, bool load_c) {
  if (n == 1)
    thin_columns_n<1>(a, b, c, m, k, load_c);
  else if (n == 2)
    thin_columns_n<2>(a, b, c, m, k, load_c);
  else
    thin_columns_n<3>(a, b, c, m, k, load_c);
}

}  // namespace

// Whether a product is small or thin enough for the direct path: a short inner dimension
// (packing would cost as much as the products) or an output narrower than a vector on one
// side (padded tiles would be mostly padding). The direct path vectorises over the output's
// wider side (C or Cᵀ).
bool try_direct(View a, View b, float* c, int m, int k, int n, bool accumulate) {
  const bool small_k = k <= 8;
  const bool thin = m < 4 || n < 4;
  if (!small_k && !thin) return false;
  if (n >= 4 || n >= m) {
    direct(a, b, Out{c, n, 1}, m, k, n, accumulate);
  } else if (a.cs == 1 && m >= 4) {
    thin_columns(a, b, c, m, k, n, accumulate);
  } else {  // Cᵀ (n×m) = op(B)ᵀ (n×k) · op(A)ᵀ (k×m): vectors along m
    direct(View{b.p, b.cs, b.rs}, View{a.p, a.cs, a.rs}, Out{c, 1, n}, n, k, m, accumulate);
  }
  return true;
}

}  // namespace gatelab::matmul_detail
