// The activation catalogue (MATH.md A10): one lane kernel per activation for the value and
// one for the derivative (activation_lanes.hpp), run a vector at a time by activation_forward/
// backward (at the native width) and on a padded four-lane vector for a scalar call, so a scalar
// and an array give the same bits. The kernels
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

// The kernels at four lanes (one-element calls, wasm) and at the native width (array calls).
namespace lanes4 {
using namespace fm::v4;
#include "base/activation_lanes.hpp"
}  // namespace lanes4
#if defined(__AVX512F__) || defined(__AVX__)
namespace lanes_native {
using namespace fm::vn;
#include "base/activation_lanes.hpp"
}  // namespace lanes_native
#else
namespace lanes_native = lanes4;
#endif

float swish_bound(float beta) { return 300.0f / (beta < 0 ? -beta : beta); }

constexpr const char* kNames[activation_count] = {"identity", "relu",  "leaky_relu", "relu2", "gelu",    "gelu_tanh",
                                                  "silu",     "swish", "sigmoid",    "tanh",  "softplus"};

}  // namespace

void activation_forward(ActivationSpec s, const float* z, float* out, std::size_t n) {
  using namespace lanes_native;
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
  using namespace lanes_native;
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

float activation_value(ActivationSpec s, float z) {
  using namespace lanes4;  // the padded vector of one element
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
  using namespace lanes4;
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
