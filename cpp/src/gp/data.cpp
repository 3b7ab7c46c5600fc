// GP in-context regression data: sampling, the exact posterior by an incrementally grown
// Cholesky factor, the context-mean baseline, tokens, per-position errors and the leak
// guard. See gp_data.hpp for the design. Everything is in double with IEEE +, −, ×, ÷, sqrt
// and the libm-free exp, so a seed gives the same bits natively and in wasm.
#include "gatelab/gp/data.hpp"

#include <algorithm>
#include <cmath>

#include "base/fastmath.hpp"

namespace gatelab {

const char* gp_inputs_name(GpInputs v) { return v == GpInputs::normal ? "normal" : "uniform"; }

std::optional<GpInputs> parse_gp_inputs(std::string_view name) {
  return optional_from<GpInputs>([&](GpInputs& v) { return parse_gp_inputs(name, v); });
}

Status parse_gp_inputs(std::string_view name, GpInputs& out) {
  return parse_choice(name, "inputs", {GpInputs::uniform, GpInputs::normal}, gp_inputs_name, out);
}

Status gp_validate_count(int count) {
  if (count < 1 || count > gp_max_sample_count) {
    return out_of_range("count", "count must be an integer from 1 to " + std::to_string(gp_max_sample_count));
  }
  return {};
}

Status gp_validate_queries(const void* xq, int m) {
  if (m < 1 || m > gp_max_queries || xq == nullptr) {
    return out_of_range("xq", "xq must hold from 1 to " + std::to_string(gp_max_queries) + " queries");
  }
  return {};
}

Status gp_validate_context(const GpDataConfig& c, int context) {
  if (context < 0 || context > c.length)
    return out_of_range("context", "context must be an integer from 0 to " + std::to_string(c.length));
  return {};
}

Status validate(const GpDataConfig& c) {
  if (c.dx < 1 || c.dx > gp_max_dx)
    return out_of_range("dx", "dx must be in 1…" + std::to_string(gp_max_dx) + " (dx = " + std::to_string(c.dx) + ")");
  if (c.length < 1 || c.length > gp_max_length) {
    return out_of_range("length", "length must be in 1…" + std::to_string(gp_max_length) +
                                      " (length = " + std::to_string(c.length) + ")");
  }
  if (!(c.length_scale >= gp_min_scale && c.length_scale <= gp_max_scale))
    return out_of_range("length_scale", "length_scale must be in [0.001, 1000]");
  if (!(c.signal_var >= gp_min_scale && c.signal_var <= gp_max_scale))
    return out_of_range("signal_var", "signal_var must be in [0.001, 1000]");
  // σ > 0 keeps K + σ²I well conditioned for every draw of the inputs.
  if (!(c.noise_std >= gp_min_noise_std && c.noise_std <= gp_max_noise_std))
    return out_of_range("noise_std", "noise_std must be in [0.001, 10]");
  if (c.inputs != GpInputs::uniform && c.inputs != GpInputs::normal)
    return invalid_value("inputs", "inputs must be uniform or normal");
  return {};
}

double gp_kernel(const GpDataConfig& c, const double* a, const double* b) {
  double sq = 0;
  for (int k = 0; k < c.dx; ++k) sq += (a[k] - b[k]) * (a[k] - b[k]);
  return c.signal_var * portable_exp(-sq / (2.0 * c.length_scale * c.length_scale));
}

namespace {

// Lower-triangular factor grown one row at a time; row t holds L_t0 … L_tt.
struct GrowingCholesky {
  std::vector<double> rows;  // packed: row t starts at t(t+1)/2
  int size = 0;

  const double* row(int t) const { return rows.data() + std::size_t(t) * (t + 1) / 2; }
  // l = L⁻¹ v for the current factor (v has `size` entries).
  void solve(const double* v, double* l) const {
    for (int i = 0; i < size; ++i) {
      const double* r = row(i);
      double s = v[i];
      for (int j = 0; j < i; ++j) s -= r[j] * l[j];
      l[i] = s / r[i];
    }
  }
  // Appends the row [l, diag] (l has `size` entries).
  void append(const double* l, double diag) {
    rows.insert(rows.end(), l, l + size);
    rows.push_back(diag);
    ++size;
  }
};

double dot(const double* a, const double* b, int count) {
  double s = 0;
  for (int i = 0; i < count; ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

GpSequence gp_sample(const GpDataConfig& c, Pcg32& rng) {
  const int n = c.length, dx = c.dx;
  GpSequence s;
  s.x.resize(std::size_t(n) * dx);
  for (auto& v : s.x) v = c.inputs == GpInputs::uniform ? 2.0 * double(rng.uniform()) - 1.0 : rng.normal_double();
  // y = L z with L Lᵀ = K + σ²I, grown row by row (the same factor the posterior builds).
  const double noise_var = c.noise_std * c.noise_std;
  GrowingCholesky chol;
  std::vector<double> kcol(n), l(n), z(n);
  for (auto& v : z) v = rng.normal_double();
  s.y.assign(n, 0.0);
  for (int t = 0; t < n; ++t) {
    for (int j = 0; j < t; ++j) kcol[j] = gp_kernel(c, &s.x[std::size_t(j) * dx], &s.x[std::size_t(t) * dx]);
    chol.solve(kcol.data(), l.data());
    const double diag = std::sqrt(std::max(c.signal_var + noise_var - dot(l.data(), l.data(), t), 1e-12));
    chol.append(l.data(), diag);
    s.y[t] = dot(l.data(), z.data(), t) + diag * z[t];
  }
  return s;
}

std::vector<GpSequence> gp_sample_set(const GpDataConfig& c, int count, std::uint64_t seed, std::uint64_t stream) {
  Pcg32 rng(seed, stream);
  std::vector<GpSequence> out;
  out.reserve(std::max(count, 0));
  for (int i = 0; i < count; ++i) out.push_back(gp_sample(c, rng));
  return out;
}

GpPosterior gp_posterior(const GpDataConfig& c, const GpSequence& seq) {
  const int n = static_cast<int>(seq.y.size()), dx = c.dx;
  const double noise_var = c.noise_std * c.noise_std;
  GpPosterior p;
  p.mean.assign(n, 0.0);
  p.var.assign(n, 0.0);
  GrowingCholesky chol;
  std::vector<double> kcol(n), l(n), alpha(n);  // alpha = L⁻¹ y_{<t}
  for (int t = 0; t < n; ++t) {
    const double* xt = &seq.x[std::size_t(t) * dx];
    for (int j = 0; j < t; ++j) kcol[j] = gp_kernel(c, &seq.x[std::size_t(j) * dx], xt);
    chol.solve(kcol.data(), l.data());
    const double explained = dot(l.data(), l.data(), t);
    p.mean[t] = dot(l.data(), alpha.data(), t);
    p.var[t] = std::max(c.signal_var - explained, 0.0) + noise_var;
    const double diag = std::sqrt(std::max(c.signal_var + noise_var - explained, 1e-12));
    chol.append(l.data(), diag);
    alpha[t] = (seq.y[t] - p.mean[t]) / diag;
  }
  return p;
}

GpPosterior gp_posterior_at(const GpDataConfig& c, const GpSequence& seq, int context, const double* xq, int m) {
  const int dx = c.dx;
  const double noise_var = c.noise_std * c.noise_std;
  context = std::clamp(context, 0, static_cast<int>(seq.y.size()));
  GrowingCholesky chol;
  std::vector<double> kcol(context + 1), l(context + 1), alpha(context + 1);
  for (int t = 0; t < context; ++t) {
    const double* xt = &seq.x[std::size_t(t) * dx];
    for (int j = 0; j < t; ++j) kcol[j] = gp_kernel(c, &seq.x[std::size_t(j) * dx], xt);
    chol.solve(kcol.data(), l.data());
    const double mean = dot(l.data(), alpha.data(), t);
    const double diag = std::sqrt(std::max(c.signal_var + noise_var - dot(l.data(), l.data(), t), 1e-12));
    chol.append(l.data(), diag);
    alpha[t] = (seq.y[t] - mean) / diag;
  }
  GpPosterior p;
  p.mean.assign(std::max(m, 0), 0.0);
  p.var.assign(std::max(m, 0), 0.0);
  for (int q = 0; q < m; ++q) {
    for (int j = 0; j < context; ++j) kcol[j] = gp_kernel(c, &seq.x[std::size_t(j) * dx], xq + std::size_t(q) * dx);
    chol.solve(kcol.data(), l.data());
    p.mean[q] = dot(l.data(), alpha.data(), context);
    p.var[q] = std::max(c.signal_var - dot(l.data(), l.data(), context), 0.0) + noise_var;
  }
  return p;
}

std::vector<double> gp_context_mean(const GpSequence& seq) {
  std::vector<double> out(seq.y.size(), 0.0);
  double sum = 0;
  for (std::size_t t = 0; t < seq.y.size(); ++t) {
    out[t] = t == 0 ? 0.0 : sum / double(t);
    sum += seq.y[t];
  }
  return out;
}

int gp_token_width(const GpDataConfig& c) { return 2 * c.dx + 3; }

void gp_tokens(const GpDataConfig& c, const GpSequence& seq, float* out) {
  const int n = static_cast<int>(seq.y.size()), dx = c.dx, w = gp_token_width(c);
  for (int t = 0; t < n; ++t) {
    float* row = out + std::size_t(t) * w;
    for (int k = 0; k < dx; ++k) row[k] = static_cast<float>(seq.x[std::size_t(t) * dx + k]);
    for (int k = 0; k < dx; ++k) row[dx + k] = t == 0 ? 0.0f : static_cast<float>(seq.x[std::size_t(t - 1) * dx + k]);
    row[2 * dx] = t == 0 ? 0.0f : static_cast<float>(seq.y[t - 1]);
    row[2 * dx + 1] = t == 0 ? 0.0f : 1.0f;
    row[2 * dx + 2] = 1.0f;
  }
}

void GpErrors::add(const double* prediction, const std::vector<double>& y) {
  if (sum_sq.size() < y.size()) sum_sq.resize(y.size(), 0.0);
  for (std::size_t t = 0; t < y.size(); ++t) sum_sq[t] += (prediction[t] - y[t]) * (prediction[t] - y[t]);
  ++sequences;
}

std::vector<double> GpErrors::rmse_by_position() const {
  std::vector<double> out(sum_sq.size(), 0.0);
  for (std::size_t t = 0; t < sum_sq.size(); ++t) out[t] = sequences ? std::sqrt(sum_sq[t] / sequences) : 0.0;
  return out;
}

double GpErrors::rmse() const {
  double total = 0;
  for (double v : sum_sq) total += v;
  const double count = double(sequences) * double(sum_sq.size());
  return count > 0 ? std::sqrt(total / count) : 0.0;
}

GpLeakCheck gp_leak_check(const std::vector<std::vector<double>>& model_pred,
                          const std::vector<std::vector<double>>& posterior_mean, const std::vector<GpSequence>& seqs) {
  GpLeakCheck r;
  const std::size_t count = std::min({model_pred.size(), posterior_mean.size(), seqs.size()});
  if (count < 2) return r;
  std::vector<double> diffs(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto& y = seqs[i].y;
    double m = 0, g = 0;
    for (std::size_t t = 0; t < y.size(); ++t) {
      m += (model_pred[i][t] - y[t]) * (model_pred[i][t] - y[t]);
      g += (posterior_mean[i][t] - y[t]) * (posterior_mean[i][t] - y[t]);
    }
    m /= double(y.size());
    g /= double(y.size());
    r.model_mse += m / double(count);
    r.posterior_mse += g / double(count);
    diffs[i] = m - g;
  }
  r.diff_mean = r.model_mse - r.posterior_mse;
  double var = 0;
  for (double d : diffs) var += (d - r.diff_mean) * (d - r.diff_mean);
  var /= double(count - 1);
  r.diff_se = std::sqrt(var / double(count));
  r.z = r.diff_se > 0 ? r.diff_mean / r.diff_se : (r.diff_mean < 0 ? -1e9 : 0.0);
  return r;
}

}  // namespace gatelab
