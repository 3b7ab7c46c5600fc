// Matrix products on raw row-major float pointers: the hot loops of every layer.
//
// Each output element accumulates its k products in increasing k with a separate
// multiply and add (no FMA contraction), so the fast kernels give bit-identical
// results natively and in WebAssembly. The naive references in `reference::`
// accumulate in double and exist only to check the fast kernels.
//
// c must not overlap a or b. Any of m, k, n may be 0 (k = 0 gives C = 0, or leaves C when
// accumulating). Packing scratch is thread_local and kept between calls, so calls from
// different threads are safe and a warm call allocates nothing.
#pragma once

#include <cstddef>

namespace gatelab {

// C (m×n) = A (m×k) · B (k×n); with accumulate, C += A·B.
void matmul_nn(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate = false);

// C (m×n) = Aᵀ · B, where A is (k×m) and B is (k×n); with accumulate, C += Aᵀ·B.
void matmul_tn(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate = false);

// C (m×n) = A · Bᵀ, where A is (m×k) and B is (n×k); with accumulate, C += A·Bᵀ.
void matmul_nt(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate = false);

namespace reference {
void matmul_nn(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate = false);
void matmul_tn(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate = false);
void matmul_nt(const float* a, const float* b, float* c, int m, int k, int n, bool accumulate = false);
}  // namespace reference

}  // namespace gatelab
