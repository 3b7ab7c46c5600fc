// The activation catalogue (MATH.md A10): one lane kernel per activation for the value and
// one for the derivative, run four floats at a time by activation_forward/backward and on a
// padded vector for a scalar call, so a scalar and an array give the same bits. The kernels
// take care where the obvious formula cancels: sigmoid tails from e^−|z| rather than 1 − σ,
// gelu's lower tail from Q(|z|) rather than 1 + erf, gelu_tanh's 1 + tanh u as 2σ(2u) with
// the cubic argument in double. The antiderivatives Φ (MATH.md B3) are scalar double code.
#include "gatelab/base/activations.hpp"

#include <cstring>
#include <limits>

#include "base/fastmath.hpp"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"  // f64x4 helpers are always inlined (see fastmath.hpp)
#endif

namespace gatelab {
namespace {

using namespace fm;

constexpr f32x4 kOne{1.0f, 1.0f, 1.0f, 1.0f};
constexpr f32x4 kZero{0.0f, 0.0f, 0.0f, 0.0f};

// gelu_tanh: 1 + tanh(u) = 2σ(2u), 2u = z·(k1 + k2·z²).
constexpr double kGeluTanhK1 = 1.5957691216057307;    // 2·√(2/π)
constexpr double kGeluTanhK2 = 0.071354816272923894;  // 2·√(2/π)·0.044715
// σ is exactly 0 or 1 in float beyond |argument| ≈ 88 (exp_ftz), so z may be cut where the
// argument passes 265 (gelu_tanh) or 300 (swish) without changing a bit of the result.
GATELAB_LANE f64x4 gelu_tanh_arg(f32x4 z) {
  const f64x4 zd = widen(clamp(z, -15.0f, 15.0f));
  return zd * (splat_d(kGeluTanhK1) + splat_d(kGeluTanhK2) * zd * zd);
}
GATELAB_LANE f64x4 swish_arg(f32x4 z, float beta, float bound) {  // β·z is exact in double
  return widen(clamp(z, -bound, bound)) * splat_d(beta);
}

// ---- value kernels ----
struct IdentityValue {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return z; }
};
struct ReluValue {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return select(greater(z, kZero), z, kZero); }
};
struct LeakyReluValue {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return select(greater(z, kZero), z, splat(leaky_relu_slope) * z); }
};
struct Relu2Value {
  GATELAB_LANE f32x4 operator()(f32x4 z) const {
    const f32x4 r = select(greater(z, kZero), z, kZero);
    return r * r;
  }
};
struct GeluValue {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return z * normal_cdf(z); }
};
struct GeluTanhValue {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return z * sigmoid_parts(gelu_tanh_arg(z)).s; }
};
struct SiluValue {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return z * fm::sigmoid(z); }
};
struct SwishValue {
  float beta, bound;  // bound = 300/|β|
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return z * sigmoid_parts(swish_arg(z, beta, bound)).s; }
};
struct SigmoidValue {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return fm::sigmoid(z); }
};
struct TanhValue {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return fm::tanh(z); }
};
struct SoftplusValue {  // max(z, 0) + log(1 + e^−|z|): no overflow, exact-ish in both tails
  GATELAB_LANE f32x4 operator()(f32x4 z) const {
    return select(greater(z, kZero), z, kZero) + fm::log1p(exp_ftz(neg_abs(z)));
  }
};

// ---- derivative kernels (σ' at a kink: the left derivative) ----
struct IdentityDerivative {
  GATELAB_LANE f32x4 operator()(f32x4) const { return kOne; }
};
struct ReluDerivative {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return select(greater(z, kZero), kOne, kZero); }
};
struct LeakyReluDerivative {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return select(greater(z, kZero), kOne, splat(leaky_relu_slope)); }
};
struct Relu2Derivative {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return splat(2.0f) * select(greater(z, kZero), z, kZero); }
};
struct GeluDerivative {  // Φ(z) + z·φ(z)
  GATELAB_LANE f32x4 operator()(f32x4 z) const {
    const GaussTail g = gauss_tail(abs(z));
    const f32x4 cdf = select(less(z, kZero), g.tail, kOne - g.tail);
    return cdf + z * g.density;
  }
};
struct GeluTanhDerivative {  // σ(2u) + z·σ(2u)·(1 − σ(2u))·(2u)'
  GATELAB_LANE f32x4 operator()(f32x4 z) const {
    const Sigmoid s = sigmoid_parts(gelu_tanh_arg(z));
    // σ(1 − σ) is exactly 0 beyond |z| = 15, so the cut z gives the same bits while z² cannot overflow.
    const f32x4 zc = clamp(z, -15.0f, 15.0f);
    const f32x4 slope = splat(float(kGeluTanhK1)) + splat(float(3 * kGeluTanhK2)) * zc * zc;
    return s.s + zc * (s.s * s.sc) * slope;
  }
};
struct SiluDerivative {  // σ(z)·(1 + z·(1 − σ(z)))
  GATELAB_LANE f32x4 operator()(f32x4 z) const {
    const Sigmoid s = sigmoid_parts(z);
    return s.s * (kOne + z * s.sc);
  }
};
struct SwishDerivative {  // σ(βz)·(1 + βz·(1 − σ(βz)))
  float beta, bound;
  GATELAB_LANE f32x4 operator()(f32x4 z) const {
    const Sigmoid s = sigmoid_parts(swish_arg(z, beta, bound));
    return s.s * (kOne + splat(beta) * z * s.sc);
  }
};
struct SigmoidDerivative {
  GATELAB_LANE f32x4 operator()(f32x4 z) const {
    const Sigmoid s = sigmoid_parts(z);
    return s.s * s.sc;
  }
};
struct TanhDerivative {
  GATELAB_LANE f32x4 operator()(f32x4 z) const { return tanh_derivative(z); }
};

// Whole vectors, then the tail through a zero-padded vector: the lanes never interact, so
// every element sees exactly the same operations wherever it sits.
template <class Kernel>
void run(Kernel kernel, const float* in, float* out, std::size_t n) {
  std::size_t i = 0;
  // Two vectors per iteration: both share each constant of the kernel, which V8 otherwise
  // rematerialises for every vector (an x86 register holds few of a kernel's ~30 splats).
  for (; i + 16 <= n; i += 16) {
    f32x4 a, b, c, d;
    std::memcpy(&a, in + i, sizeof a);
    std::memcpy(&b, in + i + 4, sizeof b);
    std::memcpy(&c, in + i + 8, sizeof c);
    std::memcpy(&d, in + i + 12, sizeof d);
    a = kernel(a);
    b = kernel(b);
    c = kernel(c);
    d = kernel(d);
    std::memcpy(out + i, &a, sizeof a);
    std::memcpy(out + i + 4, &b, sizeof b);
    std::memcpy(out + i + 8, &c, sizeof c);
    std::memcpy(out + i + 12, &d, sizeof d);
  }
  for (; i + 4 <= n; i += 4) {
    f32x4 v;
    std::memcpy(&v, in + i, sizeof v);
    v = kernel(v);
    std::memcpy(out + i, &v, sizeof v);
  }
  if (i < n) {
    f32x4 v = kZero;
    std::memcpy(&v, in + i, (n - i) * sizeof(float));
    v = kernel(v);
    std::memcpy(out + i, &v, (n - i) * sizeof(float));
  }
}

float swish_bound(float beta) { return 300.0f / (beta < 0 ? -beta : beta); }

constexpr const char* kNames[activation_count] = {"identity", "relu",  "leaky_relu", "relu2", "gelu",    "gelu_tanh",
                                                  "silu",     "swish", "sigmoid",    "tanh",  "softplus"};

}  // namespace

void activation_forward(ActivationSpec s, const float* z, float* out, std::size_t n) {
  switch (s.kind) {
    case Activation::identity: return run(IdentityValue{}, z, out, n);
    case Activation::relu: return run(ReluValue{}, z, out, n);
    case Activation::leaky_relu: return run(LeakyReluValue{}, z, out, n);
    case Activation::relu2: return run(Relu2Value{}, z, out, n);
    case Activation::gelu: return run(GeluValue{}, z, out, n);
    case Activation::gelu_tanh: return run(GeluTanhValue{}, z, out, n);
    case Activation::silu: return run(SiluValue{}, z, out, n);
    case Activation::swish:  // β = 1 is silu, bit for bit
      return s.beta == 1.0f ? run(SiluValue{}, z, out, n) : run(SwishValue{s.beta, swish_bound(s.beta)}, z, out, n);
    case Activation::sigmoid: return run(SigmoidValue{}, z, out, n);
    case Activation::tanh: return run(TanhValue{}, z, out, n);
    case Activation::softplus: return run(SoftplusValue{}, z, out, n);
  }
}

void activation_backward(ActivationSpec s, const float* z, float* out, std::size_t n) {
  switch (s.kind) {
    case Activation::identity: return run(IdentityDerivative{}, z, out, n);
    case Activation::relu: return run(ReluDerivative{}, z, out, n);
    case Activation::leaky_relu: return run(LeakyReluDerivative{}, z, out, n);
    case Activation::relu2: return run(Relu2Derivative{}, z, out, n);
    case Activation::gelu: return run(GeluDerivative{}, z, out, n);
    case Activation::gelu_tanh: return run(GeluTanhDerivative{}, z, out, n);
    case Activation::silu: return run(SiluDerivative{}, z, out, n);
    case Activation::swish:
      return s.beta == 1.0f ? run(SiluDerivative{}, z, out, n)
                            : run(SwishDerivative{s.beta, swish_bound(s.beta)}, z, out, n);
    case Activation::sigmoid: return run(SigmoidDerivative{}, z, out, n);
    case Activation::softplus: return run(SigmoidValue{}, z, out, n);  // softplus' = σ
    case Activation::tanh: return run(TanhDerivative{}, z, out, n);
  }
}

// One element: the kernel on the vector (z, 0, 0, 0), exactly the zero-padded tail vector
// activation_forward/backward would build for it (so the same bits), without the
// variable-length copies in and out; losses call this once or twice per point.
namespace {
template <class Kernel>
GATELAB_LANE float run_one(Kernel kernel, float z) {
  return kernel(f32x4{z, 0.0f, 0.0f, 0.0f})[0];
}
}  // namespace

float activation_value(ActivationSpec s, float z) {
  switch (s.kind) {
    case Activation::identity: return run_one(IdentityValue{}, z);
    case Activation::relu: return run_one(ReluValue{}, z);
    case Activation::leaky_relu: return run_one(LeakyReluValue{}, z);
    case Activation::relu2: return run_one(Relu2Value{}, z);
    case Activation::gelu: return run_one(GeluValue{}, z);
    case Activation::gelu_tanh: return run_one(GeluTanhValue{}, z);
    case Activation::silu: return run_one(SiluValue{}, z);
    case Activation::swish:
      return s.beta == 1.0f ? run_one(SiluValue{}, z) : run_one(SwishValue{s.beta, swish_bound(s.beta)}, z);
    case Activation::sigmoid: return run_one(SigmoidValue{}, z);
    case Activation::tanh: return run_one(TanhValue{}, z);
    case Activation::softplus: return run_one(SoftplusValue{}, z);
  }
  return 0.0f;
}

float activation_derivative(ActivationSpec s, float z) {
  switch (s.kind) {
    case Activation::identity: return run_one(IdentityDerivative{}, z);
    case Activation::relu: return run_one(ReluDerivative{}, z);
    case Activation::leaky_relu: return run_one(LeakyReluDerivative{}, z);
    case Activation::relu2: return run_one(Relu2Derivative{}, z);
    case Activation::gelu: return run_one(GeluDerivative{}, z);
    case Activation::gelu_tanh: return run_one(GeluTanhDerivative{}, z);
    case Activation::silu: return run_one(SiluDerivative{}, z);
    case Activation::swish:
      return s.beta == 1.0f ? run_one(SiluDerivative{}, z) : run_one(SwishDerivative{s.beta, swish_bound(s.beta)}, z);
    case Activation::sigmoid: return run_one(SigmoidDerivative{}, z);
    case Activation::softplus: return run_one(SigmoidValue{}, z);
    case Activation::tanh: return run_one(TanhDerivative{}, z);
  }
  return 0.0f;
}

const char* activation_name(Activation a) {
  const int i = static_cast<int>(a);
  return i >= 0 && i < activation_count ? kNames[i] : "unknown";
}

const char* activation_label(Activation a) {
  static constexpr const char* labels[activation_count] = {
      "identity", "ReLU", "leaky ReLU", "ReLU²", "GELU", "GELU (tanh)", "SiLU", "Swish", "sigmoid", "tanh", "softplus"};
  const int i = static_cast<int>(a);
  return i >= 0 && i < activation_count ? labels[i] : "unknown";
}

const char* activation_short_label(Activation a) {
  static constexpr const char* labels[activation_count] = {"id",   "ReLU",  "leaky", "ReLU²", "GELU", "GELUₜ",
                                                           "SiLU", "Swish", "sigm",  "tanh",  "softp"};
  const int i = static_cast<int>(a);
  return i >= 0 && i < activation_count ? labels[i] : "?";
}

std::optional<Activation> parse_activation(std::string_view name) {
  for (int i = 0; i < activation_count; ++i) {
    if (name == kNames[i]) return static_cast<Activation>(i);
  }
  return std::nullopt;
}

Status parse_activation(std::string_view name, std::string_view field, Activation& out) {
  const auto a = parse_activation(name);
  if (a) out = *a;
  return a ? Status{}
           : invalid_value(
                 field, std::string(field) + " must be one of the catalogue names (got '" + std::string(name) + "')");
}

Activation activation_by_index(int i) {
  return i >= 0 && i < activation_count ? static_cast<Activation>(i) : Activation::identity;
}

std::optional<int> homogeneity_degree(Activation a) {
  switch (a) {
    case Activation::identity:
    case Activation::relu:
    case Activation::leaky_relu: return 1;
    case Activation::relu2: return 2;
    default: return std::nullopt;
  }
}

bool is_linear(Activation a) { return a == Activation::identity; }

bool has_antiderivative(Activation a) { return a != Activation::gelu_tanh; }

// ---- antiderivatives Φ with Φ' = σ, Φ(0) = 0 ----
namespace {

// D(u) = Li₂(−u) − Li₂(−1) ≥ 0 for u in [0, 1]; D(1) = 0 exactly, which makes Φ(0) = 0
// exactly without a rounded π²/12.
double dilog_gap(double u) { return portable_dilog(-u) - portable_dilog(-1.0); }

// silu: Φ = z·softplus(z) + Li₂(−eᶻ) + π²/12 (MATH.md B3); for z > 0 the inversion
// Li₂(−eᶻ) = −π²/6 − z²/2 − Li₂(−e⁻ᶻ) keeps every dilogarithm argument in [−1, 0].
double silu_antiderivative(double z) {
  if (z <= 0) {
    const double u = portable_exp(z);
    return z * portable_log1p(u) + dilog_gap(u);
  }
  const double u = portable_exp(-z);
  return 0.5 * z * z + z * portable_log1p(u) - dilog_gap(u);
}

// softplus: Φ = −Li₂(−eᶻ) − π²/12, inverted the same way for z > 0.
double softplus_antiderivative(double z) {
  if (z <= 0) return -dilog_gap(portable_exp(z));
  return 0.5 * z * z + dilog_gap(portable_exp(-z));
}

// sigmoid: Φ = softplus(z) − log 2 = log((1 + eᶻ)/2), via expm1 near 0 for relative accuracy.
double sigmoid_antiderivative(double z) {
  if (z > -1.0 && z < 1.0) return portable_log1p(0.5 * portable_expm1(z));
  const double softplus = (z > 0 ? z : 0.0) + portable_log1p(portable_exp(-(z > 0 ? z : -z)));
  return softplus - portable_log1p(1.0);
}

// tanh: Φ = log cosh z; near 0 as log(1 + m²/(2(1 + m))) with m = expm1|z| (= cosh z − 1).
double tanh_antiderivative(double z) {
  const double a = z < 0 ? -z : z;
  if (a < 1.0) {
    const double m = portable_expm1(a);
    return portable_log1p(m * m / (2.0 * (1.0 + m)));
  }
  return a + portable_log1p(portable_exp(-2.0 * a)) - portable_log1p(1.0);
}

// gelu: ∫₀ᶻ t·Φₙ(t) dt = ½[(z² − 1)·Φₙ(z) + z·φ(z)] + ¼ (by parts).
double gelu_antiderivative(double z) {
  const double pdf = portable_exp(-0.5 * z * z) * 0.39894228040143267794;
  return 0.5 * ((z * z - 1.0) * portable_normal_cdf(z) + z * pdf) + 0.25;
}

}  // namespace

double activation_antiderivative(ActivationSpec s, double z) {
  const double slope = leaky_relu_slope;
  switch (s.kind) {
    case Activation::identity: return 0.5 * z * z;
    case Activation::relu: return z > 0 ? 0.5 * z * z : 0.0;
    case Activation::leaky_relu: return z > 0 ? 0.5 * z * z : 0.5 * slope * z * z;
    case Activation::relu2: return z > 0 ? z * z * z / 3.0 : 0.0;
    case Activation::gelu: return gelu_antiderivative(z);
    case Activation::silu: return silu_antiderivative(z);
    case Activation::swish: {  // ∫ t·σ(βt) dt = Φ_silu(βz)/β²
      const double beta = s.beta;
      return beta == 0.0 ? 0.25 * z * z : silu_antiderivative(beta * z) / (beta * beta);
    }
    case Activation::sigmoid: return sigmoid_antiderivative(z);
    case Activation::tanh: return tanh_antiderivative(z);
    case Activation::softplus: return softplus_antiderivative(z);
    case Activation::gelu_tanh: break;  // no closed form
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace gatelab
