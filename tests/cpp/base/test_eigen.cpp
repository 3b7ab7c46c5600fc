// The Jacobi eigen-decomposition: A·v = λ·v for every pair, orthonormal vectors, the two
// orders, exact answers on diagonal and rank-deficient inputs, and determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gatelab/base/eigen.hpp"
#include "gatelab/base/rng.hpp"

using namespace gatelab;

namespace {

std::vector<double> random_symmetric(int n, std::uint64_t seed) {
  Pcg32 rng(seed);
  std::vector<double> a(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) a[i * n + j] = a[j * n + i] = rng.normal_double();
  }
  return a;
}

void expect_decomposition(const std::vector<double>& a, int n, const SymmetricEigen& e, double tol) {
  ASSERT_TRUE(e.converged);
  double scale = 0;
  for (double v : a) scale = std::fmax(scale, std::fabs(v));
  for (int i = 0; i < n; ++i) {
    const double* v = e.vectors.data() + static_cast<std::size_t>(i) * n;
    for (int r = 0; r < n; ++r) {
      double av = 0;
      for (int c = 0; c < n; ++c) av += a[r * n + c] * v[c];
      EXPECT_NEAR(av, e.values[i] * v[r], tol * scale) << "pair " << i << " row " << r;
    }
    for (int j = 0; j < n; ++j) {
      double dot = 0;
      for (int c = 0; c < n; ++c) dot += v[c] * e.vectors[static_cast<std::size_t>(j) * n + c];
      EXPECT_NEAR(dot, i == j ? 1.0 : 0.0, 1e-12);
    }
  }
}

}  // namespace

TEST(Eigen, RandomSymmetricMatricesDecomposeExactly) {
  for (int n : {1, 2, 3, 7, 20, 60}) {
    const std::vector<double> a = random_symmetric(n, 100 + n);
    const SymmetricEigen e = symmetric_eigen(a.data(), n);
    expect_decomposition(a, n, e, 1e-12 * n);
    for (int i = 1; i < n; ++i) EXPECT_GE(e.values[i - 1], e.values[i]);
  }
}

TEST(Eigen, MagnitudeOrderPutsTheLargestAbsoluteValueFirst) {
  const std::vector<double> a{1, 0, 0, 0, -5, 0, 0, 0, 3};
  const SymmetricEigen e = symmetric_eigen(a.data(), 3, EigenOrder::by_magnitude);
  EXPECT_EQ(e.values, (std::vector<double>{-5, 3, 1}));
  const SymmetricEigen d = symmetric_eigen(a.data(), 3, EigenOrder::descending);
  EXPECT_EQ(d.values, (std::vector<double>{3, 1, -5}));
}

TEST(Eigen, GramMatrixOfARankDeficientJacobianHasExactNullDirections) {
  // JᵀJ with J (12, 9) of rank 5: four eigenvalues at rounding level, five far above.
  Pcg32 rng(3);
  const int rows = 12, cols = 9, rank = 5;
  std::vector<double> left(rows * rank), right(rank * cols), gram(cols * cols, 0.0);
  for (double& v : left) v = rng.normal_double();
  for (double& v : right) v = rng.normal_double();
  std::vector<double> j(rows * cols, 0.0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      for (int t = 0; t < rank; ++t) j[r * cols + c] += left[r * rank + t] * right[t * cols + c];
  for (int r = 0; r < rows; ++r)
    for (int a = 0; a < cols; ++a)
      for (int b = 0; b < cols; ++b) gram[a * cols + b] += j[r * cols + a] * j[r * cols + b];
  const SymmetricEigen e = symmetric_eigen(gram.data(), cols);
  for (int i = 0; i < cols; ++i) {
    if (i < rank)
      EXPECT_GT(e.values[i] / e.values[0], 1e-6);
    else
      EXPECT_LT(std::fabs(e.values[i] / e.values[0]), 1e-13);
  }
}

TEST(Eigen, IsDeterministicAndUsesOnlyTheSymmetricPart) {
  std::vector<double> a = random_symmetric(15, 9);
  const SymmetricEigen first = symmetric_eigen(a.data(), 15);
  const SymmetricEigen again = symmetric_eigen(a.data(), 15);
  EXPECT_EQ(first.values, again.values);
  EXPECT_EQ(first.vectors, again.vectors);
  // Adding an antisymmetric part changes nothing (up to rounding of the sums).
  for (int i = 0; i < 15; ++i) {
    for (int j = i + 1; j < 15; ++j) {
      a[i * 15 + j] += 0.5;
      a[j * 15 + i] -= 0.5;
    }
  }
  const SymmetricEigen skewed = symmetric_eigen(a.data(), 15);
  for (int i = 0; i < 15; ++i) EXPECT_NEAR(skewed.values[i], first.values[i], 1e-12);
}

TEST(Eigen, ValuesAloneAreTheBitsOfTheFullDecomposition) {
  // The rotations of a never read the eigenvectors, so skipping them must not move a bit.
  const std::vector<double> a = random_symmetric(25, 4);
  for (EigenOrder order : {EigenOrder::descending, EigenOrder::by_magnitude}) {
    EXPECT_EQ(symmetric_eigenvalues(a.data(), 25, order), symmetric_eigen(a.data(), 25, order).values);
  }
}

TEST(Eigen, SymmetrizeAveragesAWithItsTranspose) {
  const std::vector<double> a{1, 2, 4, 3};
  std::vector<double> s(4);
  symmetrize(a.data(), 2, s.data());
  EXPECT_EQ(s, (std::vector<double>{1, 3, 3, 3}));
}
