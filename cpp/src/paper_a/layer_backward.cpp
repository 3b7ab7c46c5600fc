// Backward pass of the paper-A layers: dL/dx and dL/d(Q, K, V) from dL/d(out). backward
// recomputes the hidden intermediates from x (one forward's worth of work) so the layer keeps
// no state between calls that a caller could get out of step; train_pass, for the trainer,
// runs forward, the output gradient and backward chunk by chunk on each chunk's intermediates.
#include <algorithm>
#include <vector>

#include "gatelab/paper_a/layer.hpp"
#include "gatelab/base/matmul.hpp"
#include "paper_a/layer_workspace.hpp"

namespace gatelab {
namespace {

void ensure(std::vector<float>& buffer, std::size_t n) {
  if (buffer.size() < n) buffer.resize(n);
}

// The element-wise steps below for rank 1, in exactly the operations of the general loops,
// on restrict pointers so compilers vectorise them.
void scale_by(float* __restrict x, const float* __restrict g, std::size_t n) {
  for (std::size_t u = 0; u < n; ++u) x[u] *= g[u];
}
void symmetric_rank1(const float* __restrict grad_pre, const float* __restrict grad_act, const float* __restrict sq,
                     const float* __restrict sk, float* __restrict grad_sq, float* __restrict grad_sk, std::size_t n) {
  for (std::size_t u = 0; u < n; ++u) {
    const float g = grad_pre[u] * grad_act[u];
    grad_sq[u] = g * sk[u];
    grad_sk[u] = g * sq[u];
  }
}
void gated_rank1(const float* __restrict grad_act, const float* __restrict sk, const float* __restrict gate,
                 float* __restrict grad_sq, float* __restrict grad_sk, std::size_t n) {
  for (std::size_t u = 0; u < n; ++u) {
    const float g = grad_act[u];
    grad_sq[u] *= g * sk[u];
    grad_sk[u] = g * gate[u];
  }
}

}  // namespace

void Layer::backward(const float* x, int rows, const float* grad_out, float* grad_x, LayerParams& grads) const {
  compute_hidden(x, rows, *workspace_);
  backward_from_hidden(x, rows, grad_out, grad_x, grads, *workspace_, false);
}

bool Layer::train_pass(const float* x, int rows, float* out, float* grad_out, const OutputGradient& output_gradient,
                       LayerParams& grads) const {
  const int d = config_.d_in, o = config_.d_out;
  const int factors_per_row = config_.hidden * (config_.kind == LayerKind::mlp ? 1 : config_.rank);
  // ~1024 hidden factors per chunk: the 7 intermediates of a chunk take ~28 KB.
  const int chunk = std::max(16, 1024 / factors_per_row / 4 * 4);
  Workspace& ws = *workspace_;
  for (int start = 0; start < rows; start += chunk) {
    const int n = std::min(chunk, rows - start);
    const float* xc = x + static_cast<std::size_t>(start) * d;
    float* oc = out + static_cast<std::size_t>(start) * o;
    float* gc = grad_out + static_cast<std::size_t>(start) * o;
    compute_hidden(xc, n, ws);
    matmul_nn(ws.act.data(), params_.v.data(), oc, n, config_.hidden, o);
    if (!output_gradient(start, n, oc, gc)) return false;
    backward_from_hidden(xc, n, gc, nullptr, grads, ws, /*accumulate=*/start > 0);
  }
  return true;
}

// ws holds the intermediates of x (compute_hidden).
void Layer::backward_from_hidden(const float* x, int rows, const float* grad_out, float* grad_x, LayerParams& grads,
                                 Workspace& ws, bool accumulate) const {
  const int d = config_.d_in, m = config_.hidden, o = config_.d_out;
  const int r = config_.kind == LayerKind::mlp ? 1 : config_.rank;
  const std::size_t units = static_cast<std::size_t>(rows) * m;
  const std::size_t factors = units * r;
  if (grads.q.shape() != params_.q.shape() || grads.k.shape() != params_.k.shape() ||
      grads.v.shape() != params_.v.shape()) {
    grads = zeros_like(params_);
  }

  // dV (m, o) = actᵀ (m, rows) · grad_out (rows, o);  dact (rows, m) = grad_out · Vᵀ
  matmul_tn(ws.act.data(), grad_out, grads.v.data(), m, rows, o, accumulate);
  ensure(ws.grad_act, units);
  matmul_nt(grad_out, params_.v.data(), ws.grad_act.data(), rows, o, m);

  ensure(ws.grad_sk, factors);
  if (config_.kind == LayerKind::mlp) {
    // dpre = dact ⊙ σ'(pre);  dK (m, d) = dpreᵀ · x;  dx = dpre · K
    activation_backward(config_.activation, ws.sk.data(), ws.grad_sk.data(), units);  // sk is the pre-activation
    scale_by(ws.grad_sk.data(), ws.grad_act.data(), units);
    matmul_tn(ws.grad_sk.data(), x, grads.k.data(), m, rows, d, accumulate);
    if (grad_x) matmul_nn(ws.grad_sk.data(), params_.k.data(), grad_x, rows, m, d);
    return;
  }

  ensure(ws.grad_sq, factors);
  if (config_.kind == LayerKind::symmetric) {
    // dpre = dact ⊙ σ'(pre);  dsq = dpre · sk;  dsk = dpre · sq  (per unit, broadcast over rank)
    ensure(ws.grad_pre, units);
    activation_backward(config_.activation, ws.pre.data(), ws.grad_pre.data(), units);
    if (r == 1) {
      symmetric_rank1(ws.grad_pre.data(), ws.grad_act.data(), ws.sq.data(), ws.sk.data(), ws.grad_sq.data(),
                      ws.grad_sk.data(), units);
    } else {
      for (std::size_t u = 0; u < units; ++u) {
        const float g = ws.grad_pre[u] * ws.grad_act[u];
        for (int t = 0; t < r; ++t) {
          ws.grad_sq[u * r + t] = g * ws.sk[u * r + t];
          ws.grad_sk[u * r + t] = g * ws.sq[u * r + t];
        }
      }
    }
  } else {
    // gated: dsq = dact · σ'(sq) · sk;  dsk = dact · σ(sq)
    activation_backward(config_.activation, ws.sq.data(), ws.grad_sq.data(), factors);
    if (r == 1) {
      gated_rank1(ws.grad_act.data(), ws.sk.data(), ws.gate.data(), ws.grad_sq.data(), ws.grad_sk.data(), units);
    } else {
      for (std::size_t u = 0; u < units; ++u) {
        const float g = ws.grad_act[u];
        for (int t = 0; t < r; ++t) {
          ws.grad_sq[u * r + t] *= g * ws.sk[u * r + t];
          ws.grad_sk[u * r + t] = g * ws.gate[u * r + t];
        }
      }
    }
  }
  // dQflat (m·r, d) = dsqᵀ · x;  dKflat = dskᵀ · x;  dx = dsq · Qflat + dsk · Kflat
  matmul_tn(ws.grad_sq.data(), x, grads.q.data(), m * r, rows, d, accumulate);
  matmul_tn(ws.grad_sk.data(), x, grads.k.data(), m * r, rows, d, accumulate);
  if (grad_x) {
    matmul_nn(ws.grad_sq.data(), params_.q.data(), grad_x, rows, m * r, d);
    matmul_nn(ws.grad_sk.data(), params_.k.data(), grad_x, rows, m * r, d, /*accumulate=*/true);
  }
}

}  // namespace gatelab
