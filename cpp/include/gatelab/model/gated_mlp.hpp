// lab.cem's standard gated MLP (docs/MATH.md §B9): not a second gated MLP but the paper-A gated
// rank-1 layer of the transformer's MLP slot (model/transformer.hpp), shown in the Llama layout:
//   W_gate = Q, W_up = K (M × d) and W_down = Vᵀ (d × M, stored transposed),
//   out = W_down (σ(W_gate x) ⊙ W_up x)          (no residual; the transformer adds it)
// so a figure that compares it with the tied CEM MLP reads the same parameters by the names it
// knows, and the tie (model/tie.hpp) maps one onto the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gatelab/base/activations.hpp"
#include "gatelab/base/param_view.hpp"
#include "gatelab/base/status.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

struct CemGatedMlpConfig {
  int d = 8;
  int hidden = 16;
  ActivationSpec activation{Activation::silu, 1.0f};
  std::uint64_t seed = 0;
};
// What a CEM MLP accepts of the sizes and activation (cem_validate_gated_mlp), then what the
// paper-A layer asks of its config (validate_standard_mlp).
Status validate(const CemGatedMlpConfig& config);

class CemGatedMlp {
 public:
  // The slot's layer and init (standard_mlp); precondition: validate(config) is ok.
  explicit CemGatedMlp(const CemGatedMlpConfig& config);
  // An existing slot layer, e.g. gated_from_tied(mlp).
  explicit CemGatedMlp(Layer layer) : layer_(std::move(layer)) {}
  Status error() const { return {}; }
  const Layer& layer() const { return layer_; }
  std::size_t parameter_count() const { return layer_.parameter_count(); }
  // out (n × d) for x (n × d), 1 ≤ n ≤ cem_max_rows (and the layer's max_rows()).
  Status forward(const float* x, int n, float* out) const;
  // "w_gate", "w_up" (M × d) and "w_down" (d × M, transposed onto V).
  std::vector<ParamView<float>> parameters();

 private:
  Layer layer_;
};

}  // namespace gatelab
