// Embind registrations of the base area: the version, the library-wide caps and the
// activation catalogue.
#include "bind_common.hpp"

#include "gatelab/base/activations.hpp"
#include "gatelab/paper_a/layer.hpp"

using namespace emscripten;
using namespace gatelab;
using namespace gatelab::bind;

EMSCRIPTEN_BINDINGS(gatelab_base) {
  function("version", +[] { return std::string(GATELAB_VERSION); });
  constants({{"maxLayerDim", max_layer_dim}, {"maxLayerParams", max_layer_params},
             {"maxBatchFloats", max_batch_floats}, {"maxSwishBeta", max_swish_beta},
             {"activationCount", activation_count}});
  function("activationName", +[](int i) { return std::string(activation_name(activation_by_index(i))); });
  function("activationDegree", +[](int i) { return homogeneity_degree(activation_by_index(i)).value_or(-1); });
  function("activationLinear", +[](int i) { return is_linear(activation_by_index(i)); });
}
