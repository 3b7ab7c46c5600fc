// Interaction matrices of paper-A layers (docs/MATH.md §A19; the weight-based view of
// Pearce et al. 2024, reimplemented). For an output direction u (length d_out):
//   weight-based   B_u = Σ_j (u·v_j) Q_jᵀK_j  (raw), and its symmetric part sym(B_u).
//                  With σ = identity, x sym(B_u) xᵀ = u·f(x) exactly for every x. The raw
//                  matrix of the exchanged layer (Q ↔ K) is B_uᵀ, so sym() is exactly the
//                  quotient by the exchange symmetry: both layers give the same sym(B_u).
//   at an input x  the input-dependent effective matrix, exact for every σ at that x:
//                  symmetric  M_u(x) = Σ_j (u·v_j) ρ(x S_j xᵀ) Q_jᵀK_j
//                  gated      M_u(x) = Σ_j (u·v_j) Σ_t ρ(x q_jtᵀ) q_jtᵀ k_jt
//                  with ρ(z) = σ(z)/z (σ'(0) at z = 0), so x M_u(x) xᵀ = u·f(x).
// The spectrum of the symmetric part (eigenvalues by |λ|, eigenvectors as rows) shows
// which input directions the output u reads.
#pragma once

#include "gatelab/base/status.hpp"
#include <string>
#include <vector>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

inline constexpr int max_interaction_dim = 256;  // d_in

struct Interactions {
  int d = 0;
  std::vector<double> raw;               // (d, d) before symmetrising
  std::vector<double> matrix;            // (d, d) sym(raw)
  std::vector<double> values;            // (d) eigenvalues of matrix, largest |λ| first
  std::vector<double> vectors;           // (d, d) row i: unit eigenvector of values[i]
  std::vector<double> exchanged_matrix;  // (d, d) sym(raw) of the Q ↔ K layer
  double raw_asymmetry = 0;              // ‖raw − rawᵀ‖_F / ‖raw‖_F: what sym() removes
  double exchange_gap = 0;               // ‖matrix − exchanged_matrix‖_F / ‖matrix‖_F
  bool exact = false;                    // x matrix xᵀ = u·f(x) (for every x, or at the given x)
  // At a given x only (0 without one): the read-out the matrix explains and the layer's own.
  double quadratic = 0;  // x matrix xᵀ in double
  double output = 0;     // u·f(x), f(x) the layer's float forward, summed in double
};

// ok when the layer has a Q factor and d_in ≤ max_interaction_dim.
Status validate_interactions(const Layer& layer);

// u: (d_out); x: (d_in) or null for the weight-based matrix. Precondition: validate_interactions.
Interactions interactions(const Layer& layer, const float* u, const float* x);

// Rounds the arrays to float32 into buffers of their sizes: matrix, raw, vectors and the exchanged
// matrix (d, d), values (d).
void copy_interactions(const Interactions& r, float* matrix, float* raw, float* values, float* vectors,
                       float* exchanged);

// x M xᵀ in double, M (d, d).
double quadratic_form(const std::vector<double>& m, const float* x, int d);

}  // namespace gatelab
