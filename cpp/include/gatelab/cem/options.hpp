// The cem area's entry points and their options (gatelab/base/option_list.hpp).
#pragma once

#include "gatelab/base/option_list.hpp"

namespace gatelab {

void add_cem_options(OptionEntries& entries, NameSets& names);

}  // namespace gatelab
