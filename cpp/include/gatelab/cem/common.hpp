// Shared vocabulary of the Paper-B (Causal Energy Minimization, docs/MATH.md part B) code: the size
// caps every config is validated against and the option enums with their names. Parameters
// are exposed as ParamView lists (base/param_view.hpp), like every layer's.
// Every CEM class is a template on the scalar S: S = float is the library (CemAttention,
// CemMlp, …); S = double exists so the tests can check gradients by finite differences.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gatelab/base/activations.hpp"
#include "gatelab/base/param_view.hpp"

namespace gatelab {

// Documented caps: a config or a call beyond them is refused with a message, before
// anything is allocated.
inline constexpr int cem_max_d = 1024;     // model width d
inline constexpr int cem_max_rows = 4096;  // tokens n per call
inline constexpr int cem_max_steps = 16;   // recursive steps T (docs/MATH.md §B6)
inline constexpr int cem_max_heads = 64;
inline constexpr int cem_max_hidden = 8192;     // MLP hidden width M
inline constexpr int cem_max_rank = 64;         // preconditioner rank r
inline constexpr int cem_max_layers = 16;       // transformer blocks L
inline constexpr int cem_max_io = 4096;         // transformer d_in, d_out
inline constexpr float cem_max_eta = 100.0f;    // step size η
inline constexpr float cem_max_beta = 1000.0f;  // inverse temperature β
inline constexpr float cem_max_swish_beta = 100.0f;
// Largest single work tensor of one call (n·M, n·n, n·d·(L+1) …): 2^25 floats = 128 MB.
inline constexpr std::size_t cem_max_tensor_floats = std::size_t{1} << 25;

// Diagonal of the interaction matrix A_k = diag(d_k) + W_Q^kᵀ W_K^k (docs/MATH.md §B4).
enum class CemDiagonal { none, per_head, shared };
// Preconditioner P (docs/MATH.md §B5): none = I; paper = diag(softplus(p)) + UVᵀ + VUᵀ;
// psd = diag(softplus(p)) + UUᵀ.
enum class CemPrecond { none, paper, psd };
// Transformer block family: CEM layers or the standard (untied attention + SwiGLU) baseline.
enum class CemFamily { cem, standard };

const char* cem_diagonal_name(CemDiagonal v);
const char* cem_precond_name(CemPrecond v);
const char* cem_family_name(CemFamily v);
std::optional<CemDiagonal> parse_cem_diagonal(std::string_view name);
std::optional<CemPrecond> parse_cem_precond(std::string_view name);
std::optional<CemFamily> parse_cem_family(std::string_view name);
// The same as statuses naming the option ("diagonal", "precond", "family"). The diagonal also
// takes the JS API's spelling 'per-head' beside the core's 'per_head'.
Status parse_cem_diagonal(std::string_view name, CemDiagonal& out);
Status parse_cem_precond(std::string_view name, CemPrecond& out);
Status parse_cem_family(std::string_view name, CemFamily& out);

// Checks a row count and the pointers of a call; ok when fine.
Status cem_check_call(int n, const void* in, const void* out);
// Checks that a trajectory of n tokens of width d over T steps, (T+1)·n·d floats, fits the
// work-tensor cap; ok when fine.
Status cem_check_trajectory(int n, int d, int steps);

// What lab.cem's layer makers use for an omitted option, beside the configs' own defaults (steps,
// η, diagonal, preconditioner, seed); the catalogue states them and web/lib/cem/cem.js reads them
// there. The tied MLP defaults to ReLU, the standard gated MLP to SiLU (SwiGLU).
struct CemApiDefaults {
  int heads = 1;
  Activation mlp_activation = Activation::relu;
  Activation gated_mlp_activation = Activation::silu;
  float swish_beta = 1.0f;
};
// The preconditioner rank a layer maker uses when none is given: 0 without a preconditioner, else
// min(2, d) (d ≥ 0).
int cem_default_precond_rank(CemPrecond precond, int d);

// The activation of a CEM MLP from its catalogue name: swish keeps swish_beta, every other
// activation has no parameter (beta 1). ok or a status naming the activation.
Status parse_cem_activation(std::string_view name, float swish_beta, ActivationSpec& out);

// The config checks the CEM layers share with their standard baselines, ok when fine:
// width and heads of an attention (CemAttention, CemStdAttention) …
Status cem_validate_heads(int d, int heads);
// … and width, hidden width and activation of the tied CEM MLP.
Status cem_validate_gated_mlp(int d, int hidden, const ActivationSpec& activation);
// The energy descent of both CEM layers: steps T and step size η.
Status cem_validate_descent(int steps, float eta);

// The learned step size of both CEM layers (docs/MATH.md §B14): η = softplus(θ), and the θ
// that gives a starting η (softplus⁻¹, for 0 < η ≤ cem_max_eta). Libm-free double math.
double cem_eta_from_theta(double theta);
double cem_theta_from_eta(double eta);
// θ's view "eta" of a layer that learns η (1 × 1, not weight-decayed), appended to out.
template <class S>
void cem_eta_view(S* theta, S* grad, std::vector<ParamView<S>>& out) {
  out.push_back({"eta", theta, grad, 1, 1, 1, false});
}
// A layer's θ and its gradient: one entry at softplus⁻¹(eta) when it learns η, else none.
template <class S>
void cem_eta_init(bool learn, float eta, xt::xtensor<S, 1>& theta, xt::xtensor<S, 1>& grad) {
  const std::size_t n = learn ? 1 : 0;
  theta = xt::xtensor<S, 1>::from_shape({n});
  theta.fill(static_cast<S>(cem_theta_from_eta(eta)));
  grad = xt::zeros<S>({n});
}
// The η of a step: softplus(θ) when learned, else the configured eta.
template <class S>
S cem_step_size(const xt::xtensor<S, 1>& theta, float eta) {
  if (theta.size() == 0) return static_cast<S>(eta);
  return static_cast<S>(cem_eta_from_theta(static_cast<double>(theta(0))));
}

}  // namespace gatelab
