// Naive matrix products that accumulate in double: the yardstick the fast kernels in
// matmul.cpp are tested against. Slow on purpose and written to be obviously right; nothing
// outside the tests should call them.
#include "gatelab/base/matmul.hpp"

namespace gatelab::reference {
namespace {

// C (m×n) = op(A) · op(B) where element (i,p) of op(A) is a[i*rs_a + p*cs_a] and element
// (p,j) of op(B) is b[p*rs_b + j*cs_b]; C is row-major.
void product(const float* a, long rs_a, long cs_a, const float* b, long rs_b, long cs_b, float* c, int m, int k, int n,
             bool accumulate) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = accumulate ? static_cast<double>(c[static_cast<long>(i) * n + j]) : 0.0;
      for (int p = 0; p < k; ++p) {
        sum += static_cast<double>(a[i * rs_a + p * cs_a]) * static_cast<double>(b[p * rs_b + j * cs_b]);
      }
      c[static_cast<long>(i) * n + j] = static_cast<float>(sum);
    }
  }
}

}  // namespace

// a is (m,k), b is (k,n), c is (m,n).
void matmul_nn(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate) {
  product(a, k, 1, b, n, 1, c, m, k, n, accumulate);
}

// a is (k,m), b is (k,n), c is (m,n).
void matmul_tn(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate) {
  product(a, 1, m, b, n, 1, c, m, k, n, accumulate);
}

// a is (m,k), b is (n,k), c is (m,n).
void matmul_nt(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate) {
  product(a, k, 1, b, 1, k, c, m, k, n, accumulate);
}

}  // namespace gatelab::reference
