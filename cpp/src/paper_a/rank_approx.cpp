// Rank-r truncation of the symmetric form (see rank_approx.hpp). Everything between the
// float factors and the float result runs in double: S_j, its spectrum, and √|λ|.
#include "gatelab/paper_a/rank_approx.hpp"

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

}  // namespace

std::string validate(const RankApproxOptions& o) {
  if (o.d_in < 1 || o.d_in > max_rank_approx_dim) {
    return "dIn must be an integer from 1 to " + std::to_string(max_rank_approx_dim);
  }
  if (o.inputs < 1 || o.inputs > max_rank_approx_inputs) {
    return "inputs must be an integer from 1 to " + std::to_string(max_rank_approx_inputs);
  }
  return validate(LayerConfig{LayerKind::symmetric, o.activation, o.d_in, o.hidden, o.d_out, o.d_in, o.seed});
}

Layer truncate_rank(const Layer& layer, int r, double* energy) {
  const LayerConfig& c = layer.config();
  const int d = c.d_in, m = c.hidden;
  LayerConfig rc = c;
  rc.rank = r;
  Layer out(rc);
  out.params().v = layer.params().v;
  double kept = 0, total = 0;
  for (int j = 0; j < m; ++j) {
    const std::vector<double> s = unit_score_matrix(layer.params(), j, c.rank, d);
    const SymmetricEigen e = symmetric_eigen(s.data(), d, EigenOrder::by_magnitude);
    float* q = out.params().q.data() + static_cast<std::size_t>(j) * r * d;
    float* k = out.params().k.data() + static_cast<std::size_t>(j) * r * d;
    for (int i = 0; i < d; ++i) {
      const double lambda = e.values[i];
      total += lambda * lambda;
      if (i >= r) continue;
      kept += lambda * lambda;
      const double root = std::sqrt(std::fabs(lambda)), sign = lambda < 0 ? -1.0 : 1.0;
      for (int b = 0; b < d; ++b) {
        q[i * d + b] = static_cast<float>(root * e.vectors[i * d + b]);
        k[i * d + b] = static_cast<float>(sign * root * e.vectors[i * d + b]);
      }
    }
  }
  if (energy) *energy = total > 0 ? kept / total : 1.0;
  return out;
}

std::vector<RankApproxRow> rank_approximation(const RankApproxOptions& o) {
  const Layer full(LayerConfig{LayerKind::symmetric, o.activation, o.d_in, o.hidden, o.d_out, o.d_in, o.seed});
  Pcg32 rng(o.seed ^ 0x4a9bu, 91);
  std::vector<float> x(static_cast<std::size_t>(o.inputs) * o.d_in);
  for (float& v : x) v = rng.normal();
  std::vector<float> reference(static_cast<std::size_t>(o.inputs) * o.d_out), approx(reference.size());
  full.forward(x.data(), o.inputs, reference.data());

  std::vector<RankApproxRow> rows;
  const double m = o.hidden, d = o.d_in, out_dim = o.d_out;
  for (int r = 1; r <= o.d_in; ++r) {
    RankApproxRow row;
    row.rank = r;
    const Layer approx_layer = truncate_rank(full, r, &row.energy);
    approx_layer.forward(x.data(), o.inputs, approx.data());
    row.error = relative_gap(reference.data(), approx.data(), reference.size());
    row.parameters = approx_layer.parameter_count();
    row.flops = 2 * (2 * m * r * d + m * r + m * out_dim) + m;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace gatelab
