// Seed statistics, once for the whole library (docs/MATH.md §C1–§C5): the mean, the sample
// standard deviation (n − 1), the standard error, and the 95 % Student-t interval of a sample
// or of paired differences; two-sided t-test p-values and Holm's step-down adjustment for a
// family of comparisons. Experiments, the race, the figures (through lab.stats) and the
// reports all call these, so a number means the same thing everywhere. Built on the libm-free
// scalar functions, so the same values give the same bits natively and in wasm.
#pragma once

#include <vector>

namespace gatelab {

struct SampleSummary {
  int n = 0;
  double mean = 0;
  double sd = 0;      // sample standard deviation, n − 1 in the denominator (NaN when n < 2)
  double se = 0;      // sd / √n
  double ci_low = 0;  // mean ∓ t_{0.975, n−1}·se (NaN when n < 2)
  double ci_high = 0;
  double t = 0;  // mean / se: the one-sample t statistic against 0
  double p = 0;  // its two-sided p-value (NaN when n < 2)
};

// Summary of n ≥ 1 values (summed in index order).
SampleSummary summarize(const double* values, int n);
inline SampleSummary summarize(const std::vector<double>& values) {
  return summarize(values.data(), static_cast<int>(values.size()));
}
// Bands over seeds, record by record, as the race reports its curves (docs/MATH.md §C1, §T6
// "Curves"): values holds records × seeds numbers, record r's at r·seeds … r·seeds + seeds − 1
// (summed in that order); per record the mean, the sample SD (0 for one seed: a band of no
// width), the min and the max. Empty unless seeds ≥ 1 divides values.size().
struct SeedBands {
  std::vector<double> mean, sd, min, max;
};
SeedBands seed_bands(const std::vector<double>& values, int seeds);

// Summary of the paired differences a_i − b_i.
SampleSummary summarize_paired(const std::vector<double>& a, const std::vector<double>& b);

// The Student-t distribution with df ≥ 1 degrees of freedom: P(T ≤ t) and its inverse.
double student_t_cdf(double t, int df);
double student_t_quantile(double probability, int df);  // 0 < probability < 1

// Holm's step-down adjusted p-values (same order as the input): reject hypothesis i at level
// α exactly when adjusted[i] ≤ α, which controls the family-wise error rate at α.
std::vector<double> holm_adjust(const std::vector<double>& p_values);

}  // namespace gatelab
