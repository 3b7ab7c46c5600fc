// Backward pass of the paper-A layers: dL/dx and dL/d(Q, K, V) from dL/d(out). backward
// recomputes the hidden intermediates from x (one forward's worth of work) so the layer keeps
// no state between calls that a caller could get out of step; train_pass, for the trainer,
// runs forward, the output gradient and backward chunk by chunk on each chunk's intermediates.
#include <algorithm>
#include <vector>

#include "base/kernels.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "paper_a/layer_workspace.hpp"

namespace gatelab {
namespace {

using kernels::act_backward;
using kernels::mm_nn;
using kernels::mm_nt;
using kernels::mm_tn;

template <class S>
void ensure(std::vector<S>& buffer, std::size_t n) {
  if (buffer.size() < n) buffer.resize(n);
}

// The element-wise steps below for rank 1, in exactly the operations of the general loops,
// on restrict pointers so compilers vectorise them.
template <class S>
void scale_by(S* __restrict x, const S* __restrict g, std::size_t n) {
  for (std::size_t u = 0; u < n; ++u) x[u] *= g[u];
}
template <class S>
void symmetric_rank1(const S* __restrict grad_pre, const S* __restrict grad_act, const S* __restrict sq,
                     const S* __restrict sk, S* __restrict grad_sq, S* __restrict grad_sk, std::size_t n) {
  for (std::size_t u = 0; u < n; ++u) {
    const S g = grad_pre[u] * grad_act[u];
    grad_sq[u] = g * sk[u];
    grad_sk[u] = g * sq[u];
  }
}
template <class S>
void gated_rank1(const S* __restrict grad_act, const S* __restrict sk, const S* __restrict gate, S* __restrict grad_sq,
                 S* __restrict grad_sk, std::size_t n) {
  for (std::size_t u = 0; u < n; ++u) {
    const S g = grad_act[u];
    grad_sq[u] *= g * sk[u];
    grad_sk[u] = g * gate[u];
  }
}

// The bigated unit (docs/MATH.md §A23): c = Σ_t σ(a)σ(b), so ∂c/∂a = σ'(a)σ(b) and
// ∂c/∂b = σ(a)σ'(b). On entry grad_sq holds σ'(a) and grad_sk σ'(b).
template <class S>
void bigated_backward(const S* grad_act, const S* gate, const S* gate_k, S* grad_sq, S* grad_sk, std::size_t units,
                      int r) {
  for (std::size_t u = 0; u < units; ++u) {
    const S g = grad_act[u];
    for (int t = 0; t < r; ++t) {
      const std::size_t f = u * r + t;
      grad_sq[f] *= g * gate_k[f];
      grad_sk[f] *= g * gate[f];
    }
  }
}

// The symmetrised gated unit (docs/MATH.md §A11): c = Σ_t w1·σ(a)b + w2·σ(b)a, so
// ∂c/∂a = w1·σ'(a)b + w2·σ(b) and ∂c/∂b = w1·σ(a) + w2·σ'(b)a. On entry grad_sq holds σ'(a)
// and grad_gate_k σ'(b).
template <class S>
void symmetrised_backward(const S* grad_act, const S* sq, const S* sk, const S* gate, const S* gate_k,
                          const S* grad_gate_k, S w1, S w2, S* grad_sq, S* grad_sk, std::size_t units, int r) {
  for (std::size_t u = 0; u < units; ++u) {
    const S g = grad_act[u];
    for (int t = 0; t < r; ++t) {
      const std::size_t f = u * r + t;
      const S da = w1 * (grad_sq[f] * sk[f]) + w2 * gate_k[f];
      const S db = w1 * gate[f] + w2 * (grad_gate_k[f] * sq[f]);
      grad_sq[f] = g * da;
      grad_sk[f] = g * db;
    }
  }
}

}  // namespace

template <class S>
Status LayerT<S>::backward(const S* x, int rows, const S* grad_out, S* grad_x, bool accumulate) {
  if (Status e = check(rows, x, grad_out); !e.ok()) return e;
  backward_unchecked(x, rows, grad_out, grad_x, accumulate);
  return {};
}

template <class S>
void LayerT<S>::backward_unchecked(const S* x, int rows, const S* grad_out, S* grad_x, bool accumulate) {
  compute_hidden(x, rows, *workspace_);
  backward_from_hidden(x, rows, grad_out, grad_x, grads_, *workspace_, accumulate);
}

template <class S>
void LayerT<S>::backward_kept(const S* x, int rows, const S* grad_out, S* grad_x, bool accumulate) {
  Workspace& ws = *workspace_;
  if (ws.kept != x || ws.rows != rows) compute_hidden(x, rows, ws);
  backward_from_hidden(x, rows, grad_out, grad_x, grads_, ws, accumulate);
}

template <class S>
bool LayerT<S>::train_pass(const S* x, int rows, S* out, S* grad_out, const OutputGradient& output_gradient,
                           Params& grads) const {
  const int d = config_.d_in, o = config_.d_out;
  const int factors_per_row = config_.hidden * (config_.kind == LayerKind::mlp ? 1 : config_.rank);
  // ~1024 hidden factors per chunk: the 7 intermediates of a chunk take ~28 KB.
  const int chunk = std::max(16, 1024 / factors_per_row / 4 * 4);
  Workspace& ws = *workspace_;
  for (int start = 0; start < rows; start += chunk) {
    const int n = std::min(chunk, rows - start);
    const S* xc = x + static_cast<std::size_t>(start) * d;
    S* oc = out + static_cast<std::size_t>(start) * o;
    S* gc = grad_out + static_cast<std::size_t>(start) * o;
    compute_hidden(xc, n, ws);
    mm_nn(ws.act.data(), params_.v.data(), oc, n, config_.hidden, o);
    if (!output_gradient(start, n, oc, gc)) return false;
    backward_from_hidden(xc, n, gc, nullptr, grads, ws, /*accumulate=*/start > 0);
  }
  return true;
}

// ws holds the intermediates of x (compute_hidden).
template <class S>
void LayerT<S>::backward_from_hidden(const S* x, int rows, const S* grad_out, S* grad_x, Params& grads, Workspace& ws,
                                     bool accumulate) const {
  const int d = config_.d_in, m = config_.hidden, o = config_.d_out;
  const int r = config_.kind == LayerKind::mlp ? 1 : config_.rank;
  const std::size_t units = static_cast<std::size_t>(rows) * m;
  const std::size_t factors = units * r;
  if (grads.q.shape() != params_.q.shape() || grads.k.shape() != params_.k.shape() ||
      grads.v.shape() != params_.v.shape()) {
    grads = zeros_like(params_);
    accumulate = false;
  }

  // dV (m, o) = actᵀ (m, rows) · grad_out (rows, o);  dact (rows, m) = grad_out · Vᵀ
  mm_tn(ws.act.data(), grad_out, grads.v.data(), m, rows, o, accumulate);
  ensure(ws.grad_act, units);
  mm_nt(grad_out, params_.v.data(), ws.grad_act.data(), rows, o, m);

  ensure(ws.grad_sk, factors);
  if (config_.kind == LayerKind::mlp) {
    // dpre = dact ⊙ σ'(pre);  dK (m, d) = dpreᵀ · x;  dx = dpre · K
    act_backward(config_.activation, ws.sk.data(), ws.grad_sk.data(), units);  // sk is the pre-activation
    scale_by(ws.grad_sk.data(), ws.grad_act.data(), units);
    mm_tn(ws.grad_sk.data(), x, grads.k.data(), m, rows, d, accumulate);
    if (grad_x) mm_nn(ws.grad_sk.data(), params_.k.data(), grad_x, rows, m, d);
    return;
  }

  ensure(ws.grad_sq, factors);
  if (config_.kind == LayerKind::symmetric) {
    // dpre = dact ⊙ σ'(pre);  dsq = dpre · sk;  dsk = dpre · sq  (per unit, broadcast over rank)
    ensure(ws.grad_pre, units);
    act_backward(config_.activation, ws.pre.data(), ws.grad_pre.data(), units);
    if (r == 1) {
      symmetric_rank1(ws.grad_pre.data(), ws.grad_act.data(), ws.sq.data(), ws.sk.data(), ws.grad_sq.data(),
                      ws.grad_sk.data(), units);
    } else {
      for (std::size_t u = 0; u < units; ++u) {
        const S g = ws.grad_pre[u] * ws.grad_act[u];
        for (int t = 0; t < r; ++t) {
          ws.grad_sq[u * r + t] = g * ws.sk[u * r + t];
          ws.grad_sk[u * r + t] = g * ws.sq[u * r + t];
        }
      }
    }
  } else {
    // gated: dsq = dact · σ'(sq) · sk;  dsk = dact · σ(sq)
    act_backward(config_.activation, ws.sq.data(), ws.grad_sq.data(), factors);
    if (config_.kind == LayerKind::bigated) {
      // dsq = dact · σ'(sq) · σ(sk);  dsk = dact · σ(sq) · σ'(sk)  (§A23)
      act_backward(config_.activation, ws.sk.data(), ws.grad_sk.data(), factors);
      bigated_backward(ws.grad_act.data(), ws.gate.data(), ws.gate_k.data(), ws.grad_sq.data(), ws.grad_sk.data(),
                       units, r);
    } else if (config_.symmetrize != 0.0f) {
      ensure(ws.grad_gate_k, factors);
      act_backward(config_.activation, ws.sk.data(), ws.grad_gate_k.data(), factors);
      const S w2 = static_cast<S>(config_.symmetrize) / S(2), w1 = S(1) - w2;
      symmetrised_backward(ws.grad_act.data(), ws.sq.data(), ws.sk.data(), ws.gate.data(), ws.gate_k.data(),
                           ws.grad_gate_k.data(), w1, w2, ws.grad_sq.data(), ws.grad_sk.data(), units, r);
    } else if (r == 1) {
      gated_rank1(ws.grad_act.data(), ws.sk.data(), ws.gate.data(), ws.grad_sq.data(), ws.grad_sk.data(), units);
    } else {
      for (std::size_t u = 0; u < units; ++u) {
        const S g = ws.grad_act[u];
        for (int t = 0; t < r; ++t) {
          ws.grad_sq[u * r + t] *= g * ws.sk[u * r + t];
          ws.grad_sk[u * r + t] = g * ws.gate[u * r + t];
        }
      }
    }
  }
  // dQflat (m·r, d) = dsqᵀ · x;  dKflat = dskᵀ · x;  dx = dsq · Qflat + dsk · Kflat
  mm_tn(ws.grad_sq.data(), x, grads.q.data(), m * r, rows, d, accumulate);
  mm_tn(ws.grad_sk.data(), x, grads.k.data(), m * r, rows, d, accumulate);
  if (grad_x) {
    mm_nn(ws.grad_sq.data(), params_.q.data(), grad_x, rows, m * r, d);
    mm_nn(ws.grad_sk.data(), params_.k.data(), grad_x, rows, m * r, d, /*accumulate=*/true);
  }
}

#define GATELAB_INSTANTIATE_BACKWARD(S)                                                             \
  template Status LayerT<S>::backward(const S*, int, const S*, S*, bool);                           \
  template void LayerT<S>::backward_unchecked(const S*, int, const S*, S*, bool);                   \
  template void LayerT<S>::backward_kept(const S*, int, const S*, S*, bool);                        \
  template bool LayerT<S>::train_pass(const S*, int, S*, S*, const OutputGradient&, Params&) const; \
  template void LayerT<S>::backward_from_hidden(const S*, int, const S*, S*, Params&, Workspace&, bool) const;
GATELAB_INSTANTIATE_BACKWARD(float)
GATELAB_INSTANTIATE_BACKWARD(double)
#undef GATELAB_INSTANTIATE_BACKWARD

}  // namespace gatelab
