// Fast matrix products C = op(A)·op(B) for the three layouts the layers need (nn, tn, nt).
// One BLIS-style driver serves all three: B is packed into (kc, NR) column panels and A into
// (kc, MR) row panels (zero-padded at the edges), and a register-tiled micro-kernel written
// in GCC/clang vector extensions computes one MR×NR tile of C at a time. Only the packing
// differs between layouts. Determinism: every element of C is one register lane that starts
// at 0 (or at C's old value) and adds its products in increasing k with a separate multiply
// and add, so tile sizes, cache blocking, vector width and platform never change its bits.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gatelab/base/matmul.hpp"

namespace gatelab {
namespace {

// The vector type: 16 floats with AVX-512 (32 registers), 8 with AVX, 4 in wasm SIMD128 and
// plain SSE. The lane count changes which elements share a register, never an element's sum.
#if defined(__AVX512F__)
typedef float vfloat __attribute__((vector_size(64)));
constexpr int kLanes = 16;
inline vfloat splat(float x) { return vfloat{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x}; }
#elif defined(__AVX__)
typedef float vfloat __attribute__((vector_size(32)));
constexpr int kLanes = 8;
inline vfloat splat(float x) { return vfloat{x, x, x, x, x, x, x, x}; }
#else
typedef float vfloat __attribute__((vector_size(16)));
constexpr int kLanes = 4;
inline vfloat splat(float x) { return vfloat{x, x, x, x}; }
#endif

// Register tile MR×NR = 4 rows × NV vectors. In wasm this is the largest tile that V8 keeps
// in registers: TurboFan issues all of an iteration's loads first, so 8 accumulators + 2 B
// vectors + 4 broadcasts + 1 product temporary fill the 15 xmm registers it allocates;
// 6×2, 5×2 and 4×3 spill and were 10–20 % slower. Natively 4×2 (AVX) and 4×1 (AVX-512)
// measured as fast as larger tiles and waste less at edges.
constexpr int kMR = 4;
#if defined(__AVX512F__)
constexpr int kNV = 1;
#else
constexpr int kNV = 2;
#endif
constexpr int kNR = kNV * kLanes;
// Cache blocking: a (kc, NR) B panel stays in L1 while the (mc, kc) A block streams from L2.
constexpr int kKC = 256;
constexpr int kMC = 32 * kMR;
constexpr int kNC = 2048 / kNR * kNR;

inline vfloat load(const float* p) {
  vfloat v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, vfloat v) { __builtin_memcpy(p, &v, sizeof v); }

// Element (i, j) of a strided matrix operand is p[i*rs + j*cs].
struct View {
  const float* p;
  long rs, cs;
};

// ap is a packed (kc, MR) panel, bp a packed (kc, NR) panel, c an MR×NR tile with row
// stride ldc. c = (load_c ? c : 0) + ap·bp, each lane adding its products in increasing k.
void micro_kernel(int kc, const float* ap, const float* bp, float* c, long ldc, bool load_c) {
  vfloat acc[kMR][kNV];
#pragma GCC unroll 16
  for (int i = 0; i < kMR; ++i) {
#pragma GCC unroll 4
    for (int j = 0; j < kNV; ++j) acc[i][j] = load_c ? load(c + i * ldc + j * kLanes) : vfloat{};
  }
  for (const float* end = ap + static_cast<long>(kc) * kMR; ap != end;) {
    vfloat b[kNV];
#pragma GCC unroll 4
    for (int j = 0; j < kNV; ++j) b[j] = load(bp + j * kLanes);
#pragma GCC unroll 16
    for (int i = 0; i < kMR; ++i) {
      const vfloat a = splat(ap[i]);
#pragma GCC unroll 4
      for (int j = 0; j < kNV; ++j) acc[i][j] = acc[i][j] + a * b[j];
    }
    ap += kMR;
    bp += kNR;
  }
#pragma GCC unroll 16
  for (int i = 0; i < kMR; ++i) {
#pragma GCC unroll 4
    for (int j = 0; j < kNV; ++j) store(c + i * ldc + j * kLanes, acc[i][j]);
  }
}

// Writes the 4×4 block src[r*ld + q] (r, q < 4) transposed to dst[q*ldd + r]: four vector
// loads, eight shuffles and four stores instead of sixteen scalar moves.
typedef float f32x4 __attribute__((vector_size(16)));
inline void transpose4(const float* src, long ld, float* dst, long ldd) {
  f32x4 r0, r1, r2, r3;
  __builtin_memcpy(&r0, src, 16);
  __builtin_memcpy(&r1, src + ld, 16);
  __builtin_memcpy(&r2, src + 2 * ld, 16);
  __builtin_memcpy(&r3, src + 3 * ld, 16);
  const f32x4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);
  const f32x4 t1 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
  const f32x4 t2 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
  const f32x4 t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
  const f32x4 c0 = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  const f32x4 c1 = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  const f32x4 c2 = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  const f32x4 c3 = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
  __builtin_memcpy(dst, &c0, 16);
  __builtin_memcpy(dst + ldd, &c1, 16);
  __builtin_memcpy(dst + 2 * ldd, &c2, 16);
  __builtin_memcpy(dst + 3 * ldd, &c3, 16);
}

// Packs `lines` lines of length kc into a (kc, W) panel: out[p*W + i] = base[i*line + p*step],
// lines past `lines` zero so the micro-kernel never needs an edge case. A panel of A has
// W = MR rows; a panel of B has W = NR columns.
template <int W>
void pack_panel(const float* base, long line, long step, int lines, int kc, float* out) {
  if (lines == W && line == 1) {  // each k holds W consecutive floats (Aᵀ stored, B row-major)
    for (int p = 0; p < kc; ++p) std::memcpy(out + p * W, base + p * step, sizeof(float) * W);
    return;
  }
  int p0 = 0;
  if (lines == W && step == 1) {  // lines are contiguous (A row-major, Bᵀ stored): transpose
    for (; p0 + 4 <= kc; p0 += 4) {
      for (int i = 0; i < W; i += 4) transpose4(base + i * line + p0, line, out + p0 * W + i, W);
    }
  }
  for (int p = p0; p < kc; ++p) {  // the rest, one k at a time
    const float* src = base + p * step;
    float* dst = out + p * W;
    if (lines == W) {
#pragma GCC unroll 16
      for (int i = 0; i < W; ++i) dst[i] = src[i * line];
      continue;
    }
    for (int i = 0; i < lines; ++i) dst[i] = src[i * line];
    for (int i = lines; i < W; ++i) dst[i] = 0.0f;
  }
}

// Packs rows [i0, i0+mc) × columns [p0, p0+kc) of op(A) into (kc, MR) panels.
void pack_a(View a, int i0, int mc, int p0, int kc, float* out) {
  for (int ir = 0; ir < mc; ir += kMR, out += static_cast<long>(kc) * kMR) {
    const float* base = a.p + (i0 + ir) * a.rs + p0 * a.cs;
    pack_panel<kMR>(base, a.rs, a.cs, std::min(kMR, mc - ir), kc, out);
  }
}

// Packs rows [p0, p0+kc) × columns [j0, j0+nc) of op(B) into (kc, NR) panels.
void pack_b(View b, int p0, int kc, int j0, int nc, float* out) {
  for (int jr = 0; jr < nc; jr += kNR, out += static_cast<long>(kc) * kNR) {
    const float* base = b.p + p0 * b.rs + (j0 + jr) * b.cs;
    pack_panel<kNR>(base, b.cs, b.rs, std::min(kNR, nc - jr), kc, out);
  }
}

// Element (i, j) of the output is p[i*rs + j*cs]: row-major C, or Cᵀ when the product is
// computed transposed (see product()).
struct Out {
  float* p;
  long rs, cs;
};

// Moves the rows×cols corner of an MR×NR scratch tile to or from the output.
void tile_from(const Out& c, long i0, long j0, int rows, int cols, float* tile) {
  for (int i = 0; i < rows; ++i) {
    const float* src = c.p + (i0 + i) * c.rs + j0 * c.cs;
    if (c.cs == 1) std::memcpy(tile + i * kNR, src, sizeof(float) * cols);
    else for (int j = 0; j < cols; ++j) tile[i * kNR + j] = src[j * c.cs];
  }
}
void tile_to(const Out& c, long i0, long j0, int rows, int cols, const float* tile) {
  for (int i = 0; i < rows; ++i) {
    float* dst = c.p + (i0 + i) * c.rs + j0 * c.cs;
    if (c.cs == 1) std::memcpy(dst, tile + i * kNR, sizeof(float) * cols);
    else for (int j = 0; j < cols; ++j) dst[j * c.cs] = tile[i * kNR + j];
  }
}

// Output rows [i0, i0+mc) × columns [j0, j0+nc) = (load_c ? old : 0) + packed A block ·
// packed B block. Edge tiles and transposed outputs go through a scratch tile so the
// micro-kernel has a single shape.
void macro_kernel(int mc, int nc, int kc, const float* ap, const float* bp, const Out& c, long i0, long j0,
                  bool load_c) {
  for (int jr = 0; jr < nc; jr += kNR) {
    const int cols = std::min(kNR, nc - jr);
    const float* bpanel = bp + static_cast<long>(jr) * kc;
    for (int ir = 0; ir < mc; ir += kMR) {
      const int rows = std::min(kMR, mc - ir);
      const float* apanel = ap + static_cast<long>(ir) * kc;
      if (rows == kMR && cols == kNR && c.cs == 1) {
        micro_kernel(kc, apanel, bpanel, c.p + (i0 + ir) * c.rs + j0 + jr, c.rs, load_c);
        continue;
      }
      float tile[kMR * kNR];
      if (load_c) tile_from(c, i0 + ir, j0 + jr, rows, cols, tile);
      micro_kernel(kc, apanel, bpanel, tile, kNR, load_c);
      tile_to(c, i0 + ir, j0 + jr, rows, cols, tile);
    }
  }
}

// Splits `total` into the fewest blocks of at most `cap`, of nearly equal size rounded up
// to `unit`, so a k of 257 becomes 2×129 rather than 256 + 1.
int block_size(int total, int cap, int unit) {
  const int blocks = (total + cap - 1) / cap;
  const int even = (total + blocks - 1) / blocks;
  return std::min(cap, (even + unit - 1) / unit * unit);
}

// Scratch for packed panels, grown on demand and kept: no allocation per call once warm.
// Aligned to 64 bytes so that no vector load of a panel straddles two cache lines.
float* scratch(std::vector<float>& buffer, long size) {
  constexpr long kAlign = 64 / sizeof(float);
  if (static_cast<long>(buffer.size()) < size + kAlign) buffer.resize(size + kAlign);
  const auto address = reinterpret_cast<std::uintptr_t>(buffer.data());
  return buffer.data() + (kAlign - static_cast<long>(address / sizeof(float) % kAlign)) % kAlign;
}

// out (m×n) = (accumulate ? out : 0) + op(A) (m×k) · op(B) (k×n), with k ≥ 1.
void gemm(View a, View b, const Out& out, int m, int k, int n, bool accumulate) {
  thread_local std::vector<float> a_buffer, b_buffer;
  const int kc_max = block_size(k, kKC, 1);
  const int mc_max = block_size(m, kMC, kMR);
  const int nc_max = block_size(n, kNC, kNR);
  float* ap = scratch(a_buffer, static_cast<long>(kc_max) * ((mc_max + kMR - 1) / kMR * kMR));
  float* bp = scratch(b_buffer, static_cast<long>(kc_max) * ((nc_max + kNR - 1) / kNR * kNR));
  for (int jc = 0; jc < n; jc += nc_max) {
    const int nc = std::min(nc_max, n - jc);
    for (int pc = 0; pc < k; pc += kc_max) {
      const int kc = std::min(kc_max, k - pc);
      // After the first k block the output holds each element's partial sum: continue it.
      const bool load_c = accumulate || pc > 0;
      pack_b(b, pc, kc, jc, nc, bp);
      for (int ic = 0; ic < m; ic += mc_max) {
        const int mc = std::min(mc_max, m - ic);
        pack_a(a, ic, mc, pc, kc, ap);
        macro_kernel(mc, nc, kc, ap, bp, out, ic, jc, load_c);
      }
    }
  }
}

long round_up(long x, long unit) { return (x + unit - 1) / unit * unit; }

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
      for (int p = 0; p + 4 <= k; p += 4) transpose4(b.p + j0 * b.cs + p, b.cs, copy.data() + static_cast<long>(p) * n + j0, n);
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
  if (n == 1) thin_columns_n<1>(a, b, c, m, k, load_c);
  else if (n == 2) thin_columns_n<2>(a, b, c, m, k, load_c);
  else thin_columns_n<3>(a, b, c, m, k, load_c);
}

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

// C (m×n, row-major) = (accumulate ? C : 0) + op(A)·op(B). A narrow C (n below a tile
// width, e.g. a layer with one output) wastes most of each MR×NR tile on padding, so then
// Cᵀ = op(B)ᵀ·op(A)ᵀ is computed instead, whichever orientation pads less.
void product(View a, View b, float* c, int m, int k, int n, bool accumulate) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    if (!accumulate) std::fill(c, c + static_cast<long>(m) * n, 0.0f);
    return;
  }
  if (try_direct(a, b, c, m, k, n, accumulate)) return;
  const long padded = round_up(m, kMR) * round_up(n, kNR);
  const long padded_transposed = round_up(n, kMR) * round_up(m, kNR);
  if (padded_transposed < padded) {
    gemm(View{b.p, b.cs, b.rs}, View{a.p, a.cs, a.rs}, Out{c, 1, n}, n, k, m, accumulate);
  } else {
    gemm(a, b, Out{c, n, 1}, m, k, n, accumulate);
  }
}

}  // namespace

// a is (m,k), b is (k,n), c is (m,n).
void matmul_nn(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate) {
  product(View{a, k, 1}, View{b, n, 1}, c, m, k, n, accumulate);
}

// a is (k,m), b is (k,n), c is (m,n).
void matmul_tn(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate) {
  product(View{a, 1, m}, View{b, n, 1}, c, m, k, n, accumulate);
}

// a is (m,k), b is (n,k), c is (m,n).
void matmul_nt(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate) {
  product(View{a, k, 1}, View{b, 1, k}, c, m, k, n, accumulate);
}

}  // namespace gatelab
