// Private to cpp/src/base: what the two paths of the matrix products share (matmul.cpp, the
// packed BLIS-style path, and matmul_direct.cpp, small and thin products without packing):
// the vector type and its lane count, the register tile and cache blocks, strided operand
// and output views, a 4×4 register transpose and the aligned scratch. The determinism rule of
// both paths is in matmul.cpp's header comment.
#pragma once

#include <cstdint>
#include <vector>

namespace gatelab::matmul_detail {

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

// Register tile MR×NR = MR rows × NV vectors, chosen per width (measured on Zen 4 at 3.7 GHz,
// square n = 128…1024, each width built with its own -march; bench_matmul):
//  - wasm SIMD128 / SSE, 4×2: the largest tile V8 keeps in registers. TurboFan issues all of an
//    iteration's loads first, so 8 accumulators + 2 B vectors + 4 broadcasts + 1 product
//    temporary fill the 15 xmm registers it allocates; 6×2, 5×2 and 4×3 spill and were 10–20 %
//    slower.
//  - AVX/AVX2 (16 ymm registers), 6×2: 12 accumulators + 2 B vectors + a broadcast + a product
//    fill them exactly, enough independent add chains to keep two add pipes busy through a
//    3–4 cycle latency: 93–101 GFLOP/s against 66–70 for 4×2 (80–87 % of the measured
//    mul + add ceiling); 5×2 was close, 4×3 and 3×4 were 60–70 %.
//  - AVX-512 (32 zmm registers), 8×1: 8 accumulators of 16 lanes; 103–108 GFLOP/s against 86–91
//    for 4×1 and 67–87 for 4×2, 6×2, 8×2, 6×4 (two B vectors per k cost more than they save).
#if defined(__AVX512F__)
constexpr int kMR = 8;
constexpr int kNV = 1;
#elif defined(__AVX__)
constexpr int kMR = 6;
constexpr int kNV = 2;
#else
constexpr int kMR = 4;
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

// Element (i, j) of the output is p[i*rs + j*cs]: row-major C, or Cᵀ when the product is
// computed transposed (see product()).
struct Out {
  float* p;
  long rs, cs;
};

// Scratch for packed panels, grown on demand and kept: no allocation per call once warm.
// Aligned to 64 bytes so that no vector load of a panel straddles two cache lines.
inline float* scratch(std::vector<float>& buffer, long size) {
  constexpr long kAlign = 64 / sizeof(float);
  if (static_cast<long>(buffer.size()) < size + kAlign) buffer.resize(size + kAlign);
  const auto address = reinterpret_cast<std::uintptr_t>(buffer.data());
  return buffer.data() + (kAlign - static_cast<long>(address / sizeof(float) % kAlign)) % kAlign;
}

inline long round_up(long x, long unit) { return (x + unit - 1) / unit * unit; }

// The direct path (matmul_direct.cpp): computes C = (accumulate ? C : 0) + op(A)·op(B) and
// returns true when the product is small or thin enough for it, else returns false and
// leaves C alone.
bool try_direct(View a, View b, float* c, int m, int k, int n, bool accumulate);

}  // namespace gatelab::matmul_detail
