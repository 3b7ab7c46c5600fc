// Private scratch of a layer: the hidden activations of the last batch, kept so a forward
// allocates nothing once the batch size is stable and a backward can reuse them.
#pragma once

#include <vector>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

template <class S>
struct LayerT<S>::Workspace {
  int rows = 0;
  const S* kept = nullptr;  // the x of forward_keep while these are still its intermediates
  std::vector<S> sq;        // (rows, m·r)  a = x·Qᵀ        (symmetric, gated, bigated)
  std::vector<S> sk;        // (rows, m·r)  b = x·Kᵀ        (mlp: (rows, m))
  std::vector<S> gate;      // (rows, m·r)  σ(a)            (gated, bigated)
  std::vector<S> gate_k;    // (rows, m·r)  σ(b)            (bigated, gated with symmetrize > 0)
  std::vector<S> pre;       // (rows, m)    pre-activation z (mlp, symmetric)
  std::vector<S> act;       // (rows, m)    the hidden vector that multiplies V
  std::vector<S> grad_act, grad_pre, grad_sq, grad_sk, grad_gate_k;  // backward scratch
};

}  // namespace gatelab
