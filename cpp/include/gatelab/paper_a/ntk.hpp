// The empirical neural tangent kernel of a paper-A layer on a batch (docs/MATH.md §A22): the
// Gram matrix G = J Jᵀ of the Jacobian J = ∂vec(f(X))/∂θ over every parameter of the layer
// (Q, K, V; mlp: K, V), its eigenvalues and its condition number. J is the layer's own
// backward, one pass per output element with a one-hot output gradient, so no derivative is
// written twice; G is summed in double and decomposed by the library's Jacobi solver (§N5).
#pragma once

#include <vector>

#include "gatelab/base/status.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

// Documented caps: G is (rows·d_out)² and J holds rows·d_out·P scalars.
inline constexpr int max_ntk_outputs = 256;         // rows · d_out
inline constexpr int max_ntk_parameters = 1 << 14;  // P = parameter_count()

template <class S>
struct NtkT {
  int outputs = 0;                  // N = rows · d_out
  std::vector<double> gram;         // (N, N) row-major: G[a][b] = Σ_p J[a][p] J[b][p]
  std::vector<double> eigenvalues;  // (N), descending
  double condition_number = 0.0;    // λ_1 / λ_k, k = min(N, P); +∞ when λ_k ≤ 0
};
using Ntk = NtkT<float>;

// ok when validate_rows(rows, layer.max_rows()) holds, rows · d_out ≤ max_ntk_outputs and the
// layer has at most max_ntk_parameters parameters; else an out-of-range status naming rows (or
// the layer, field "").
template <class S>
Status validate_ntk(const LayerT<S>& layer, int rows);

// x: (rows, d_in). Precondition: validate_rows(rows, layer.max_rows()) is ok; the two caps of
// validate_ntk bound the memory a browser call may take (the LM's native diagnostic, §A24, exceeds
// the parameter cap). Row a = i·d_out + o of J is the
// parameter gradient of output o of row i, in the order of LayerT::views (q, k, v). When some
// entry of G is not finite (the layer overflows), the eigenvalues and the condition number are NaN.
template <class S>
NtkT<S> neural_tangent_kernel(const LayerT<S>& layer, const S* x, int rows);

}  // namespace gatelab
