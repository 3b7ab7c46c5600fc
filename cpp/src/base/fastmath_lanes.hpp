// The elementary functions of fastmath.hpp for one lane set, included once per lane set inside
// its namespace (fm::v4, and fm::vn at the native width): deliberately no include guard. The
// including namespace defines the vector types vf (floats), vi (int32), vd (doubles), vl (int64),
// all with the same lane count, and splat, splat_i, splat_d, splat_l and low_words. Every
// operation acts on each lane alone, so an element's bits never depend on the lane count.
GATELAB_LANE vi as_int(vf v) { return (vi)v; }
GATELAB_LANE vf as_float(vi v) { return (vf)v; }

// mask ? a : b per lane; mask lanes are all ones or all zeros (a comparison result).
GATELAB_LANE vf select(vi mask, vf a, vf b) { return as_float((mask & as_int(a)) | (~mask & as_int(b))); }
GATELAB_LANE vi less(vf a, vf b) { return (vi)(a < b); }
GATELAB_LANE vi greater(vf a, vf b) { return (vi)(a > b); }

GATELAB_LANE vf abs(vf x) { return as_float(as_int(x) & splat_i(0x7fffffff)); }
GATELAB_LANE vf neg_abs(vf x) { return as_float(as_int(x) | splat_i(INT32_MIN)); }

// x < lo ? lo : x and hi < x ? hi : x. In wasm these are exactly the pseudo-max/min
// instructions (one x86 instruction in V8); written as selects, LLVM would turn them into
// f32x4.max/min, whose NaN and ±0 rules cost V8 about eight instructions each.
GATELAB_LANE vf at_least(vf x, float lo) {
#if defined(__wasm_simd128__)
  return __builtin_wasm_pmax_f32x4(x, splat(lo));
#else
  return select(less(x, splat(lo)), splat(lo), x);
#endif
}
GATELAB_LANE vf at_most(vf x, float hi) {
#if defined(__wasm_simd128__)
  return __builtin_wasm_pmin_f32x4(x, splat(hi));
#else
  return select(greater(x, splat(hi)), splat(hi), x);
#endif
}
GATELAB_LANE vf clamp(vf x, float lo, float hi) { return at_most(at_least(x, lo), hi); }

// Double lanes: widen (low_words, the low 32-bit word of each lane, is the lane set's). There
// is deliberately no general narrowing: clang 14 scalarises a 4-lane double → float
// conversion for wasm (see small_to_float).
GATELAB_LANE vd widen(vf x) { return __builtin_convertvector(x, vd); }
GATELAB_LANE vi at_least_i(vi n, std::int32_t lo) {
  const vi below = (vi)(n < splat_i(lo));
  return (below & splat_i(lo)) | (~below & n);
}
// r as a float for |r| < 2: rounded to a multiple of 2⁻³⁰ first (adding 1.5·2²² puts that
// multiple in the low word), then that integer converted and scaled; at most 2⁻³¹ worse
// than a correct rounding, and the same bits everywhere.
GATELAB_LANE vf small_to_float(const vd& r) {
  const vi k = low_words((vl)(r + splat_d(6291456.0)));
  return __builtin_convertvector(k, vf) * splat(9.31322575e-10f);  // 2⁻³⁰
}

// c0 + x·(c1 + x·(c2 + …)), coefficients lowest degree first.
GATELAB_LANE vf horner(vf, float c) { return splat(c); }
template <class... Rest>
GATELAB_LANE vf horner(vf x, float c, Rest... rest) {
  return splat(c) + x * horner(x, rest...);
}

// Σ cᵢxⁱ by Estrin's scheme: pairs cᵢ + cᵢ₊₁x combined with x², x⁴, …, so the dependency
// chain is about log₂(degree) multiply-adds long instead of degree as with Horner, and an
// out-of-order core overlaps more loop iterations (the kernels here are latency-bound
// otherwise). The order of operations is fixed by this code: the same bits everywhere.
template <std::size_t N>
GATELAB_LANE vf estrin(vf x, const float (&c)[N]) {
  vf p[(N + 1) / 2];
  for (std::size_t i = 0; i < N / 2; ++i) p[i] = splat(c[2 * i]) + splat(c[2 * i + 1]) * x;
  if (N % 2) p[N / 2] = splat(c[N - 1]);
  vf power = x * x;
  for (std::size_t m = (N + 1) / 2; m > 1; m = (m + 1) / 2) {
    for (std::size_t i = 0; i < m / 2; ++i) p[i] = p[2 * i] + power * p[2 * i + 1];
    if (m % 2) p[m / 2] = p[m - 1];
    power = power * power;
  }
  return p[0];
}

// ---- exp and expm1 ------------------------------------------------------------------
// x = n·ln2 + r with |r| ≤ 0.35; ln2 = hi + lo where hi has 9 significant bits, so n·hi
// and x − n·hi are exact (Cody–Waite) for the |n| ≤ 260 used here.
inline constexpr float kLn2Hi = 0.693359375f;
inline constexpr float kLn2Lo = -2.12194440e-4f;
inline constexpr float kLog2e = 1.44269504f;
inline constexpr float kRoundMagic = 12582912.0f;  // 1.5·2²³: adding it rounds to an integer

// e^r on |r| ≤ 0.36 (degree 6, relative error 2.3e-8) and e^r − 1 = r + r²·P(r) there
// (relative error 2e-9); Chebyshev fits with float coefficients.
GATELAB_LANE vf exp_reduced(vf r) {
  static constexpr float c[] = {
      1.0f, 1.0f, 0.5f, 1.666639894e-01f, 4.166633263e-02f, 8.376448415e-03f, 1.394275925e-03f};
  return estrin(r, c);
}
GATELAB_LANE vf expm1_reduced(vf r) {
  static constexpr float c[] = {5.000000000e-01f, 1.666666716e-01f, 4.166643322e-02f,
                                8.333307691e-03f, 1.393718179e-03f, 1.989491284e-04f};
  return r + r * r * estrin(r, c);
}

// 2ⁿ for n in [−127, 128], written straight into the exponent field: n = −127 gives
// exactly 0 and n = 128 gives inf, which the flush-to-zero forms below rely on.
GATELAB_LANE vf pow2i(vi n) { return as_float((n + splat_i(127)) << 23); }

// y·2ⁿ for n in [−252, 254] in two steps, so results may be subnormal or overflow to inf.
GATELAB_LANE vf scale2(vf y, vi n) {
  const vi half = n >> 1;
  return y * pow2i(half) * pow2i(n - half);
}

struct Reduced {
  vf r;
  vi n;
};

GATELAB_LANE Reduced reduce_ln2(vf x) {
  const vf t = x * splat(kLog2e) + splat(kRoundMagic);
  const vf nf = t - splat(kRoundMagic);
  const vf r = (x - nf * splat(kLn2Hi)) - nf * splat(kLn2Lo);
  return {r, as_int(t) - as_int(splat(kRoundMagic))};
}

// e^x; 0 below −104 (under half the least subnormal), inf above 88.72, subnormals kept.
GATELAB_LANE vf exp(vf x) {
  const Reduced red = reduce_ln2(clamp(x, -104.0f, 89.0f));
  return scale2(exp_reduced(red.r), red.n);
}

// e^x for x ≤ 0, flushing results below about 2⁻¹²⁶·0.7 (x < −87.6) to 0: one exponent
// insertion instead of two. The activations use it where such values lie far below
// their accuracy floor.
GATELAB_LANE vf exp_ftz(vf x) {
  const Reduced red = reduce_ln2(at_least(x, -88.0f));  // −88 already rounds to n = −127
  return exp_reduced(red.r) * pow2i(red.n);
}

// Split x into a 12-bit head (whose square is exact) and the exact rest.
GATELAB_LANE vf head12(vf x) { return as_float(as_int(x) & splat_i(int32_t(0xfffff000))); }

// e^(−c·t²) for t ≥ 0 and c = ½ or 1 (a power of two keeps the folded constants exact),
// c·t² ≤ 88.3, flushing like exp_ftz. The result is so sensitive to its argument that a
// rounded t² would cost c·t²·2⁻²⁴ relative accuracy, so t² is carried as an exact head th²
// plus the small rounded rest (t − th)(t + th), and the reduction works on t² + n·ln2/c,
// whose head part th² + n·(ln2/c)_hi is exact.
GATELAB_LANE vf exp_neg_square_ftz(vf t, float c) {
  const vf th = head12(t);
  const vf sq_hi = th * th;
  const vf sq_lo = (t - th) * (t + th);
  const vf m = (sq_hi + sq_lo) * splat(-c * kLog2e) + splat(kRoundMagic);
  const vf nf = m - splat(kRoundMagic);
  const vf r = (((sq_hi + nf * splat(kLn2Hi / c)) + nf * splat(kLn2Lo / c)) + sq_lo) * splat(-c);
  return exp_reduced(r) * pow2i(as_int(m) - as_int(splat(kRoundMagic)));
}

// e^x − 1 with relative accuracy near 0; −1 below −30, inf above 88.72.
GATELAB_LANE vf expm1(vf x) {
  const Reduced red = reduce_ln2(clamp(x, -30.0f, 88.75f));
  // 2ⁿ·p + (2ⁿ − 1) computed as 2·(2ⁿ⁻¹·p + (2ⁿ⁻¹ − ½)): the same roundings, but 2ⁿ⁻¹
  // stays finite for n = 128.
  const vf h = pow2i(red.n - splat_i(1));
  const vf p = expm1_reduced(red.r);
  return splat(2.0f) * (h * p + (h - splat(0.5f)));
}

// e^−|y| for y given in double, |y| ≤ 1e9 (an argument whose float rounding would cost
// accuracy, e.g. β·z or the gelu_tanh cubic): reduced in double, the polynomial in float;
// flushes to 0 like exp_ftz.
GATELAB_LANE vf exp_neg_abs_wide_ftz(const vd& y) {
  const vl sign = splat_l(INT64_MIN);
  const vd x = (vd)((vl)y | sign);
  const vd magic = splat_d(6755399441055744.0);  // 1.5·2⁵²: n lands in the low word
  const vd t = x * splat_d(1.4426950408889634) + magic;
  const vd nd = t - magic;
  const vd r = (x - nd * splat_d(6.93147180369123816490e-01)) - nd * splat_d(1.90821492927058770002e-10);
  const vi n = at_least_i(low_words((vl)t), -127);  // 2⁻¹²⁷ → exactly 0
  return exp_reduced(small_to_float(r)) * pow2i(n);
}

// ---- log and log1p ------------------------------------------------------------------
// log x for finite x > 0: x = 2ᵏ·f with f in [√½, √2), log f = 2·atanh(s), s = (f−1)/(f+1),
// |s| ≤ 0.172, as 2s + s³·P(s²) (relative error 2.5e-9).
GATELAB_LANE vf log(vf x) {
  const vi tiny = less(x, splat(1.17549435e-38f));  // subnormal: scale by 2²³ first
  x = select(tiny, x * splat(8388608.0f), x);
  const vi bits = as_int(x);
  vi k = ((bits >> 23) & splat_i(0xff)) - splat_i(127) + (tiny & splat_i(-23));
  vf f = as_float((bits & splat_i(0x7fffff)) | splat_i(0x3f800000));
  const vi big = greater(f, splat(1.41421356f));
  f = select(big, f * splat(0.5f), f);
  k = k - big;  // big lanes are −1
  const vf s = (f - splat(1.0f)) / (f + splat(1.0f));
  const vf s2 = s * s;
  const vf log_f = splat(2.0f) * s + s * s2 * horner(s2, 6.666668653e-01f, 3.998873234e-01f, 2.958215773e-01f);
  const vf kf = __builtin_convertvector(k, vf);
  return kf * splat(kLn2Hi) + (log_f + kf * splat(kLn2Lo));
}

// log(1 + x) for finite x > −1 with relative accuracy near 0: m = 1 + x rounds, and the exact
// rounding error x − (m − 1) enters as a first-order correction.
GATELAB_LANE vf log1p(vf x) {
  const vf m = splat(1.0f) + x;
  return log(m) + (x - (m - splat(1.0f))) / m;
}

// ---- sigmoid and tanh ---------------------------------------------------------------
// σ(x) and 1 − σ(x), both with relative accuracy: from e = e^−|x| ≤ 1, never as 1 − σ.
// Values below ~1e-38 flush to 0 (exp_ftz).
struct Sigmoid {
  vf s, sc;
};

GATELAB_LANE Sigmoid sigmoid_from(vf e, vi positive) {
  const vf r = splat(1.0f) / (splat(1.0f) + e);
  const vf er = e * r;
  return {select(positive, r, er), select(positive, er, r)};
}
GATELAB_LANE vi non_negative(vf x) { return ~less(x, splat(0.0f)); }
GATELAB_LANE Sigmoid sigmoid_parts(vf x) { return sigmoid_from(exp_ftz(neg_abs(x)), non_negative(x)); }
// The same for an argument held in double, |y| ≤ 1e9 (see exp_neg_abs_wide_ftz).
GATELAB_LANE Sigmoid sigmoid_parts(const vd& y) {
  const vi negative = low_words((vl)(y < splat_d(0.0)));
  return sigmoid_from(exp_neg_abs_wide_ftz(y), ~negative);
}
// σ alone: one division, no multiply (bits differ from sigmoid_parts(x).s in the last place).
GATELAB_LANE vf sigmoid(vf x) {
  const vf e = exp_ftz(neg_abs(x));
  return select(non_negative(x), splat(1.0f), e) / (splat(1.0f) + e);
}

// tanh|x| = −m/(2 + m) with m = expm1(−2|x|): relative accuracy near 0, no overflow;
// then the sign of x is put back (so tanh(±0) = ±0).
GATELAB_LANE vf tanh(vf x) {
  const vf m = expm1(splat(-2.0f) * abs(x));
  const vf t = (splat(0.0f) - m) / (splat(2.0f) + m);
  return as_float(as_int(t) | (as_int(x) & splat_i(INT32_MIN)));
}
// 1 − tanh²x = 4e/(1 + e)² with e = e^−2|x|, accurate far into the tails (flushes ≲ 1e-38).
GATELAB_LANE vf tanh_derivative(vf x) {
  const vf e = exp_ftz(splat(-2.0f) * abs(x));
  const vf d = splat(1.0f) + e;
  return splat(4.0f) * e / (d * d);
}

// ---- Gaussian tail, erf, erfc -------------------------------------------------------
// Q(t) = P(N > t) for t in [0, 13.3] as e·P(t)/R(t), given e = e^(−t²/2): P/R, of degrees
// 4 and 5, approximates the Mills ratio Q(t)/φ(t) over √(2π) with relative error 2.8e-8
// (a rational fit with float coefficients, all positive, so the sums do not cancel).
GATELAB_LANE vf gauss_tail_core(vf t, vf e) {
  const vf p = horner(t, 5.000000000e-01f, 4.356897175e-01f, 1.813092977e-01f, 3.998503834e-02f, 4.020321183e-03f);
  const vf r = horner(t, 1.000000000e+00f, 1.669264317e+00f, 1.194494724e+00f, 4.643870592e-01f, 1.002350077e-01f,
                      1.007730700e-02f);
  return e * p / r;
}

struct GaussTail {
  vf tail;     // Q(t) = P(N > t)
  vf density;  // φ(t) = e^(−t²/2)/√(2π)
};
// For t ≥ 0. t is cut at 13.25, where −t²/2 already rounds to n = −127 in
// exp_neg_square_ftz: from there on both results are exactly 0.
GATELAB_LANE GaussTail gauss_tail(vf t) {
  t = at_most(t, 13.25f);
  const vf e = exp_neg_square_ftz(t, 0.5f);
  return {gauss_tail_core(t, e), e * splat(0.398942280f)};
}

// Standard normal CDF Φ(z) (lower tail from Q(|z|) directly, so relative accuracy holds
// far into z < 0; values below ~1e-38 flush to 0).
GATELAB_LANE vf normal_cdf(vf z) {
  const vf q = gauss_tail(abs(z)).tail;
  return select(less(z, splat(0.0f)), q, splat(1.0f) - q);
}

// erfc x = 2·Q(√2·x) with e^(−x²) computed from x itself (√2·x only enters the smooth
// part); |x| is cut at 9.38, where −x² rounds to n = −127 (so erfc is exactly 0 or 2 beyond).
GATELAB_LANE vf erfc(vf x) {
  const vf ax = at_most(abs(x), 9.38f);
  const vf e = exp_neg_square_ftz(ax, 1.0f);
  const vf upper = splat(2.0f) * gauss_tail_core(splat(1.41421356f) * ax, e);
  return select(less(x, splat(0.0f)), splat(2.0f) - upper, upper);
}

// erf x: x·P(x²) below |x| = 0.5 (relative accuracy near 0), 1 − erfc|x| above.
GATELAB_LANE vf erf(vf x) {
  const vf x2 = x * x;
  static constexpr float c[] = {1.128379226e+00f,  -3.761263788e-01f, 1.128377393e-01f,
                                -2.686314285e-02f, 5.200413521e-03f,  -7.694534143e-04f};
  const vf small = x * estrin(x2, c);
  const vf large = splat(1.0f) - erfc(abs(x));
  const vf signed_large = as_float(as_int(large) | (as_int(x) & splat_i(INT32_MIN)));
  return select(less(abs(x), splat(0.5f)), small, signed_large);
}
