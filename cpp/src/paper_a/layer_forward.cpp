// Forward pass of the paper-A layers (MATH.md A1, A4–A6). Products run on the matmul
// kernels; the per-unit reductions over rank and the activations are element-wise loops.
#include <vector>

#include "gatelab/paper_a/layer.hpp"
#include "gatelab/base/matmul.hpp"
#include "paper_a/layer_workspace.hpp"

namespace gatelab {
namespace {

void ensure(std::vector<float>& buffer, std::size_t n) {
  if (buffer.size() < n) buffer.resize(n);
}

// out[u] = 0 + a[u]·b[u]: the rank-1 case of the per-unit sums below, in the same operations
// (the sum starts at +0, so a −0 product still gives +0), as a loop compilers vectorise.
void unit_products(const float* __restrict a, const float* __restrict b, float* __restrict out, std::size_t n) {
  for (std::size_t u = 0; u < n; ++u) out[u] = 0.0f + a[u] * b[u];
}

}  // namespace

// Fills ws.act (rows, m) — the vector that multiplies V — and the intermediates backward needs.
void Layer::compute_hidden(const float* x, int rows, Workspace& ws) const {
  const int d = config_.d_in, m = config_.hidden;
  const int r = config_.kind == LayerKind::mlp ? 1 : config_.rank;
  const std::size_t units = static_cast<std::size_t>(rows) * m;
  const std::size_t factors = units * r;
  ws.rows = rows;
  ensure(ws.sk, factors);
  ensure(ws.act, units);

  // sk (rows, m·r) = x (rows, d) · Kflatᵀ, Kflat = K as (m·r, d)
  matmul_nt(x, params_.k.data(), ws.sk.data(), rows, d, m * r);

  if (config_.kind == LayerKind::mlp) {  // the pre-activation is sk itself (backward reads it there)
    activation_forward(config_.activation, ws.sk.data(), ws.act.data(), units);
    return;
  }

  ensure(ws.sq, factors);
  // sq (rows, m·r) = x (rows, d) · Qflatᵀ
  matmul_nt(x, params_.q.data(), ws.sq.data(), rows, d, m * r);

  if (config_.kind == LayerKind::symmetric) {
    // pre[i, j] = Σ_t sq[i, j·r + t] · sk[i, j·r + t];  act = σ(pre)
    ensure(ws.pre, units);
    if (r == 1) {
      unit_products(ws.sq.data(), ws.sk.data(), ws.pre.data(), units);
      activation_forward(config_.activation, ws.pre.data(), ws.act.data(), units);
      return;
    }
    for (std::size_t u = 0; u < units; ++u) {
      const float* a = ws.sq.data() + u * r;
      const float* b = ws.sk.data() + u * r;
      float sum = 0.0f;
      for (int t = 0; t < r; ++t) sum += a[t] * b[t];
      ws.pre[u] = sum;
    }
    activation_forward(config_.activation, ws.pre.data(), ws.act.data(), units);
    return;
  }

  // gated: gate = σ(sq);  act[i, j] = Σ_t gate[i, j·r + t] · sk[i, j·r + t]
  ensure(ws.gate, factors);
  activation_forward(config_.activation, ws.sq.data(), ws.gate.data(), factors);
  if (r == 1) {
    unit_products(ws.gate.data(), ws.sk.data(), ws.act.data(), units);
    return;
  }
  for (std::size_t u = 0; u < units; ++u) {
    const float* g = ws.gate.data() + u * r;
    const float* b = ws.sk.data() + u * r;
    float sum = 0.0f;
    for (int t = 0; t < r; ++t) sum += g[t] * b[t];
    ws.act[u] = sum;
  }
}

// x: (rows, d_in) -> out: (rows, d_out) = act (rows, m) · V (m, d_out). Rows are independent,
// so a large batch (a figure's 128×128 grid) runs in chunks whose intermediates stay in
// cache instead of streaming several megabytes through memory; the bits are the same.
void Layer::forward(const float* x, int rows, float* out) const {
  constexpr int kChunkRows = 256;
  const int d = config_.d_in, o = config_.d_out;
  for (int start = 0; start < rows; start += kChunkRows) {
    const int n = rows - start < kChunkRows ? rows - start : kChunkRows;
    compute_hidden(x + static_cast<std::size_t>(start) * d, n, *workspace_);
    matmul_nn(workspace_->act.data(), params_.v.data(), out + static_cast<std::size_t>(start) * o, n, config_.hidden, o);
  }
}

}  // namespace gatelab
