// draw_normal: the named views, and only those, get scale·N(0, 1) values from one stream in
// the order named, the same for the same seed; a stored-transposed view is filled in its
// layout; a bad name or scale changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gatelab/base/param_draw.hpp"

using namespace gatelab;

namespace {

struct Model {
  std::vector<float> a = std::vector<float>(4, 7.0f), b = std::vector<float>(6, 7.0f), c = std::vector<float>(3, 7.0f);
  std::vector<float> ga = std::vector<float>(4), gb = std::vector<float>(6), gc = std::vector<float>(3);
  std::vector<ParamView<float>> views() {
    return {{"a", a.data(), ga.data(), 4, 2, 2},
            {"b", b.data(), gb.data(), 6, 3, 2, true, true},
            {"c", c.data(), gc.data(), 3, 1, 3}};
  }
};

}  // namespace

TEST(ParamDraw, DrawsTheNamedViewsFromOneStreamInTheOrderNamed) {
  Model m;
  ASSERT_TRUE(draw_normal(m.views(), {"c", "a"}, 5, 0.5).ok());
  EXPECT_EQ(m.b, std::vector<float>(6, 7.0f)) << "a view not named keeps its values";
  Pcg32 rng(5, draw_normal_stream);
  for (float v : m.c) EXPECT_EQ(v, static_cast<float>(0.5 * rng.normal_double()));
  for (float v : m.a) EXPECT_EQ(v, static_cast<float>(0.5 * rng.normal_double())) << "a goes on c's stream";
  Model again;
  ASSERT_TRUE(draw_normal(again.views(), {"c", "a"}, 5, 0.5).ok());
  EXPECT_EQ(again.a, m.a);
  EXPECT_EQ(again.c, m.c);
  Model other;
  ASSERT_TRUE(draw_normal(other.views(), {"c", "a"}, 6, 0.5).ok());
  EXPECT_NE(other.c, m.c) << "another seed, other values";
}

TEST(ParamDraw, IsApartFromALayersInitialisationStream) {
  Model m;
  ASSERT_TRUE(draw_normal(m.views(), {"a"}, 3, 1.0).ok());
  Pcg32 init(3);
  EXPECT_NE(m.a[0], init.normal()) << "the same seed must not repeat a layer's own weights";
}

TEST(ParamDraw, FillsATransposedViewInItsLayout) {
  Model m;
  ASSERT_TRUE(draw_normal(m.views(), {"b"}, 9, 1.0).ok());
  std::vector<float> flat(13);
  read_flat(m.views(), flat.data());
  Pcg32 rng(9, draw_normal_stream);
  for (int e = 0; e < 6; ++e) EXPECT_EQ(flat[4 + e], static_cast<float>(rng.normal_double())) << e;
}

TEST(ParamDraw, RefusesABadNameOrScaleAndChangesNothing) {
  Model m;
  const Status name = draw_normal(m.views(), {"a", "nope"}, 1, 1.0);
  EXPECT_EQ(name.code, ErrorCode::invalid_value);
  EXPECT_EQ(name.field, "names");
  for (double scale : {-1.0, std::nan(""), HUGE_VAL, 1001.0}) {
    const Status s = draw_normal(m.views(), {"a"}, 1, scale);
    EXPECT_EQ(s.code, ErrorCode::out_of_range) << scale;
    EXPECT_EQ(s.field, "scale");
  }
  EXPECT_EQ(m.a, std::vector<float>(4, 7.0f));
  ASSERT_TRUE(draw_normal(m.views(), {"a"}, 1, 0.0).ok());
  EXPECT_EQ(m.a, std::vector<float>(4, 0.0f)) << "scale 0 gives zeros";
}

namespace {

// A model as draw_params sees one: its views and its error.
struct ModelWithError {
  Model model;
  Status status;
  std::vector<ParamView<float>> parameters() { return model.views(); }
  const Status& error() const { return status; }
};

}  // namespace

TEST(ParamDraw, DrawParamsTakesTheSeedAsAJsNumberAndRefusesAnInvalidModel) {
  ModelWithError m;
  ASSERT_TRUE(draw_params(m, {"a"}, 5.0, 0.5).ok());
  Model direct;
  ASSERT_TRUE(draw_normal(direct.views(), {"a"}, 5, 0.5).ok());
  EXPECT_EQ(m.model.a, direct.a);
  for (double seed : {-1.0, 0.5, 4294967296.0, std::nan("")}) {
    const Status s = draw_params(m, {"a"}, seed, 1.0);
    EXPECT_EQ(s.code, ErrorCode::out_of_range) << seed;
    EXPECT_EQ(s.field, "seed");
  }
  m.status = invalid_value("d", "d must be positive");
  EXPECT_EQ(draw_params(m, {"a"}, 1.0, 1.0).field, "d");
  EXPECT_EQ(m.model.a, direct.a) << "nothing drawn";
}
