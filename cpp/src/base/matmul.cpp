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

#include "base/matmul_simd.hpp"

namespace gatelab {
namespace {

using namespace matmul_detail;

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
  if (lines == W && step == 1) {   // lines are contiguous (A row-major, Bᵀ stored): transpose
    constexpr int W4 = W / 4 * 4;  // 4×4 blocks; the last W mod 4 lines (a 6-row tile) one by one
    for (; p0 + 4 <= kc; p0 += 4) {
      for (int i = 0; i < W4; i += 4) transpose4(base + i * line + p0, line, out + p0 * W + i, W);
      for (int i = W4; i < W; ++i) {
        for (int q = 0; q < 4; ++q) out[(p0 + q) * W + i] = base[i * line + p0 + q];
      }
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

// Moves the rows×cols corner of an MR×NR scratch tile to or from the output.
void tile_from(const Out& c, long i0, long j0, int rows, int cols, float* tile) {
  for (int i = 0; i < rows; ++i) {
    const float* src = c.p + (i0 + i) * c.rs + j0 * c.cs;
    if (c.cs == 1)
      std::memcpy(tile + i * kNR, src, sizeof(float) * cols);
    else
      for (int j = 0; j < cols; ++j) tile[i * kNR + j] = src[j * c.cs];
  }
}
void tile_to(const Out& c, long i0, long j0, int rows, int cols, const float* tile) {
  for (int i = 0; i < rows; ++i) {
    float* dst = c.p + (i0 + i) * c.rs + j0 * c.cs;
    if (c.cs == 1)
      std::memcpy(dst, tile + i * kNR, sizeof(float) * cols);
    else
      for (int j = 0; j < cols; ++j) dst[j * c.cs] = tile[i * kNR + j];
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
