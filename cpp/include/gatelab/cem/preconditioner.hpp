// The learned lightweight preconditioner of docs/MATH.md §B5, shared by CEM attention and MLP:
//   none   P = I
//   paper  P = diag(softplus(p)) + U Vᵀ + V Uᵀ   (symmetric, not positive definite in general)
//   psd    P = diag(softplus(p)) + U Uᵀ          (positive definite; V is not a parameter)
// with p ∈ R^d and U, V ∈ R^{d×r}. A step applies P to each token's gradient; since P is
// symmetric, on rows (tokens) that is G·P. Also: the dense P, its smallest eigenvalue
// (eigen.hpp's cyclic Jacobi), and the backward of the application.
//
// Initialisation [choice, differs from "U = V = 0"]: P = UVᵀ + VUᵀ has zero gradient in both U
// and V at U = V = 0 (and UUᵀ at U = 0), so a zero start could never learn the low-rank part.
// paper: p = log(e − 1), U ~ N(0, 1/d), V = 0  → P = I exactly, and dL/dV ≠ 0.
// psd:   p = log(e − 1), U ~ 0.1·N(0, 1/d)     → P = I + UUᵀ, close to I.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gatelab/cem/common.hpp"
#include "gatelab/base/rng.hpp"

namespace gatelab {

template <class S>
struct CemPrecondParamsT {
  xt::xtensor<S, 1> p;  // (d); empty for none
  xt::xtensor<S, 2> u;  // (d, r); (0, 0) for none
  xt::xtensor<S, 2> v;  // (d, r) for paper; (0, 0) for none and psd
};

// ok when kind is one of the three and 0 ≤ rank ≤ min(d, cem_max_rank), else which is not.
Status cem_precond_validate(CemPrecond kind, int rank, int d);

// Shapes for kind, d and rank, all zero.
template <class S>
CemPrecondParamsT<S> cem_precond_zeros(CemPrecond kind, int d, int rank);

// The initial parameters described above (draws U from rng for paper and psd).
template <class S>
CemPrecondParamsT<S> cem_precond_init(CemPrecond kind, int d, int rank, Pcg32& rng);

// out (n×d) = g (n×d) · P. out must not alias g.
template <class S>
void cem_precond_apply(CemPrecond kind, const CemPrecondParamsT<S>& params, const S* g, int n, int d, S* out);

// Backward of out = g·P, given dout = dL/d(out) (n×d): writes dg = dout·P (skipped when
// null) and adds dL/dp, dL/dU, dL/dV to grads.
template <class S>
void cem_precond_backward(CemPrecond kind, const CemPrecondParamsT<S>& params, const S* g, const S* dout, int n, int d,
                          S* dg, CemPrecondParamsT<S>& grads);

// The d×d matrix P, row-major, in double.
template <class S>
void cem_precond_dense(CemPrecond kind, const CemPrecondParamsT<S>& params, int d, double* out);

// Smallest eigenvalue of P (1 for none); O(d³) per Jacobi sweep.
template <class S>
double cem_precond_min_eigenvalue(CemPrecond kind, const CemPrecondParamsT<S>& params, int d);

// The spectrum is for looking at (docs/MATH.md §B15): one call must stay interactive, and Jacobi's
// cost grows as d³ (d = 512 takes ~4 s natively), so it keeps its own cap below eigen.hpp's.
inline constexpr int cem_max_spectrum_dim = 512;

// The layers' precond_min_eigenvalue(), precond_dense() and precond_spectrum(), which answer
// alike: layer_error while the layer is invalid, an error for a null out, else "" with the
// result in out. The spectrum (d eigenvalues of P, ascending) also needs d ≤ cem_max_spectrum_dim.
template <class S>
Status cem_precond_min_eigenvalue_checked(const Status& layer_error, CemPrecond kind,
                                          const CemPrecondParamsT<S>& params, int d, double* out);
template <class S>
Status cem_precond_dense_checked(const Status& layer_error, CemPrecond kind, const CemPrecondParamsT<S>& params, int d,
                                 double* out);
template <class S>
Status cem_precond_spectrum_checked(const Status& layer_error, CemPrecond kind, const CemPrecondParamsT<S>& params,
                                    int d, double* out);

// Sets every gradient in grads to 0 (the layers' zero_grad()).
template <class S>
void cem_precond_zero_grad(CemPrecondParamsT<S>& grads);

// Appends views "<prefix>p", "<prefix>u", "<prefix>v" (only those that are parameters).
template <class S>
void cem_precond_views(CemPrecond kind, CemPrecondParamsT<S>& params, CemPrecondParamsT<S>& grads,
                       const std::string& prefix, std::vector<ParamView<S>>& out);

}  // namespace gatelab
