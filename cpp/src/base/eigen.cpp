// Cyclic Jacobi eigen-decomposition (see eigen.hpp). Each rotation zeroes one off-diagonal
// pair with the stable tangent formula (Golub & Van Loan §8.5); sweeps run in a fixed
// row-major order until a whole sweep finds no pair worth rotating.
#include "gatelab/base/eigen.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gatelab {
namespace {

// One rotation in the (p, q) plane applied to a (both sides) and, unless v is empty, to the
// rows of v.
void rotate(std::vector<double>& a, std::vector<double>& v, int n, int p, int q) {
  const double apq = a[p * n + q];
  const double theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
  const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
  const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
  for (int k = 0; k < n; ++k) {  // columns p, q
    const double akp = a[k * n + p], akq = a[k * n + q];
    a[k * n + p] = c * akp - s * akq;
    a[k * n + q] = s * akp + c * akq;
  }
  for (int k = 0; k < n; ++k) {  // rows p, q
    const double apk = a[p * n + k], aqk = a[q * n + k];
    a[p * n + k] = c * apk - s * aqk;
    a[q * n + k] = s * apk + c * aqk;
  }
  // The rotation was chosen to zero this pair; store the exact zero rather than rounding.
  a[p * n + q] = a[q * n + p] = 0.0;
  if (v.empty()) return;
  for (int k = 0; k < n; ++k) {  // eigenvector rows
    const double vpk = v[p * n + k], vqk = v[q * n + k];
    v[p * n + k] = c * vpk - s * vqk;
    v[q * n + k] = s * vpk + c * vqk;
  }
}

// The sweeps: a (symmetrized on entry) ends diagonal, v (identity on entry, or empty to skip
// the eigenvectors) ends holding them as rows. Fills out.sweeps and out.converged.
void jacobi_sweeps(std::vector<double>& a, std::vector<double>& v, int n, int max_sweeps, SymmetricEigen& out) {
  for (out.sweeps = 0; out.sweeps < max_sweeps && !out.converged; ++out.sweeps) {
    out.converged = true;
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0.0) continue;
        // Negligible against its own diagonal pair (Demmel–Veselić): dropping it keeps
        // small eigenvalues accurate to a relative, not absolute, tolerance.
        if (std::fabs(apq) <= 1e-17 * std::sqrt(std::fabs(a[p * n + p] * a[q * n + q]))) {
          a[p * n + q] = a[q * n + p] = 0.0;
          continue;
        }
        rotate(a, v, n, p, q);
        out.converged = false;
      }
    }
  }
}

// Indices of the diagonal of the (n, n) matrix a in the requested order (stable on ties).
std::vector<int> diagonal_order(const std::vector<double>& a, int n, EigenOrder order) {
  std::vector<int> index(n);
  std::iota(index.begin(), index.end(), 0);
  auto key = [&](int i) { return order == EigenOrder::by_magnitude ? std::fabs(a[i * n + i]) : a[i * n + i]; };
  std::stable_sort(index.begin(), index.end(), [&](int x, int y) { return key(x) > key(y); });
  return index;
}

// Runs the sweeps; with_vectors decides whether the eigenvectors are accumulated and copied out.
SymmetricEigen decompose(const double* input, int n, EigenOrder order, int max_sweeps, bool with_vectors) {
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  std::vector<double> a(nn), v;
  symmetrize(input, n, a.data());
  if (with_vectors) {
    v.assign(nn, 0.0);
    for (int i = 0; i < n; ++i) v[i * n + i] = 1.0;
  }

  SymmetricEigen out;
  jacobi_sweeps(a, v, n, max_sweeps, out);

  const std::vector<int> index = diagonal_order(a, n, order);
  out.values.resize(n);
  for (int i = 0; i < n; ++i) out.values[i] = a[index[i] * n + index[i]];
  if (!with_vectors) return out;
  out.vectors.resize(nn);
  for (int i = 0; i < n; ++i) {
    std::copy(v.begin() + static_cast<std::size_t>(index[i]) * n,
              v.begin() + static_cast<std::size_t>(index[i] + 1) * n,
              out.vectors.begin() + static_cast<std::size_t>(i) * n);
  }
  return out;
}

}  // namespace

void symmetrize(const double* a, int n, double* out) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) out[i * n + j] = 0.5 * (a[i * n + j] + a[j * n + i]);
  }
}

SymmetricEigen symmetric_eigen(const double* input, int n, EigenOrder order, int max_sweeps) {
  return decompose(input, n, order, max_sweeps, true);
}

std::vector<double> symmetric_eigenvalues(const double* input, int n, EigenOrder order, int max_sweeps) {
  return decompose(input, n, order, max_sweeps, false).values;
}

}  // namespace gatelab
