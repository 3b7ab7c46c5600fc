// The train area's entry points and their options (gatelab/base/option_list.hpp).
#pragma once

#include "gatelab/base/option_list.hpp"

namespace gatelab {

void add_train_options(OptionEntries& entries, NameSets& names);

}  // namespace gatelab
