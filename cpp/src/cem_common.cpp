// The shared pieces of cem_common.hpp: option names and parsing, and the row/pointer check
// every CEM call starts with.
#include "gatelab/cem_common.hpp"

namespace gatelab {

const char* cem_diagonal_name(CemDiagonal v) {
  switch (v) {
    case CemDiagonal::none: return "none";
    case CemDiagonal::per_head: return "per_head";
    case CemDiagonal::shared: return "shared";
  }
  return "none";
}

const char* cem_precond_name(CemPrecond v) {
  switch (v) {
    case CemPrecond::none: return "none";
    case CemPrecond::paper: return "paper";
    case CemPrecond::psd: return "psd";
  }
  return "none";
}

const char* cem_family_name(CemFamily v) { return v == CemFamily::cem ? "cem" : "standard"; }

std::optional<CemDiagonal> parse_cem_diagonal(std::string_view name) {
  for (CemDiagonal v : {CemDiagonal::none, CemDiagonal::per_head, CemDiagonal::shared}) {
    if (name == cem_diagonal_name(v)) return v;
  }
  return std::nullopt;
}

std::optional<CemPrecond> parse_cem_precond(std::string_view name) {
  for (CemPrecond v : {CemPrecond::none, CemPrecond::paper, CemPrecond::psd}) {
    if (name == cem_precond_name(v)) return v;
  }
  return std::nullopt;
}

std::optional<CemFamily> parse_cem_family(std::string_view name) {
  for (CemFamily v : {CemFamily::cem, CemFamily::standard}) {
    if (name == cem_family_name(v)) return v;
  }
  return std::nullopt;
}

std::string cem_check_call(int n, const void* in, const void* out) {
  if (n < 1 || n > cem_max_rows) {
    return "n must be in 1…" + std::to_string(cem_max_rows) + " (n = " + std::to_string(n) + ")";
  }
  if (in == nullptr || out == nullptr) return "input and output pointers must not be null";
  return "";
}

}  // namespace gatelab
