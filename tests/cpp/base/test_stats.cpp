// Seed statistics against published values: Student-t quantiles (Abramowitz & Stegun, table
// 26.10), the CDF's symmetry and limits, the sample SD with n − 1, the paired interval, and
// Holm's adjustment on a textbook example.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "gatelab/base/stats.hpp"

using namespace gatelab;

TEST(Stats, StudentTQuantilesMatchTheTables) {
  const struct {
    int df;
    double t975;
  } table[] = {{1, 12.706204736}, {2, 4.302652730},  {3, 3.182446305},  {4, 2.776445105},
               {9, 2.262157163},  {29, 2.045229642}, {120, 1.979930405}};
  for (const auto& row : table) {
    EXPECT_NEAR(student_t_quantile(0.975, row.df), row.t975, 1e-8) << "df " << row.df;
    EXPECT_NEAR(student_t_cdf(row.t975, row.df), 0.975, 1e-11) << "df " << row.df;
    EXPECT_NEAR(student_t_quantile(0.025, row.df), -row.t975, 1e-8);
  }
  // Large df: z + (z³ + z)/(4ν) with z = 1.959963985 (the normal quantile) and ν = 10⁵.
  EXPECT_NEAR(student_t_quantile(0.975, 100000), 1.959963985 + (7.528946 + 1.959964) / 4e5, 1e-7);
  EXPECT_DOUBLE_EQ(student_t_cdf(0.0, 5), 0.5);
  EXPECT_NEAR(student_t_cdf(-1.3, 7) + student_t_cdf(1.3, 7), 1.0, 1e-14);
  EXPECT_TRUE(std::isnan(student_t_quantile(1.0, 3)));
}

TEST(Stats, SummaryUsesTheSampleStandardDeviation) {
  const std::vector<double> v = {2, 4, 4, 4, 5, 5, 7, 9};  // population SD 2, sample SD √(32/7)
  const SampleSummary s = summarize(v);
  EXPECT_EQ(s.n, 8);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_NEAR(s.sd, std::sqrt(32.0 / 7.0), 1e-14);
  EXPECT_NEAR(s.se, std::sqrt(32.0 / 7.0) / std::sqrt(8.0), 1e-14);
  const double half = 2.364624252 * s.se;  // t_{0.975, 7}
  EXPECT_NEAR(s.ci_low, 5.0 - half, 1e-8);
  EXPECT_NEAR(s.ci_high, 5.0 + half, 1e-8);
  const SampleSummary one = summarize(std::vector<double>{3.0});
  EXPECT_DOUBLE_EQ(one.mean, 3.0);
  EXPECT_TRUE(std::isnan(one.sd));
  EXPECT_TRUE(std::isnan(one.ci_low));
}

TEST(Stats, PairedIntervalIsTheIntervalOfTheDifferences) {
  const std::vector<double> a = {1.0, 2.0, 3.0, 4.5}, b = {0.5, 1.4, 2.6, 3.95};
  const SampleSummary d = summarize_paired(a, b);
  const SampleSummary direct = summarize(std::vector<double>{1.0 - 0.5, 2.0 - 1.4, 3.0 - 2.6, 4.5 - 3.95});
  EXPECT_DOUBLE_EQ(d.mean, direct.mean);
  EXPECT_DOUBLE_EQ(d.ci_low, direct.ci_low);
  EXPECT_GT(d.ci_low, 0.0);  // every seed improved: the interval excludes 0
  EXPECT_LT(d.p, 0.05);
  // Two-sided p of t = 2.776445105 at df 4 is 0.05.
  EXPECT_NEAR(2 * (1 - student_t_cdf(2.776445105, 4)), 0.05, 1e-9);
}

TEST(Stats, HolmAdjustsStepDownAndKeepsTheOrder) {
  const std::vector<double> p = {0.01, 0.04, 0.03, 0.005};
  const std::vector<double> adjusted = holm_adjust(p);
  // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 → max(0.06, 0.04) = 0.06.
  EXPECT_NEAR(adjusted[3], 0.02, 1e-15);
  EXPECT_NEAR(adjusted[0], 0.03, 1e-15);
  EXPECT_NEAR(adjusted[2], 0.06, 1e-15);
  EXPECT_NEAR(adjusted[1], 0.06, 1e-15);
  EXPECT_EQ(holm_adjust({0.9, 0.8}), (std::vector<double>{1.0, 1.0}));
}

TEST(Stats, SeedBandsAreSummarizePerRecordWithMinAndMax) {
  // Three records of two seeds, record-major.
  const std::vector<double> values = {1.0, 3.0, 0.5, 0.25, -2.0, 2.0};
  const SeedBands b = seed_bands(values, 2);
  ASSERT_EQ(b.mean.size(), 3u);
  for (std::size_t r = 0; r < 3; ++r) {
    const SampleSummary s = summarize({values[2 * r], values[2 * r + 1]});
    EXPECT_EQ(b.mean[r], s.mean);
    EXPECT_EQ(b.sd[r], s.sd);
    EXPECT_EQ(b.min[r], std::min(values[2 * r], values[2 * r + 1]));
    EXPECT_EQ(b.max[r], std::max(values[2 * r], values[2 * r + 1]));
  }
  const SeedBands one = seed_bands({4.0, 5.0}, 1);
  EXPECT_EQ(one.sd, (std::vector<double>{0.0, 0.0})) << "one seed: a band of no width, as the race draws it";
  EXPECT_EQ(one.mean, (std::vector<double>{4.0, 5.0}));
  EXPECT_TRUE(seed_bands(values, 4).mean.empty()) << "4 seeds do not divide 6 values";
  EXPECT_TRUE(seed_bands(values, 0).mean.empty());
}
