// Best rank-r approximations of a full bilinear attention MLP (MATH.md A3, A4; issue 4,
// figure 3). Only the symmetric part S_j = sym(Q_jᵀK_j) of each unit's score matrix matters,
// so the best rank-r S_j (in Frobenius norm, Eckart–Young) keeps its r eigenvalues of largest
// |λ|: S_j ≈ Σ_{i≤r} λ_i u_iᵀu_i, written back as factors q_i = √|λ_i| u_i and
// k_i = sign(λ_i) √|λ_i| u_i. r = 1 is the symmetric rank-1 form of A4. The table reports,
// per r, the relative output error on random inputs, the parameter count and the FLOPs per
// token, which is what makes the full form impractical and rank 1 attractive.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

inline constexpr int max_rank_approx_dim = 64;      // d_in (one Jacobi of d × d per unit and rank)
inline constexpr int max_rank_approx_inputs = 4096;

struct RankApproxOptions {
  ActivationSpec activation{Activation::relu, 1.0f};
  int d_in = 6, hidden = 4, d_out = 2;
  std::uint64_t seed = 1;
  int inputs = 256;  // random N(0, I) rows the error is measured on
};

struct RankApproxRow {
  int rank = 0;
  double error = 0;            // ‖f_r(X) − f(X)‖_F / ‖f(X)‖_F
  std::size_t parameters = 0;  // m(2rd + d_out)
  double flops = 0;            // per token: 2(2mrd + mr + m·d_out) + m (one per activation)
  double energy = 0;           // Σ kept λ² / Σ λ² over all units: 1 − (relative ‖S − S_r‖_F)²
};

std::string validate(const RankApproxOptions& options);

// The rank-r truncation of a symmetric layer (1 ≤ r ≤ d_in): same V, factors from the
// truncated eigendecomposition of each sym(Q_jᵀK_j). energy (may be null) receives the
// kept fraction of Σ λ².
Layer truncate_rank(const Layer& layer, int r, double* energy = nullptr);

// Rows r = 1 … d_in for a random full layer (symmetric, rank d_in). Precondition: validate.
std::vector<RankApproxRow> rank_approximation(const RankApproxOptions& options);

}  // namespace gatelab
