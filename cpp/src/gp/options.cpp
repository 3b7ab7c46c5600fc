// lab.gp's options (docs/MATH.md §B7): one flat object for sampling, the posterior and a session,
// the task's fields beside the model's. Ranges are the constants gp/data.cpp, gp/session.cpp and the
// transformer's checks read; lab.gp's defaults are its own (a smaller, faster model than the core's
// GpTrainConfig), so none is stated.
#include "gatelab/gp/options.hpp"

#include "gatelab/cem/common.hpp"
#include "gatelab/gp/data.hpp"
#include "gatelab/gp/session.hpp"

namespace gatelab {

void add_gp_options(OptionEntries& entries, NameSets& names) {
  using T = OptionType;
  entries.push_back({"gp",
                     {{"dx", T::integer, "", {}, 1, gp_max_dx},
                      {"length", T::integer, "", {}, 1, gp_max_length},
                      {"length_scale", T::number, "", {}, gp_min_scale, gp_max_scale},
                      {"signal_var", T::number, "", {}, gp_min_scale, gp_max_scale},
                      {"noise_std", T::number, "", {}, gp_min_noise_std, gp_max_noise_std},
                      {"inputs", T::name, "gpInputs"},
                      {"family", T::name, "families"},
                      {"steps", T::integer, "", {}, 1, cem_max_steps},
                      {"diagonal", T::name, "diagonals"},
                      {"precond", T::name, "preconditioners"},
                      {"precond_rank", T::integer},
                      {"d", T::integer, "", {}, 1, cem_max_d},
                      {"layers", T::integer, "", {}, 1, cem_max_layers},
                      {"heads", T::integer, "", {}, 1, cem_max_heads},
                      {"hidden", T::integer},
                      {"eta", T::number},
                      {"learn_eta", T::boolean},
                      {"batch", T::integer, "", {}, 1, gp_max_batch},
                      {"lr", T::number},
                      {"warmup", T::integer},
                      {"clip_norm", T::number, "", {}, 0, max_clip_norm},
                      {"seed", T::seed}}});
  names.push_back({"gpInputs", {gp_inputs_name(GpInputs::uniform), gp_inputs_name(GpInputs::normal)}});
}

}  // namespace gatelab
