// Shared vocabulary of the Paper-B (Causal Energy Minimization, MATH.md B) code: the size
// caps every config is validated against, the option enums with their names, and
// CemParamView, a named (value, grad, size) window onto one parameter tensor that lets the
// bindings, the tests and the Adam optimizer treat every layer's parameters alike.
// Every CEM class is a template on the scalar S: S = float is the library (CemAttention,
// CemMlp, …); S = double exists so the tests can check gradients by finite differences.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatelab/base/activations.hpp"

namespace gatelab {

// Documented caps: a config or a call beyond them is refused with a message, before
// anything is allocated.
inline constexpr int cem_max_d = 1024;          // model width d
inline constexpr int cem_max_rows = 4096;       // tokens n per call
inline constexpr int cem_max_steps = 16;        // recursive steps T (MATH.md B6)
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

// Diagonal of the interaction matrix A_k = diag(d_k) + W_Q^kᵀ W_K^k (MATH.md B4).
enum class CemDiagonal { none, per_head, shared };
// Preconditioner P (MATH.md B5): none = I; paper = diag(softplus(p)) + UVᵀ + VUᵀ;
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

// One parameter tensor, row-major, rows × cols = size (a vector has rows = 1). value and
// grad point into the owning object and stay valid while it lives and is not reconfigured.
template <class S>
struct CemParamView {
  std::string name;  // e.g. "wq", "block1.attn.wk"
  S* value = nullptr;
  S* grad = nullptr;
  std::size_t size = 0;
  int rows = 0;
  int cols = 0;
};

template <class S>
std::size_t cem_count_parameters(const std::vector<CemParamView<S>>& views) {
  std::size_t total = 0;
  for (const auto& v : views) total += v.size;
  return total;
}

// Copies every value from src into dst (same names and sizes, any scalar types).
template <class D, class S>
std::string cem_copy_parameters(const std::vector<CemParamView<D>>& dst, const std::vector<CemParamView<S>>& src) {
  if (dst.size() != src.size()) return "parameter lists differ in length";
  for (std::size_t i = 0; i < dst.size(); ++i) {
    if (dst[i].name != src[i].name || dst[i].size != src[i].size) {
      return "parameter " + dst[i].name + " does not match " + src[i].name;
    }
    for (std::size_t j = 0; j < dst[i].size; ++j) dst[i].value[j] = static_cast<D>(src[i].value[j]);
  }
  return "";
}

template <class S>
const CemParamView<S>* cem_find_parameter(const std::vector<CemParamView<S>>& views, std::string_view name) {
  for (const auto& v : views) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

// Overwrites the named parameter with size values from data.
template <class S>
std::string cem_set_parameter(const std::vector<CemParamView<S>>& views, std::string_view name, const S* data,
                              std::size_t size) {
  const CemParamView<S>* v = cem_find_parameter(views, name);
  if (v == nullptr) return "no parameter named " + std::string(name);
  if (size != v->size || data == nullptr) {
    return "parameter " + v->name + " needs " + std::to_string(v->size) + " values, got " + std::to_string(size);
  }
  for (std::size_t j = 0; j < size; ++j) v->value[j] = data[j];
  return "";
}

// Checks a row count and the pointers of a call; "" when fine.
std::string cem_check_call(int n, const void* in, const void* out);

// The config checks the CEM layers share with their standard baselines, "" when fine:
// width and heads of an attention (CemAttention, CemStdAttention) …
std::string cem_validate_heads(int d, int heads);
// … and width, hidden width and activation of a gated MLP (CemMlp, CemSwiGlu).
std::string cem_validate_gated_mlp(int d, int hidden, const ActivationSpec& activation);
// The energy descent of both CEM layers: steps T and step size η.
std::string cem_validate_descent(int steps, float eta);

}  // namespace gatelab
