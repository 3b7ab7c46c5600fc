// Embind registration of the option catalogue: every area's entry points with their options
// (gatelab/<area>/options.hpp) and the name sets, as the core's JSON in the JS API's spellings
// (js_names). scripts/catalogue.mjs writes it into web/lib/catalogue.js.
#include "bind_common.hpp"

#include "gatelab/cem/options.hpp"
#include "gatelab/gp/options.hpp"
#include "gatelab/paper_a/options.hpp"
#include "gatelab/train/options.hpp"

using namespace emscripten;
using namespace gatelab;
using namespace gatelab::bind;

EMSCRIPTEN_BINDINGS(gatelab_catalogue) {
  function(
      "_optionCatalogue", +[] {
        OptionEntries entries;
        NameSets names;
        for (auto add : {add_base_options, add_paper_a_options, add_cem_options, add_train_options, add_gp_options}) {
          add(entries, names);
        }
        return option_catalogue_json(entries, names, js_names());
      });
}
