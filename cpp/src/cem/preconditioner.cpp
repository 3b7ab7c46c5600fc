// The CEM preconditioner P (docs/MATH.md §B5): application to row gradients, its backward, the
// dense matrix, its smallest eigenvalue and its spectrum (eigen.hpp's Jacobi). See
// cem/preconditioner.hpp for the forms and the initialisation.
#include "gatelab/cem/preconditioner.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "cem/math.hpp"
#include "gatelab/base/eigen.hpp"

namespace gatelab {

Status cem_precond_validate(CemPrecond kind, int rank, int d) {
  const int pre = static_cast<int>(kind);
  if (pre < 0 || pre > 2) return invalid_value("precond", "precond must be none, paper or psd");
  if (rank < 0 || rank > std::min(d, cem_max_rank)) {
    return out_of_range("precond_rank", "precond_rank must be in 0…min(d, " + std::to_string(cem_max_rank) +
                                            ") (precond_rank = " + std::to_string(rank) + ", d = " + std::to_string(d) +
                                            ")");
  }
  return {};
}

template <class S>
CemPrecondParamsT<S> cem_precond_zeros(CemPrecond kind, int d, int rank) {
  CemPrecondParamsT<S> params;
  const std::size_t sd = kind == CemPrecond::none ? 0 : std::size_t(d);
  const std::size_t sr = kind == CemPrecond::none ? 0 : std::size_t(rank);
  params.p = xt::zeros<S>({sd});
  params.u = xt::zeros<S>({sd, sr});
  params.v = kind == CemPrecond::paper ? xt::xtensor<S, 2>(xt::zeros<S>({sd, sr})) : xt::xtensor<S, 2>();
  return params;
}

template <class S>
CemPrecondParamsT<S> cem_precond_init(CemPrecond kind, int d, int rank, Pcg32& rng) {
  CemPrecondParamsT<S> params = cem_precond_zeros<S>(kind, d, rank);
  if (kind == CemPrecond::none) return params;
  params.p.fill(static_cast<S>(cem_detail::softplus_inverse_of_one));
  const double scale = (kind == CemPrecond::paper ? 1.0 : 0.1) / std::sqrt(static_cast<double>(d));
  for (auto& x : params.u) x = static_cast<S>(rng.normal_double() * scale);
  return params;
}

template <class S>
void cem_precond_apply(CemPrecond kind, const CemPrecondParamsT<S>& params, const S* g, int n, int d, S* out) {
  const std::size_t count = std::size_t(n) * d;
  if (kind == CemPrecond::none) {
    for (std::size_t i = 0; i < count; ++i) out[i] = g[i];
    return;
  }
  std::vector<S> sp(d);
  for (int c = 0; c < d; ++c) sp[c] = static_cast<S>(cem_detail::softplus(static_cast<double>(params.p(c))));
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < d; ++c) out[std::size_t(i) * d + c] = g[std::size_t(i) * d + c] * sp[c];
  }
  const int r = static_cast<int>(params.u.shape(1));
  if (r == 0) return;
  std::vector<S> gu(std::size_t(n) * r);
  cem_detail::mm_nn(g, params.u.data(), gu.data(), n, d, r);  // (n×r) = g U
  if (kind == CemPrecond::psd) {
    cem_detail::mm_nt(gu.data(), params.u.data(), out, n, r, d, true);  // += (gU) Uᵀ
    return;
  }
  std::vector<S> gv(std::size_t(n) * r);
  cem_detail::mm_nn(g, params.v.data(), gv.data(), n, d, r);
  cem_detail::mm_nt(gu.data(), params.v.data(), out, n, r, d, true);  // += (gU) Vᵀ
  cem_detail::mm_nt(gv.data(), params.u.data(), out, n, r, d, true);  // += (gV) Uᵀ
}

template <class S>
void cem_precond_backward(CemPrecond kind, const CemPrecondParamsT<S>& params, const S* g, const S* dout, int n, int d,
                          S* dg, CemPrecondParamsT<S>& grads) {
  if (dg != nullptr) cem_precond_apply(kind, params, dout, n, d, dg);  // P symmetric
  if (kind == CemPrecond::none) return;
  // dL/dp_c = Σ_rows dout·g · softplus'(p_c), softplus' = sigmoid.
  for (int c = 0; c < d; ++c) {
    S sum = 0;
    for (int i = 0; i < n; ++i) sum += dout[std::size_t(i) * d + c] * g[std::size_t(i) * d + c];
    grads.p(c) += sum * static_cast<S>(cem_detail::sigmoid(static_cast<double>(params.p(c))));
  }
  const int r = static_cast<int>(params.u.shape(1));
  if (r == 0) return;
  std::vector<S> a(std::size_t(n) * r), b(std::size_t(n) * r);
  if (kind == CemPrecond::psd) {
    // out = g U Uᵀ: dU = gᵀ(dout U) + doutᵀ(g U).
    cem_detail::mm_nn(dout, params.u.data(), a.data(), n, d, r);
    cem_detail::mm_nn(g, params.u.data(), b.data(), n, d, r);
    cem_detail::mm_tn(g, a.data(), grads.u.data(), d, n, r, true);
    cem_detail::mm_tn(dout, b.data(), grads.u.data(), d, n, r, true);
    return;
  }
  // out = g U Vᵀ + g V Uᵀ: dU = gᵀ(dout V) + doutᵀ(g V); dV = gᵀ(dout U) + doutᵀ(g U).
  cem_detail::mm_nn(dout, params.v.data(), a.data(), n, d, r);
  cem_detail::mm_nn(g, params.v.data(), b.data(), n, d, r);
  cem_detail::mm_tn(g, a.data(), grads.u.data(), d, n, r, true);
  cem_detail::mm_tn(dout, b.data(), grads.u.data(), d, n, r, true);
  cem_detail::mm_nn(dout, params.u.data(), a.data(), n, d, r);
  cem_detail::mm_nn(g, params.u.data(), b.data(), n, d, r);
  cem_detail::mm_tn(g, a.data(), grads.v.data(), d, n, r, true);
  cem_detail::mm_tn(dout, b.data(), grads.v.data(), d, n, r, true);
}

template <class S>
void cem_precond_dense(CemPrecond kind, const CemPrecondParamsT<S>& params, int d, double* out) {
  for (int a = 0; a < d; ++a) {
    for (int b = 0; b < d; ++b) out[std::size_t(a) * d + b] = a == b ? 1.0 : 0.0;
  }
  if (kind == CemPrecond::none) return;
  const int r = static_cast<int>(params.u.shape(1));
  for (int a = 0; a < d; ++a) {
    for (int b = 0; b < d; ++b) {
      double sum = a == b ? cem_detail::softplus(static_cast<double>(params.p(a))) : 0.0;
      for (int t = 0; t < r; ++t) {
        const double ua = params.u(a, t), ub = params.u(b, t);
        if (kind == CemPrecond::psd) {
          sum += ua * ub;
        } else {
          sum += ua * static_cast<double>(params.v(b, t)) + static_cast<double>(params.v(a, t)) * ub;
        }
      }
      out[std::size_t(a) * d + b] = sum;
    }
  }
}

// P is d × d with d ≤ cem_max_d, so eigen.hpp must accept that size.
static_assert(max_eigen_dim >= cem_max_d, "symmetric_eigenvalues must accept the largest CEM width");

template <class S>
double cem_precond_min_eigenvalue(CemPrecond kind, const CemPrecondParamsT<S>& params, int d) {
  if (kind == CemPrecond::none) return 1.0;
  std::vector<double> dense(std::size_t(d) * d);
  cem_precond_dense(kind, params, d, dense.data());
  return symmetric_eigenvalues(dense.data(), d, EigenOrder::descending).back();  // the last is the smallest
}

template <class S>
Status cem_precond_min_eigenvalue_checked(const Status& layer_error, CemPrecond kind,
                                          const CemPrecondParamsT<S>& params, int d, double* out) {
  if (!layer_error.ok()) return layer_error;
  if (out == nullptr) return invalid_value("", "output pointer must not be null");
  *out = cem_precond_min_eigenvalue(kind, params, d);
  return {};
}

template <class S>
Status cem_precond_dense_checked(const Status& layer_error, CemPrecond kind, const CemPrecondParamsT<S>& params, int d,
                                 double* out) {
  if (!layer_error.ok()) return layer_error;
  if (out == nullptr) return invalid_value("", "output pointer must not be null");
  cem_precond_dense(kind, params, d, out);
  return {};
}

static_assert(cem_max_spectrum_dim <= max_eigen_dim);

template <class S>
Status cem_precond_spectrum_checked(const Status& layer_error, CemPrecond kind, const CemPrecondParamsT<S>& params,
                                    int d, double* out) {
  if (d > cem_max_spectrum_dim) {
    return unsupported(
        "", "the spectrum needs d ≤ " + std::to_string(cem_max_spectrum_dim) + " (d = " + std::to_string(d) + ")");
  }
  if (!layer_error.ok()) return layer_error;
  if (out == nullptr) return invalid_value("", "output pointer must not be null");
  std::vector<double> p(std::size_t(d) * d);
  cem_precond_dense(kind, params, d, p.data());
  const std::vector<double> values = symmetric_eigenvalues(p.data(), d, EigenOrder::descending);
  std::copy(values.rbegin(), values.rend(), out);
  return {};
}

template <class S>
void cem_precond_zero_grad(CemPrecondParamsT<S>& grads) {
  grads.p.fill(0);
  grads.u.fill(0);
  grads.v.fill(0);
}

template <class S>
void cem_precond_views(CemPrecond kind, CemPrecondParamsT<S>& params, CemPrecondParamsT<S>& grads,
                       const std::string& prefix, std::vector<ParamView<S>>& out) {
  if (kind == CemPrecond::none) return;
  const int d = static_cast<int>(params.p.size());
  const int r = static_cast<int>(params.u.shape(1));
  out.push_back({prefix + "p", params.p.data(), grads.p.data(), params.p.size(), 1, d});
  if (r == 0) return;
  out.push_back({prefix + "u", params.u.data(), grads.u.data(), params.u.size(), d, r});
  if (kind == CemPrecond::paper) out.push_back({prefix + "v", params.v.data(), grads.v.data(), params.v.size(), d, r});
}

#define GATELAB_CEM_PRECOND_INSTANTIATE(S)                                                                            \
  template CemPrecondParamsT<S> cem_precond_zeros<S>(CemPrecond, int, int);                                           \
  template CemPrecondParamsT<S> cem_precond_init<S>(CemPrecond, int, int, Pcg32&);                                    \
  template void cem_precond_apply<S>(CemPrecond, const CemPrecondParamsT<S>&, const S*, int, int, S*);                \
  template void cem_precond_backward<S>(CemPrecond, const CemPrecondParamsT<S>&, const S*, const S*, int, int, S*,    \
                                        CemPrecondParamsT<S>&);                                                       \
  template void cem_precond_dense<S>(CemPrecond, const CemPrecondParamsT<S>&, int, double*);                          \
  template double cem_precond_min_eigenvalue<S>(CemPrecond, const CemPrecondParamsT<S>&, int);                        \
  template Status cem_precond_min_eigenvalue_checked<S>(const Status&, CemPrecond, const CemPrecondParamsT<S>&, int,  \
                                                        double*);                                                     \
  template Status cem_precond_dense_checked<S>(const Status&, CemPrecond, const CemPrecondParamsT<S>&, int, double*); \
  template Status cem_precond_spectrum_checked<S>(const Status&, CemPrecond, const CemPrecondParamsT<S>&, int,        \
                                                  double*);                                                           \
  template void cem_precond_zero_grad<S>(CemPrecondParamsT<S>&);                                                      \
  template void cem_precond_views<S>(CemPrecond, CemPrecondParamsT<S>&, CemPrecondParamsT<S>&, const std::string&,    \
                                     std::vector<ParamView<S>>&);
GATELAB_CEM_PRECOND_INSTANTIATE(float)
GATELAB_CEM_PRECOND_INSTANTIATE(double)

}  // namespace gatelab
