// The untied causal multi-head attention of the standard baselines (baselines.hpp), forward and
// backward. Work is arranged for few, large matrix products: the projections x·W_{Q,K,V}ᵀ and
// O·W_Oᵀ, the weight gradients and dL/dx run over all rows of all sequences in one product
// each; only the scores and their backward (n × n per sequence and head) run per sequence and
// head. Every product keeps the bits of the per-sequence, per-head products it replaces: each
// output element of the matrix kernels starts at 0 (or its old value) and adds its products in
// increasing k (base/matmul.hpp), so joining rows (one product over all sequences), joining
// columns (all heads at once) and joining the k ranges of consecutive accumulating products
// (dL/dx: one product over [dq_0 dk_0 dv_0 dq_1 …] · [W_Q,0; W_K,0; W_V,0; W_Q,1; …]) change
// no sum. The forward keeps what the backward needs, so nothing is computed twice.
#include "gatelab/model/baselines.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cem/math.hpp"

namespace gatelab {

using namespace cem_detail;

namespace {

// Attention weights kept from forward to backward up to this many floats (16 MB); beyond it
// backward recomputes each sequence and head's weights from the kept q and k (same bits).
constexpr std::size_t kMaxKeptAlpha = std::size_t(1) << 22;

template <class S>
void ensure(std::vector<S>& buffer, std::size_t n) {
  if (buffer.size() < n) buffer.resize(n);
}

// Copies one head's row of d_h values. For the usual widths the size is a constant, which
// compilers turn into a few vector moves; a call to memcpy per 32-byte row cost ~5 % of a
// figure-sized step in wasm.
template <class S>
inline void copy_row(const S* src, int dh, S* dst) {
  switch (dh) {
    case 4: std::memcpy(dst, src, 4 * sizeof(S)); return;
    case 8: std::memcpy(dst, src, 8 * sizeof(S)); return;
    case 16: std::memcpy(dst, src, 16 * sizeof(S)); return;
    case 32: std::memcpy(dst, src, 32 * sizeof(S)); return;
    default: std::copy_n(src, dh, dst);
  }
}

// (rows, d) with head h in columns h·d_h … ↔ (heads, rows, d_h).
template <class S>
void to_heads(const S* in, int rows, int heads, int dh, S* out) {
  for (int h = 0; h < heads; ++h) {
    S* dst = out + std::size_t(h) * rows * dh;
    for (int r = 0; r < rows; ++r) copy_row(in + (std::size_t(r) * heads + h) * dh, dh, dst + std::size_t(r) * dh);
  }
}
template <class S>
void from_heads(const S* in, int rows, int heads, int dh, S* out) {
  for (int h = 0; h < heads; ++h) {
    const S* src = in + std::size_t(h) * rows * dh;
    for (int r = 0; r < rows; ++r) copy_row(src + std::size_t(r) * dh, dh, out + (std::size_t(r) * heads + h) * dh);
  }
}

}  // namespace

Status validate(const CemStdAttentionConfig& c) {
  if (Status e = cem_validate_heads(c.d, c.heads); !e.ok()) return e;
  if (!(c.beta >= 0.0f && c.beta <= cem_max_beta)) {
    return out_of_range("beta", "beta must be 0 (auto) or in (0, " + std::to_string(cem_max_beta) +
                                    "] (beta = " + std::to_string(c.beta) + ")");
  }
  return {};
}

template <class S>
static void fill_normal(xt::xtensor<S, 2>& t, std::size_t rows, std::size_t cols, double scale, Pcg32& rng) {
  t = xt::xtensor<S, 2>::from_shape({rows, cols});
  for (auto& x : t) x = static_cast<S>(rng.normal_double() * scale);
}

template <class S>
CemStdAttentionT<S>::CemStdAttentionT(const CemStdAttentionConfig& config) : config_(config), error_(validate(config)) {
  if (!error_.ok()) return;
  const std::size_t d = config.d;
  dh_ = config.d / config.heads;
  beta_ = static_cast<S>(config.beta > 0.0f ? double(config.beta) : 1.0 / std::sqrt(double(dh_)));
  Pcg32 rng(config.seed);
  const double scale = 1.0 / std::sqrt(double(d));
  for (auto* t : {&params_.wq, &params_.wk, &params_.wv, &params_.wo}) fill_normal(*t, d, d, scale, rng);
  for (auto* t : {&grads_.wq, &grads_.wk, &grads_.wv, &grads_.wo}) *t = xt::zeros<S>({d, d});
}

template <class S>
void CemStdAttentionT<S>::zero_grad() {
  for (auto* t : {&grads_.wq, &grads_.wk, &grads_.wv, &grads_.wo}) t->fill(0);
}

template <class S>
std::vector<ParamView<S>> CemStdAttentionT<S>::parameters() {
  if (!error_.ok()) return {};
  const int d = config_.d;
  const std::size_t size = std::size_t(d) * d;
  return {{"wq", params_.wq.data(), grads_.wq.data(), size, d, d},
          {"wk", params_.wk.data(), grads_.wk.data(), size, d, d},
          {"wv", params_.wv.data(), grads_.wv.data(), size, d, d},
          {"wo", params_.wo.data(), grads_.wo.data(), size, d, d}};
}

template <class S>
std::size_t CemStdAttentionT<S>::parameter_count() const {
  return error_.ok() ? 4 * std::size_t(config_.d) * config_.d : 0;
}

// Fills the cache for x and writes out = concat_h(α_h V_h) W_Oᵀ (out may be null: cache only).
// The sequences and heads are problems p = h·sequences + b of the batched causal products.
template <class S>
void CemStdAttentionT<S>::forward_into(Cache& c, const S* x, int n, int sequences, S* out) const {
  const int d = config_.d, heads = config_.heads, dh = dh_, rows = n * sequences, problems = heads * sequences;
  const std::size_t rd = std::size_t(rows) * d, nn = std::size_t(n) * n;
  c.x = x;
  c.n = n;
  c.sequences = sequences;
  c.alpha_kept = std::size_t(problems) * nn <= kMaxKeptAlpha;
  for (auto* b : {&c.q, &c.k, &c.v, &c.o, &c.rows_d}) ensure(*b, rd);
  ensure(c.alpha, c.alpha_kept ? std::size_t(problems) * nn : nn);
  const std::pair<const xt::xtensor<S, 2>*, std::vector<S>*> projections[] = {
      {&params_.wq, &c.q}, {&params_.wk, &c.k}, {&params_.wv, &c.v}};
  for (const auto& [w, dst] : projections) {  // (rows, d) = x Wᵀ, then per head
    mm_nt(x, w->data(), c.rows_d.data(), rows, d, d);
    to_heads(c.rows_d.data(), rows, heads, dh, dst->data());
  }
  // All problems at once when their weights are kept, else one at a time (same bits).
  const int batch = c.alpha_kept ? problems : 1;
  for (int p = 0; p < problems; p += batch) {
    const std::size_t at = std::size_t(p) * n * dh;
    S* alpha = c.alpha.data() + (c.alpha_kept ? std::size_t(p) * nn : 0);
    causal_scores(c.q.data() + at, c.k.data() + at, alpha, batch, n, dh);
    for (int q = 0; q < batch; ++q) causal_softmax(alpha + q * nn, n, beta_);
    causal_apply(alpha, c.v.data() + at, c.rows_d.data() + at, batch, n, dh);  // the heads' outputs
  }
  from_heads(c.rows_d.data(), rows, heads, dh, c.o.data());
  if (out != nullptr) mm_nt(c.o.data(), params_.wo.data(), out, rows, d, d);  // out = O W_Oᵀ
}

// Adds dL/dθ to grads_ and writes dL/dx (when not null) from the cache of x's forward.
template <class S>
void CemStdAttentionT<S>::backward_from(Cache& c, const S* x, const S* grad_out, S* grad_x) {
  const int d = config_.d, heads = config_.heads, dh = dh_, n = c.n, sequences = c.sequences, rows = n * sequences;
  const int problems = heads * sequences, batch = c.alpha_kept ? problems : 1;
  const std::size_t rd = std::size_t(rows) * d, nn = std::size_t(n) * n;
  for (auto* b : {&c.dq, &c.dk, &c.dv, &c.head}) ensure(*b, rd);
  ensure(c.scores, c.alpha_kept ? std::size_t(problems) * nn : 2 * nn);
  mm_tn(grad_out, c.o.data(), grads_.wo.data(), d, rows, d, true);  // dW_O += doutᵀ O
  mm_nn(grad_out, params_.wo.data(), c.rows_d.data(), rows, d, d);  // dO = dout W_O
  to_heads(c.rows_d.data(), rows, heads, dh, c.head.data());
  for (int p = 0; p < problems; p += batch) {
    const std::size_t at = std::size_t(p) * n * dh;
    const S *q = c.q.data() + at, *k = c.k.data() + at, *v = c.v.data() + at, *dout = c.head.data() + at;
    S* dalpha = c.scores.data();
    const S* alpha = c.alpha_kept ? c.alpha.data() + std::size_t(p) * nn : c.scores.data() + nn;
    if (!c.alpha_kept) {  // the forward's weights again, from the kept q and k
      causal_scores(q, k, c.scores.data() + nn, 1, n, dh);
      causal_softmax(c.scores.data() + nn, n, beta_);
    }
    causal_apply_transposed(alpha, dout, c.dv.data() + at, batch, n, dh);  // dV = αᵀ dO
    causal_scores(dout, v, dalpha, batch, n, dh);                          // dα = dO Vᵀ
    for (int b = 0; b < batch; ++b) causal_softmax_backward(alpha + b * nn, dalpha + b * nn, n, beta_);  // dS
    causal_apply(dalpha, k, c.dq.data() + at, batch, n, dh);                                             // dQ = dS K
    causal_apply_transposed(dalpha, q, c.dk.data() + at, batch, n, dh);                                  // dK = dSᵀ Q
  }
  const std::pair<std::vector<S>*, xt::xtensor<S, 2>*> grads[] = {
      {&c.dq, &grads_.wq}, {&c.dk, &grads_.wk}, {&c.dv, &grads_.wv}};
  for (const auto& [from, grad] : grads) {  // dW += dXᵀ x over all rows, X = Q, K, V
    from_heads(from->data(), rows, heads, dh, c.rows_d.data());
    mm_tn(c.rows_d.data(), x, grad->data(), d, rows, d, true);
  }
  if (grad_x == nullptr) return;
  // dx = Σ_h dq_h W_Q,h + dk_h W_K,h + dv_h W_V,h, in that order, as one product.
  ensure(c.stacked, 3 * rd);
  ensure(c.w_stacked, 3 * std::size_t(d) * d);
  for (int h = 0; h < heads; ++h) {
    const std::vector<S>* parts[] = {&c.dq, &c.dk, &c.dv};
    const xt::xtensor<S, 2>* weights[] = {&params_.wq, &params_.wk, &params_.wv};
    for (int j = 0; j < 3; ++j) {
      const S* src = parts[j]->data() + std::size_t(h) * rows * dh;
      for (int r = 0; r < rows; ++r) {
        copy_row(src + std::size_t(r) * dh, dh, c.stacked.data() + std::size_t(r) * 3 * d + (3 * h + j) * dh);
      }
      std::copy_n(weights[j]->data() + std::size_t(h) * dh * d, std::size_t(dh) * d,
                  c.w_stacked.data() + std::size_t(3 * h + j) * dh * d);
    }
  }
  mm_nn(c.stacked.data(), c.w_stacked.data(), grad_x, rows, 3 * d, d);
}

template <class S>
Status CemStdAttentionT<S>::forward(const S* x, int n, S* out) const {
  if (!error_.ok()) return error_;
  if (Status e = cem_check_call(n, x, out); !e.ok()) return e;
  Cache cache;
  forward_into(cache, x, n, 1, out);
  return {};
}

template <class S>
Status CemStdAttentionT<S>::backward(const S* x, int n, const S* grad_out, S* grad_x, bool accumulate) {
  if (!error_.ok()) return error_;
  if (Status e = cem_check_call(n, x, grad_out); !e.ok()) return e;
  if (!accumulate) zero_grad();
  Cache cache;
  forward_into(cache, x, n, 1, nullptr);
  backward_from(cache, x, grad_out, grad_x);
  return {};
}

template <class S>
Status CemStdAttentionT<S>::forward_sequences(const S* x, int n, int sequences, S* out) {
  if (!error_.ok()) return error_;
  if (Status e = cem_check_call(n, x, out); !e.ok()) return e;
  if (sequences < 1) return invalid_value("sequences", "sequences must be at least 1");
  forward_into(cache_, x, n, sequences, out);
  return {};
}

template <class S>
Status CemStdAttentionT<S>::backward_sequences(const S* x, int n, int sequences, const S* grad_out, S* grad_x) {
  if (!error_.ok()) return error_;
  if (Status e = cem_check_call(n, x, grad_out); !e.ok()) return e;
  if (sequences < 1) return invalid_value("sequences", "sequences must be at least 1");
  if (cache_.x != x || cache_.n != n || cache_.sequences != sequences) forward_into(cache_, x, n, sequences, nullptr);
  backward_from(cache_, x, grad_out, grad_x);
  return {};
}

template class CemStdAttentionT<float>;
template class CemStdAttentionT<double>;

}  // namespace gatelab
