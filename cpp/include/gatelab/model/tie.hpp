// The weight tie of paper B (docs/MATH.md §B2, §B3, §B9): a one-step CEM layer without a
// diagonal or preconditioner is exactly one standard layer with tied weights, so its output is
// h + that layer's output.
//   attention:  W_V = W_K and W_O = η W_Qᵀ            (2d² parameters instead of 4d²)
//   MLP:        W_gate = W, W_up = U, W_down = η Wᵀ   (2dM instead of 3dM); as a paper-A gated
//               layer Q = W, K = U, V = W_downᵀ = η W
// The *_tie_problem functions say why a layer is not such a layer (ok when it is); the
// *_from_tied functions build the standard layer (precondition: no problem).
#pragma once

#include "gatelab/base/status.hpp"
#include <cstdint>
#include <string>

#include "gatelab/base/activations.hpp"
#include "gatelab/cem/attention.hpp"
#include "gatelab/model/baselines.hpp"
#include "gatelab/cem/mlp.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

Status attention_tie_problem(const CemAttention& attention);
Status mlp_tie_problem(const CemMlp& mlp);

CemStdAttention standard_from_tied(const CemAttention& attention);
Layer gated_from_tied(const CemMlp& mlp);

// The standard gated MLP of width d and hidden width M (the transformer's MLP slot: a gated
// rank-1 paper-A layer d → d with the slot's init, model/transformer.hpp).
LayerConfig standard_mlp_config(int d, int hidden, ActivationSpec activation, std::uint64_t seed);
Layer standard_mlp(int d, int hidden, ActivationSpec activation, std::uint64_t seed);
// ok when that MLP exists: the sizes and activation a CEM MLP accepts (cem_validate_gated_mlp),
// then what validate() asks of its layer config; else the first message.
Status validate_standard_mlp(int d, int hidden, ActivationSpec activation);

// The largest |a − b| over the tied weights of a standard layer against those the tie implies
// (0 when the tie holds bit for bit), e.g. for a figure that loosens the tie.
double attention_tie_gap(const CemAttention& attention, const CemStdAttention& standard);
double mlp_tie_gap(const CemMlp& mlp, const Layer& gated);

}  // namespace gatelab
