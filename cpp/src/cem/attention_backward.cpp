// Backward of CEM attention (MATH.md B2, B4–B6) through all T steps and through the context:
// h_j enters as context of every later position (keys K = h W_Kᵀ and the diagonal term) and
// as the start point y⁰ of its own. Step t is y' = y + η g(y) P with g = −∇ε (see
// attention.cpp); going back, dL/dy = dL/dy' + J_gᵀ (η P dL/dy'), and the preconditioner
// collects its own gradient on the way. Per head k, given dg (n×d):
//   v = α K, dv = dg W_Qᵀ, dW_Q += vᵀ dg, dα = dv Kᵀ (+ (dg⊙d_k) hᵀ), dK += αᵀ dv,
//   dS = softmax backward (β included), dq = dS K, dK += dSᵀ q, dW_Q += dqᵀ y, dy += dq W_Q,
//   diagonal: dh += αᵀ(dg⊙d_k) + dSᵀ(Y⊙d_k), dy += (dS h) ⊙ d_k, dd_k += Σ_rows of the products.
// At the end dW_K = Σ_t dKᵀ h and dh += dK W_K.
#include <algorithm>

#include "gatelab/cem/attention.hpp"
#include "cem/math.hpp"

namespace gatelab {

using namespace cem_detail;

template <class S>
void CemAttentionT<S>::step_backward(const S* h, const S* y, int n, Trajectory& tr, const S* dg, S* dy, S* dh) {
  const int d = config_.d;
  const std::size_t nd = std::size_t(n) * d, nn = std::size_t(n) * n;
  const bool per_head = config_.diagonal == CemDiagonal::per_head, shared = config_.diagonal == CemDiagonal::shared;
  std::vector<S> dv(std::size_t(n) * dh_), dq(std::size_t(n) * dh_), dalpha(nn), tmp(nd), dgd, dgd_scores;
  prepare_step(h, y, n, tr);
  if (shared) {
    // (dg ⊙ d) and its score term (dg ⊙ d) hᵀ are the same for every head.
    const S* dk = head_diag(0);
    dgd.resize(nd);
    dgd_scores.resize(nn);
    for (std::size_t e = 0; e < nd; ++e) dgd[e] = dg[e] * dk[e % d];
    mm_nt(dgd.data(), h, dgd_scores.data(), n, d, n);
    tr.ds_sum.assign(nn, S(0));
  }
  for (int k = 0; k < config_.heads; ++k) {
    const S* keys = tr.keys.data() + std::size_t(k) * n * dh_;
    S* dkeys = tr.dkeys.data() + std::size_t(k) * n * dh_;
    const S* wq = params_.wq.data() + std::size_t(k) * dh_ * d;
    S* gwq = grads_.wq.data() + std::size_t(k) * dh_ * d;
    head_alpha(k, h, y, n, tr);
    const S* alpha = tr.alpha.data();
    mm_nn(alpha, keys, tr.v.data(), n, n, dh_);        // v = α K
    mm_nt(dg, wq, dv.data(), n, d, dh_);               // dv = dg W_Qᵀ
    mm_tn(tr.v.data(), dg, gwq, dh_, n, d, true);      // dW_Q += vᵀ dg
    mm_nt(dv.data(), keys, dalpha.data(), n, dh_, n);  // dα = dv Kᵀ
    mm_tn(alpha, dv.data(), dkeys, n, n, dh_, true);   // dK += αᵀ dv
    if (per_head) {
      const S* dk = head_diag(k);
      S* gdk = grads_.diag.data() + std::size_t(k) * d;
      mm_nn(alpha, h, tmp.data(), n, n, d);  // c = α h
      for (std::size_t e = 0; e < nd; ++e) gdk[e % d] += dg[e] * tmp[e];
      for (std::size_t e = 0; e < nd; ++e) tmp[e] = dg[e] * dk[e % d];  // dc = dg ⊙ d_k
      mm_nt(tmp.data(), h, dalpha.data(), n, d, n, true);               // dα += dc hᵀ
      mm_tn(alpha, tmp.data(), dh, n, n, d, true);                      // dh += αᵀ dc
    } else if (shared) {
      for (std::size_t e = 0; e < nn; ++e) {
        dalpha[e] += dgd_scores[e];
        tr.alpha_sum[e] += alpha[e];
      }
    }
    causal_softmax_backward(alpha, dalpha.data(), n, beta_);    // dalpha ← dS (β included)
    mm_nn(dalpha.data(), keys, dq.data(), n, n, dh_);           // dq = dS K
    mm_tn(dalpha.data(), tr.q.data(), dkeys, n, n, dh_, true);  // dK += dSᵀ q
    mm_tn(dq.data(), y, gwq, dh_, n, d, true);                  // dW_Q += dqᵀ y
    mm_nn(dq.data(), wq, dy, n, dh_, d, true);                  // dy += dq W_Q
    if (per_head) {
      const S* dk = head_diag(k);
      S* gdk = grads_.diag.data() + std::size_t(k) * d;
      mm_nn(dalpha.data(), h, tmp.data(), n, n, d);           // d(Y⊙d_k) = dS h
      mm_tn(dalpha.data(), tr.yd.data(), dh, n, n, d, true);  // dh += dSᵀ (Y⊙d_k)
      for (std::size_t e = 0; e < nd; ++e) {
        dy[e] += tmp[e] * dk[e % d];
        gdk[e % d] += tmp[e] * y[e];
      }
    } else if (shared) {
      for (std::size_t e = 0; e < nn; ++e) tr.ds_sum[e] += dalpha[e];
    }
  }
  if (shared) {
    const S* dk = head_diag(0);
    S* gdk = grads_.diag.data();
    mm_nn(tr.alpha_sum.data(), h, tmp.data(), n, n, d);  // (Σα) h
    for (std::size_t e = 0; e < nd; ++e) gdk[e % d] += dg[e] * tmp[e];
    mm_tn(tr.alpha_sum.data(), dgd.data(), dh, n, n, d, true);  // dh += (Σα)ᵀ (dg⊙d)
    mm_nn(tr.ds_sum.data(), h, tmp.data(), n, n, d);            // d(Y⊙d) = (ΣdS) h
    mm_tn(tr.ds_sum.data(), tr.yd.data(), dh, n, n, d, true);   // dh += (ΣdS)ᵀ (Y⊙d)
    for (std::size_t e = 0; e < nd; ++e) {
      dy[e] += tmp[e] * dk[e % d];
      gdk[e % d] += tmp[e] * y[e];
    }
  }
}

template <class S>
Status CemAttentionT<S>::backward(const S* h, int n, const S* grad_out, S* grad_h, bool accumulate) {
  if (Status e = check(n, h, grad_out); !e.ok()) return e;
  if (!accumulate) zero_grad();
  const int d = config_.d, steps = config_.steps;
  const std::size_t nd = std::size_t(n) * d;
  Trajectory tr;
  run_forward(h, n, tr);
  tr.dkeys.assign(std::size_t(config_.heads) * n * dh_, S(0));
  std::vector<S> dy(grad_out, grad_out + nd), dh(nd, S(0)), g(nd), dpg(nd), dg(nd);
  const S eta = step_size();
  const bool learn_eta = params_.theta.size() > 0;
  double deta = 0;  // ∂L/∂η = Σ_t ⟨∂L/∂y^{t+1}, g_t P⟩ (docs/MATH.md §B14)
  std::vector<S> pg(learn_eta ? nd : 0);
  for (int t = steps - 1; t >= 0; --t) {
    const S* y = tr.ys.data() + t * nd;
    if (learn_eta) {  // dy is ∂L/∂y^{t+1} here
      step_update(h, y, n, tr, g.data());
      cem_precond_apply(config_.precond, params_.precond, g.data(), n, d, pg.data());
      for (std::size_t e = 0; e < nd; ++e) deta += static_cast<double>(dy[e]) * static_cast<double>(pg[e]);
    }
    for (std::size_t e = 0; e < nd; ++e) dpg[e] = eta * dy[e];  // y' = y + η (g P)
    if (config_.precond == CemPrecond::none) {
      dg = dpg;
    } else {
      if (!learn_eta) step_update(h, y, n, tr, g.data());
      cem_precond_backward(config_.precond, params_.precond, g.data(), dpg.data(), n, d, dg.data(), grads_.precond);
    }
    step_backward(h, y, n, tr, dg.data(), dy.data(), dh.data());  // dy: identity path + through g
  }
  if (learn_eta) {
    grads_.theta(0) += static_cast<S>(deta * cem_detail::sigmoid(static_cast<double>(params_.theta(0))));
  }
  for (std::size_t e = 0; e < nd; ++e) dh[e] += dy[e];  // h_i is the start point y⁰
  for (int k = 0; k < config_.heads; ++k) {
    const S* dkeys = tr.dkeys.data() + std::size_t(k) * n * dh_;
    const std::size_t off = std::size_t(k) * dh_ * d;
    mm_tn(dkeys, h, grads_.wk.data() + off, dh_, n, d, true);           // dW_K += dKᵀ h
    mm_nn(dkeys, params_.wk.data() + off, dh.data(), n, dh_, d, true);  // dh += dK W_K
  }
  if (grad_h != nullptr) std::copy(dh.begin(), dh.end(), grad_h);
  return {};
}

template void CemAttentionT<float>::step_backward(const float*, const float*, int, Trajectory&, const float*, float*,
                                                  float*);
template void CemAttentionT<double>::step_backward(const double*, const double*, int, Trajectory&, const double*,
                                                   double*, double*);
template Status CemAttentionT<float>::backward(const float*, int, const float*, float*, bool);
template Status CemAttentionT<double>::backward(const double*, int, const double*, double*, bool);

}  // namespace gatelab
