// The symmetry census of paper A (docs/MATH.md §A9, §A17). For a layer, the number of
// continuous parameter symmetries is the dimension of the null space of the Jacobian of its
// outputs with respect to its parameters over enough generic inputs. The census measures it
// (J row by row from the layer's backward, JᵀJ in double, Jacobi eigenvalues, a relative
// threshold, and the gap in the spectrum that makes the count unambiguous) and sets beside
// it the count the algebra predicts:
//   mlp        σ homogeneous of degree p (relu, leaky_relu, relu2): k_j → a k_j, v_j → v_j/aᵖ,
//              one per unit; identity: x KᵀV depends on KᵀV only (GL(m) when m ≤ d, d_out);
//              otherwise none.
//   symmetric  per unit, every (Q_j, K_j) with the same sym(Q_jᵀK_j): the split orthogonal
//              group O(r, r), dimension r(2r − 1) when 2r ≤ d (r = 1: the scaling q → aq,
//              k → k/a; it contains A9's GL(r) and r(r − 1) more), fewer when sym(QᵀK)
//              fills all symmetric matrices; +1 per unit (S_j → aS_j, v_j → v_j/aᵖ) for
//              homogeneous σ; identity: the quadratic forms Σ_j v_j ⊗ S_j.
//   gated      the key–value scaling k_j → c k_j, v_j → v_j/c (one per unit); homogeneous
//              σ adds q_jt → a q_jt, k_jt → k_jt/aᵖ (r per unit); identity = symmetric identity.
// The discrete exchange symmetry Q ↔ K holds for the symmetric form and for a gated form
// with linear σ only (A7); the census measures it too.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

inline constexpr std::size_t max_census_parameters = 256;  // Jacobi on P × P
inline constexpr int max_census_rows = 256;                // rows of the table
inline constexpr int max_census_inputs = 4096;             // inputs (0: automatic)

struct CensusOptions {
  // Paper A's three kinds; bigated (docs/MATH.md §A23) only when asked for.
  std::vector<LayerKind> kinds{LayerKind::mlp, LayerKind::symmetric, LayerKind::gated};
  std::vector<Activation> activations;  // empty: the whole catalogue
  std::vector<int> ranks{1};            // mlp rows ignore the rank (one row per activation)
  int d_in = 4, hidden = 3, d_out = 3;
  float beta = 1.0f;  // swish
  std::uint64_t seed = 1;
  int inputs = 0;            // 0: automatic, ⌈8P / d_out⌉ + 16 (see census_inputs)
  double threshold = 1e-12;  // eigenvalues of JᵀJ below threshold · λmax count as null
};

struct SymmetryPrediction {
  int count = 0;
  std::string explanation;
};

struct CensusRow {
  LayerConfig config;
  std::size_t parameters = 0;
  int inputs = 0;
  int jacobian_rank = 0;
  int measured = 0;  // parameters − rank(J)
  SymmetryPrediction predicted;
  double kept_min = 0;               // smallest eigenvalue counted as non-null, relative to λmax
  double dropped_max = 0;            // largest eigenvalue counted as null, relative to λmax (0 if none)
  double gap_decades = 0;            // log10(kept_min / dropped_max); +inf when nothing was dropped
  bool exchange_applicable = false;  // false for mlp (no Q)
  bool exchange_predicted = false;
  bool exchange_measured = false;  // exchange gap below 1e-5
  double exchange_gap = 0;
  std::vector<double> spectrum;  // eigenvalues of JᵀJ / λmax, descending
};

// The count the algebra predicts for a layer (see the table above).
SymmetryPrediction predicted_symmetries(const LayerConfig& config);

// ok or a status naming the field; beta and the list lengths are checked first.
Status validate(const CensusOptions& options);
// The lists of a census as comma-separated names and numbers ("mlp,gated", "relu,silu", "1,2"):
// kinds (unless empty) and ranks replace out's, activations are appended to out's. ok or a status
// naming the list and its first bad entry.
Status parse_census_lists(std::string_view kinds, std::string_view activations, std::string_view ranks,
                          CensusOptions& out);
// Inputs used when CensusOptions::inputs is 0: relu-family units see only part of the
// input space, so each needs many inputs in its active region for J to reach full rank.
int census_inputs(std::size_t parameters, int d_out);
// One row for a single layer config (precondition: validate(config), P ≤ cap).
CensusRow census_row(const LayerConfig& config, int inputs, double threshold);
// Precondition: validate(options) is ok.
std::vector<CensusRow> run_census(const CensusOptions& options);

}  // namespace gatelab
