// Eigen-decomposition of a real symmetric matrix by the cyclic Jacobi method, in double.
// The census (rank of JᵀJ), the rank-r approximation of A_j, the interaction matrices of
// paper A and the CEM preconditioner's spectrum all need symmetric spectra; Jacobi is short,
// accurate for small eigenvalues (which is what a null-space count hinges on), and uses only
// +, −, ×, ÷ and sqrt in a fixed order, so the same matrix gives the same bits natively and
// in wasm.
#pragma once

#include <cstddef>
#include <vector>

namespace gatelab {

// Largest n accepted: the CEM model width cap (cem_max_d), since the preconditioner P is d × d.
// n³ work per sweep: 512 is about a second per sweep in wasm, 1024 about eight.
inline constexpr int max_eigen_dim = 1024;

enum class EigenOrder { descending, by_magnitude };  // by value, or by |λ| (largest first)

struct SymmetricEigen {
  std::vector<double> values;   // (n)
  std::vector<double> vectors;  // (n, n): row i is the unit eigenvector of values[i]
  int sweeps = 0;
  bool converged = false;
};

// a: (n, n) row-major, symmetric (only its symmetric part is used). Precondition:
// 1 ≤ n ≤ max_eigen_dim and every entry finite.
SymmetricEigen symmetric_eigen(const double* a, int n, EigenOrder order = EigenOrder::descending, int max_sweeps = 100);

// The eigenvalues alone, in the given order: bit-identical to symmetric_eigen(...).values (the
// rotations of a do not depend on the eigenvectors), a third less work since no vectors are
// accumulated. Same precondition.
std::vector<double> symmetric_eigenvalues(const double* a, int n, EigenOrder order = EigenOrder::descending,
                                          int max_sweeps = 100);

// ½(a + aᵀ) of an (n, n) row-major matrix, into out (may not alias a).
void symmetrize(const double* a, int n, double* out);

}  // namespace gatelab
