// Rank-r truncations of the symmetric form (see rank_approx.hpp; docs/MATH.md §A6). Everything
// between the float factors and the float result runs in double: S_j, its spectrum, the square
// roots and the factor combinations a·u ± b·w.
#include "gatelab/paper_a/rank_approx.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gatelab/base/eigen.hpp"
#include "gatelab/base/rng.hpp"
#include "gatelab/paper_a/symmetry.hpp"

namespace gatelab {
namespace {

// S (d, d) = sym(Q_jᵀ K_j) for unit j; Q_j, K_j are (r, d) slices of the layer's factors.
std::vector<double> unit_score_matrix(const LayerParams& p, int j, int r, int d) {
  std::vector<double> a(static_cast<std::size_t>(d) * d, 0.0), s(a.size());
  const float* q = p.q.data() + static_cast<std::size_t>(j) * r * d;
  const float* k = p.k.data() + static_cast<std::size_t>(j) * r * d;
  for (int t = 0; t < r; ++t) {
    for (int a_row = 0; a_row < d; ++a_row) {
      for (int b = 0; b < d; ++b) a[a_row * d + b] += static_cast<double>(q[t * d + a_row]) * k[t * d + b];
    }
  }
  symmetrize(a.data(), d, s.data());
  return s;
}

// Every unit's eigendecomposition of S_j, eigenvalues in the given order.
std::vector<SymmetricEigen> unit_spectra(const Layer& layer, EigenOrder order) {
  const LayerConfig& c = layer.config();
  std::vector<SymmetricEigen> out;
  out.reserve(c.hidden);
  for (int j = 0; j < c.hidden; ++j) {
    const std::vector<double> s = unit_score_matrix(layer.params(), j, c.rank, c.d_in);
    out.push_back(symmetric_eigen(s.data(), c.d_in, order));
  }
  return out;
}

// max(p, n) of one spectrum, eigenvalues within rank_zero_tolerance of the largest |λ| counting as 0.
int unit_exact_rank(const std::vector<double>& values) {
  double largest = 0;
  for (double v : values) largest = std::max(largest, std::fabs(v));
  const double zero = rank_zero_tolerance * largest;
  int positive = 0, negative = 0;
  for (double v : values) {
    if (v > zero) ++positive;
    if (v < -zero) ++negative;
  }
  return std::max(positive, negative);
}

// Pair (q, k) of d floats with sym(qᵀk) = plus·uᵀu + minus·wᵀw for orthonormal rows u, w,
// plus ≥ 0 ≥ minus: q = a u + b w, k = a u − b w with a = √plus, b = √(−minus).
void write_pair(float* q, float* k, int d, double plus, const double* u, double minus, const double* w) {
  const double a = std::sqrt(plus), b = std::sqrt(-minus);
  for (int i = 0; i < d; ++i) {
    const double au = u ? a * u[i] : 0.0, bw = w ? b * w[i] : 0.0;
    q[i] = static_cast<float>(au + bw);
    k[i] = static_cast<float>(au - bw);
  }
}

// The rank-r layer from precomputed spectra: descending order for best, by |λ| for one_per_pair.
Layer truncate_from(const Layer& layer, const std::vector<SymmetricEigen>& spectra, int r, RankTruncation how,
                    double* energy) {
  const LayerConfig& c = layer.config();
  const int d = c.d_in;
  LayerConfig rc = c;
  rc.rank = r;
  Layer out(rc);
  out.params().v = layer.params().v;
  double kept = 0, total = 0;
  for (int j = 0; j < c.hidden; ++j) {
    const SymmetricEigen& e = spectra[j];
    float* q = out.params().q.data() + static_cast<std::size_t>(j) * r * d;
    float* k = out.params().k.data() + static_cast<std::size_t>(j) * r * d;
    for (double lambda : e.values) total += lambda * lambda;
    for (int t = 0; t < r; ++t) {
      const double* vec_plus = nullptr;
      const double* vec_minus = nullptr;
      double plus = 0, minus = 0;
      if (how == RankTruncation::one_per_pair) {
        // One eigenvalue per pair: q = √|λ| u, k = sign(λ) √|λ| u.
        const double lambda = e.values[t];
        (lambda < 0 ? minus : plus) = lambda;
        (lambda < 0 ? vec_minus : vec_plus) = e.vectors.data() + static_cast<std::size_t>(t) * d;
      } else {
        // The t-th largest positive and the t-th most negative eigenvalue. Index t can only be
        // positive and index d−1−t only negative, so no eigenvalue is used twice when 2r > d.
        const int top = t, bottom = d - 1 - t;
        if (e.values[top] > 0) {
          plus = e.values[top];
          vec_plus = e.vectors.data() + static_cast<std::size_t>(top) * d;
        }
        if (e.values[bottom] < 0) {
          minus = e.values[bottom];
          vec_minus = e.vectors.data() + static_cast<std::size_t>(bottom) * d;
        }
      }
      kept += plus * plus + minus * minus;
      write_pair(q + static_cast<std::size_t>(t) * d, k + static_cast<std::size_t>(t) * d, d, plus, vec_plus, minus,
                 vec_minus);
    }
  }
  if (energy) *energy = total > 0 ? kept / total : 1.0;
  return out;
}

int exact_rank_from(const std::vector<SymmetricEigen>& spectra) {
  int r = 1;
  for (const SymmetricEigen& e : spectra) r = std::max(r, unit_exact_rank(e.values));
  return r;
}

// f(x) on all rows, in chunks the layer accepts (each output row is computed alone).
void forward_rows(const Layer& layer, const std::vector<float>& x, int rows, std::vector<float>& out) {
  const int d = layer.config().d_in, o = layer.config().d_out, chunk = std::max(1, layer.max_rows());
  for (int start = 0; start < rows; start += chunk) {
    const int n = std::min(chunk, rows - start);
    layer.forward_unchecked(x.data() + static_cast<std::size_t>(start) * d, n,
                            out.data() + static_cast<std::size_t>(start) * o);
  }
}

}  // namespace

Status validate(const RankApproxOptions& o) {
  if (o.d_in < 1 || o.d_in > max_rank_approx_dim) {
    return out_of_range("d_in", "d_in must be an integer from 1 to " + std::to_string(max_rank_approx_dim));
  }
  if (o.inputs < 1 || o.inputs > max_rank_approx_inputs) {
    return out_of_range("inputs", "inputs must be an integer from 1 to " + std::to_string(max_rank_approx_inputs));
  }
  return validate(LayerConfig{LayerKind::symmetric, o.activation, o.d_in, o.hidden, o.d_out, o.d_in, o.seed});
}

int exact_rank(const Layer& layer) { return exact_rank_from(unit_spectra(layer, EigenOrder::descending)); }

Layer truncate_rank(const Layer& layer, int r, RankTruncation how, double* energy) {
  const EigenOrder order = how == RankTruncation::best ? EigenOrder::descending : EigenOrder::by_magnitude;
  return truncate_from(layer, unit_spectra(layer, order), r, how, energy);
}

std::vector<RankApproxRow> rank_approximation(const Layer& full, int inputs, std::uint64_t seed) {
  const LayerConfig& c = full.config();
  Pcg32 rng(seed ^ 0x4a9bu, 91);
  std::vector<float> x(static_cast<std::size_t>(inputs) * c.d_in);
  for (float& v : x) v = rng.normal();
  std::vector<float> reference(static_cast<std::size_t>(inputs) * c.d_out), approx(reference.size());
  forward_rows(full, x, inputs, reference);

  const std::vector<SymmetricEigen> by_value = unit_spectra(full, EigenOrder::descending);
  const std::vector<SymmetricEigen> by_magnitude = unit_spectra(full, EigenOrder::by_magnitude);
  const int r_star = exact_rank_from(by_value);
  std::vector<RankApproxRow> rows;
  const double m = c.hidden, d = c.d_in, out_dim = c.d_out;
  for (int r = 1; r <= r_star; ++r) {
    RankApproxRow row;
    row.rank = r;
    row.exact = r >= r_star;
    const Layer best = truncate_from(full, by_value, r, RankTruncation::best, &row.energy);
    forward_rows(best, x, inputs, approx);
    row.error = relative_gap(reference.data(), approx.data(), reference.size());
    const Layer single = truncate_from(full, by_magnitude, r, RankTruncation::one_per_pair, &row.one_per_pair_energy);
    forward_rows(single, x, inputs, approx);
    row.one_per_pair_error = relative_gap(reference.data(), approx.data(), reference.size());
    row.parameters = best.parameter_count();
    row.flops = 2 * (2 * m * r * d + m * r + m * out_dim) + m;
    rows.push_back(row);
  }
  return rows;
}

std::vector<RankApproxRow> rank_approximation(const RankApproxOptions& o) {
  const Layer full(LayerConfig{LayerKind::symmetric, o.activation, o.d_in, o.hidden, o.d_out, o.d_in, o.seed});
  return rank_approximation(full, o.inputs, o.seed);
}

std::vector<double> rank_approx_table(const std::vector<RankApproxRow>& rows, int d_in) {
  std::vector<double> table;
  for (const RankApproxRow& r : rows) {
    table.insert(table.end(), {double(r.rank), r.error, double(r.parameters), r.flops, r.energy, r.one_per_pair_error,
                               r.one_per_pair_energy, r.exact ? 1.0 : 0.0});
  }
  table.resize(std::size_t(rank_approx_fields) * d_in, 0.0);  // exactly the reader's d_in slots
  return table;
}

}  // namespace gatelab
