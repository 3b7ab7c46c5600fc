// The activation catalogue of MATH.md A10: value, derivative, antiderivative where it
// has a closed form, and the positive-homogeneity degree.
//
// Every function here is built from +, −, ×, ÷, sqrt and bit manipulation only (see
// fastmath.hpp), never from the C library, so a given input gives the same bits natively
// and in WebAssembly. The array forms process 4 lanes at a time; the scalar forms run
// the same lane code, so scalar and array results agree bit for bit.
//
// Accuracy: values and derivatives within 1e-6 relative of the exact function of the
// float input (a few ulps absolute where a derivative crosses zero); magnitudes below
// about 1e-38 may flush to zero. At a kink (relu, leaky_relu at 0) the derivative is the
// left one. swish with β = 1 gives exactly silu's bits.
#pragma once

#include "gatelab/base/status.hpp"

#include <cstddef>
#include <optional>
#include <string_view>

namespace gatelab {

enum class Activation { identity, relu, leaky_relu, relu2, gelu, gelu_tanh, silu, swish, sigmoid, tanh, softplus };

inline constexpr int activation_count = 11;
inline constexpr float leaky_relu_slope = 0.01f;

// An activation with its parameter (beta is used by swish only: swish(z) = z·sigmoid(βz)).
struct ActivationSpec {
  Activation kind = Activation::relu;
  float beta = 1.0f;
};

const char* activation_name(Activation a);
// How readers know it: "SiLU", "GELU (tanh)", "ReLU²" …; and a short form for narrow axes
// ("sigm", "softp", "GELUₜ" …). The one table every figure reads (through lab.activationInfo).
const char* activation_label(Activation a);
const char* activation_short_label(Activation a);
std::optional<Activation> parse_activation(std::string_view name);
// The same as a status naming field when the name is not in the catalogue.
Status parse_activation(std::string_view name, std::string_view field, Activation& out);
Activation activation_by_index(int i);  // 0 … activation_count-1, catalogue order (else identity)

// Degree p with σ(αz) = αᵖσ(z) for all α > 0 and z, if one exists (identity, relu,
// leaky_relu: 1; relu2: 2); nothing for the others.
std::optional<int> homogeneity_degree(Activation a);
bool is_linear(Activation a);           // σ(z) = c·z for a constant c
bool has_antiderivative(Activation a);  // Φ with Φ' = σ in closed form (MATH.md B3)

float activation_value(ActivationSpec s, float z);
float activation_derivative(ActivationSpec s, float z);
// Φ(z) with Φ' = σ and Φ(0) = 0 exactly, in double (libm-free, so also the same bits
// everywhere); NaN where !has_antiderivative(kind).
double activation_antiderivative(ActivationSpec s, double z);

// out[i] = σ(z[i]); out may alias z.
void activation_forward(ActivationSpec s, const float* z, float* out, std::size_t n);
// out[i] = σ'(z[i]); out may alias z.
void activation_backward(ActivationSpec s, const float* z, float* out, std::size_t n);

}  // namespace gatelab
