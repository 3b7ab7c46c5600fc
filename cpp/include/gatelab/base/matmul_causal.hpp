// Batched products of causal attention on raw row-major float pointers: `count` independent
// problems at once (every sequence and head of a batch in one call), with no packing and no
// work above the diagonal. Problem b's operands start at b·(n·dh) (the n×dh matrices Q, K, V,
// X, O) and at b·(n·n) (the n×n matrices S and L), so a (heads, rows, d_h) layout with
// rows = sequences·n is `count` = heads·sequences consecutive problems.
//
// Same bits as the full products (matmul.hpp): every element starts at 0 and adds its products
// in increasing index with a separate multiply and add. Terms are left out only where L is
// zero above the diagonal (causal_softmax and its backward write +0 there), and leaving out a
// finite ±0 term never changes such a sum: a sum that starts at +0 is never −0, and x + ±0 = x
// for every other x. So with finite operands each function equals its full product bit for
// bit (tested); an infinite operand would have made the full product NaN there.
#pragma once

namespace gatelab {

// S_b (n×n) = A_b (n×dh) · B_bᵀ (B_b is n×dh), on and below the diagonal (j ≤ i). Entries above
// the diagonal are left as they are or overwritten with partial products: callers ignore them.
void causal_scores(const float* a, const float* b, float* s, int count, int n, int dh);

// O_b (n×dh) = L_b (n×n) · X_b (n×dh), L_b lower triangular (zero above the diagonal).
void causal_apply(const float* l, const float* x, float* out, int count, int n, int dh);

// O_b (n×dh) = L_bᵀ · X_b, L_b (n×n) lower triangular (zero above the diagonal).
void causal_apply_transposed(const float* l, const float* x, float* out, int count, int n, int dh);

}  // namespace gatelab
