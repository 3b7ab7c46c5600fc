// Forward against the double-precision reference, and backward against double central
// differences of the reference, for every kind × activation × rank ∈ {1, 2, d_in}.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gatelab/paper_a/layer.hpp"
#include "gatelab/base/rng.hpp"
#include "support/layer_cases.hpp"
#include "support/reference_layer.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

using testing_support::layer_case_name;
using Case = testing_support::LayerCase;

std::vector<float> random_floats(Pcg32& rng, std::size_t n, float scale = 1.0f) {
  std::vector<float> v(n);
  for (float& f : v) f = scale * rng.normal();
  return v;
}

class LayerGradients : public testing::TestWithParam<Case> {
 protected:
  LayerConfig config() const {
    LayerConfig c;
    c.kind = GetParam().kind;
    c.activation = {GetParam().activation, 1.3f};
    c.d_in = 3;
    c.hidden = 4;
    c.d_out = 2;
    c.rank = GetParam().rank;
    c.symmetrize = GetParam().symmetrize;
    c.seed = 11;
    return c;
  }
};

// Σ out ⊙ w in double: the scalar loss whose gradient backward computes for grad_out = w.
double loss(const LayerConfig& c, const reference::Params& p, const std::vector<double>& x, int rows,
            const std::vector<float>& w) {
  const std::vector<double> out = reference::forward(c, p, x, rows);
  double sum = 0;
  for (std::size_t i = 0; i < out.size(); ++i) sum += out[i] * w[i];
  return sum;
}

// Central difference of the loss along one coordinate of a double vector.
template <class Perturb>
double central_difference(Perturb&& loss_at, double& coordinate) {
  const double h = 1e-6, saved = coordinate;
  coordinate = saved + h;
  const double up = loss_at();
  coordinate = saved - h;
  const double down = loss_at();
  coordinate = saved;
  return (up - down) / (2 * h);
}

void expect_close(double analytic, double numeric, const std::string& what) {
  EXPECT_NEAR(analytic, numeric, 2e-3 * std::fabs(numeric) + 2e-4) << what;
}

}  // namespace

TEST_P(LayerGradients, ForwardMatchesDoubleReference) {
  const LayerConfig c = config();
  ASSERT_OK(validate(c));
  Layer layer(c);
  Pcg32 rng(3);
  const int rows = 7;
  const std::vector<float> x = random_floats(rng, rows * c.d_in);
  std::vector<float> out(rows * c.d_out);
  EXPECT_OK(layer.forward(x.data(), rows, out.data()));
  const std::vector<double> ref =
      reference::forward(c, reference::params_of(layer), std::vector<double>(x.begin(), x.end()), rows);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], ref[i], 1e-5 * (1 + std::fabs(ref[i]))) << i;
}

TEST_P(LayerGradients, BackwardMatchesCentralDifferences) {
  const LayerConfig c = config();
  Layer layer(c);
  Pcg32 rng(5);
  const int rows = 5;
  const std::vector<float> x = random_floats(rng, rows * c.d_in);
  const std::vector<float> w = random_floats(rng, rows * c.d_out);

  std::vector<float> grad_x(x.size());
  ASSERT_OK(layer.backward(x.data(), rows, w.data(), grad_x.data()));
  const LayerParams& grads = layer.grads();

  reference::Params p = reference::params_of(layer);
  std::vector<double> xd(x.begin(), x.end());
  auto at = [&] { return loss(c, p, xd, rows, w); };
  for (std::size_t i = 0; i < xd.size(); ++i)
    expect_close(grad_x[i], central_difference(at, xd[i]), "dx " + std::to_string(i));
  for (std::size_t i = 0; i < p.q.size(); ++i)
    expect_close(grads.q.data()[i], central_difference(at, p.q[i]), "dQ " + std::to_string(i));
  for (std::size_t i = 0; i < p.k.size(); ++i)
    expect_close(grads.k.data()[i], central_difference(at, p.k[i]), "dK " + std::to_string(i));
  for (std::size_t i = 0; i < p.v.size(); ++i)
    expect_close(grads.v.data()[i], central_difference(at, p.v[i]), "dV " + std::to_string(i));
}

// The training pass runs forward, the output gradient and backward chunk by chunk (300 rows
// are several chunks for every case here); outputs and parameter gradients must have exactly
// the bits of forward and backward over all rows at once, and a callback returning false must
// stop the pass there.
TEST_P(LayerGradients, TrainPassGivesTheBitsOfForwardAndBackwardOverAllRows) {
  const LayerConfig c = config();
  Layer layer(c);
  Pcg32 rng(9);
  const int rows = 300;
  const std::vector<float> x = random_floats(rng, rows * c.d_in), w = random_floats(rng, rows * c.d_out);
  std::vector<float> out(rows * c.d_out), out_pass(out.size()), grad_out(out.size());
  LayerParams grads_pass;
  ASSERT_OK(layer.forward(x.data(), rows, out.data()));
  ASSERT_OK(layer.backward(x.data(), rows, w.data(), nullptr));
  const LayerParams grads = layer.grads();

  int chunks = 0, next_row = 0;
  const bool done = layer.train_pass(
      x.data(), rows, out_pass.data(), grad_out.data(),
      [&](int start, int count, const float* o, float* g) {
        EXPECT_EQ(start, next_row);
        EXPECT_EQ(o, out_pass.data() + start * c.d_out);
        next_row = start + count;
        ++chunks;
        std::copy_n(w.data() + start * c.d_out, count * c.d_out, g);
        return true;
      },
      grads_pass);
  EXPECT_TRUE(done);
  EXPECT_EQ(next_row, rows);
  EXPECT_GT(chunks, 1);
  // n = 0 for the mlp's empty Q, whose data() may be null: memcmp must not see it.
  auto same_bits = [](const float* a, const float* b, std::size_t n) {
    return n == 0 || std::memcmp(a, b, n * sizeof(float)) == 0;
  };
  EXPECT_TRUE(same_bits(out.data(), out_pass.data(), out.size()));
  EXPECT_TRUE(same_bits(grads.q.data(), grads_pass.q.data(), grads.q.size()));
  EXPECT_TRUE(same_bits(grads.k.data(), grads_pass.k.data(), grads.k.size()));
  EXPECT_TRUE(same_bits(grads.v.data(), grads_pass.v.data(), grads.v.size()));

  int calls = 0;
  EXPECT_FALSE(layer.train_pass(
      x.data(), rows, out_pass.data(), grad_out.data(), [&](int, int, const float*, float*) { return ++calls < 2; },
      grads_pass));
  EXPECT_EQ(calls, 2);
}

TEST_P(LayerGradients, KeptForwardGivesTheBitsOfForwardAndBackward) {
  // forward_keep + backward_kept (no recomputation) against forward + backward; a forward of
  // another x in between makes backward_kept recompute, with the same bits again.
  const LayerConfig c = config();
  Layer kept(c), plain(c);
  Pcg32 rng(17);
  const int rows = 300;  // more than forward's 256-row chunks
  const std::vector<float> x = random_floats(rng, rows * c.d_in), other = random_floats(rng, rows * c.d_in);
  const std::vector<float> g = random_floats(rng, rows * c.d_out);
  std::vector<float> out(rows * c.d_out), out1(out.size()), dx(rows * c.d_in), dx1(dx.size());
  auto same_bits = [](const float* a, const float* b, std::size_t n) {  // n = 0: the mlp's empty Q
    return n == 0 || std::memcmp(a, b, n * sizeof(float)) == 0;
  };
  kept.forward_keep(x.data(), rows, out.data());
  EXPECT_OK(plain.forward(x.data(), rows, out1.data()));
  EXPECT_TRUE(same_bits(out.data(), out1.data(), out.size()));
  kept.backward_kept(x.data(), rows, g.data(), dx.data(), false);
  EXPECT_OK(plain.backward(x.data(), rows, g.data(), dx1.data(), false));
  EXPECT_TRUE(same_bits(dx.data(), dx1.data(), dx.size()));
  EXPECT_TRUE(same_bits(kept.grads().q.data(), plain.grads().q.data(), kept.grads().q.size()));
  EXPECT_TRUE(same_bits(kept.grads().k.data(), plain.grads().k.data(), kept.grads().k.size()));
  EXPECT_TRUE(same_bits(kept.grads().v.data(), plain.grads().v.data(), kept.grads().v.size()));
  kept.forward_keep(x.data(), rows, out.data());
  EXPECT_OK(kept.forward(other.data(), rows, out.data()));
  kept.backward_kept(x.data(), rows, g.data(), dx.data(), true);
  EXPECT_OK(plain.backward(x.data(), rows, g.data(), dx1.data(), true));
  EXPECT_TRUE(same_bits(dx.data(), dx1.data(), dx.size()));
  EXPECT_TRUE(same_bits(kept.grads().k.data(), plain.grads().k.data(), kept.grads().k.size()));
}

INSTANTIATE_TEST_SUITE_P(AllKinds, LayerGradients,
                         testing::ValuesIn(testing_support::layer_cases({1, 2, 3}, {0.5f, 1.0f})), layer_case_name);

TEST(LayerConfigValidation, RejectsBadSizesWithNamedField) {
  LayerConfig c;
  c.d_in = 0;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "d_in");
  c = LayerConfig{};
  c.hidden = max_layer_dim + 1;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "hidden");
  c = LayerConfig{};
  c.rank = c.d_in + 1;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "rank");
  c = LayerConfig{};
  c.kind = LayerKind::mlp;
  c.rank = 99;  // ignored by mlp
  EXPECT_OK(validate(c));
  c = LayerConfig{};
  c.d_in = c.hidden = 4096;
  c.rank = 4;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "");
  c = LayerConfig{};
  c.activation.beta = NAN;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "beta");
}

TEST(LayerLifetime, LiveCountTracksConstructionAndCopies) {
  const int before = Layer::live_count();
  {
    Layer a(LayerConfig{});
    Layer b = a.exchanged();
    EXPECT_EQ(Layer::live_count(), before + 2);
  }
  EXPECT_EQ(Layer::live_count(), before);
}

TEST(LayerInit, SameSeedSameParameters) {
  LayerConfig c;
  c.seed = 99;
  Layer a(c), b(c);
  EXPECT_EQ(a.params().q, b.params().q);
  EXPECT_EQ(a.params().v, b.params().v);
  c.seed = 100;
  Layer other(c);
  EXPECT_NE(a.params().q, other.params().q);
}
