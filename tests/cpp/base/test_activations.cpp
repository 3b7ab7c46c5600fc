// The activation catalogue against double-precision std:: references (value, derivative,
// antiderivative), by finite differences, for homogeneity, swish's β, scalar/array bit
// agreement, names, and a golden hash of the output bits that the native and the wasm
// build must both reproduce. Also the fastmath primitives against std::.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gatelab/base/activations.hpp"
#include "base/fastmath.hpp"
#include "base/kernels.hpp"

using namespace gatelab;

namespace {

constexpr double kSlope = leaky_relu_slope;
constexpr double kPi = 3.14159265358979323846;

double sig(double x) { return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x)); }

// A reference value and the size of the terms that cancel in it (0 where nothing cancels):
// near a zero of σ' only absolute accuracy relative to those terms is possible.
struct Ref {
  double value, scale = 0;
};

Ref ref_value(ActivationSpec s, double z) {
  const double gt = 2 * std::sqrt(2 / kPi) * (z + 0.044715 * z * z * z);  // 1 + tanh u = 2σ(2u)
  switch (s.kind) {
    case Activation::identity: return {z};
    case Activation::relu: return {z > 0 ? z : 0};
    case Activation::leaky_relu: return {z > 0 ? z : kSlope * z};
    case Activation::relu2: return {z > 0 ? z * z : 0};
    case Activation::gelu: return {z * 0.5 * std::erfc(-z / std::sqrt(2.0))};
    case Activation::gelu_tanh: return {z * sig(gt)};
    case Activation::silu: return {z * sig(z)};
    case Activation::swish: return {z * sig(double(s.beta) * z)};
    case Activation::sigmoid: return {sig(z)};
    case Activation::tanh: return {std::tanh(z)};
    case Activation::softplus: return {z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z))};
  }
  return {NAN};
}

Ref ref_derivative(ActivationSpec s, double z) {
  const double b = s.kind == Activation::swish ? s.beta : 1.0;
  switch (s.kind) {
    case Activation::identity: return {1};
    case Activation::relu: return {z > 0 ? 1.0 : 0.0};
    case Activation::leaky_relu: return {z > 0 ? 1.0 : kSlope};
    case Activation::relu2: return {z > 0 ? 2 * z : 0};
    case Activation::gelu: {
      const double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0)), pdf = std::exp(-0.5 * z * z) / std::sqrt(2 * kPi);
      return {cdf + z * pdf, cdf + std::fabs(z * pdf)};
    }
    case Activation::gelu_tanh: {
      const double k = 2 * std::sqrt(2 / kPi), g = k * (z + 0.044715 * z * z * z);
      const double second = z * sig(g) * sig(-g) * k * (1 + 3 * 0.044715 * z * z);
      return {sig(g) + second, sig(g) + std::fabs(second)};
    }
    case Activation::silu:
    case Activation::swish: {
      const double second = b * z * sig(b * z) * sig(-b * z);
      return {sig(b * z) + second, sig(b * z) + std::fabs(second)};
    }
    case Activation::sigmoid:
    case Activation::softplus: return {s.kind == Activation::sigmoid ? sig(z) * sig(-z) : sig(z)};
    case Activation::tanh: return {1 / (std::cosh(z) * std::cosh(z))};
  }
  return {NAN};
}

double tolerance(Ref r) { return 1e-6 * std::fabs(r.value) + 2.5e-7 * r.scale + 1e-30; }

std::vector<float> accuracy_grid() {
  std::vector<float> zs;
  for (int i = 0; i <= 80000; ++i) zs.push_back(float(-20.0 + i * 0.0005));
  for (float e : {1e-30f, 1e-5f, 88.0f, 1e4f, 25.0f, 40.0f, 60.0f, 100.0f}) {
    zs.push_back(e);
    zs.push_back(-e);
  }
  zs.push_back(0.0f);
  return zs;
}

std::vector<ActivationSpec> all_specs() {
  std::vector<ActivationSpec> specs;
  for (int i = 0; i < activation_count; ++i) specs.push_back({activation_by_index(i), 1.7f});
  return specs;
}

struct Stats {
  double max_rel = 0, max_ratio = 0;
  float worst_z = 0;
};

// Max relative error where |ref| is above the floor and nothing cancels, and the max of
// error/tolerance everywhere.
template <class F>
Stats measure(F got, Ref (*ref)(ActivationSpec, double), ActivationSpec s, const std::vector<float>& zs) {
  Stats st;
  for (float z : zs) {
    const Ref r = ref(s, z);
    const double err = std::fabs(double(got(s, z)) - r.value);
    if (std::fabs(r.value) > 1e-30 && r.scale <= 2 * std::fabs(r.value))
      st.max_rel = std::max(st.max_rel, err / std::fabs(r.value));
    if (err / tolerance(r) > st.max_ratio) st.max_ratio = err / tolerance(r), st.worst_z = z;
  }
  return st;
}

void check_accuracy(ActivationSpec s, const char* label) {
  const std::vector<float> zs = accuracy_grid();
  const Stats v = measure(activation_value, ref_value, s, zs);
  const Stats d = measure(activation_derivative, ref_derivative, s, zs);
  std::printf("  %-16s value max rel %.2e (err/tol %.2f)   derivative max rel %.2e (err/tol %.2f)\n", label, v.max_rel,
              v.max_ratio, d.max_rel, d.max_ratio);
  EXPECT_LE(v.max_ratio, 1.0) << label << " value, worst at z = " << v.worst_z;
  EXPECT_LE(d.max_ratio, 1.0) << label << " derivative, worst at z = " << d.worst_z;
}

bool has_kink(Activation a) { return a == Activation::relu || a == Activation::leaky_relu || a == Activation::relu2; }

std::uint32_t bits_of(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

}  // namespace

TEST(Activations, AccurateAgainstDoubleReference) {
  for (ActivationSpec s : all_specs()) check_accuracy(s, activation_name(s.kind));
}

TEST(Activations, SwishWithOtherBetas) {
  for (float beta : {0.5f, 1.7f, 3.0f, -1.3f}) {
    char label[32];
    std::snprintf(label, sizeof label, "swish b=%.1f", beta);
    check_accuracy({Activation::swish, beta}, label);
  }
  // β = 1 is silu, bit for bit.
  for (float z : {-30.0f, -3.3f, -0.2f, 0.0f, 0.7f, 5.5f})
    EXPECT_EQ(bits_of(activation_value({Activation::swish, 1.0f}, z)),
              bits_of(activation_value({Activation::silu}, z)));
}

TEST(Activations, DerivativeMatchesFiniteDifferencesOfValue) {
  for (ActivationSpec s : all_specs()) {
    for (int i = -2000; i <= 2000; ++i) {
      const double z = i * 0.01, h = 1e-3 * std::max(1.0, std::fabs(z));
      if (has_kink(s.kind) && std::fabs(z) < 2 * h) continue;
      const float zp = float(z + h), zm = float(z - h), zf = float(z);
      const double fd = (double(activation_value(s, zp)) - activation_value(s, zm)) / (double(zp) - zm);
      const double d = activation_derivative(s, zf);
      const double tol =
          1e-3 * std::fabs(d) + 1e-4 * std::fabs(activation_value(s, zf)) / std::max(1.0, std::fabs(z)) + 1e-5;
      ASSERT_NEAR(fd, d, tol) << activation_name(s.kind) << " at z = " << z;
    }
  }
}

// ---- antiderivatives ----
namespace {

// Li₂ for x in [−1, ½] by its series, after Landen's identity for x < 0.
double li2_reference(double x) {
  if (x < 0) return -0.5 * std::pow(std::log1p(-x), 2) - li2_reference(x / (x - 1));
  double sum = 0, p = 1;
  for (int k = 1; k < 200; ++k) sum += (p *= x) / (double(k) * k);
  return sum;
}

double softplus_ref(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }

// Φ from the closed forms of MATH.md B3 with std:: functions (π²/12 written out).
double antiderivative_reference(ActivationSpec s, double z) {
  const double pi2_12 = kPi * kPi / 12;
  switch (s.kind) {
    case Activation::identity: return 0.5 * z * z;
    case Activation::relu: return z > 0 ? 0.5 * z * z : 0;
    case Activation::leaky_relu: return z > 0 ? 0.5 * z * z : 0.5 * kSlope * z * z;
    case Activation::relu2: return z > 0 ? z * z * z / 3 : 0;
    case Activation::gelu: {
      const double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0)), pdf = std::exp(-0.5 * z * z) / std::sqrt(2 * kPi);
      return 0.5 * ((z * z - 1) * cdf + z * pdf) + 0.25;
    }
    case Activation::silu:  // for z > 0 after Li₂(−eᶻ) = −π²/6 − z²/2 − Li₂(−e⁻ᶻ)
      if (z > 0) return 0.5 * z * z + z * std::log1p(std::exp(-z)) - li2_reference(-std::exp(-z)) - pi2_12;
      return z * softplus_ref(z) + li2_reference(-std::exp(z)) + pi2_12;
    case Activation::swish: return antiderivative_reference({Activation::silu}, s.beta * z) / (double(s.beta) * s.beta);
    case Activation::sigmoid: return softplus_ref(z) - std::log(2.0);
    case Activation::tanh: return std::log(std::cosh(z));
    case Activation::softplus:
      if (z > 0) return 0.5 * z * z + pi2_12 + li2_reference(-std::exp(-z));
      return -li2_reference(-std::exp(z)) - pi2_12;
    case Activation::gelu_tanh: break;
  }
  return NAN;
}

}  // namespace

TEST(Antiderivatives, ZeroAtZeroAndMatchClosedForms) {
  for (ActivationSpec s : all_specs()) {
    ASSERT_EQ(has_antiderivative(s.kind), s.kind != Activation::gelu_tanh);
    if (!has_antiderivative(s.kind)) {
      EXPECT_TRUE(std::isnan(activation_antiderivative(s, 1.0)));
      continue;
    }
    EXPECT_EQ(activation_antiderivative(s, 0.0), 0.0) << activation_name(s.kind);
    for (int i = -400; i <= 400; ++i) {
      const double z = i * 0.05 + 1e-3;
      const double want = antiderivative_reference(s, z);
      EXPECT_NEAR(activation_antiderivative(s, z), want, 1e-12 * (1 + std::fabs(want)))
          << activation_name(s.kind) << " z " << z;
    }
  }
}

TEST(Antiderivatives, DerivativeIsTheActivation) {
  for (ActivationSpec s : all_specs()) {
    if (!has_antiderivative(s.kind)) continue;
    for (int i = -800; i <= 800; ++i) {
      const double z = i * 0.025, h = 1e-4 * std::max(1.0, std::fabs(z));
      if (has_kink(s.kind) && std::fabs(z) < 2 * h) continue;
      const double fd = (activation_antiderivative(s, z + h) - activation_antiderivative(s, z - h)) / (2 * h);
      const double want = ref_value(s, z).value;
      ASSERT_NEAR(fd, want, 1e-7 * (1 + std::fabs(want))) << activation_name(s.kind) << " at z = " << z;
    }
  }
}

TEST(Activations, HomogeneityDegrees) {
  for (ActivationSpec s : all_specs()) {
    const std::optional<int> p = homogeneity_degree(s.kind);
    const bool expected = s.kind == Activation::identity || s.kind == Activation::relu ||
                          s.kind == Activation::leaky_relu || s.kind == Activation::relu2;
    ASSERT_EQ(p.has_value(), expected) << activation_name(s.kind);
    EXPECT_EQ(is_linear(s.kind), s.kind == Activation::identity);
    // With the declared degree (or, for the others, both 1 and 2) check σ(αz) = αᵖσ(z).
    for (int degree : p ? std::vector<int>{*p} : std::vector<int>{1, 2}) {
      double worst = 0;
      for (float alpha : {0.5f, 2.0f, 3.0f}) {
        for (int i = -400; i <= 400; ++i) {
          const float z = i * 0.01f;
          const double lhs = activation_value(s, alpha * z);
          const double rhs = std::pow(alpha, degree) * activation_value(s, z);
          worst = std::max(worst, std::fabs(lhs - rhs) / (std::fabs(rhs) + 1e-3));
        }
      }
      if (p)
        EXPECT_LT(worst, 1e-6) << activation_name(s.kind);
      else
        EXPECT_GT(worst, 1e-2) << activation_name(s.kind) << " degree " << degree;
    }
  }
  EXPECT_EQ(homogeneity_degree(Activation::relu2), 2);
  EXPECT_EQ(homogeneity_degree(Activation::leaky_relu), 1);
}

TEST(Activations, ScalarAndArrayAgreeBitForBit) {
  std::vector<float> zs;
  for (int i = 0; i < 1031; ++i) zs.push_back(float(std::sin(i * 0.37) * (i % 7 == 0 ? 60.0 : 6.0)));
  for (float e : {0.0f, -0.0f, 1e-30f, -1e-30f, 88.0f, -88.0f, 1e4f, -1e4f}) zs.push_back(e);
  std::vector<float> out(zs.size()), inplace;
  for (ActivationSpec s : all_specs()) {
    for (int backward = 0; backward < 2; ++backward) {
      auto kernel = backward ? activation_backward : activation_forward;
      auto scalar = backward ? activation_derivative : activation_value;
      kernel(s, zs.data(), out.data(), zs.size());
      inplace = zs;
      kernel(s, inplace.data(), inplace.data(), inplace.size());
      for (std::size_t i = 0; i < zs.size(); ++i) {
        ASSERT_EQ(bits_of(out[i]), bits_of(scalar(s, zs[i]))) << activation_name(s.kind) << " z " << zs[i];
        ASSERT_EQ(bits_of(out[i]), bits_of(inplace[i]));
      }
      for (std::size_t n = 1; n <= 7; ++n) {  // short arrays: only the padded tail path
        std::vector<float> part(n);
        kernel(s, zs.data() + 100, part.data(), n);
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(bits_of(part[i]), bits_of(out[100 + i]));
      }
    }
  }
}

TEST(Activations, NamesRoundTripInCatalogueOrder) {
  const char* expected[] = {"identity", "relu",  "leaky_relu", "relu2", "gelu",    "gelu_tanh",
                            "silu",     "swish", "sigmoid",    "tanh",  "softplus"};
  ASSERT_EQ(activation_count, 11);
  for (int i = 0; i < activation_count; ++i) {
    EXPECT_STREQ(activation_name(activation_by_index(i)), expected[i]);
    EXPECT_EQ(parse_activation(expected[i]), activation_by_index(i));
    EXPECT_EQ(static_cast<int>(activation_by_index(i)), i);
  }
  for (const char* bad : {"", "ReLU", "gelu ", "swiglu", "tanh2"}) EXPECT_FALSE(parse_activation(bad)) << bad;
  EXPECT_FALSE(parse_activation(std::string_view("relu\0", 5)));
}

TEST(Activations, OutputBitsAreTheSameEverywhere) {
  // FNV-1a over value and derivative bits of every activation (swish with β = 1.7) on a
  // fixed grid, and over the antiderivatives' double bits. The native and the wasm build
  // of this test check the same constants.
  std::vector<float> zs;
  for (int i = 0; i < 4096; ++i) zs.push_back(float(i - 2048) * 0.0123f);
  for (float e : {1e-30f, -1e-30f, 1e-5f, -1e-5f, 88.0f, -88.0f, 1e4f, -1e4f, 0.0f}) zs.push_back(e);
  std::uint64_t hash = 1469598103934665603ULL, hash_phi = hash;
  for (ActivationSpec s : all_specs()) {
    for (float z : zs) {
      hash = (hash ^ bits_of(activation_value(s, z))) * 1099511628211ULL;
      hash = (hash ^ bits_of(activation_derivative(s, z))) * 1099511628211ULL;
    }
    if (!has_antiderivative(s.kind)) continue;
    for (int i = -300; i <= 300; ++i) {
      const double phi = activation_antiderivative(s, i * 0.0731);
      std::uint64_t b;
      std::memcpy(&b, &phi, sizeof b);
      hash_phi = (hash_phi ^ b) * 1099511628211ULL;
    }
  }
  EXPECT_EQ(hash, 8043778458562963325ULL);
  EXPECT_EQ(hash_phi, 16480521290800500253ULL);
}

// ---- the primitives ----
namespace {

using Lane = fm::f32x4 (*)(fm::f32x4);
using Exact = double (*)(double);

struct LaneCase {
  const char* name;
  Lane lane;
  Exact exact;
  float lo, hi;
  double max_rel;
};

double normal_cdf_reference(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The lanes are always_inline: the table holds capture-free lambdas that call them.
const LaneCase kLaneCases[] = {
    {"exp", [](fm::f32x4 x) { return fm::exp(x); }, [](double x) { return std::exp(x); }, -87, 88, 3e-7},
    {"expm1", [](fm::f32x4 x) { return fm::expm1(x); }, [](double x) { return std::expm1(x); }, -20, 20, 3e-7},
    {"expm1 near 0", [](fm::f32x4 x) { return fm::expm1(x); }, [](double x) { return std::expm1(x); }, -1e-3f, 1e-3f,
     3e-7},
    {"log", [](fm::f32x4 x) { return fm::log(x); }, [](double x) { return std::log(x); }, 1e-3f, 30, 3e-7},
    {"log subnormal", [](fm::f32x4 x) { return fm::log(x); }, [](double x) { return std::log(x); }, 1e-44f, 1e-38f,
     3e-7},
    {"log1p", [](fm::f32x4 x) { return fm::log1p(x); }, [](double x) { return std::log1p(x); }, -0.99f, 10, 3e-7},
    {"log1p near 0", [](fm::f32x4 x) { return fm::log1p(x); }, [](double x) { return std::log1p(x); }, -1e-4f, 1e-4f,
     3e-7},
    {"tanh", [](fm::f32x4 x) { return fm::tanh(x); }, [](double x) { return std::tanh(x); }, -10, 10, 5e-7},
    {"sigmoid", [](fm::f32x4 x) { return fm::sigmoid(x); }, sig, -80, 30, 5e-7},
    {"erf", [](fm::f32x4 x) { return fm::erf(x); }, [](double x) { return std::erf(x); }, -6, 6, 5e-7},
    {"erfc", [](fm::f32x4 x) { return fm::erfc(x); }, [](double x) { return std::erfc(x); }, -6, 9, 8e-7},
    {"normal_cdf", [](fm::f32x4 x) { return fm::normal_cdf(x); }, normal_cdf_reference, -12, 8, 8e-7},
};

}  // namespace

TEST(FastMath, LaneFunctionsMatchStd) {
  for (const LaneCase& c : kLaneCases) {
    double worst = 0;
    for (int i = 0; i <= 20000; ++i) {
      const float x = c.lo + (c.hi - c.lo) * float(i) / 20000.0f;
      const double want = c.exact(x);
      worst = std::max(worst, std::fabs(double(c.lane(fm::splat(x))[0]) - want) / (std::fabs(want) + 1e-30));
    }
    EXPECT_LT(worst, c.max_rel) << c.name;
  }
}

TEST(FastMath, DoubleHelpersMatchStd) {
  for (int i = -7400; i <= 7090; ++i) {
    const double x = i * 0.1 + 0.0123;
    ASSERT_NEAR(portable_exp(x), std::exp(x), 4e-16 * std::exp(x) + 5e-324) << x;
  }
  for (double x : {-30.0, -0.7, -0.49, -1e-9, 1e-300, 3e-5, 0.3, 0.5, 2.0})
    EXPECT_NEAR(portable_expm1(x), std::expm1(x), 4e-16 * std::fabs(std::expm1(x))) << x;
  for (double x : {-0.9, -0.3, -1e-12, 1e-200, 1e-8, 0.4, 1.0, 7.0, 1e10})
    EXPECT_NEAR(portable_log1p(x), std::log1p(x), 4e-16 * std::fabs(std::log1p(x))) << x;
  for (int i = -370; i <= 80; ++i) {
    const double z = i * 0.1 + 0.003, want = 0.5 * std::erfc(-z / std::sqrt(2.0));
    ASSERT_NEAR(portable_normal_cdf(z), want, 1e-12 * want) << z;
  }
  for (double x : {-1.0, -0.999, -0.6, -0.5, -0.2, -1e-9, 0.0, 0.3, 0.5})
    EXPECT_NEAR(portable_dilog(x), li2_reference(x), 2e-16 * (1 + std::fabs(x) * 10)) << x;
  EXPECT_NEAR(portable_dilog(-1.0), -kPi * kPi / 12, 1e-16);
}

// ---- the native width ----
namespace {

// A function at both lane sets (fm::v4 and fm::vn, the native array width: 8 lanes with AVX).
struct WidthCase {
  const char* name;
  fm::v4::vf (*four)(fm::v4::vf);
  fm::vn::vf (*native)(fm::vn::vf);
  float lo, hi;
};
// clang-format off
#define GATELAB_AT_BOTH_WIDTHS(fn, lo, hi) \
  {#fn, [](fm::v4::vf x) { return fm::v4::fn(x); }, [](fm::vn::vf x) { return fm::vn::fn(x); }, lo, hi}
const WidthCase kWidthCases[] = {
    GATELAB_AT_BOTH_WIDTHS(exp, -110, 90),      GATELAB_AT_BOTH_WIDTHS(expm1, -35, 90),
    GATELAB_AT_BOTH_WIDTHS(log, 1e-44f, 1e30f), GATELAB_AT_BOTH_WIDTHS(log1p, -0.99f, 1e6f),
    GATELAB_AT_BOTH_WIDTHS(tanh, -12, 12),      GATELAB_AT_BOTH_WIDTHS(sigmoid, -100, 100),
    GATELAB_AT_BOTH_WIDTHS(erf, -10, 10),       GATELAB_AT_BOTH_WIDTHS(erfc, -10, 12),
    GATELAB_AT_BOTH_WIDTHS(normal_cdf, -15, 15)};
#undef GATELAB_AT_BOTH_WIDTHS
// clang-format on

}  // namespace

// The lane count changes which elements share a register, never an element's bits: each function
// at the native width equals the four-lane one, element by element, and so does exp_inplace (the
// softmax's and the cross-entropy's exp) on lengths with and without a padded tail.
TEST(FastMath, TheNativeWidthGivesEachElementTheFourLaneBits) {
  constexpr int n = 4000;  // a multiple of 4 and of 8
  for (const WidthCase& c : kWidthCases) {
    std::vector<float> x(n), four(n), native(n);
    for (int i = 0; i < n; ++i) x[i] = c.lo + (c.hi - c.lo) * float(i) / float(n - 1);
    x[1] = -0.0f;
    for (int i = 0; i < n; i += fm::v4::kLanes) {
      fm::v4::vf v;
      std::memcpy(&v, x.data() + i, sizeof v);
      v = c.four(v);
      std::memcpy(four.data() + i, &v, sizeof v);
    }
    for (int i = 0; i < n; i += fm::vn::kLanes) {
      fm::vn::vf v;
      std::memcpy(&v, x.data() + i, sizeof v);
      v = c.native(v);
      std::memcpy(native.data() + i, &v, sizeof v);
    }
    for (int i = 0; i < n; ++i) ASSERT_EQ(bits_of(four[i]), bits_of(native[i])) << c.name << " x " << x[i];
  }
  for (int count : {1, 5, 8, 13, 64}) {
    std::vector<float> x(count);
    for (int i = 0; i < count; ++i) x[i] = float(i) * 1.7f - 9.0f;
    std::vector<float> y = x;
    kernels::exp_inplace(y.data(), count);
    for (int i = 0; i < count; ++i) ASSERT_EQ(bits_of(y[i]), bits_of(fm::exp(fm::splat(x[i]))[0])) << count;
  }
}
