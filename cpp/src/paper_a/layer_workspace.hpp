// Private scratch of a Layer: the hidden activations of the last batch, kept so a forward
// allocates nothing once the batch size is stable and a backward can reuse them.
#pragma once

#include <vector>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

struct Layer::Workspace {
  int rows = 0;
  std::vector<float> sq;    // (rows, m·r)  x·Qᵀ           (symmetric, gated)
  std::vector<float> sk;    // (rows, m·r)  x·Kᵀ           (mlp: (rows, m))
  std::vector<float> gate;  // (rows, m·r)  σ(sq)          (gated)
  std::vector<float> pre;   // (rows, m)    pre-activation z (mlp, symmetric)
  std::vector<float> act;   // (rows, m)    the hidden vector that multiplies V
  std::vector<float> grad_act, grad_pre, grad_sq, grad_sk;  // backward scratch
};

}  // namespace gatelab
