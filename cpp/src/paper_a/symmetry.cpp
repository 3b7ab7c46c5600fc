// Symmetry probes (see symmetry.hpp). Gaps compare two forward passes of the same batch;
// norms accumulate in double so a gap of 1e-7 is a measurement, not rounding of the norm.
#include "gatelab/paper_a/symmetry.hpp"

#include <cmath>
#include <vector>

#include "gatelab/base/matmul.hpp"
#include "gatelab/base/rng.hpp"

namespace gatelab {
namespace {

std::vector<float> run(const Layer& layer, const float* x, int rows) {
  std::vector<float> out(static_cast<std::size_t>(rows) * layer.config().d_out);
  layer.forward_unchecked(x, rows, out.data());
  return out;
}

}  // namespace

Status validate_symmetry_probe(const Layer& layer, int rows) {
  if (layer.config().kind == LayerKind::mlp) {
    return unsupported("", "the 'mlp' kind has no Q factor, so it has no exchange or scaling symmetry to probe");
  }
  return validate_rows(rows, layer.max_rows());
}

Status validate_curve(float lo, float hi, int n) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
    return not_finite("", "min and max must be finite with min < max");
  if (n < 2 || n > max_curve_points)
    return out_of_range("n", "n must be an integer from 2 to " + std::to_string(max_curve_points));
  return {};
}

Status validate_activation_curve(int activation, float lo, float hi, int n) {
  if (activation < 0 || activation >= activation_count)
    return invalid_value("activation", "unknown activation index " + std::to_string(activation));
  return validate_curve(lo, hi, n);
}

double relative_gap(const float* a, const float* b, std::size_t n) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(a[i]) - static_cast<double>(b[i]);
    diff += d * d;
    norm += static_cast<double>(a[i]) * static_cast<double>(a[i]);
  }
  if (norm == 0.0) return diff == 0.0 ? 0.0 : INFINITY;
  return std::sqrt(diff / norm);
}

double exchange_gap(const Layer& layer, const float* x, int rows) {
  const std::vector<float> base = run(layer, x, rows);
  const std::vector<float> swapped = run(layer.exchanged(), x, rows);
  return relative_gap(base.data(), swapped.data(), base.size());
}

double scaling_gap(const Layer& layer, const float* x, int rows, float alpha) {
  const std::vector<float> base = run(layer, x, rows);
  const std::vector<float> scaled = run(layer.rescaled(alpha), x, rows);
  return relative_gap(base.data(), scaled.data(), base.size());
}

double scaling_gap_per_unit(const Layer& layer, const float* x, int rows, const float* alphas) {
  const std::vector<float> base = run(layer, x, rows);
  const std::vector<float> scaled = run(layer.rescaled_per_unit(alphas), x, rows);
  return relative_gap(base.data(), scaled.data(), base.size());
}

Status validate_exchange_plane(int activation, float lo, float hi, int n, float symmetrize) {
  if (Status e = validate_activation_curve(activation, lo, hi, n); !e.ok()) return e;
  return validate_symmetrize(symmetrize);
}

void exchange_plane(ActivationSpec s, float lo, float hi, int n, float* out, float symmetrize) {
  std::vector<float> axis(n), sigma(n);
  const float step = n > 1 ? (hi - lo) / static_cast<float>(n - 1) : 0.0f;
  for (int i = 0; i < n; ++i) axis[i] = lo + step * static_cast<float>(i);
  activation_forward(s, axis.data(), sigma.data(), n);
  if (symmetrize == 0.0f) {
    // λ = 0 is the gated unit: g itself, bit for bit as before the dial existed.
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) out[i * n + j] = sigma[i] * axis[j] - sigma[j] * axis[i];
    }
    return;
  }
  // c_λ(a, b) = w₁·(σ(a)·b) + w₂·(σ(b)·a) with the layer's weights and grouping (layer_forward.cpp), so
  // the plane is what the layer's own swap changes; at w₁ = w₂ = ½ both sums add the same two products.
  const float w2 = symmetrize / 2.0f, w1 = 1.0f - w2;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const float ab = sigma[i] * axis[j], ba = sigma[j] * axis[i];
      out[i * n + j] = (w1 * ab + w2 * ba) - (w1 * ba + w2 * ab);
    }
  }
}

float activation_ratio(ActivationSpec s, float z) {
  if (z != 0.0f) return activation_value(s, z) / z;
  // At 0 the ratio has the limit σ'(0) only when σ(0) = 0; otherwise σ(z)/z has a pole there.
  return activation_value(s, 0.0f) == 0.0f ? activation_derivative(s, 0.0f) : NAN;
}

void activation_curve(ActivationSpec s, float lo, float hi, int n, float* z, float* value, float* derivative,
                      float* ratio) {
  const float step = (hi - lo) / static_cast<float>(n - 1);
  for (int i = 0; i < n; ++i) z[i] = lo + step * static_cast<float>(i);
  activation_forward(s, z, value, n);
  activation_backward(s, z, derivative, n);
  for (int i = 0; i < n; ++i) ratio[i] = z[i] == 0.0f ? activation_ratio(s, 0.0f) : value[i] / z[i];
}

HomogeneityEstimate estimate_homogeneity(ActivationSpec s, std::uint64_t seed, int samples) {
  // For each sample with σ(z) and σ(αz) of the same non-zero sign, log|σ(αz)/σ(z)| = p·log α.
  Pcg32 rng(seed);
  std::vector<double> log_alpha, log_ratio;
  for (int i = 0; i < samples; ++i) {
    const float z = rng.uniform(-4.0f, 4.0f);
    const float alpha = rng.uniform(0.25f, 4.0f);
    const double base = activation_value(s, z), scaled = activation_value(s, alpha * z);
    if (base == 0.0 || scaled == 0.0 || (base > 0) != (scaled > 0)) continue;
    log_alpha.push_back(portable_log(alpha));
    log_ratio.push_back(portable_log(scaled / base));
  }
  HomogeneityEstimate est;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < log_alpha.size(); ++i) {
    sxx += log_alpha[i] * log_alpha[i];
    sxy += log_alpha[i] * log_ratio[i];
    syy += log_ratio[i] * log_ratio[i];
  }
  if (sxx == 0.0) return est;
  est.degree = sxy / sxx;
  double res = 0;
  for (std::size_t i = 0; i < log_alpha.size(); ++i) {
    const double e = log_ratio[i] - est.degree * log_alpha[i];
    res += e * e;
  }
  est.residual = syy > 0 ? std::sqrt(res / syy) : 0.0;
  return est;
}

void forward_with_global_query(const Layer& mlp, const float* w_q, const float* x, int rows, float* out) {
  // (x W_Q) is a new batch of tokens fed to the plain mlp.
  const int d = mlp.config().d_in;
  std::vector<float> queried(static_cast<std::size_t>(rows) * d);
  matmul_nn(x, w_q, queried.data(), rows, d, d);
  mlp.forward_unchecked(queried.data(), rows, out);
}

Layer absorb_global_query(const Layer& mlp, const float* w_q) {
  // K' (m, d) = K (m, d) · W_Qᵀ, since (x W_Q) Kᵀ = x (K W_Qᵀ)ᵀ.
  Layer out(mlp);
  const int d = mlp.config().d_in, m = mlp.config().hidden;
  matmul_nt(mlp.params().k.data(), w_q, out.params().k.data(), m, d, d);
  return out;
}

}  // namespace gatelab
