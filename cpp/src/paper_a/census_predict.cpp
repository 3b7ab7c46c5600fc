// The algebra's side of the census (see census.hpp): the number of continuous symmetries
// of a generic layer, = parameters − dimension of the set of functions it can reach.
// Dimensions used: symmetric d×d matrices of rank ≤ t form a set of dimension
// t·d − t(t − 1)/2; sym(Q_jᵀK_j) with Q_j, K_j of rank r reaches rank t = min(2r, d).
#include <algorithm>
#include <string>

#include "gatelab/paper_a/census.hpp"

namespace gatelab {
namespace {

struct Sizes {
  int d, m, o, r;
  int t() const { return std::min(2 * r, d); }
  int sym_dim() const { return d * (d + 1) / 2; }                  // all symmetric d×d
  int reach_dim() const { return t() * d - t() * (t() - 1) / 2; }  // sym(QᵀK), Q, K: r×d
  int fiber() const { return 2 * r * d - reach_dim(); }            // per-unit (Q, K) freedom
  int parameters() const { return m * (2 * r * d + o); }
};

std::string n(int v) { return std::to_string(v); }

// Σ_j v_j ⊗ S_j with S_j in the reachable set: the quadratic forms of an identity layer.
SymmetryPrediction bilinear(const Sizes& s) {
  int image;
  std::string why;
  if (s.t() == s.d) {  // every symmetric matrix is reachable: a rank-≤ min(m, o, D) o × D matrix
    const int k = std::min({s.m, s.o, s.sym_dim()});
    image = k * (s.o + s.sym_dim() - k);
    why = "the output is x B_o xᵀ with (B_1..B_dOut) = Σ_j v_j ⊗ sym(Q_jᵀK_j), any symmetric S_j reachable: an o × " +
          n(s.sym_dim()) + " matrix of rank " + n(k) + " (dimension " + n(image) + ")";
  } else {
    image = std::min(s.o * s.sym_dim(), s.m * (s.o + s.reach_dim() - 1));
    why = "the output is Σ_j (x S_j xᵀ) v_j with S_j = sym(Q_jᵀK_j) of rank ≤ " + n(s.t()) + " (dimension " +
          n(s.reach_dim()) + "): per unit " + n(s.fiber()) + " (Q_j, K_j) directions plus the S_j ↔ v_j scaling";
  }
  return {s.parameters() - image, why};
}

std::string fiber_text(const Sizes& s) {
  if (s.r == 1) return "per unit the scaling q → a·q, k → k/a (sym(qᵀk) fixed)";
  if (2 * s.r <= s.d) {
    return "per unit the split orthogonal group O(" + n(s.r) + ", " + n(s.r) + ") of dimension " + n(s.fiber()) +
           " acting on [Q_j; K_j] (it contains GL(" + n(s.r) + "), dimension " + n(s.r * s.r) + ")";
  }
  return "per unit " + n(s.fiber()) +
         " (Q_j, K_j) directions that keep sym(Q_jᵀK_j), which already reaches every symmetric matrix";
}

}  // namespace

SymmetryPrediction predicted_symmetries(const LayerConfig& c) {
  const Activation a = c.activation.kind;
  const auto degree = homogeneity_degree(a);
  const std::string p = degree ? n(*degree) : "";
  if (c.kind == LayerKind::mlp) {
    const Sizes s{c.d_in, c.hidden, c.d_out, 1};
    if (is_linear(a)) {
      const int k = std::min({s.m, s.d, s.o});
      return {s.m * (s.d + s.o) - k * (s.d + s.o - k),
              "x KᵀV depends on the product KᵀV only: GL(m) mixing of the units, minus what the rank-" + n(k) +
                  " product can absorb"};
    }
    if (degree) return {s.m, "per unit k → a·k, v → v/a^" + p + " (σ positively homogeneous of degree " + p + ")"};
    return {0, "none: σ is not homogeneous, so every parameter direction changes the function"};
  }
  const Sizes s{c.d_in, c.hidden, c.d_out, c.rank};
  if (is_linear(a)) return bilinear(s);
  if (c.kind == LayerKind::symmetric) {
    const int per_unit = s.fiber() + (degree ? 1 : 0);
    std::string why = fiber_text(s);
    if (degree) why += "; plus S_j → a·S_j, v_j → v_j/a^" + p + " (σ homogeneous of degree " + p + ")";
    return {s.m * per_unit, why};
  }
  if (c.kind == LayerKind::bigated) {  // §A23
    if (degree) {
      return {s.m * (1 + s.r), "per (unit, rank) q → a·q, k → b·k, and per unit v → v/c with (ab)^" + p +
                                   " = c common to the unit's pairs (σ homogeneous of degree " + p + ")"};
    }
    return {0, "none: both factors pass through σ, which is not homogeneous, so no scaling survives"};
  }
  if (degree) {
    return {s.m * (1 + s.r), "per unit the key–value scaling k → c·k, v → v/c, and per (unit, rank) q → a·q, k → k/a^" +
                                 p + " (σ homogeneous of degree " + p + ")"};
  }
  return {s.m, "per unit the key–value scaling k_j → c·k_j, v_j → v_j/c only (K enters linearly)"};
}

}  // namespace gatelab
