// The exchange plane with the λ dial (docs/MATH.md §A16, §A11): λ = 0 is g(a, b) = σ(a)b − σ(b)a bit for
// bit, λ = 1 is exactly 0 for every σ, in between it is (1 − λ)·g and exactly antisymmetric, each cell
// is what a one-unit gated layer's own swap changes, and a λ outside [0, 1] is refused naming symmetrize
// with the same status a layer config gets.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "gatelab/paper_a/layer.hpp"
#include "gatelab/paper_a/symmetry.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

constexpr int n = 17;
constexpr float lo = -3.0f, hi = 3.0f;

std::vector<float> plane(Activation act, float lambda) {
  std::vector<float> out(n * n);
  exchange_plane({act, 1.0f}, lo, hi, n, out.data(), lambda);
  return out;
}

// g as the plane computed it before the dial existed: σ(a_i)·b_j − σ(b_j)·a_i.
std::vector<float> plain_g(Activation act) {
  std::vector<float> axis(n), sigma(n), out(n * n);
  const float step = (hi - lo) / static_cast<float>(n - 1);
  for (int i = 0; i < n; ++i) axis[i] = lo + step * static_cast<float>(i);
  activation_forward({act, 1.0f}, axis.data(), sigma.data(), n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) out[i * n + j] = sigma[i] * axis[j] - sigma[j] * axis[i];
  }
  return out;
}

}  // namespace

TEST(ExchangePlaneLambda, ZeroIsThePlainPlaneBitForBit) {
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    const std::vector<float> g = plain_g(act), zero = plane(act, 0.0f);
    std::vector<float> by_default(n * n);
    exchange_plane({act, 1.0f}, lo, hi, n, by_default.data());
    EXPECT_EQ(std::memcmp(zero.data(), g.data(), g.size() * sizeof(float)), 0) << activation_name(act);
    EXPECT_EQ(std::memcmp(by_default.data(), g.data(), g.size() * sizeof(float)), 0) << activation_name(act);
  }
}

TEST(ExchangePlaneLambda, OneIsExactlyZeroForEveryActivation) {
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    for (float v : plane(act, 1.0f)) ASSERT_EQ(v, 0.0f) << activation_name(act);
  }
}

TEST(ExchangePlaneLambda, BetweenItIsOneMinusLambdaTimesGAndAntisymmetric) {
  for (int a = 0; a < activation_count; ++a) {
    const Activation act = activation_by_index(a);
    const std::vector<float> g = plain_g(act);
    for (float lambda : {0.25f, 0.5f, 0.9f}) {
      SCOPED_TRACE(std::string(activation_name(act)) + " lambda " + std::to_string(lambda));
      const std::vector<float> p = plane(act, lambda);
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          const double want = (1.0 - lambda) * g[i * n + j];
          EXPECT_NEAR(p[i * n + j], want, 1e-5 * (1 + std::fabs(want)));
          EXPECT_EQ(p[i * n + j], -p[j * n + i]);
        }
      }
    }
  }
}

// A gated layer with d_in = hidden = d_out = 1, q = a, k = b, V = 1 on x = 1 outputs c_λ(a, b); its
// exchanged copy outputs c_λ(b, a). The plane's cell is their difference, to the bit.
TEST(ExchangePlaneLambda, EachCellIsWhatTheLayersOwnSwapChanges) {
  LayerConfig c;
  c.kind = LayerKind::gated;
  c.d_in = c.hidden = c.d_out = c.rank = 1;
  const float step = (hi - lo) / static_cast<float>(n - 1);
  const float x = 1.0f;
  for (Activation act : {Activation::relu, Activation::silu, Activation::gelu, Activation::sigmoid}) {
    for (float lambda : {0.0f, 0.3f, 1.0f}) {
      SCOPED_TRACE(std::string(activation_name(act)) + " lambda " + std::to_string(lambda));
      c.activation = {act, 1.0f};
      c.symmetrize = lambda;
      const std::vector<float> p = plane(act, lambda);
      for (int i = 0; i < n; i += 3) {
        for (int j = 0; j < n; j += 2) {
          const float a = lo + step * static_cast<float>(i), b = lo + step * static_cast<float>(j), v = 1.0f;
          Layer layer(c);
          layer.params().q(0, 0, 0) = a;
          layer.params().k(0, 0, 0) = b;
          layer.params().v(0, 0) = v;
          float out = 0, swapped = 0;
          EXPECT_OK(layer.forward(&x, 1, &out));
          EXPECT_OK(layer.exchanged().forward(&x, 1, &swapped));
          EXPECT_EQ(p[i * n + j], out - swapped) << "a " << a << " b " << b;
        }
      }
    }
  }
}

TEST(ExchangePlaneLambda, ValidationNamesSymmetrizeAsALayerConfigDoes) {
  EXPECT_EQ(validate_exchange_plane(0, lo, hi, n, 0.0f), "");
  EXPECT_EQ(validate_exchange_plane(0, lo, hi, n, 1.0f), "");
  for (float bad : {-0.1f, 1.5f, NAN, INFINITY, -INFINITY}) {
    const Status e = validate_exchange_plane(0, lo, hi, n, bad);
    EXPECT_EQ(e.code, ErrorCode::out_of_range) << bad;
    EXPECT_EQ(e.field, "symmetrize") << bad;
    LayerConfig c;
    c.kind = LayerKind::gated;
    c.symmetrize = bad;
    EXPECT_EQ(e, validate(c)) << bad;
  }
  // The grid's own checks come first, as for activation curves.
  EXPECT_EQ(validate_exchange_plane(0, 1, 1, n, 2.0f), validate_curve(1, 1, n));
  EXPECT_EQ(validate_exchange_plane(-1, lo, hi, n, 2.0f), validate_activation_curve(-1, lo, hi, n));
}
