// The symmetry census: for every kind × activation (and ranks 1 and 2) the null-space
// dimension of the Jacobian equals the count the algebra predicts, with a clear gap in the
// spectrum, and the exchange symmetry holds exactly where A7 says it does.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gatelab/paper_a/census.hpp"
#include "support/layer_cases.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

using testing_support::layer_case_name;
using Case = testing_support::LayerCase;

class Census : public testing::TestWithParam<Case> {};

}  // namespace

TEST_P(Census, MeasuredNullSpaceEqualsThePredictedCount) {
  const Case c = GetParam();
  if (c.kind == LayerKind::bigated && c.activation == Activation::relu2 && c.rank == 1) {
    // relu(a)²relu(b)² is of degree 4: at P = 39 its smallest genuine eigenvalue (~7e-11 of the
    // largest) sits 2.6 decades above the null ones, below the 3 decades this test asks for, so the
    // count is not measurable here (rank 2 is, and passes). Known limit, not a prediction.
    GTEST_SKIP() << "degree-4 unit: spectrum does not separate at this size";
  }
  const LayerConfig config{c.kind, {c.activation, 1.0f}, 4, 3, 3, c.rank, 1};
  const CensusRow row = census_row(config, 0, CensusOptions{}.threshold);
  EXPECT_EQ(row.measured, row.predicted.count)
      << row.predicted.explanation << "\nkept_min " << row.kept_min << " dropped_max " << row.dropped_max;
  EXPECT_GT(row.gap_decades, 3.0) << "the spectrum must separate null and non-null clearly";
  EXPECT_EQ(row.jacobian_rank + row.measured, static_cast<int>(row.parameters));
  EXPECT_EQ(row.spectrum.size(), row.parameters);
  EXPECT_EQ(row.exchange_applicable, c.kind != LayerKind::mlp);
  if (row.exchange_applicable) EXPECT_EQ(row.exchange_measured, row.exchange_predicted) << row.exchange_gap;
}

INSTANTIATE_TEST_SUITE_P(EveryKindAndActivation, Census, testing::ValuesIn(testing_support::layer_cases({1, 2})),
                         layer_case_name);

TEST(CensusTable, PredictionsFollowTheAlgebra) {
  auto count = [](LayerKind kind, Activation a, int rank) {
    return predicted_symmetries({kind, {a, 1.0f}, 4, 3, 3, rank, 1}).count;
  };
  EXPECT_EQ(count(LayerKind::mlp, Activation::silu, 1), 0);
  EXPECT_EQ(count(LayerKind::mlp, Activation::relu, 1), 3);        // per-unit positive scaling
  EXPECT_EQ(count(LayerKind::mlp, Activation::identity, 1), 9);    // GL(3)
  EXPECT_EQ(count(LayerKind::gated, Activation::silu, 1), 3);      // key–value scaling
  EXPECT_EQ(count(LayerKind::gated, Activation::relu, 1), 6);      // + query scaling
  EXPECT_EQ(count(LayerKind::gated, Activation::relu2, 2), 9);     // 1 + r per unit
  EXPECT_EQ(count(LayerKind::symmetric, Activation::silu, 1), 3);  // q → aq, k → k/a
  EXPECT_EQ(count(LayerKind::symmetric, Activation::relu, 1), 6);
  EXPECT_EQ(count(LayerKind::symmetric, Activation::gelu, 2), 18);  // O(2,2): 6 per unit
  EXPECT_EQ(count(LayerKind::gated, Activation::identity, 1), count(LayerKind::symmetric, Activation::identity, 1));
}

TEST(CensusTable, RunCensusMakesOneRowPerKindActivationAndRank) {
  CensusOptions o;
  o.activations = {Activation::relu, Activation::silu};
  o.ranks = {1, 2};
  ASSERT_OK(validate(o));
  const std::vector<CensusRow> rows = run_census(o);
  EXPECT_EQ(rows.size(), 2u * (1 + 2 + 2));  // mlp ignores the rank
  for (const CensusRow& r : rows) EXPECT_EQ(r.measured, r.predicted.count);
}

TEST(CensusTable, RefusalsNameTheField) {
  CensusOptions o;
  o.kinds.clear();
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "kinds");
  o = {};
  o.hidden = 40;
  o.ranks = {4};
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "");
  o = {};
  o.ranks = {5};
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "rank");
  o = {};
  o.threshold = 0;
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "threshold");
}

TEST(CensusTable, ListsParseIntoTheOptionsAndNameTheirFirstBadEntry) {
  CensusOptions o;
  ASSERT_OK(parse_census_lists("gated,mlp", "relu,,silu", "2,1", o));
  EXPECT_EQ(o.kinds, (std::vector<LayerKind>{LayerKind::gated, LayerKind::mlp}));
  EXPECT_EQ(o.activations, (std::vector<Activation>{Activation::relu, Activation::silu}));
  EXPECT_EQ(o.ranks, (std::vector<int>{2, 1}));
  EXPECT_ERROR(parse_census_lists("gated,attention", "", "1", o), ErrorCode::invalid_value, "kinds");
  EXPECT_ERROR(parse_census_lists("gated", "relu,swiglu", "1", o), ErrorCode::invalid_value, "activations");
  EXPECT_ERROR(parse_census_lists("gated", "", "1,x", o), ErrorCode::invalid_value, "ranks");
  EXPECT_ERROR(parse_census_lists("gated", "", "1,2.5", o), ErrorCode::invalid_value, "ranks");
  o = {};
  ASSERT_OK(parse_census_lists("", "", "", o));
  EXPECT_EQ(o.kinds, CensusOptions{}.kinds) << "an empty list keeps paper A's three kinds";
  EXPECT_EQ(o.kinds.size(), 3u);
  ASSERT_OK(parse_census_lists("bigated", "", "1", o));
  EXPECT_EQ(o.kinds, std::vector<LayerKind>{LayerKind::bigated});
  o.kinds.clear();
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "kinds");
}

TEST(CensusTable, BetaAndListLengthsAreCheckedFirst) {
  CensusOptions o;
  o.kinds.clear();
  o.beta = 101;
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "beta");
  o.beta = std::nanf("");
  EXPECT_ERROR(validate(o), ErrorCode::out_of_range, "beta");
  o.beta = 1;
  o.ranks.assign(65, 1);
  EXPECT_ERROR(validate(o), ErrorCode::invalid_value, "");
  o.ranks = {1};
  o.activations.assign(activation_count + 1, Activation::relu);
  EXPECT_ERROR(validate(o), ErrorCode::invalid_value, "");
}
