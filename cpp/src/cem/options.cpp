// Paper B's layer makers (lab.cem.create*) and the energy grid of a CEM layer (docs/MATH.md §B).
#include "gatelab/cem/options.hpp"

#include "gatelab/cem/common.hpp"

namespace gatelab {

void add_cem_options(OptionEntries& entries, NameSets& names) {
  using T = OptionType;
  const OptionField precond = {"precond", T::name, "preconditioners"};
  const OptionField precond_rank = {"precond_rank", T::integer};
  entries.push_back({"cem.createAttention",
                     {{"d", T::integer},
                      {"heads", T::integer},
                      {"steps", T::integer},
                      {"eta", T::number},
                      {"beta", T::number},
                      {"diagonal", T::name, "diagonals"},
                      precond,
                      precond_rank,
                      {"seed", T::seed}}});
  entries.push_back({"cem.createMlp",
                     {{"d", T::integer},
                      {"hidden", T::integer},
                      {"steps", T::integer},
                      {"eta", T::number},
                      {"activation", T::name, "activations"},
                      {"beta", T::number},
                      precond,
                      precond_rank,
                      {"seed", T::seed}}});
  entries.push_back({"cem.createStandardAttention",
                     {{"d", T::integer}, {"heads", T::integer}, {"beta", T::number}, {"seed", T::seed}}});
  entries.push_back({"cem.createGatedMlp",
                     {{"d", T::integer},
                      {"hidden", T::integer},
                      {"activation", T::name, "activations"},
                      {"beta", T::number},
                      {"seed", T::seed}}});
  entries.push_back(
      {"cem.energyGrid",
       {{"min", T::number}, {"max", T::number}, {"G", T::integer}, {"origin", T::floats}, {"axes", T::floats}}});

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
