// Energy probes of the CEM layers beyond their members (docs/MATH.md §B15): the energy of one
// token's variable over a G × G grid of a 2-D slice of R^d, the landscape the paper-B figures
// draw. The members energy(), energy_gradient(), energy_trace(), trajectory() and
// precond_spectrum() are the other probes.
#pragma once

#include "gatelab/base/status.hpp"
#include <string>

#include "gatelab/cem/attention.hpp"
#include "gatelab/cem/mlp.hpp"

namespace gatelab {

// Largest side G of an energy grid (G × G energy evaluations in one call).
inline constexpr int cem_max_grid = 512;

// The plane y = origin + u·a₀ + v·a₁ sampled at u_c = lo + (hi − lo)·c/(G − 1), v_r likewise.
struct CemSlice {
  const float* origin = nullptr;  // (d)
  const float* axes = nullptr;    // (2, d): a₀ then a₁
  float lo = -3.0f, hi = 3.0f;
  int g = 64;
};

// out: (G, G), row r, column c = ε(origin + u_c·a₀ + v_r·a₁ | context of token i), each point
// rounded to float before the energy is taken (as a float layer's variable is). h: (n, d).
Status cem_energy_grid(const CemAttention& layer, const float* h, int n, int i, const CemSlice& slice, double* out);
Status cem_energy_grid(const CemMlp& layer, const float* h, int n, int i, const CemSlice& slice, double* out);

// The probes in float32, as web/lib reads them: the double results rounded once each, with the
// same checks and statuses (a null out reaches the probe as null, so the refusal is its own).
// L is CemAttention or CemMlp. out, in floats: gradient (d), trace (n, T + 1), grid (G, G),
// preconditioner P (d, d) row-major, its spectrum (d) ascending.
template <class L>
Status energy_gradient_f32(const L& layer, const float* h, int n, int i, const float* y, float* out);
template <class L>
Status energy_trace_f32(const L& layer, const float* h, int n, float* out);
template <class L>
Status energy_grid_f32(const L& layer, const float* h, int n, int i, const CemSlice& slice, float* out);
template <class L>
Status precond_dense_f32(const L& layer, float* out);
template <class L>
Status precond_spectrum_f32(const L& layer, float* out);

}  // namespace gatelab
