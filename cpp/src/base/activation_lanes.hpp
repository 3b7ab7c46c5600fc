// The activation kernels (value and derivative per activation) and the loop that runs them, for
// one lane set of fastmath.hpp: included once per lane set inside its namespace (activations.cpp),
// deliberately without an include guard; the including namespace makes that set's vf, splat,
// sigmoid … visible. Lanes never interact, so every width gives an element the same bits.
constexpr vf kOne = vf{} + 1.0f;  // a splat: only −0 would differ from one
constexpr vf kZero = vf{};

// gelu_tanh: 1 + tanh(u) = 2σ(2u), 2u = z·(k1 + k2·z²).
constexpr double kGeluTanhK1 = 1.5957691216057307;    // 2·√(2/π)
constexpr double kGeluTanhK2 = 0.071354816272923894;  // 2·√(2/π)·0.044715
// σ is exactly 0 or 1 in float beyond |argument| ≈ 88 (exp_ftz), so z may be cut where the
// argument passes 265 (gelu_tanh) or 300 (swish) without changing a bit of the result.
GATELAB_LANE vd gelu_tanh_arg(vf z) {
  const vd zd = widen(clamp(z, -15.0f, 15.0f));
  return zd * (splat_d(kGeluTanhK1) + splat_d(kGeluTanhK2) * zd * zd);
}
GATELAB_LANE vd swish_arg(vf z, float beta, float bound) {  // β·z is exact in double
  return widen(clamp(z, -bound, bound)) * splat_d(beta);
}

// ---- value kernels ----
struct IdentityValue {
  GATELAB_LANE vf operator()(vf z) const { return z; }
};
struct ReluValue {
  GATELAB_LANE vf operator()(vf z) const { return select(greater(z, kZero), z, kZero); }
};
struct LeakyReluValue {
  GATELAB_LANE vf operator()(vf z) const { return select(greater(z, kZero), z, splat(leaky_relu_slope) * z); }
};
struct Relu2Value {
  GATELAB_LANE vf operator()(vf z) const {
    const vf r = select(greater(z, kZero), z, kZero);
    return r * r;
  }
};
struct GeluValue {
  GATELAB_LANE vf operator()(vf z) const { return z * normal_cdf(z); }
};
struct GeluTanhValue {
  GATELAB_LANE vf operator()(vf z) const { return z * sigmoid_parts(gelu_tanh_arg(z)).s; }
};
struct SiluValue {
  GATELAB_LANE vf operator()(vf z) const { return z * sigmoid(z); }
};
struct SwishValue {
  float beta, bound;  // bound = 300/|β|
  GATELAB_LANE vf operator()(vf z) const { return z * sigmoid_parts(swish_arg(z, beta, bound)).s; }
};
struct SigmoidValue {
  GATELAB_LANE vf operator()(vf z) const { return sigmoid(z); }
};
struct TanhValue {
  GATELAB_LANE vf operator()(vf z) const { return tanh(z); }
};
struct SoftplusValue {  // max(z, 0) + log(1 + e^−|z|): no overflow, exact-ish in both tails
  GATELAB_LANE vf operator()(vf z) const { return select(greater(z, kZero), z, kZero) + log1p(exp_ftz(neg_abs(z))); }
};

// ---- derivative kernels (σ' at a kink: the left derivative) ----
struct IdentityDerivative {
  GATELAB_LANE vf operator()(vf) const { return kOne; }
};
struct ReluDerivative {
  GATELAB_LANE vf operator()(vf z) const { return select(greater(z, kZero), kOne, kZero); }
};
struct LeakyReluDerivative {
  GATELAB_LANE vf operator()(vf z) const { return select(greater(z, kZero), kOne, splat(leaky_relu_slope)); }
};
struct Relu2Derivative {
  GATELAB_LANE vf operator()(vf z) const { return splat(2.0f) * select(greater(z, kZero), z, kZero); }
};
struct GeluDerivative {  // Φ(z) + z·φ(z)
  GATELAB_LANE vf operator()(vf z) const {
    const GaussTail g = gauss_tail(abs(z));
    const vf cdf = select(less(z, kZero), g.tail, kOne - g.tail);
    return cdf + z * g.density;
  }
};
struct GeluTanhDerivative {  // σ(2u) + z·σ(2u)·(1 − σ(2u))·(2u)'
  GATELAB_LANE vf operator()(vf z) const {
    const Sigmoid s = sigmoid_parts(gelu_tanh_arg(z));
    // σ(1 − σ) is exactly 0 beyond |z| = 15, so the cut z gives the same bits while z² cannot overflow.
    const vf zc = clamp(z, -15.0f, 15.0f);
    const vf slope = splat(float(kGeluTanhK1)) + splat(float(3 * kGeluTanhK2)) * zc * zc;
    return s.s + zc * (s.s * s.sc) * slope;
  }
};
struct SiluDerivative {  // σ(z)·(1 + z·(1 − σ(z)))
  GATELAB_LANE vf operator()(vf z) const {
    const Sigmoid s = sigmoid_parts(z);
    return s.s * (kOne + z * s.sc);
  }
};
struct SwishDerivative {  // σ(βz)·(1 + βz·(1 − σ(βz)))
  float beta, bound;
  GATELAB_LANE vf operator()(vf z) const {
    const Sigmoid s = sigmoid_parts(swish_arg(z, beta, bound));
    return s.s * (kOne + splat(beta) * z * s.sc);
  }
};
struct SigmoidDerivative {
  GATELAB_LANE vf operator()(vf z) const {
    const Sigmoid s = sigmoid_parts(z);
    return s.s * s.sc;
  }
};
struct TanhDerivative {
  GATELAB_LANE vf operator()(vf z) const { return tanh_derivative(z); }
};

// Whole vectors, then the tail through a zero-padded vector: the lanes never interact, so
// every element sees exactly the same operations wherever it sits.
template <class Kernel>
void run(Kernel kernel, const float* in, float* out, std::size_t n) {
  std::size_t i = 0;
  // Two vectors per iteration: both share each constant of the kernel, which V8 otherwise
  // rematerialises for every vector (an x86 register holds few of a kernel's ~30 splats).
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    vf a, b, c, d;
    std::memcpy(&a, in + i, sizeof a);
    std::memcpy(&b, in + i + kLanes, sizeof b);
    std::memcpy(&c, in + i + 2 * kLanes, sizeof c);
    std::memcpy(&d, in + i + 3 * kLanes, sizeof d);
    a = kernel(a);
    b = kernel(b);
    c = kernel(c);
    d = kernel(d);
    std::memcpy(out + i, &a, sizeof a);
    std::memcpy(out + i + kLanes, &b, sizeof b);
    std::memcpy(out + i + 2 * kLanes, &c, sizeof c);
    std::memcpy(out + i + 3 * kLanes, &d, sizeof d);
  }
  for (; i + kLanes <= n; i += kLanes) {
    vf v;
    std::memcpy(&v, in + i, sizeof v);
    v = kernel(v);
    std::memcpy(out + i, &v, sizeof v);
  }
  if (i < n) {
    vf v = kZero;
    std::memcpy(&v, in + i, (n - i) * sizeof(float));
    v = kernel(v);
    std::memcpy(out + i, &v, (n - i) * sizeof(float));
  }
}

// One element: the kernel on the vector (z, 0, 0, …), exactly the zero-padded tail vector run
// would build for it (so the same bits), without the variable-length copies in and out.
template <class Kernel>
GATELAB_LANE float run_one(Kernel kernel, float z) {
  vf v = kZero;
  v[0] = z;
  return kernel(v)[0];
}
