// Interaction matrices (see interactions.hpp). All sums run in double; the only float step
// is ρ(z) = σ(z)/z from the activation catalogue, evaluated at the layer's own float z.
#include "gatelab/paper_a/interactions.hpp"

#include <cmath>

#include "base/round_out.hpp"
#include "gatelab/base/eigen.hpp"
#include "gatelab/paper_a/symmetry.hpp"

namespace gatelab {
namespace {

// z = x·w over d entries, in float as the layer computes it, for ρ's argument.
float dot(const float* x, const float* w, int d) {
  float s = 0.0f;
  for (int i = 0; i < d; ++i) s += x[i] * w[i];
  return s;
}

// raw (d, d) = Σ_j Σ_t c_jt q_jtᵀ k_jt with c_jt = (u·v_j) times the σ factor at x, if any.
std::vector<double> raw_matrix(const Layer& layer, const float* u, const float* x) {
  const LayerConfig& c = layer.config();
  const int d = c.d_in, r = c.rank;
  const LayerParams& p = layer.params();
  std::vector<double> raw(static_cast<std::size_t>(d) * d, 0.0);
  for (int j = 0; j < c.hidden; ++j) {
    double weight = 0.0;
    for (int o = 0; o < c.d_out; ++o) weight += static_cast<double>(u[o]) * p.v(j, o);
    const float* qj = p.q.data() + static_cast<std::size_t>(j) * r * d;
    const float* kj = p.k.data() + static_cast<std::size_t>(j) * r * d;
    double unit_factor = 1.0;
    if (x && c.kind == LayerKind::symmetric) {  // ρ of the unit's score x S_j xᵀ
      float score = 0.0f;
      for (int t = 0; t < r; ++t) score += dot(x, qj + t * d, d) * dot(x, kj + t * d, d);
      unit_factor = activation_ratio(c.activation, score);
    }
    for (int t = 0; t < r; ++t) {
      double ratio = unit_factor;  // gated: σ(a)/a; bigated: σ(a)σ(b)/(ab) (§A23)
      if (x && (c.kind == LayerKind::gated || c.kind == LayerKind::bigated))
        ratio = activation_ratio(c.activation, dot(x, qj + t * d, d));
      if (x && c.kind == LayerKind::bigated) ratio *= activation_ratio(c.activation, dot(x, kj + t * d, d));
      const double factor = weight * ratio;
      for (int a = 0; a < d; ++a) {
        const double qa = factor * qj[t * d + a];
        for (int b = 0; b < d; ++b) raw[a * d + b] += qa * kj[t * d + b];
      }
    }
  }
  return raw;
}

double frobenius_gap(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (a[i] - b[i]) * (a[i] - b[i]);
    norm += a[i] * a[i];
  }
  return norm > 0 ? std::sqrt(diff / norm) : (diff > 0 ? INFINITY : 0.0);
}

}  // namespace

Status validate_interactions(const Layer& layer) {
  if (layer.config().kind == LayerKind::mlp) {
    return unsupported(
        "", "interaction matrices need a layer with a Q factor ('symmetric' or 'gated'); this layer is 'mlp'");
  }
  if (layer.config().d_in > max_interaction_dim) {
    return out_of_range("", "interaction matrices need d_in <= " + std::to_string(max_interaction_dim));
  }
  return {};
}

Interactions interactions(const Layer& layer, const float* u, const float* x) {
  const int d = layer.config().d_in;
  Interactions out;
  out.d = d;
  out.raw = raw_matrix(layer, u, x);
  out.matrix.resize(out.raw.size());
  symmetrize(out.raw.data(), d, out.matrix.data());
  std::vector<double> transposed(out.raw.size());
  for (int a = 0; a < d; ++a) {
    for (int b = 0; b < d; ++b) transposed[a * d + b] = out.raw[b * d + a];
  }
  out.raw_asymmetry = frobenius_gap(out.raw, transposed);

  // The exchanged layer's matrix, computed from its own factors (not by transposing).
  const std::vector<double> swapped_raw = raw_matrix(layer.exchanged(), u, x);
  out.exchanged_matrix.resize(out.raw.size());
  symmetrize(swapped_raw.data(), d, out.exchanged_matrix.data());
  out.exchange_gap = frobenius_gap(out.matrix, out.exchanged_matrix);

  const SymmetricEigen e = symmetric_eigen(out.matrix.data(), d, EigenOrder::by_magnitude);
  out.values = e.values;
  out.vectors = e.vectors;
  out.exact = x != nullptr || layer.config().activation.kind == Activation::identity;
  if (x != nullptr) {
    out.quadratic = quadratic_form(out.matrix, x, d);
    std::vector<float> f(layer.config().d_out);
    layer.forward_unchecked(x, 1, f.data());
    for (int o = 0; o < layer.config().d_out; ++o) out.output += static_cast<double>(u[o]) * f[o];
  }
  return out;
}

void copy_interactions(const Interactions& r, float* matrix, float* raw, float* values, float* vectors,
                       float* exchanged) {
  round_out(r.matrix, matrix);
  round_out(r.raw, raw);
  round_out(r.values, values);
  round_out(r.vectors, vectors);
  round_out(r.exchanged_matrix, exchanged);
}

double quadratic_form(const std::vector<double>& m, const float* x, int d) {
  double sum = 0.0;
  for (int a = 0; a < d; ++a) {
    double row = 0.0;
    for (int b = 0; b < d; ++b) row += m[a * d + b] * x[b];
    sum += x[a] * row;
  }
  return sum;
}

}  // namespace gatelab
