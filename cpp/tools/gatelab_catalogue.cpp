// Prints the option catalogue as JSON: every area's entry points with their options
// (gatelab/<area>/options.hpp) and the name sets, in the JS API's spellings (api_names).
// scripts/catalogue.mjs writes it into web/lib/catalogue.js. A native build-time tool, so the
// catalogue's tables stay out of the shipped wasm module (they cost it ~28 KB gzip).
#include <cstdio>

#include "gatelab/base/option_list.hpp"
#include "gatelab/cem/options.hpp"
#include "gatelab/gp/options.hpp"
#include "gatelab/paper_a/options.hpp"
#include "gatelab/train/options.hpp"

int main() {
  using namespace gatelab;
  OptionEntries entries;
  NameSets names;
  for (auto add : {add_base_options, add_paper_a_options, add_cem_options, add_train_options, add_gp_options}) {
    add(entries, names);
  }
  const std::string json = option_catalogue_json(entries, names, api_names());
  std::fwrite(json.data(), 1, json.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}
