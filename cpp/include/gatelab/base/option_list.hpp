// The options an entry point of the API takes, by name and type: what the JS API refuses an
// unknown name from (an option outside the list is a typo, never silently ignored). Each area
// lists its own entry points (gatelab/<area>/options.hpp); scripts/catalogue.mjs writes them,
// with the name sets, into web/lib/core/catalogue.js, which the library and the figures import.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "gatelab/base/status.hpp"

namespace gatelab {

enum class OptionType { integer, number, boolean, name, seed, list, floats, object, handle, text };
const char* option_type_name(OptionType type);

struct OptionField {
  std::string name;  // the core's snake_case name; the API spells it in camelCase
  OptionType type;
  // name: the name set its value comes from ("kinds", "activations" …); object or list of
  // objects: the entry that lists the nested object's fields.
  std::string of = {};
  // The core's value when the option is omitted, as JSON text (default_number, default_flag,
  // default_name), read from a default-constructed config so the number lives once; "" when the
  // option has none (required, or its default depends on other options).
  std::string def = {};
  // The closed range the core checks, when it is a fixed one (NaN: none, or one that depends on
  // other options, like a rank up to d_in). The core's checks and these read the same constants.
  double min = std::numeric_limits<double>::quiet_NaN();
  double max = std::numeric_limits<double>::quiet_NaN();
};

struct OptionEntry {
  std::string name;  // the entry's camelCase key in the catalogue ("createLayer", "lm.createSession")
  std::vector<OptionField> fields;
};
using OptionEntries = std::vector<OptionEntry>;

// A named set of values an option takes (kinds, activations …), in the core's order.
struct NameSet {
  std::string name;
  std::vector<std::string> values;
};
using NameSets = std::vector<NameSet>;

// A default's JSON text: a number (the shortest text that reads back as v, as a float when v is
// one, so 0.01f is 0.01), a boolean, a name (renamed to the API's spelling in the JSON).
std::string default_number(double v);
std::string default_flag(bool v);
std::string default_name(const std::string& name);

// The catalogue as JSON: {"entries": {entry: {option: {"type", "of"[, "default"][, "min", "max"]}}}, "names": {set:
// [value …]}}, option names in camelCase and values renamed by `renames` (the API's spellings).
std::string option_catalogue_json(const OptionEntries& entries, const NameSets& names, const NameMap& renames);

// The base area's entries (activation curves, the exchange plane) and name sets.
void add_base_options(OptionEntries& entries, NameSets& names);

}  // namespace gatelab
