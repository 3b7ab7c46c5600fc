// CEM attention (docs/MATH.md §B2, §B4–§B6): config validation, initialisation, the T-step
// forward and its iterates, and the energy and its gradient in double (the backward is in
// attention_backward.cpp). Per step and head k, on all positions at once (rows = tokens):
//   Q_k = Y W_Q^kᵀ (n×d_h), K_k = h W_K^kᵀ (n×d_h, once), S_k = Q_k K_kᵀ + (Y⊙d_k) hᵀ (n×n),
//   α_k = causal softmax(β S_k), G = Σ_k (α_k K_k) W_Q^k + d_k ⊙ (α_k h)   (G = −∇ε, n×d),
//   Y ← Y + η G P.
// A shared diagonal's terms are formed once per step: (Y⊙d) hᵀ and d ⊙ ((Σ_k α_k) h).
// Row i of every product depends on rows ≤ i only (masked α is exactly 0), so later tokens
// never change earlier outputs.
#include "gatelab/cem/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cem/math.hpp"

namespace gatelab {

using namespace cem_detail;

Status validate(const CemAttentionConfig& c) {
  auto num = [](double x) { return std::to_string(x); };
  if (Status e = cem_validate_heads(c.d, c.heads); !e.ok()) return e;
  if (Status e = cem_validate_descent(c.steps, c.eta); !e.ok()) return e;
  if (!(c.beta >= 0.0f && c.beta <= cem_max_beta)) {
    return out_of_range("beta",
                        "beta must be 0 (auto) or in (0, " + num(cem_max_beta) + "] (beta = " + num(c.beta) + ")");
  }
  const int diag = static_cast<int>(c.diagonal);
  if (diag < 0 || diag > 2) return invalid_value("diagonal", "diagonal must be none, per_head or shared");
  return cem_precond_validate(c.precond, c.precond_rank, c.d);
}

double cem_effective_beta(const CemAttentionConfig& c) {
  if (c.beta > 0.0f) return c.beta;
  return 1.0 / std::sqrt(static_cast<double>(c.d / std::max(c.heads, 1)));
}

template <class S>
CemAttentionT<S>::CemAttentionT(const CemAttentionConfig& config) : config_(config), error_(validate(config)) {
  if (!error_.ok()) return;
  const std::size_t d = config.d, heads = config.heads;
  dh_ = config.d / config.heads;
  beta_ = static_cast<S>(cem_effective_beta(config));
  Pcg32 rng(config.seed);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  params_.wq = xt::xtensor<S, 2>::from_shape({d, d});
  params_.wk = xt::xtensor<S, 2>::from_shape({d, d});
  for (auto& x : params_.wq) x = static_cast<S>(rng.normal_double() * scale);
  for (auto& x : params_.wk) x = static_cast<S>(rng.normal_double() * scale);
  const std::size_t diag_rows =
      config.diagonal == CemDiagonal::none ? 0 : (config.diagonal == CemDiagonal::shared ? 1 : heads);
  params_.diag = xt::zeros<S>({diag_rows, d});
  params_.precond = cem_precond_init<S>(config.precond, config.d, config.precond_rank, rng);
  grads_.wq = xt::zeros<S>({d, d});
  grads_.wk = xt::zeros<S>({d, d});
  grads_.diag = xt::zeros<S>({diag_rows, d});
  grads_.precond = cem_precond_zeros<S>(config.precond, config.d, config.precond_rank);
  cem_eta_init(config.learn_eta, config.eta, params_.theta, grads_.theta);
}

template <class S>
S CemAttentionT<S>::step_size() const {
  return cem_step_size(params_.theta, config_.eta);
}

template <class S>
Status CemAttentionT<S>::set_steps(int steps) {
  if (!error_.ok()) return error_;
  if (Status e = cem_validate_descent(steps, config_.eta); !e.ok()) return e;
  config_.steps = steps;
  return {};
}

template <class S>
void CemAttentionT<S>::zero_grad() {
  grads_.wq.fill(0);
  grads_.wk.fill(0);
  grads_.diag.fill(0);
  grads_.theta.fill(0);
  cem_precond_zero_grad(grads_.precond);
}

template <class S>
std::vector<ParamView<S>> CemAttentionT<S>::parameters() {
  std::vector<ParamView<S>> out;
  if (!error_.ok()) return out;
  const int rows = static_cast<int>(params_.wq.shape(0)), d = config_.d;
  out.push_back({"wq", params_.wq.data(), grads_.wq.data(), params_.wq.size(), rows, d});
  out.push_back({"wk", params_.wk.data(), grads_.wk.data(), params_.wk.size(), rows, d});
  if (params_.diag.size() > 0) {
    out.push_back({"diag", params_.diag.data(), grads_.diag.data(), params_.diag.size(),
                   static_cast<int>(params_.diag.shape(0)), d});
  }
  cem_precond_views(config_.precond, params_.precond, grads_.precond, "precond.", out);
  if (params_.theta.size() > 0) cem_eta_view(params_.theta.data(), grads_.theta.data(), out);
  return out;
}

template <class S>
std::size_t CemAttentionT<S>::parameter_count() const {
  return count_parameters(const_cast<CemAttentionT*>(this)->parameters());
}

template <class S>
Status CemAttentionT<S>::check(int n, const void* in, const void* out) const {
  if (!error_.ok()) return error_;
  return cem_check_call(n, in, out);
}

template <class S>
const S* CemAttentionT<S>::head_diag(int k) const {
  if (config_.diagonal == CemDiagonal::none) return nullptr;
  return params_.diag.data() + (config_.diagonal == CemDiagonal::shared ? 0 : std::size_t(k) * config_.d);
}

// Per step, before the heads: with a shared diagonal, yd = Y ⊙ d and the score term
// (Y ⊙ d) hᵀ common to all heads, and alpha_sum = 0.
template <class S>
void CemAttentionT<S>::prepare_step(const S* h, const S* y, int n, Trajectory& tr) const {
  if (config_.diagonal != CemDiagonal::shared) return;
  const int d = config_.d;
  const S* dk = head_diag(0);
  for (std::size_t e = 0; e < std::size_t(n) * d; ++e) tr.yd[e] = y[e] * dk[e % d];
  mm_nt(tr.yd.data(), h, tr.shared_scores.data(), n, d, n);
  std::fill(tr.alpha_sum.begin(), tr.alpha_sum.end(), S(0));
}

// Head k: tr.q = Y W_Q^kᵀ (n×d_h), tr.alpha = causal softmax of β(Q_k K_kᵀ + (Y⊙d_k) hᵀ)
// (n×n); with a per-head diagonal also tr.yd = Y ⊙ d_k.
template <class S>
void CemAttentionT<S>::head_alpha(int k, const S* h, const S* y, int n, Trajectory& tr) const {
  const int d = config_.d;
  const S* keys = tr.keys.data() + std::size_t(k) * n * dh_;
  mm_nt(y, params_.wq.data() + std::size_t(k) * dh_ * d, tr.q.data(), n, d, dh_);
  mm_nt(tr.q.data(), keys, tr.alpha.data(), n, dh_, n);
  if (config_.diagonal == CemDiagonal::per_head) {
    const S* dk = head_diag(k);
    for (std::size_t e = 0; e < std::size_t(n) * d; ++e) tr.yd[e] = y[e] * dk[e % d];
    mm_nt(tr.yd.data(), h, tr.alpha.data(), n, d, n, true);
  } else if (config_.diagonal == CemDiagonal::shared) {
    for (std::size_t e = 0; e < std::size_t(n) * n; ++e) tr.alpha[e] += tr.shared_scores[e];
  }
  causal_softmax(tr.alpha.data(), n, beta_);
}

// g (n×d) = −∇ε at every row of y: Σ_k (α_k K_k) W_Q^k + d_k ⊙ (α_k h).
template <class S>
void CemAttentionT<S>::step_update(const S* h, const S* y, int n, Trajectory& tr, S* g) const {
  const int d = config_.d;
  const std::size_t nd = std::size_t(n) * d;
  std::fill(g, g + nd, S(0));
  prepare_step(h, y, n, tr);
  for (int k = 0; k < config_.heads; ++k) {
    head_alpha(k, h, y, n, tr);
    mm_nn(tr.alpha.data(), tr.keys.data() + std::size_t(k) * n * dh_, tr.v.data(), n, n, dh_);
    mm_nn(tr.v.data(), params_.wq.data() + std::size_t(k) * dh_ * d, g, n, dh_, d, true);
    if (config_.diagonal == CemDiagonal::per_head) {
      mm_nn(tr.alpha.data(), h, tr.c.data(), n, n, d);
      const S* dk = head_diag(k);
      for (std::size_t e = 0; e < nd; ++e) g[e] += dk[e % d] * tr.c[e];
    } else if (config_.diagonal == CemDiagonal::shared) {
      for (std::size_t e = 0; e < std::size_t(n) * n; ++e) tr.alpha_sum[e] += tr.alpha[e];
    }
  }
  if (config_.diagonal == CemDiagonal::shared) {  // Σ_k d ⊙ (α_k h) = d ⊙ ((Σ_k α_k) h)
    mm_nn(tr.alpha_sum.data(), h, tr.c.data(), n, n, d);
    const S* dk = head_diag(0);
    for (std::size_t e = 0; e < nd; ++e) g[e] += dk[e % d] * tr.c[e];
  }
}

template <class S>
void CemAttentionT<S>::run_forward(const S* h, int n, Trajectory& tr) const {
  const int d = config_.d, steps = config_.steps;
  const std::size_t nd = std::size_t(n) * d, nn = std::size_t(n) * n;
  tr.keys.resize(std::size_t(config_.heads) * n * dh_);
  for (int k = 0; k < config_.heads; ++k) {
    mm_nt(h, params_.wk.data() + std::size_t(k) * dh_ * d, tr.keys.data() + std::size_t(k) * n * dh_, n, d, dh_);
  }
  tr.q.resize(std::size_t(n) * dh_);
  tr.v.resize(std::size_t(n) * dh_);
  tr.alpha.resize(nn);
  tr.c.resize(nd);
  tr.yd.resize(nd);
  if (config_.diagonal == CemDiagonal::shared) {
    tr.shared_scores.resize(nn);
    tr.alpha_sum.resize(nn);
  }
  tr.ys.resize((steps + 1) * nd);
  std::copy(h, h + nd, tr.ys.begin());
  std::vector<S> g(nd), pg(nd);
  const S eta = step_size();
  for (int t = 0; t < steps; ++t) {
    const S* y = tr.ys.data() + t * nd;
    S* next = tr.ys.data() + (t + 1) * nd;
    step_update(h, y, n, tr, g.data());
    cem_precond_apply(config_.precond, params_.precond, g.data(), n, d, pg.data());
    for (std::size_t e = 0; e < nd; ++e) next[e] = y[e] + eta * pg[e];
  }
}

template <class S>
Status CemAttentionT<S>::forward(const S* h, int n, S* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  Trajectory tr;
  run_forward(h, n, tr);
  const std::size_t nd = std::size_t(n) * config_.d;
  std::copy(tr.ys.end() - nd, tr.ys.end(), out);
  return {};
}

template <class S>
std::vector<double> CemAttentionT<S>::keys_double(const S* h, int n) const {
  const int d = config_.d, heads = config_.heads;
  std::vector<double> keys(std::size_t(heads) * n * dh_);
  for (int k = 0; k < heads; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int a = 0; a < dh_; ++a) {
        const S* w = params_.wk.data() + (std::size_t(k) * dh_ + a) * d;
        double sum = 0;
        for (int c = 0; c < d; ++c) sum += static_cast<double>(w[c]) * h[std::size_t(j) * d + c];
        keys[(std::size_t(k) * n + j) * dh_ + a] = sum;
      }
    }
  }
  return keys;
}

// The gradient reuses the scores: ∇ε = −Σ_k Σ_j α_kj (W_Q^kᵀ key_kj + d_k ⊙ h_j), α_k the
// softmax of β s_k (docs/MATH.md §B2, §B4); the energy's own arithmetic is the same with or
// without it.
template <class S>
double CemAttentionT<S>::energy_with_keys(const std::vector<double>& keys, const S* h, int i, const S* y,
                                          double* grad) const {
  const int d = config_.d, heads = config_.heads;
  const std::size_t n = keys.size() / (std::size_t(heads) * dh_);
  const double beta = static_cast<double>(beta_);
  std::vector<double> q(dh_), s(i + 1), read(grad != nullptr ? dh_ : 0);
  if (grad != nullptr) std::fill(grad, grad + d, 0.0);
  double total = 0;
  for (int k = 0; k < heads; ++k) {
    for (int a = 0; a < dh_; ++a) {
      const S* w = params_.wq.data() + (std::size_t(k) * dh_ + a) * d;
      double sum = 0;
      for (int c = 0; c < d; ++c) sum += static_cast<double>(w[c]) * y[c];
      q[a] = sum;
    }
    const S* dk = head_diag(k);
    double top = -std::numeric_limits<double>::infinity();
    for (int j = 0; j <= i; ++j) {
      const double* key = keys.data() + (std::size_t(k) * n + j) * dh_;
      double score = 0;
      for (int a = 0; a < dh_; ++a) score += q[a] * key[a];
      if (dk != nullptr) {
        for (int c = 0; c < d; ++c) score += static_cast<double>(dk[c]) * y[c] * h[std::size_t(j) * d + c];
      }
      s[j] = beta * score;
      top = std::max(top, s[j]);
    }
    double sum = 0;
    for (int j = 0; j <= i; ++j) {
      s[j] = cem_detail::exp(s[j] - top);
      sum += s[j];
    }
    total += top + cem_detail::log(sum);
    if (grad != nullptr) add_head_gradient(k, keys, h, i, n, s, sum, read, grad);
  }
  return -total / beta;
}

// grad −= Σ_j α_j (W_Q^kᵀ key_kj + d_k ⊙ h_j) with α_j = w[j] / sum; read (d_h) is scratch.
template <class S>
void CemAttentionT<S>::add_head_gradient(int k, const std::vector<double>& keys, const S* h, int i, std::size_t n,
                                         const std::vector<double>& w, double sum, std::vector<double>& read,
                                         double* grad) const {
  const int d = config_.d;
  std::fill(read.begin(), read.end(), 0.0);
  const S* dk = head_diag(k);
  for (int j = 0; j <= i; ++j) {
    const double alpha = w[j] / sum;
    const double* key = keys.data() + (std::size_t(k) * n + j) * dh_;
    for (int a = 0; a < dh_; ++a) read[a] += alpha * key[a];
    if (dk != nullptr) {
      for (int c = 0; c < d; ++c) grad[c] -= alpha * static_cast<double>(dk[c]) * h[std::size_t(j) * d + c];
    }
  }
  for (int a = 0; a < dh_; ++a) {
    const S* wq = params_.wq.data() + (std::size_t(k) * dh_ + a) * d;
    for (int c = 0; c < d; ++c) grad[c] -= static_cast<double>(wq[c]) * read[a];
  }
}

template <class S>
Status CemAttentionT<S>::energy(const S* h, int n, int i, const S* y, double* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  if (y == nullptr) return invalid_value("y", "y must not be null");
  if (i < 0 || i >= n)
    return out_of_range("i", "i must be in 0…n−1 (i = " + std::to_string(i) + ", n = " + std::to_string(n) + ")");
  *out = energy_with_keys(keys_double(h, i + 1), h, i, y);
  return {};
}

template <class S>
Status CemAttentionT<S>::energy_gradient(const S* h, int n, int i, const S* y, double* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  if (y == nullptr) return invalid_value("y", "y must not be null");
  if (i < 0 || i >= n)
    return out_of_range("i", "i must be in 0…n−1 (i = " + std::to_string(i) + ", n = " + std::to_string(n) + ")");
  energy_with_keys(keys_double(h, i + 1), h, i, y, out);
  return {};
}

template <class S>
Status CemAttentionT<S>::energy_trace(const S* h, int n, double* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  Trajectory tr;
  run_forward(h, n, tr);
  const std::vector<double> keys = keys_double(h, n);
  const int steps = config_.steps, d = config_.d;
  for (int i = 0; i < n; ++i) {
    for (int t = 0; t <= steps; ++t) {
      const S* y = tr.ys.data() + (std::size_t(t) * n + i) * d;
      out[std::size_t(i) * (steps + 1) + t] = energy_with_keys(keys, h, i, y);
    }
  }
  return {};
}

template <class S>
Status CemAttentionT<S>::attention_entropy(const S* h, int n, double* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  Trajectory tr;
  run_forward(h, n, tr);
  const int steps = config_.steps;
  const std::size_t nd = std::size_t(n) * config_.d;
  std::fill(out, out + std::size_t(n) * steps, 0.0);
  for (int t = 0; t < steps; ++t) {
    const S* y = tr.ys.data() + t * nd;
    prepare_step(h, y, n, tr);
    for (int k = 0; k < config_.heads; ++k) {
      head_alpha(k, h, y, n, tr);  // α of head k at step t, as the forward used it
      for (int i = 0; i < n; ++i) {
        double entropy = 0;
        for (int j = 0; j <= i; ++j) {
          const double a = static_cast<double>(tr.alpha[std::size_t(i) * n + j]);
          if (a > 0) entropy -= a * cem_detail::log(a);
        }
        out[std::size_t(i) * steps + t] += entropy / config_.heads;
      }
    }
  }
  return {};
}

template <class S>
Status CemAttentionT<S>::trajectory(const S* h, int n, S* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  if (Status e = cem_check_trajectory(n, config_.d, config_.steps); !e.ok()) return e;
  Trajectory tr;
  run_forward(h, n, tr);
  std::copy(tr.ys.begin(), tr.ys.end(), out);
  return {};
}

template <class S>
Status CemAttentionT<S>::precond_min_eigenvalue(double* out) const {
  return cem_precond_min_eigenvalue_checked(error_, config_.precond, params_.precond, config_.d, out);
}

template <class S>
Status CemAttentionT<S>::precond_dense(double* out) const {
  return cem_precond_dense_checked(error_, config_.precond, params_.precond, config_.d, out);
}

template <class S>
Status CemAttentionT<S>::precond_spectrum(double* out) const {
  return cem_precond_spectrum_checked(error_, config_.precond, params_.precond, config_.d, out);
}

template class CemAttentionT<float>;
template class CemAttentionT<double>;

}  // namespace gatelab
