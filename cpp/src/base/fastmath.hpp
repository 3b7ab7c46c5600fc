// Elementary functions for the activations, a vector of float lanes at a time, built only from
// IEEE +, −, ×, ÷, comparisons and bit manipulation, so that a given input gives the same
// bits natively (g++ -march=native) and in WebAssembly (clang -msimd128): libm's exp, log,
// tanh and erf differ between glibc and emscripten's musl, and FMA contraction differs
// between targets (the build passes -ffp-contract=off). Lanes use GCC/clang vector
// extensions; selects are bitwise blends (g++ 12 and clang 14 disagree on `?:` for
// vectors) and splats are written f32x4{x, x, x, x} (`f32x4{} + x` is not a splat for
// x = −0). Accuracy targets are a few float ulps (≤ 1e-6 relative is what the tests ask).
// The functions (fastmath_lanes.hpp) exist for two lane sets: fm::v4, four lanes, which wasm
// and every scalar call use, and fm::vn, the native array width (8 lanes with AVX or AVX-512;
// fm::v4 elsewhere). Lanes never interact, so both give an element the same bits.
// The double-precision scalar helpers at the end serve the antiderivatives (MATH.md B3) and
// likewise avoid libm except sqrt; they are defined in fastmath.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
// f64x4 values never cross a real call (everything here is always_inline), so g++'s
// warning that their ABI depends on AVX does not apply. (Its parameter note ignores this
// pragma, hence double lanes are passed by const reference.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace gatelab::fm {

#define GATELAB_LANE inline __attribute__((always_inline))

// Four lanes: wasm SIMD128, SSE, and the padded vector of a one-element call.
namespace v4 {
typedef float vf __attribute__((vector_size(16)));
typedef std::int32_t vi __attribute__((vector_size(16)));
typedef double vd __attribute__((vector_size(32)));
typedef std::int64_t vl __attribute__((vector_size(32)));
constexpr int kLanes = 4;

GATELAB_LANE vf splat(float x) { return vf{x, x, x, x}; }
GATELAB_LANE vi splat_i(std::int32_t x) { return vi{x, x, x, x}; }
GATELAB_LANE vd splat_d(double x) { return vd{x, x, x, x}; }
GATELAB_LANE vl splat_l(std::int64_t x) { return vl{x, x, x, x}; }
GATELAB_LANE vi low_words(const vl& x) {  // one shuffle of the 32-bit words (clang 14 scalarises a conversion)
  typedef std::int32_t words __attribute__((vector_size(32)));
  const words w = (words)x;
  return __builtin_shufflevector(w, w, 0, 2, 4, 6);
}

#include "base/fastmath_lanes.hpp"
}  // namespace v4

#if defined(__AVX512F__) || defined(__AVX__)
// The native build's width (g++ only: wasm is built by clang with four lanes): 8 lanes with AVX,
// AVX2 and AVX-512 alike. On an Ice Lake Xeon (bench_activations) 8 lanes ran silu in 0.64 ns an
// element against 1.8 at 4 and 0.93 at 16, and 16 lanes made gelu_tanh and swish 2× slower than
// 4 (their 16 doubles span two registers and the conversions between them are split).
namespace vn {
constexpr int kLanes = 8;
typedef float vf __attribute__((vector_size(4 * kLanes)));
typedef std::int32_t vi __attribute__((vector_size(4 * kLanes)));
typedef double vd __attribute__((vector_size(8 * kLanes)));
typedef std::int64_t vl __attribute__((vector_size(8 * kLanes)));

// Written lane by lane (a broadcast once compiled), so that −0 is splat as −0.
template <class V, class T>
GATELAB_LANE V splat_of(T x) {
  V v;
  for (int i = 0; i < kLanes; ++i) v[i] = x;
  return v;
}
GATELAB_LANE vf splat(float x) { return splat_of<vf>(x); }
GATELAB_LANE vi splat_i(std::int32_t x) { return splat_of<vi>(x); }
GATELAB_LANE vd splat_d(double x) { return splat_of<vd>(x); }
GATELAB_LANE vl splat_l(std::int64_t x) { return splat_of<vl>(x); }
GATELAB_LANE vi low_words(const vl& x) { return __builtin_convertvector(x, vi); }  // g++ keeps the low word

#include "base/fastmath_lanes.hpp"
}  // namespace vn
#else
namespace vn = v4;
#endif

// The four-lane names every caller used before the lane sets (f32x4, exp, sigmoid …).
using namespace v4;
typedef v4::vf f32x4;
typedef v4::vi i32x4;
typedef v4::vd f64x4;
typedef v4::vl i64x4;

}  // namespace gatelab::fm

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace gatelab {

// Double-precision scalar helpers, libm-free except sqrt (fastmath.cpp); ≤ a few ulps.
double portable_exp(double x);
double portable_expm1(double x);
double portable_log1p(double x);       // x > −1
double portable_normal_cdf(double z);  // Φ(z); relative accuracy ~1e-13 in the lower tail
double portable_dilog(double x);       // Li₂(x) = −∫₀ˣ log(1−t)/t dt for x in [−1, ½]

}  // namespace gatelab
