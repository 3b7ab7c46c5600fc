// lab.gp's options (docs/MATH.md §B7): one flat object for sampling, the posterior and a session,
// the task's fields beside the model's.
#include "gatelab/gp/options.hpp"

#include "gatelab/gp/data.hpp"

namespace gatelab {

void add_gp_options(OptionEntries& entries, NameSets& names) {
  using T = OptionType;
  entries.push_back({"gp",
                     {{"dx", T::integer},
                      {"length", T::integer},
                      {"length_scale", T::number},
                      {"signal_var", T::number},
                      {"noise_std", T::number},
                      {"inputs", T::name, "gpInputs"},
                      {"family", T::name, "families"},
                      {"steps", T::integer},
                      {"diagonal", T::name, "diagonals"},
                      {"precond", T::name, "preconditioners"},
                      {"precond_rank", T::integer},
                      {"d", T::integer},
                      {"layers", T::integer},
                      {"heads", T::integer},
                      {"hidden", T::integer},
                      {"eta", T::number},
                      {"learn_eta", T::boolean},
                      {"batch", T::integer},
                      {"lr", T::number},
                      {"warmup", T::integer},
                      {"clip_norm", T::number},
                      {"seed", T::seed}}});
  names.push_back({"gpInputs", {gp_inputs_name(GpInputs::uniform), gp_inputs_name(GpInputs::normal)}});
}

}  // namespace gatelab
