// The flat factor access web/lib uses for getParams and setParams: sizes in Q, K, V order, a copy
// out that is the tensors' row-major data, and a copy in that round-trips and changes the layer.
#include <gtest/gtest.h>

#include <vector>

#include "gatelab/paper_a/layer.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

LayerConfig gated_config() {
  LayerConfig c;
  c.kind = LayerKind::gated;
  c.d_in = 3;
  c.hidden = 4;
  c.d_out = 2;
  c.rank = 2;
  c.seed = 7;
  return c;
}

}  // namespace

TEST(Factors, SizesFollowQKVAndAnyOtherIndexIsV) {
  const Layer layer(gated_config());
  const LayerParams& p = layer.params();
  EXPECT_EQ(factor_size(p, 0), 4u * 2 * 3);
  EXPECT_EQ(factor_size(p, 1), 4u * 2 * 3);
  EXPECT_EQ(factor_size(p, 2), 4u * 2);
  EXPECT_EQ(factor_size(p, 5), p.v.size());
}

TEST(Factors, AnMlpHasNoQ) {
  LayerConfig c = gated_config();
  c.kind = LayerKind::mlp;
  c.rank = 1;
  const Layer layer(c);
  EXPECT_EQ(factor_size(layer.params(), 0), 0u);
  std::vector<float> k(factor_size(layer.params(), 1)), v(factor_size(layer.params(), 2));
  copy_factors(layer.params(), nullptr, k.data(), v.data());  // nothing is written through Q
  EXPECT_EQ(k[0], layer.params().k.data()[0]);
}

TEST(Factors, CopyOutIsRowMajorAndCopyInRoundTrips) {
  Layer a(gated_config());
  std::vector<float> q(factor_size(a.params(), 0)), k(factor_size(a.params(), 1)), v(factor_size(a.params(), 2));
  copy_factors(a.params(), q.data(), k.data(), v.data());
  EXPECT_EQ(q[1 * 6 + 1 * 3 + 2], a.params().q(1, 1, 2));
  EXPECT_EQ(k[3 * 6 + 0 * 3 + 1], a.params().k(3, 0, 1));
  EXPECT_EQ(v[2 * 2 + 1], a.params().v(2, 1));

  LayerConfig other = gated_config();
  other.seed = 8;
  Layer b(other);
  ASSERT_NE(b.params().q(0, 0, 0), a.params().q(0, 0, 0));
  set_factors(b.params(), q.data(), k.data(), v.data());
  EXPECT_EQ(b.params().q, a.params().q);
  EXPECT_EQ(b.params().k, a.params().k);
  EXPECT_EQ(b.params().v, a.params().v);
  const std::vector<float> x = {0.5f, -1.0f, 2.0f};
  std::vector<float> ya(2), yb(2);
  EXPECT_OK(a.forward(x.data(), 1, ya.data()));
  EXPECT_OK(b.forward(x.data(), 1, yb.data()));
  EXPECT_EQ(ya, yb);
}
