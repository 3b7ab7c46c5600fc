// A layer's inverse-scaling orbit (docs/MATH.md §A21): moving unit j to (c_j q_j, k_j / c_j)
// ("teleporting") leaves the function unchanged where that scaling is a symmetry, and the
// per-unit balance ‖q_j‖² − ‖k_j‖² that gradient flow conserves along it (§A14). For 'mlp' the
// orbit is (c_j k_j, v_j / c_j) on input and output weights, and the balance ‖k_j‖² − ‖v_j‖².
#pragma once

#include "gatelab/base/status.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

// ok when the orbit exists, so teleport keeps the function: the symmetric kind (any σ, every
// pair of unit j scaled alike); gated with σ positively homogeneous of degree 1 (identity,
// relu, leaky_relu), for any symmetrize λ; mlp with such a σ. Else unsupported (field ""),
// saying why: a non-homogeneous σ (SwiGLU, GEGLU, GLU …) has no such orbit, and ReLU² has
// degree 2, whose orbit is (c q, k / c²) instead.
Status teleport_problem(const LayerConfig& config);

// Moves every unit j by factors[j] (config.hidden of them): q_jt ← c_j q_jt, k_jt ← k_jt / c_j
// for every pair t (mlp: k_j ← c_j k_j, v_j ← v_j / c_j). ok, or the refusal that left params
// as they were: teleport_problem, a factor that is not finite and > 0 (out of range, field
// "factors"), or a product that overflows (out of range, field "factors").
template <class S>
Status teleport(LayerParamsT<S>& params, const LayerConfig& config, const float* factors);

// out (config.hidden): ‖q_j‖² − ‖k_j‖² summed over unit j's pairs (mlp: ‖k_j‖² − ‖v_j‖²), in double.
template <class S>
void unit_balance(const LayerParamsT<S>& params, const LayerConfig& config, double* out);

}  // namespace gatelab
