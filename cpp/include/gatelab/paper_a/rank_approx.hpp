// Best rank-r approximations of a full bilinear attention MLP (docs/MATH.md §A3, §A6, §A18).
// Only the symmetric part S_j = sym(Q_jᵀK_j) of each unit's score matrix acts, and r pairs
// (q_t, k_t) reach exactly the symmetric matrices with at most r positive and at most r negative
// eigenvalues, since one pair carries one of each: q = a u + b w, k = a u − b w gives
// sym(qᵀk) = a² uᵀu − b² wᵀw. So the best rank-r S_j (Frobenius norm) keeps its r largest positive
// and its r most negative eigenvalues, and a layer is reproduced exactly from
// r* = max_j max(p_j, n_j) on (p_j, n_j: the counts of positive and negative eigenvalues of S_j),
// which lies in [⌈d/2⌉, d]. The older one-eigenvalue-per-pair truncation (r largest |λ|) stays as a
// comparison curve: it is a valid rank-r layer too, but wastes half of what each pair can carry.
// The table reports, per r, both output errors on random inputs, the parameter count and the
// FLOPs per token, which is what makes the full form impractical and rank 1 attractive.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstdint>
#include <string>
#include <vector>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

inline constexpr int max_rank_approx_dim = 64;  // d_in (one Jacobi of d × d per unit and order)
inline constexpr int max_rank_approx_inputs = 4096;

struct RankApproxOptions {
  ActivationSpec activation{Activation::relu, 1.0f};
  int d_in = 6, hidden = 4, d_out = 2;
  std::uint64_t seed = 1;
  int inputs = 256;  // random N(0, I) rows the error is measured on
};

enum class RankTruncation {
  best,          // per unit the r largest positive and r most negative eigenvalues, two per pair
  one_per_pair,  // per unit the r eigenvalues of largest |λ|, one per pair (the comparison curve)
};

struct RankApproxRow {
  int rank = 0;
  double error = 0;   // best: ‖f_r(X) − f(X)‖_F / ‖f(X)‖_F
  double energy = 0;  // best: Σ kept λ² / Σ λ² over all units = 1 − Σ‖S − S_r‖_F² / Σ‖S‖_F²
  double one_per_pair_error = 0;  // the same two numbers for the one-eigenvalue-per-pair truncation
  double one_per_pair_energy = 0;
  bool exact = false;          // rank ≥ r*: the best truncation reproduces every S_j
  std::size_t parameters = 0;  // m(2rd + d_out)
  double flops = 0;            // per token: 2(2mrd + mr + m·d_out) + m (one per activation)
};

Status validate(const RankApproxOptions& options);

// Relative size below which an eigenvalue of S_j counts as zero when counting its inertia:
// |λ| ≤ rank_zero_tolerance · max|λ(S_j)|. S_j is formed in double from float factors, so a
// structural zero comes out near 1e-16 of the largest eigenvalue.
inline constexpr double rank_zero_tolerance = 1e-12;

// r* = max_j max(p_j, n_j) of a symmetric layer: the least r at which the best rank-r
// truncation reproduces every S_j. At least 1 (also for S_j = 0).
int exact_rank(const Layer& layer);

// The rank-r truncation of a symmetric layer (1 ≤ r ≤ d_in): same V, factors from the
// truncated eigendecomposition of each S_j. energy (may be null) receives the kept fraction of Σ λ².
Layer truncate_rank(const Layer& layer, int r, RankTruncation how, double* energy = nullptr);

// Rows r = 1 … exact_rank(full) for a symmetric layer, the error measured on `inputs` N(0, I)
// rows from Pcg32(seed ⊕ 0x4a9b, 91). The last row is the first exact one.
std::vector<RankApproxRow> rank_approximation(const Layer& full, int inputs, std::uint64_t seed);

// The same for a random full layer (symmetric, rank d_in, Pcg32(seed)). Precondition: validate.
std::vector<RankApproxRow> rank_approximation(const RankApproxOptions& options);

// The rows as one table for a reader that takes flat numbers (the JS API): d_in slots of
// rank_approx_fields doubles (rank, error, parameters, flops, energy, one-per-pair error,
// one-per-pair energy, exact 0/1), rows r = 1 … r*, then zeros (rank 0 ends the rows).
inline constexpr int rank_approx_fields = 8;
std::vector<double> rank_approx_table(const std::vector<RankApproxRow>& rows, int d_in);

}  // namespace gatelab
