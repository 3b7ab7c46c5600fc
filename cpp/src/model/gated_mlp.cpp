// lab.cem's standard gated MLP: the paper-A slot layer under the Llama names.
#include "gatelab/model/gated_mlp.hpp"

#include <algorithm>
#include <string>

#include "gatelab/cem/common.hpp"
#include "gatelab/model/tie.hpp"

namespace gatelab {

Status validate(const CemGatedMlpConfig& c) { return validate_standard_mlp(c.d, c.hidden, c.activation); }

CemGatedMlp::CemGatedMlp(const CemGatedMlpConfig& c) : layer_(standard_mlp(c.d, c.hidden, c.activation, c.seed)) {}

Status CemGatedMlp::forward(const float* x, int n, float* out) const {
  const int cap = std::min(cem_max_rows, layer_.max_rows());
  if (n < 1 || n > cap)
    return out_of_range("n", "n must be in 1…" + std::to_string(cap) + " (n = " + std::to_string(n) + ")");
  return layer_.forward(x, n, out);  // checks the buffers
}

std::vector<ParamView<float>> CemGatedMlp::parameters() {
  std::vector<ParamView<float>> views = layer_.parameters();  // q, k, v
  views[0].name = "w_gate";
  views[1].name = "w_up";
  const ParamView<float> v = views[2];
  views[2] = {"w_down", v.value, v.grad, v.size, v.cols, v.rows, true, true};
  return views;
}

}  // namespace gatelab
