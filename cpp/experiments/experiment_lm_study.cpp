// A study's flags (experiment_lm.hpp): parsed and checked here, applied to an experiment by
// lm_experiment (experiment_lm_variants.cpp). Errors name the flag.
#include <cmath>
#include <cstdlib>
#include <set>

#include "experiment_lm.hpp"

namespace gatelab {
namespace {

const char* const kIntegerFlags[] = {"d", "layers", "heads", "context", "batch", "steps", "seeds", "sweep-seeds"};

bool positive_integer(const std::string& text, int* out) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1 || v > 1000000000L) return false;
  *out = static_cast<int>(v);
  return true;
}

bool positive_number(const std::string& text, float* out) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v) || !(v > 0) || !std::isfinite(float(v)) || !(float(v) > 0)) {
    return false;
  }
  *out = static_cast<float>(v);
  return true;
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(by, start)) != std::string::npos; start = at + 1) {
    parts.push_back(text.substr(start, at - start));
  }
  parts.push_back(text.substr(start));
  return parts;
}

// "0.002,0.004,0.008": positive, finite and increasing (the edges of the grid are its ends).
std::string rate_list(const std::string& text, const std::string& what, std::vector<float>& rates) {
  rates.clear();
  for (const std::string& item : split(text, ',')) {
    float r = 0;
    if (!positive_number(item, &r)) {
      return "--rates: " + what + " must list positive numbers separated by commas (got '" + text + "')";
    }
    if (!rates.empty() && !(r > rates.back())) {
      return "--rates: " + what + " must increase (got '" + text + "')";
    }
    rates.push_back(r);
  }
  return "";
}

}  // namespace

bool lm_is_study_flag(const std::string& name) {
  for (const char* flag : kIntegerFlags) {
    if (name == flag) return true;
  }
  return name == "eta" || name == "variants" || name == "rates";
}

std::string lm_parse_study(const std::vector<std::pair<std::string, std::string>>& flags, LmStudy& study) {
  study = {};
  std::set<std::string> seen;
  std::string default_rates;
  std::vector<std::string> rate_args;
  for (const auto& [name, value] : flags) {
    if (!lm_is_study_flag(name)) continue;
    if (name != "rates" && !seen.insert(name).second) return "--" + name + " is given twice";
    if (name == "eta") {
      if (!positive_number(value, &study.eta)) return "--eta must be a positive number (got '" + value + "')";
    } else if (name == "variants") {
      std::set<std::string> names;
      for (const std::string& v : split(value, ',')) {
        if (v.empty()) return "--variants needs names separated by commas (got '" + value + "')";
        if (!names.insert(v).second) return "--variants names '" + v + "' twice";
        study.variants.push_back(v);
      }
    } else if (name == "rates") {
      const std::size_t eq = value.find('=');
      std::vector<float> rates;
      if (eq == std::string::npos) {
        if (!default_rates.empty()) return "--rates without a variant name is given twice";
        if (std::string e = rate_list(value, "the grid", rates); !e.empty()) return e;
        study.rates = rates;
        default_rates = value;
        continue;
      }
      const std::string variant = value.substr(0, eq);
      if (variant.empty()) return "--rates needs NAME=LIST or LIST (got '" + value + "')";
      for (const auto& earlier : study.variant_rates) {
        if (earlier.first == variant) return "--rates gives " + variant + "'s grid twice";
      }
      if (std::string e = rate_list(value.substr(eq + 1), variant + "'s grid", rates); !e.empty()) return e;
      study.variant_rates.emplace_back(variant, rates);
      rate_args.push_back(value);
    } else {
      int v = 0;
      if (!positive_integer(value, &v)) return "--" + name + " must be a positive integer (got '" + value + "')";
      int* fields[] = {&study.d,     &study.layers, &study.heads, &study.context,
                       &study.batch, &study.steps,  &study.seeds, &study.sweep_seeds};
      for (int i = 0; i < 8; ++i) {
        if (name == kIntegerFlags[i]) *fields[i] = v;
      }
    }
  }
  // The canonical order: what a job records and what the planner writes into its commands.
  const int values[] = {study.d,     study.layers, study.heads, study.context,
                        study.batch, study.steps,  study.seeds, study.sweep_seeds};
  for (int i = 0; i < 8; ++i) {
    if (values[i] > 0)
      study.args.insert(study.args.end(), {std::string("--") + kIntegerFlags[i], std::to_string(values[i])});
  }
  for (const char* flag : {"eta", "variants"}) {
    for (const auto& [name, value] : flags) {
      if (name == flag) study.args.insert(study.args.end(), {"--" + name, value});
    }
  }
  if (!default_rates.empty()) study.args.insert(study.args.end(), {"--rates", default_rates});
  for (const std::string& r : rate_args) study.args.insert(study.args.end(), {"--rates", r});
  return "";
}

}  // namespace gatelab
