// Comma-separated lists: empty items are skipped as the bindings always did, and an integer
// list reports its first bad entry instead of reading it as 0 (what atoi did).
#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

#include "gatelab/base/list.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

TEST(List, SplitKeepsTheNonEmptyItemsInOrder) {
  EXPECT_EQ(split_list("mlp:relu,gated:silu"), (std::vector<std::string>{"mlp:relu", "gated:silu"}));
  EXPECT_EQ(split_list(",a,,b,"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(split_list("").empty());
  EXPECT_TRUE(split_list(",,").empty());
  EXPECT_EQ(split_list("one"), std::vector<std::string>{"one"});
}

TEST(List, IntegersAreSignAndDigitsThatFitAnInt) {
  int v = 7;
  EXPECT_TRUE(parse_int("12", v));
  EXPECT_EQ(v, 12);
  EXPECT_TRUE(parse_int("-3", v));
  EXPECT_EQ(v, -3);
  EXPECT_TRUE(parse_int("+4", v));
  EXPECT_EQ(v, 4);
  EXPECT_TRUE(parse_int("2147483647", v));
  EXPECT_EQ(v, INT_MAX);
  EXPECT_TRUE(parse_int("-2147483648", v));
  EXPECT_EQ(v, INT_MIN);
  v = 7;
  for (const char* bad :
       {"", "-", "+", "1x", "x1", "1.5", " 1", "1e3", "2147483648", "-2147483649", "99999999999999999999"}) {
    EXPECT_FALSE(parse_int(bad, v)) << "'" << bad << "'";
    EXPECT_EQ(v, 7) << "'" << bad << "' changed the output";
  }
}

TEST(List, FloatsArePlainFiniteDecimals) {
  float v = 7;
  const std::vector<std::string> good = {"0.25", "1", "-3.5", "+.5", "2.", "1e-3", "1E+2", "0.1"};
  const std::vector<float> values = {0.25f, 1.0f, -3.5f, 0.5f, 2.0f, 1e-3f, 100.0f, 0.1f};
  for (std::size_t i = 0; i < good.size(); ++i) {
    EXPECT_TRUE(parse_float(good[i], v)) << good[i];
    EXPECT_EQ(v, values[i]) << good[i];
  }
  v = 7;
  for (const char* bad : {"", ".", "-", "e3", "1e", "1e+", "nan", "inf", "-inf", "0x1p3", " 1", "1 ", "1,5", "1e39"}) {
    EXPECT_FALSE(parse_float(bad, v)) << "'" << bad << "'";
    EXPECT_EQ(v, 7) << "'" << bad << "' changed the output";
  }
}

TEST(List, IntegerListsReportTheFirstBadEntry) {
  std::vector<int> ranks;
  EXPECT_OK(parse_int_list("1,2,,4", "ranks", ranks));
  EXPECT_EQ(ranks, (std::vector<int>{1, 2, 4}));
  ranks.clear();
  EXPECT_ERROR(parse_int_list("1,two,3", "ranks", ranks), ErrorCode::invalid_value, "ranks");
  EXPECT_EQ(ranks, std::vector<int>{1});
  ranks.clear();
  EXPECT_OK(parse_int_list("0,-1", "ranks", ranks));  // ranges are the caller's to check
  EXPECT_EQ(ranks, (std::vector<int>{0, -1}));
}
