// Paper B's layer makers (lab.cem.create*) and the energy grid of a CEM layer (docs/MATH.md §B).
// Ranges are the constants cem/common.cpp checks; defaults are read from default-constructed configs
// and, where the API's differ from a config's (heads, the activations), from CemApiDefaults.
#include "gatelab/cem/options.hpp"

#include "gatelab/cem/attention.hpp"
#include "gatelab/cem/common.hpp"
#include "gatelab/cem/mlp.hpp"
#include "gatelab/cem/probes.hpp"

namespace gatelab {

void add_cem_options(OptionEntries& entries, NameSets& names) {
  using T = OptionType;
  const CemAttentionConfig attention;
  const CemMlpConfig mlp;
  const CemApiDefaults api;
  const OptionField d = {"d", T::integer, "", {}, 1, cem_max_d};
  const OptionField heads = {"heads", T::integer, "", default_number(api.heads), 1, cem_max_heads};
  const OptionField hidden = {"hidden", T::integer, "", {}, 1, cem_max_hidden};
  // β = 0 is the config's "1/√d_h"; the API leaves β out for it, so no default is stated.
  const OptionField beta = {"beta", T::number, "", {}, 0, cem_max_beta};
  const OptionField seed = {"seed", T::seed, "", default_number(double(attention.seed))};
  const OptionField precond = {"precond", T::name, "preconditioners",
                               default_name(cem_precond_name(attention.precond))};
  // The rank's range and default depend on d and precond (cem_default_precond_rank), so neither is stated.
  const OptionField precond_rank = {"precond_rank", T::integer};
  // β of a swish activation; the makers refuse it for any other activation.
  const OptionField swish_beta = {"beta", T::number, "", default_number(api.swish_beta)};
  const auto activation = [](Activation a) {
    return OptionField{"activation", T::name, "activations", default_name(activation_name(a))};
  };
  entries.push_back({"cem.createAttention",
                     {d,
                      heads,
                      {"steps", T::integer, "", default_number(attention.steps), 1, cem_max_steps},
                      {"eta", T::number, "", default_number(attention.eta)},
                      beta,
                      {"diagonal", T::name, "diagonals", default_name(cem_diagonal_name(attention.diagonal))},
                      precond,
                      precond_rank,
                      seed}});
  entries.push_back({"cem.createMlp",
                     {d,
                      hidden,
                      {"steps", T::integer, "", default_number(mlp.steps), 1, cem_max_steps},
                      {"eta", T::number, "", default_number(mlp.eta)},
                      activation(api.mlp_activation),
                      swish_beta,
                      precond,
                      precond_rank,
                      seed}});
  entries.push_back({"cem.createStandardAttention", {d, heads, beta, seed}});
  entries.push_back({"cem.createGatedMlp", {d, hidden, activation(api.gated_mlp_activation), swish_beta, seed}});
  entries.push_back({"cem.energyGrid",
                     {{"min", T::number},
                      {"max", T::number},
                      {"G", T::integer, "", {}, 2, cem_max_grid},
                      {"origin", T::floats},
                      {"axes", T::floats}}});

  // A module's drawParams(names, options): the generator's seed and the draws' scale.
  entries.push_back({"cem.drawParams", {{"seed", T::seed}, {"scale", T::number}}});
  names.push_back({"diagonals", {}});
  for (CemDiagonal v : {CemDiagonal::none, CemDiagonal::per_head, CemDiagonal::shared})
    names.back().values.push_back(cem_diagonal_name(v));
  names.push_back({"preconditioners", {}});
  for (CemPrecond v : {CemPrecond::none, CemPrecond::paper, CemPrecond::psd})
    names.back().values.push_back(cem_precond_name(v));
  names.push_back({"families", {}});
  for (CemFamily v : {CemFamily::cem, CemFamily::standard}) names.back().values.push_back(cem_family_name(v));
}

}  // namespace gatelab
