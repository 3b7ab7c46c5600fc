// The shared pieces of cem/common.hpp: option names and parsing, the row/pointer check
// every CEM call starts with, and the config checks the layers share with the baselines.
#include "gatelab/cem/common.hpp"

#include <algorithm>

#include "cem/math.hpp"

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

int cem_default_precond_rank(CemPrecond precond, int d) {
  return precond == CemPrecond::none ? 0 : std::min(2, std::max(0, d));
}

const char* cem_family_name(CemFamily v) { return v == CemFamily::cem ? "cem" : "standard"; }

std::optional<CemDiagonal> parse_cem_diagonal(std::string_view name) {
  return optional_from<CemDiagonal>([&](CemDiagonal& v) { return parse_cem_diagonal(name, v); });
}

std::optional<CemPrecond> parse_cem_precond(std::string_view name) {
  return optional_from<CemPrecond>([&](CemPrecond& v) { return parse_cem_precond(name, v); });
}

std::optional<CemFamily> parse_cem_family(std::string_view name) {
  return optional_from<CemFamily>([&](CemFamily& v) { return parse_cem_family(name, v); });
}

Status parse_cem_diagonal(std::string_view name, CemDiagonal& out) {
  return parse_choice(name == "per-head" ? "per_head" : name, "diagonal",
                      {CemDiagonal::none, CemDiagonal::per_head, CemDiagonal::shared}, cem_diagonal_name, out);
}
Status parse_cem_precond(std::string_view name, CemPrecond& out) {
  return parse_choice(name, "precond", {CemPrecond::none, CemPrecond::paper, CemPrecond::psd}, cem_precond_name, out);
}
Status parse_cem_family(std::string_view name, CemFamily& out) {
  return parse_choice(name, "family", {CemFamily::cem, CemFamily::standard}, cem_family_name, out);
}

Status cem_check_call(int n, const void* in, const void* out) {
  if (n < 1 || n > cem_max_rows) {
    return out_of_range("n", "n must be in 1…" + std::to_string(cem_max_rows) + " (n = " + std::to_string(n) + ")");
  }
  if (in == nullptr || out == nullptr) return invalid_value("", "input and output pointers must not be null");
  return {};
}

Status cem_check_trajectory(int n, int d, int steps) {
  if (std::size_t(steps + 1) * std::size_t(n) * std::size_t(d) > cem_max_tensor_floats) {
    return out_of_range("n", "n·d·(steps + 1) must be at most " + std::to_string(cem_max_tensor_floats) +
                                 " (n = " + std::to_string(n) + ")");
  }
  return {};
}

Status parse_cem_activation(std::string_view name, float swish_beta, ActivationSpec& out) {
  Activation a{};
  if (Status e = parse_activation(name, "activation", a); !e.ok()) return e;
  out = {a, a == Activation::swish ? swish_beta : 1.0f};
  return {};
}

Status cem_validate_heads(int d, int heads) {
  if (d < 1 || d > cem_max_d)
    return out_of_range("d", "d must be in 1…" + std::to_string(cem_max_d) + " (d = " + std::to_string(d) + ")");
  if (heads < 1 || heads > cem_max_heads) {
    return out_of_range(
        "heads", "heads must be in 1…" + std::to_string(cem_max_heads) + " (heads = " + std::to_string(heads) + ")");
  }
  if (d % heads != 0)
    return invalid_value("heads",
                         "heads must divide d (d = " + std::to_string(d) + ", heads = " + std::to_string(heads) + ")");
  return {};
}

Status cem_validate_gated_mlp(int d, int hidden, const ActivationSpec& activation) {
  if (d < 1 || d > cem_max_d)
    return out_of_range("d", "d must be in 1…" + std::to_string(cem_max_d) + " (d = " + std::to_string(d) + ")");
  if (hidden < 1 || hidden > cem_max_hidden) {
    return out_of_range("hidden", "hidden must be in 1…" + std::to_string(cem_max_hidden) +
                                      " (hidden = " + std::to_string(hidden) + ")");
  }
  const int kind = static_cast<int>(activation.kind);
  if (kind < 0 || kind >= activation_count) {
    return invalid_value("activation",
                         "activation must be one of the " + std::to_string(activation_count) + " catalogue entries");
  }
  if (activation.kind == Activation::swish && !(activation.beta > 0.0f && activation.beta <= cem_max_swish_beta)) {
    return out_of_range("activation.beta", "activation.beta must be in (0, " + std::to_string(cem_max_swish_beta) +
                                               "] for swish (beta = " + std::to_string(activation.beta) + ")");
  }
  return {};
}

Status cem_validate_descent(int steps, float eta) {
  if (steps < 1 || steps > cem_max_steps) {
    return out_of_range(
        "steps", "steps must be in 1…" + std::to_string(cem_max_steps) + " (steps = " + std::to_string(steps) + ")");
  }
  if (!(eta > 0.0f && eta <= cem_max_eta)) {
    return out_of_range("eta",
                        "eta must be in (0, " + std::to_string(cem_max_eta) + "] (eta = " + std::to_string(eta) + ")");
  }
  return {};
}

double cem_eta_from_theta(double theta) { return cem_detail::softplus(theta); }

// softplus⁻¹(η) = log(e^η − 1) = η + log(1 − e^{−η}), the second form exact for large η.
double cem_theta_from_eta(double eta) { return eta + cem_detail::log1p(-cem_detail::exp(-eta)); }

}  // namespace gatelab
