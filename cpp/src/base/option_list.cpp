// The base area's option lists: the sampling grid of lab.activationCurve and of
// lab.symmetry.exchangePlane (docs/MATH.md §A10), and the load options of the module.
#include "gatelab/base/option_list.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "gatelab/base/activations.hpp"

namespace gatelab {

const char* option_type_name(OptionType type) {
  switch (type) {
    case OptionType::integer: return "integer";
    case OptionType::number: return "number";
    case OptionType::boolean: return "boolean";
    case OptionType::name: return "name";
    case OptionType::seed: return "seed";
    case OptionType::list: return "list";
    case OptionType::floats: return "floats";
    case OptionType::object: return "object";
    case OptionType::handle: return "handle";
    case OptionType::text: return "text";
  }
  return "unknown";
}

namespace {

// s as a JSON string; the names and labels hold no quote, backslash or control character, but
// a quote or backslash is escaped all the same.
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string json_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

std::string renamed_value(const std::string& name, const NameMap& renames) {
  for (const auto& [from, to] : renames) {
    if (from == name) return to;
  }
  return name;
}

}  // namespace

std::string default_number(double v) {
  // A float member's value is exactly a float: the shortest text whose float is that float (what
  // the JS API passes crosses as that same float); else the shortest text whose double is v.
  const bool single = std::isfinite(v) && static_cast<double>(static_cast<float>(v)) == v;
  char text[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    const double back = std::strtod(text, nullptr);
    if (single ? static_cast<float>(back) == static_cast<float>(v) : back == v) break;
  }
  return text;
}

std::string default_flag(bool v) { return v ? "true" : "false"; }

std::string default_name(const std::string& name) { return json_string(name); }

std::string option_catalogue_json(const OptionEntries& entries, const NameSets& names, const NameMap& renames) {
  std::string out = "{\"entries\":{";
  for (std::size_t e = 0; e < entries.size(); ++e) {
    out += (e ? "," : "") + json_string(entries[e].name) + ":{";
    for (std::size_t i = 0; i < entries[e].fields.size(); ++i) {
      const OptionField& f = entries[e].fields[i];
      out += (i ? "," : "") + json_string(camel_case(f.name)) + ":{\"type\":" + json_string(option_type_name(f.type));
      if (!f.of.empty()) out += ",\"of\":" + json_string(f.of);
      if (!f.def.empty()) {
        // A name default is spelled as the API spells the name set's values.
        const bool name = f.def.front() == '"';
        out +=
            ",\"default\":" + (name ? json_string(renamed_value(f.def.substr(1, f.def.size() - 2), renames)) : f.def);
      }
      if (!std::isnan(f.min)) out += ",\"min\":" + json_number(f.min) + ",\"max\":" + json_number(f.max);
      out += "}";
    }
    out += "}";
  }
  out += "},\"names\":{";
  for (std::size_t n = 0; n < names.size(); ++n) {
    out += (n ? "," : "") + json_string(names[n].name) + ":[";
    for (std::size_t i = 0; i < names[n].values.size(); ++i) {
      out += (i ? "," : "") + json_string(renamed_value(names[n].values[i], renames));
    }
    out += "]";
  }
  return out + "}}";
}

void add_base_options(OptionEntries& entries, NameSets& names) {
  using T = OptionType;
  std::vector<OptionField> grid = {{"min", T::number}, {"max", T::number}, {"n", T::integer}, {"beta", T::number}};
  entries.push_back({"activationCurve", grid});
  // The plane of a symmetrized layer (§A16) takes the layer's λ as well.
  grid.push_back({"symmetrize", T::number});
  entries.push_back({"symmetry.exchangePlane", grid});
  entries.push_back({"loadGateLab", {{"wasm_url", T::text}}});

  NameSet activations{"activations", {}};
  for (int i = 0; i < activation_count; ++i) activations.values.push_back(activation_name(activation_by_index(i)));
  names.push_back(std::move(activations));
}

}  // namespace gatelab
