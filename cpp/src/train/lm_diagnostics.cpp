// LmSession diagnostics of the MLP slot (docs/MATH.md §A12, §A14): the antisymmetric share of
// a gated MLP's coefficients, the trained layer's exchange gap, the per-unit ‖q‖² − ‖k‖²
// balance and its drift, and where σ's argument lies — all on the MLP inputs of real windows.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "gatelab/paper_a/ntk.hpp"
#include "gatelab/paper_a/symmetry.hpp"
#include "gatelab/train/lm.hpp"

namespace gatelab {
namespace {

constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();

// ‖(1 − λ)A‖_F and ‖S + (1 − λ)A‖_F of the gated layer on rows of x, added to the sums.
void add_share_terms(const Layer& layer, const float* x, int rows, double& a2, double& c2) {
  const LayerConfig& c = layer.config();
  const int d = c.d_in, m = c.hidden, r = c.rank;
  const double keep = 1.0 - c.symmetrize;
  const auto& q = layer.params().q;
  const auto& k = layer.params().k;
  for (int i = 0; i < rows; ++i) {
    const float* xi = x + std::size_t(i) * d;
    for (int j = 0; j < m; ++j) {
      double s = 0, a = 0;
      for (int t = 0; t < r; ++t) {
        const std::size_t f = std::size_t(j) * r + t;
        double qa = 0, kb = 0;
        for (int e = 0; e < d; ++e) {
          qa += double(xi[e]) * q.data()[f * d + e];
          kb += double(xi[e]) * k.data()[f * d + e];
        }
        const double ga = activation_value(c.activation, float(qa)), gb = activation_value(c.activation, float(kb));
        s += 0.5 * (ga * kb + gb * qa);
        a += 0.5 * (ga * kb - gb * qa);
      }
      a2 += keep * a * keep * a;
      c2 += (s + keep * a) * (s + keep * a);
    }
  }
}

// σ's argument for every (token, unit[, pair]): x·qᵀ (gated), Σ_t (x·qᵀ)(x·kᵀ) (symmetric),
// x·kᵀ (mlp).
void add_preactivations(const Layer& layer, const float* x, int rows, std::vector<double>& out) {
  const LayerConfig& c = layer.config();
  const int d = c.d_in, m = c.hidden, r = c.kind == LayerKind::mlp ? 1 : c.rank;
  const auto& q = layer.params().q;
  const auto& k = layer.params().k;
  for (int i = 0; i < rows; ++i) {
    const float* xi = x + std::size_t(i) * d;
    for (int j = 0; j < m; ++j) {
      double sym = 0;
      for (int t = 0; t < r; ++t) {
        const std::size_t f = std::size_t(j) * r + t;
        double qa = 0, kb = 0;
        for (int e = 0; e < d; ++e) {
          kb += double(xi[e]) * k.data()[f * d + e];
          if (c.kind != LayerKind::mlp) qa += double(xi[e]) * q.data()[f * d + e];
        }
        if (c.kind == LayerKind::gated || c.kind == LayerKind::bigated) out.push_back(qa);
        if (c.kind == LayerKind::mlp) out.push_back(kb);
        sym += qa * kb;
      }
      if (c.kind == LayerKind::symmetric) out.push_back(sym);
    }
  }
}

}  // namespace

std::vector<double> LmSession::qk_balances() {
  std::vector<double> out;
  for (int l = 0; l < config_.model.layers; ++l) {
    const Layer* mlp = model_.std_mlp(l);
    if (mlp == nullptr || mlp->config().kind == LayerKind::mlp) {
      out.push_back(nan_value);
      continue;
    }
    const auto& q = mlp->params().q;
    const auto& k = mlp->params().k;
    double sum = 0;
    for (std::size_t i = 0; i < q.size(); ++i)
      sum += double(q.data()[i]) * q.data()[i] - double(k.data()[i]) * k.data()[i];
    out.push_back(sum / double(mlp->config().hidden));
  }
  return out;
}

Status LmSession::diagnostics(CorpusSplit split, int windows, std::vector<LmBlockDiagnostics>& out) {
  if (!error_.ok()) return error_;
  const auto& text = corpus_->split(split);
  const std::vector<std::size_t> starts = evaluation_windows(text.size(), config_.context, windows);
  if (starts.empty()) return invalid_value("", std::string("the ") + corpus_split_name(split) + " split is too short");
  const int layers = config_.model.layers;
  std::vector<double> a2(layers, 0), c2(layers, 0), gap_sum(layers, 0);
  std::vector<std::vector<double>> pre(layers);
  int batches = 0;
  for (std::size_t first = 0; first < starts.size(); first += config_.batch, ++batches) {
    const int count = static_cast<int>(std::min<std::size_t>(config_.batch, starts.size() - first));
    if (Status e = forward_windows(text, starts.data() + first, count); !e.ok()) return e;
    const int rows = model_.cached_rows();
    for (int l = 0; l < layers; ++l) {
      const Layer* mlp = model_.std_mlp(l);
      if (mlp == nullptr) continue;
      const float* x = model_.mlp_input(l);
      if (mlp->config().kind == LayerKind::gated) add_share_terms(*mlp, x, rows, a2[l], c2[l]);
      if (mlp->config().kind != LayerKind::mlp) gap_sum[l] += exchange_gap(*mlp, x, rows);
      add_preactivations(*mlp, x, rows, pre[l]);
    }
  }
  const std::vector<double> balance = qk_balances();
  out.assign(layers, {});
  for (int l = 0; l < layers; ++l) {
    LmBlockDiagnostics& d = out[l];
    const Layer* mlp = model_.std_mlp(l);
    const LayerKind kind = mlp ? mlp->config().kind : LayerKind::mlp;
    d.antisymmetric_share = mlp && kind == LayerKind::gated && c2[l] > 0 ? std::sqrt(a2[l] / c2[l]) : nan_value;
    d.exchange_gap = mlp && kind != LayerKind::mlp ? gap_sum[l] / batches : nan_value;
    d.qk_balance = balance[l];
    d.qk_drift = balance[l] - initial_qk_[l];
    std::vector<double>& v = pre[l];
    std::sort(v.begin(), v.end());
    const double quantiles[5] = {0.05, 0.25, 0.5, 0.75, 0.95};
    for (int p = 0; p < 5; ++p) {
      d.preactivation_quantiles[p] = v.empty() ? nan_value : v[std::size_t(quantiles[p] * double(v.size() - 1))];
    }
  }
  return {};
}

Status LmSession::mlp_conditioning(CorpusSplit split, int tokens, std::vector<double>& out) {
  if (!error_.ok()) return error_;
  const int d = config_.model.d, c = config_.context;
  if (tokens < 1 || tokens > config_.batch || tokens * d > max_ntk_outputs) {
    return out_of_range("tokens", "tokens must be from 1 to " +
                                      std::to_string(std::min(config_.batch, max_ntk_outputs / d)) + " (tokens · d ≤ " +
                                      std::to_string(max_ntk_outputs) + ", at most the batch)");
  }
  const auto& text = corpus_->split(split);
  const std::vector<std::size_t> starts = evaluation_windows(text.size(), c, tokens);
  if (static_cast<int>(starts.size()) < tokens) {
    return invalid_value("", std::string("the ") + corpus_split_name(split) + " split is too short");
  }
  if (Status e = forward_windows(text, starts.data(), tokens); !e.ok()) return e;
  out.assign(config_.model.layers, nan_value);
  std::vector<float> x(std::size_t(tokens) * d);
  for (int l = 0; l < config_.model.layers; ++l) {
    const Layer* mlp = model_.std_mlp(l);
    if (mlp == nullptr) continue;
    // The window's last position has seen the whole context; row w·C + p of the cache is position p of window w.
    for (int w = 0; w < tokens; ++w) {
      const float* row = model_.mlp_input(l) + (std::size_t(w) * c + (c - 1)) * d;
      std::copy(row, row + d, x.begin() + std::size_t(w) * d);
    }
    // The LM's MLP (6d² parameters) is above the JS API's max_ntk_parameters, a cap on the browser's
    // memory; natively J is tokens · d · 6d² floats (25 MB at d = 64), so the rows check is the one kept.
    if (Status e = validate_rows(tokens, mlp->max_rows()); !e.ok()) return e;
    out[l] = neural_tangent_kernel(*mlp, x.data(), tokens).condition_number;
  }
  return {};
}

Status lm_diagnostics_flat(LmSession& session, CorpusSplit split, int windows, std::vector<double>& out) {
  std::vector<LmBlockDiagnostics> blocks;
  Status e = session.diagnostics(split, windows, blocks);
  out.clear();
  for (const auto& b : blocks) {
    out.insert(out.end(), {b.antisymmetric_share, b.exchange_gap, b.qk_balance, b.qk_drift});
    out.insert(out.end(), std::begin(b.preactivation_quantiles), std::end(b.preactivation_quantiles));
  }
  return e;
}

}  // namespace gatelab
