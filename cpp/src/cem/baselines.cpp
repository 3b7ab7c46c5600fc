// The standard baselines of the CEM experiments: RMSNorm and untied causal multi-head
// attention, each with its backward next to its forward. See baselines.hpp.
#include "gatelab/cem/baselines.hpp"

#include <algorithm>
#include <cmath>

#include "cem/math.hpp"

namespace gatelab {

using namespace cem_detail;

template <class S>
void cem_rmsnorm_forward(const S* x, const S* gain, int n, int d, S eps, S* y, S* inv_rms) {
  for (int i = 0; i < n; ++i) {
    const S* xr = x + std::size_t(i) * d;
    S sum = 0;
    for (int c = 0; c < d; ++c) sum += xr[c] * xr[c];
    const S r = S(1) / std::sqrt(sum / S(d) + eps);  // sqrt is correctly rounded everywhere
    inv_rms[i] = r;
    for (int c = 0; c < d; ++c) y[std::size_t(i) * d + c] = xr[c] * r * gain[c];
  }
}

template <class S>
void cem_rmsnorm_backward(const S* x, const S* gain, const S* inv_rms, const S* dy, int n, int d, S* dx, S* dgain) {
  // y_c = x_c r g_c, r = (mean(x²) + ε)^(−1/2): dx_c = r g_c dy_c − r³ x_c Σ_k g_k dy_k x_k / d.
  for (int i = 0; i < n; ++i) {
    const S* xr = x + std::size_t(i) * d;
    const S* g = dy + std::size_t(i) * d;
    const S r = inv_rms[i];
    S dot = 0;
    for (int c = 0; c < d; ++c) dot += gain[c] * g[c] * xr[c];
    const S coef = r * r * r * dot / S(d);
    for (int c = 0; c < d; ++c) {
      dx[std::size_t(i) * d + c] = r * gain[c] * g[c] - coef * xr[c];
      dgain[c] += g[c] * xr[c] * r;
    }
  }
}

std::string validate(const CemStdAttentionConfig& c) {
  if (std::string e = cem_validate_heads(c.d, c.heads); !e.empty()) return e;
  if (!(c.beta >= 0.0f && c.beta <= cem_max_beta)) {
    return "beta must be 0 (auto) or in (0, " + std::to_string(cem_max_beta) + "] (beta = " + std::to_string(c.beta) + ")";
  }
  return "";
}

template <class S>
static void fill_normal(xt::xtensor<S, 2>& t, std::size_t rows, std::size_t cols, double scale, Pcg32& rng) {
  t = xt::xtensor<S, 2>::from_shape({rows, cols});
  for (auto& x : t) x = static_cast<S>(rng.normal_double() * scale);
}

template <class S>
CemStdAttentionT<S>::CemStdAttentionT(const CemStdAttentionConfig& config) : config_(config), error_(validate(config)) {
  if (!error_.empty()) return;
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
  if (!error_.empty()) return {};
  const int d = config_.d;
  const std::size_t size = std::size_t(d) * d;
  return {{"wq", params_.wq.data(), grads_.wq.data(), size, d, d},
          {"wk", params_.wk.data(), grads_.wk.data(), size, d, d},
          {"wv", params_.wv.data(), grads_.wv.data(), size, d, d},
          {"wo", params_.wo.data(), grads_.wo.data(), size, d, d}};
}

template <class S>
std::size_t CemStdAttentionT<S>::parameter_count() const {
  return error_.empty() ? 4 * std::size_t(config_.d) * config_.d : 0;
}

// Per head k on x (n×d): q, k, v (n×d_h) and alpha (n×n).
template <class S>
static void std_head(const CemStdAttentionParamsT<S>& p, int head, int dh, int d, const S* x, int n, S beta, S* q, S* k,
                     S* v, S* alpha) {
  const std::size_t off = std::size_t(head) * dh * d;
  mm_nt(x, p.wq.data() + off, q, n, d, dh);
  mm_nt(x, p.wk.data() + off, k, n, d, dh);
  mm_nt(x, p.wv.data() + off, v, n, d, dh);
  mm_nt(q, k, alpha, n, dh, n);
  causal_softmax(alpha, n, beta);
}

template <class S>
std::string CemStdAttentionT<S>::forward(const S* x, int n, S* out) const {
  if (!error_.empty()) return error_;
  if (std::string e = cem_check_call(n, x, out); !e.empty()) return e;
  const int d = config_.d;
  std::vector<S> q(std::size_t(n) * dh_), k(q.size()), v(q.size()), o(q.size()), alpha(std::size_t(n) * n);
  std::vector<S> concat(std::size_t(n) * d);
  for (int head = 0; head < config_.heads; ++head) {
    std_head(params_, head, dh_, d, x, n, beta_, q.data(), k.data(), v.data(), alpha.data());
    mm_nn(alpha.data(), v.data(), o.data(), n, n, dh_);
    for (int i = 0; i < n; ++i) {
      std::copy_n(o.data() + std::size_t(i) * dh_, dh_, concat.data() + std::size_t(i) * d + head * dh_);
    }
  }
  mm_nt(concat.data(), params_.wo.data(), out, n, d, d);  // out = O W_Oᵀ
  return "";
}

template <class S>
std::string CemStdAttentionT<S>::backward(const S* x, int n, const S* grad_out, S* grad_x, bool accumulate) {
  if (!error_.empty()) return error_;
  if (std::string e = cem_check_call(n, x, grad_out); !e.empty()) return e;
  if (!accumulate) zero_grad();
  const int d = config_.d, heads = config_.heads;
  const std::size_t nh = std::size_t(n) * dh_, nn = std::size_t(n) * n;
  // Every head's q, k, v and α, computed once for dW_O and kept for the per-head backward.
  std::vector<S> q(heads * nh), k(q.size()), v(q.size()), alpha(heads * nn), o(nh), dalpha(nn);
  std::vector<S> concat(std::size_t(n) * d), dconcat(concat.size()), dx(concat.size(), S(0));
  std::vector<S> dq(nh), dk(nh), dv(nh), dout_h(nh);
  for (int head = 0; head < heads; ++head) {  // rebuild O for dW_O
    S *qh = q.data() + head * nh, *kh = k.data() + head * nh, *vh = v.data() + head * nh;
    std_head(params_, head, dh_, d, x, n, beta_, qh, kh, vh, alpha.data() + head * nn);
    mm_nn(alpha.data() + head * nn, vh, o.data(), n, n, dh_);
    for (int i = 0; i < n; ++i) std::copy_n(o.data() + i * dh_, dh_, concat.data() + std::size_t(i) * d + head * dh_);
  }
  mm_tn(grad_out, concat.data(), grads_.wo.data(), d, n, d, true);  // dW_O += doutᵀ O
  mm_nn(grad_out, params_.wo.data(), dconcat.data(), n, d, d);      // dO = dout W_O
  for (int head = 0; head < heads; ++head) {
    const std::size_t off = std::size_t(head) * dh_ * d;
    const S *qh = q.data() + head * nh, *kh = k.data() + head * nh, *vh = v.data() + head * nh;
    const S* ah = alpha.data() + head * nn;
    for (int i = 0; i < n; ++i) std::copy_n(dconcat.data() + std::size_t(i) * d + head * dh_, dh_, dout_h.data() + i * dh_);
    mm_tn(ah, dout_h.data(), dv.data(), n, n, dh_);              // dV = αᵀ dO
    mm_nt(dout_h.data(), vh, dalpha.data(), n, dh_, n);          // dα = dO Vᵀ
    causal_softmax_backward(ah, dalpha.data(), n, beta_);       // dS
    mm_nn(dalpha.data(), kh, dq.data(), n, n, dh_);              // dQ = dS K
    mm_tn(dalpha.data(), qh, dk.data(), n, n, dh_);              // dK = dSᵀ Q
    mm_tn(dq.data(), x, grads_.wq.data() + off, dh_, n, d, true);
    mm_tn(dk.data(), x, grads_.wk.data() + off, dh_, n, d, true);
    mm_tn(dv.data(), x, grads_.wv.data() + off, dh_, n, d, true);
    mm_nn(dq.data(), params_.wq.data() + off, dx.data(), n, dh_, d, true);
    mm_nn(dk.data(), params_.wk.data() + off, dx.data(), n, dh_, d, true);
    mm_nn(dv.data(), params_.wv.data() + off, dx.data(), n, dh_, d, true);
  }
  if (grad_x != nullptr) std::copy(dx.begin(), dx.end(), grad_x);
  return "";
}

template void cem_rmsnorm_forward<float>(const float*, const float*, int, int, float, float*, float*);
template void cem_rmsnorm_forward<double>(const double*, const double*, int, int, double, double*, double*);
template void cem_rmsnorm_backward<float>(const float*, const float*, const float*, const float*, int, int, float*,
                                          float*);
template void cem_rmsnorm_backward<double>(const double*, const double*, const double*, const double*, int, int,
                                           double*, double*);
template class CemStdAttentionT<float>;
template class CemStdAttentionT<double>;

}  // namespace gatelab
