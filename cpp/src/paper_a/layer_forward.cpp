// Forward pass of the paper-A layers (docs/MATH.md §A1, §A4–§A6, §A11). Products run on the
// matmul kernels; the per-unit reductions over rank and the activations are element-wise loops.
#include <vector>

#include "base/kernels.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "paper_a/layer_workspace.hpp"

namespace gatelab {
namespace {

using kernels::act_forward;

template <class S>
void ensure(std::vector<S>& buffer, std::size_t n) {
  if (buffer.size() < n) buffer.resize(n);
}

// out[u] = 0 + a[u]·b[u]: the rank-1 case of the per-unit sums below, in the same operations
// (the sum starts at +0, so a −0 product still gives +0), as a loop compilers vectorise.
template <class S>
void unit_products(const S* __restrict a, const S* __restrict b, S* __restrict out, std::size_t n) {
  for (std::size_t u = 0; u < n; ++u) out[u] = S(0) + a[u] * b[u];
}

// out[u] = Σ_t a[u·r + t]·b[u·r + t], summed from +0 in increasing t.
template <class S>
void unit_sums(const S* a, const S* b, S* out, std::size_t units, int r) {
  if (r == 1) {
    unit_products(a, b, out, units);
    return;
  }
  for (std::size_t u = 0; u < units; ++u) {
    S sum = 0;
    for (int t = 0; t < r; ++t) sum += a[u * r + t] * b[u * r + t];
    out[u] = sum;
  }
}

// The symmetrised gated coefficient: out[u] = Σ_t (w1·σ(a)b + w2·σ(b)a), w1 = 1 − λ/2, w2 = λ/2.
// With w1 = w2 (λ = 1) swapping a and b swaps the two terms of a commutative sum: the bits of
// an exchanged layer are the same.
template <class S>
void symmetrised_sums(const S* a, const S* b, const S* gate_a, const S* gate_b, S w1, S w2, S* out, std::size_t units,
                      int r) {
  for (std::size_t u = 0; u < units; ++u) {
    S sum = 0;
    for (int t = 0; t < r; ++t) {
      const std::size_t f = u * r + t;
      sum += w1 * (gate_a[f] * b[f]) + w2 * (gate_b[f] * a[f]);
    }
    out[u] = sum;
  }
}

}  // namespace

// Fills ws.act (rows, m) — the vector that multiplies V — and the intermediates backward needs.
template <class S>
void LayerT<S>::compute_hidden(const S* x, int rows, Workspace& ws) const {
  const int d = config_.d_in, m = config_.hidden;
  const int r = config_.kind == LayerKind::mlp ? 1 : config_.rank;
  const std::size_t units = static_cast<std::size_t>(rows) * m;
  const std::size_t factors = units * r;
  ws.rows = rows;
  ws.kept = nullptr;
  ensure(ws.sk, factors);
  ensure(ws.act, units);

  // sk (rows, m·r) = x (rows, d) · Kflatᵀ, Kflat = K as (m·r, d)
  kernels::mm_nt(x, params_.k.data(), ws.sk.data(), rows, d, m * r);

  if (config_.kind == LayerKind::mlp) {  // the pre-activation is sk itself (backward reads it there)
    act_forward(config_.activation, ws.sk.data(), ws.act.data(), units);
    return;
  }

  ensure(ws.sq, factors);
  // sq (rows, m·r) = x (rows, d) · Qflatᵀ
  kernels::mm_nt(x, params_.q.data(), ws.sq.data(), rows, d, m * r);

  if (config_.kind == LayerKind::symmetric) {
    // pre[i, j] = Σ_t sq[i, j·r + t] · sk[i, j·r + t];  act = σ(pre)
    ensure(ws.pre, units);
    unit_sums(ws.sq.data(), ws.sk.data(), ws.pre.data(), units, r);
    act_forward(config_.activation, ws.pre.data(), ws.act.data(), units);
    return;
  }

  // gated: gate = σ(sq);  act[i, j] = Σ_t gate[i, j·r + t] · sk[i, j·r + t]
  ensure(ws.gate, factors);
  act_forward(config_.activation, ws.sq.data(), ws.gate.data(), factors);
  if (config_.kind == LayerKind::bigated) {
    // act[i, j] = Σ_t σ(sq)·σ(sk) (§A23): a commutative product, so the exchanged layer's bits are the same.
    ensure(ws.gate_k, factors);
    act_forward(config_.activation, ws.sk.data(), ws.gate_k.data(), factors);
    unit_sums(ws.gate.data(), ws.gate_k.data(), ws.act.data(), units, r);
    return;
  }
  if (config_.symmetrize == 0.0f) {
    unit_sums(ws.gate.data(), ws.sk.data(), ws.act.data(), units, r);
    return;
  }
  ensure(ws.gate_k, factors);
  act_forward(config_.activation, ws.sk.data(), ws.gate_k.data(), factors);
  const S w2 = static_cast<S>(config_.symmetrize) / S(2), w1 = S(1) - w2;
  symmetrised_sums(ws.sq.data(), ws.sk.data(), ws.gate.data(), ws.gate_k.data(), w1, w2, ws.act.data(), units, r);
}

// x: (rows, d_in) -> out: (rows, d_out) = act (rows, m) · V (m, d_out). Rows are independent,
// so a large batch (a figure's 128×128 grid) runs in chunks whose intermediates stay in
// cache instead of streaming several megabytes through memory; the bits are the same.
template <class S>
Status LayerT<S>::forward(const S* x, int rows, S* out) const {
  if (Status e = check(rows, x, out); !e.ok()) return e;
  forward_unchecked(x, rows, out);
  return {};
}

template <class S>
void LayerT<S>::forward_unchecked(const S* x, int rows, S* out) const {
  constexpr int kChunkRows = 256;
  const int d = config_.d_in, o = config_.d_out;
  for (int start = 0; start < rows; start += kChunkRows) {
    const int n = rows - start < kChunkRows ? rows - start : kChunkRows;
    compute_hidden(x + static_cast<std::size_t>(start) * d, n, *workspace_);
    kernels::mm_nn(workspace_->act.data(), params_.v.data(), out + static_cast<std::size_t>(start) * o, n,
                   config_.hidden, o);
  }
}

// All rows at once, the intermediates kept for backward_kept (layer_backward.cpp).
template <class S>
void LayerT<S>::forward_keep(const S* x, int rows, S* out) const {
  compute_hidden(x, rows, *workspace_);
  workspace_->kept = x;
  kernels::mm_nn(workspace_->act.data(), params_.v.data(), out, rows, config_.hidden, config_.d_out);
}

#define GATELAB_INSTANTIATE_FORWARD(S)                                      \
  template void LayerT<S>::compute_hidden(const S*, int, Workspace&) const; \
  template Status LayerT<S>::forward(const S*, int, S*) const;              \
  template void LayerT<S>::forward_unchecked(const S*, int, S*) const;      \
  template void LayerT<S>::forward_keep(const S*, int, S*) const;
GATELAB_INSTANTIATE_FORWARD(float)
GATELAB_INSTANTIATE_FORWARD(double)
#undef GATELAB_INSTANTIATE_FORWARD

}  // namespace gatelab
