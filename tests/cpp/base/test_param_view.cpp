// A list of parameter views is a model's flat parameter vector: read_flat and write_flat walk
// the views in order, each in its rows × cols layout, also when a view is stored transposed;
// write_flat refuses a non-finite entry and then changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gatelab/base/param_view.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

TEST(ParamView, FlatVectorWalksTheViewsInTheirLayout) {
  std::vector<float> a = {1, 2, 3, 4, 5, 6}, ga = {-1, -2, -3, -4, -5, -6};  // 2 × 3 as stored
  std::vector<float> b = {10, 20, 30, 40, 50, 60}, gb(6, 0.5f);              // 3 × 2 stored as 2 × 3
  const std::vector<ParamView<float>> views = {{"a", a.data(), ga.data(), 6, 2, 3},
                                               {"b", b.data(), gb.data(), 6, 3, 2, true, true}};
  EXPECT_EQ(stored_index(views[0], 4), 4u);
  EXPECT_EQ(stored_index(views[1], 1), 3u);  // row 0, column 1 of the 3 × 2 layout = b(1, 0)
  std::vector<float> flat(12);
  read_flat(views, flat.data());
  EXPECT_EQ(flat, (std::vector<float>{1, 2, 3, 4, 5, 6, 10, 40, 20, 50, 30, 60}));
  read_flat(views, flat.data(), true);
  EXPECT_EQ(flat[0], -1.0f);
  EXPECT_EQ(flat[11], 0.5f);
  const std::vector<float> in = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  ASSERT_OK(write_flat(views, in.data()));
  EXPECT_EQ(a, (std::vector<float>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(b, (std::vector<float>{6, 8, 10, 7, 9, 11}));
  read_flat(views, flat.data());
  EXPECT_EQ(flat, in);
}

TEST(ParamView, WriteFlatRefusesNonFiniteEntriesAndChangesNothing) {
  std::vector<double> a = {1, 2}, g(2);
  const std::vector<ParamView<double>> views = {{"a", a.data(), g.data(), 2, 1, 2}};
  for (double bad : {NAN, INFINITY, -INFINITY}) {
    const double in[] = {5, bad};
    EXPECT_ERROR(write_flat(views, in), ErrorCode::not_finite, "");
    EXPECT_EQ(a, (std::vector<double>{1, 2}));
  }
}
