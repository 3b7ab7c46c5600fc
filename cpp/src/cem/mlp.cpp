// CEM MLP (docs/MATH.md §B3, §B5, §B6): validation, initialisation, T-step forward and its
// iterates, energy and its gradient in double, and the backward through all steps. See
// cem/mlp.hpp. Per step, on all tokens at once:
//   Z = Y Wᵀ (n×M), G = (φ(Z) ⊙ A) W (n×d) with A = h Uᵀ (n×M, once), Y ← Y + η G P.
#include "gatelab/cem/mlp.hpp"

#include <algorithm>
#include <cmath>

#include "cem/math.hpp"

namespace gatelab {

using namespace cem_detail;

Status validate(const CemMlpConfig& c) {
  if (Status e = cem_validate_gated_mlp(c.d, c.hidden, c.activation); !e.ok()) return e;
  if (Status e = cem_validate_descent(c.steps, c.eta); !e.ok()) return e;
  return cem_precond_validate(c.precond, c.precond_rank, c.d);
}

template <class S>
CemMlpT<S>::CemMlpT(const CemMlpConfig& config) : config_(config), error_(validate(config)) {
  if (!error_.ok()) return;
  const std::size_t d = config.d, m = config.hidden;
  Pcg32 rng(config.seed);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  params_.w = xt::xtensor<S, 2>::from_shape({m, d});
  params_.u = xt::xtensor<S, 2>::from_shape({m, d});
  for (auto& x : params_.w) x = static_cast<S>(rng.normal_double() * scale);
  for (auto& x : params_.u) x = static_cast<S>(rng.normal_double() * scale);
  params_.precond = cem_precond_init<S>(config.precond, config.d, config.precond_rank, rng);
  grads_.w = xt::zeros<S>({m, d});
  grads_.u = xt::zeros<S>({m, d});
  grads_.precond = cem_precond_zeros<S>(config.precond, config.d, config.precond_rank);
  cem_eta_init(config.learn_eta, config.eta, params_.theta, grads_.theta);
}

template <class S>
S CemMlpT<S>::step_size() const {
  return cem_step_size(params_.theta, config_.eta);
}

template <class S>
Status CemMlpT<S>::set_steps(int steps) {
  if (!error_.ok()) return error_;
  if (Status e = cem_validate_descent(steps, config_.eta); !e.ok()) return e;
  config_.steps = steps;
  return {};
}

template <class S>
void CemMlpT<S>::zero_grad() {
  grads_.w.fill(0);
  grads_.u.fill(0);
  grads_.theta.fill(0);
  cem_precond_zero_grad(grads_.precond);
}

template <class S>
std::vector<ParamView<S>> CemMlpT<S>::parameters() {
  std::vector<ParamView<S>> out;
  if (!error_.ok()) return out;
  out.push_back({"w", params_.w.data(), grads_.w.data(), params_.w.size(), config_.hidden, config_.d});
  out.push_back({"u", params_.u.data(), grads_.u.data(), params_.u.size(), config_.hidden, config_.d});
  cem_precond_views(config_.precond, params_.precond, grads_.precond, "precond.", out);
  if (params_.theta.size() > 0) cem_eta_view(params_.theta.data(), grads_.theta.data(), out);
  return out;
}

template <class S>
std::size_t CemMlpT<S>::parameter_count() const {
  return count_parameters(const_cast<CemMlpT*>(this)->parameters());
}

template <class S>
Status CemMlpT<S>::check(int n, const void* in, const void* out) const {
  if (!error_.ok()) return error_;
  if (Status e = cem_check_call(n, in, out); !e.ok()) return e;
  if (std::size_t(n) * config_.hidden > cem_max_tensor_floats) {
    return out_of_range("", "n·hidden must be at most " + std::to_string(cem_max_tensor_floats) +
                                " (n = " + std::to_string(n) + ", hidden = " + std::to_string(config_.hidden) + ")");
  }
  return {};
}

template <class S>
Status CemMlpT<S>::check_energy() const {
  if (!has_antiderivative(config_.activation.kind)) {
    return unsupported("activation", std::string("energy needs an activation with a closed-form antiderivative; '") +
                                         activation_name(config_.activation.kind) + "' has none");
  }
  return {};
}

// Shared by forward and backward: z = y Wᵀ, phi = φ(z), gm = phi ⊙ gate, g = gm W.
template <class S>
static void mlp_update(const CemMlpT<S>& layer, const S* y, const S* gate, int n, S* z, S* phi, S* gm, S* g) {
  const int d = layer.config().d, m = layer.config().hidden;
  const std::size_t nm = std::size_t(n) * m;
  mm_nt(y, layer.params().w.data(), z, n, d, m);
  act_forward(layer.config().activation, z, phi, nm);
  for (std::size_t e = 0; e < nm; ++e) gm[e] = phi[e] * gate[e];
  mm_nn(gm, layer.params().w.data(), g, n, m, d);
}

template <class S>
void CemMlpT<S>::run_forward(const S* h, int n, std::vector<S>& ys, std::vector<S>& gate) const {
  const int d = config_.d, m = config_.hidden, steps = config_.steps;
  const std::size_t nd = std::size_t(n) * d, nm = std::size_t(n) * m;
  gate.resize(nm);
  mm_nt(h, params_.u.data(), gate.data(), n, d, m);
  ys.resize((steps + 1) * nd);
  std::copy(h, h + nd, ys.begin());
  std::vector<S> z(nm), phi(nm), gm(nm), g(nd), pg(nd);
  const S eta = step_size();
  for (int t = 0; t < steps; ++t) {
    const S* y = ys.data() + t * nd;
    S* next = ys.data() + (t + 1) * nd;
    mlp_update(*this, y, gate.data(), n, z.data(), phi.data(), gm.data(), g.data());
    cem_precond_apply(config_.precond, params_.precond, g.data(), n, d, pg.data());
    for (std::size_t e = 0; e < nd; ++e) next[e] = y[e] + eta * pg[e];
  }
}

template <class S>
Status CemMlpT<S>::forward(const S* h, int n, S* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  std::vector<S> ys, gate;
  run_forward(h, n, ys, gate);
  const std::size_t nd = std::size_t(n) * config_.d;
  std::copy(ys.end() - nd, ys.end(), out);
  return {};
}

template <class S>
double CemMlpT<S>::energy_of(const double* gate_row, const S* y) const {
  const int d = config_.d, m = config_.hidden;
  double total = 0;
  for (int k = 0; k < m; ++k) {
    const S* w = params_.w.data() + std::size_t(k) * d;
    double z = 0;
    for (int c = 0; c < d; ++c) z += static_cast<double>(w[c]) * y[c];
    total += gate_row[k] * activation_antiderivative(config_.activation, z);
  }
  return -total;
}

// (U h_i) in double for row i.
template <class S>
static std::vector<double> gate_double(const CemMlpT<S>& layer, const S* h, int i) {
  const int d = layer.config().d, m = layer.config().hidden;
  std::vector<double> gate(m);
  for (int k = 0; k < m; ++k) {
    const S* u = layer.params().u.data() + std::size_t(k) * d;
    double sum = 0;
    for (int c = 0; c < d; ++c) sum += static_cast<double>(u[c]) * h[std::size_t(i) * d + c];
    gate[k] = sum;
  }
  return gate;
}

template <class S>
Status CemMlpT<S>::energy(const S* h, int n, int i, const S* y, double* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  if (Status e = check_energy(); !e.ok()) return e;
  if (y == nullptr) return invalid_value("y", "y must not be null");
  if (i < 0 || i >= n)
    return out_of_range("i", "i must be in 0…n−1 (i = " + std::to_string(i) + ", n = " + std::to_string(n) + ")");
  *out = energy_of(gate_double(*this, h, i).data(), y);
  return {};
}

template <class S>
Status CemMlpT<S>::energy_gradient(const S* h, int n, int i, const S* y, double* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  if (y == nullptr) return invalid_value("y", "y must not be null");
  if (i < 0 || i >= n)
    return out_of_range("i", "i must be in 0…n−1 (i = " + std::to_string(i) + ", n = " + std::to_string(n) + ")");
  const int d = config_.d, m = config_.hidden;
  const std::vector<double> gate = gate_double(*this, h, i);
  std::fill(out, out + d, 0.0);
  for (int k = 0; k < m; ++k) {
    const S* w = params_.w.data() + std::size_t(k) * d;
    double z = 0;
    for (int c = 0; c < d; ++c) z += static_cast<double>(w[c]) * y[c];
    const double phi = activation_value(config_.activation, static_cast<float>(z));
    for (int c = 0; c < d; ++c) out[c] -= gate[k] * phi * static_cast<double>(w[c]);
  }
  return {};
}

template <class S>
Status CemMlpT<S>::energy_trace(const S* h, int n, double* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  if (Status e = check_energy(); !e.ok()) return e;
  std::vector<S> ys, gate;
  run_forward(h, n, ys, gate);
  const int steps = config_.steps, d = config_.d;
  for (int i = 0; i < n; ++i) {
    const std::vector<double> g = gate_double(*this, h, i);
    for (int t = 0; t <= steps; ++t) {
      out[std::size_t(i) * (steps + 1) + t] = energy_of(g.data(), ys.data() + (std::size_t(t) * n + i) * d);
    }
  }
  return {};
}

template <class S>
Status CemMlpT<S>::trajectory(const S* h, int n, S* out) const {
  if (Status e = check(n, h, out); !e.ok()) return e;
  if (Status e = cem_check_trajectory(n, config_.d, config_.steps); !e.ok()) return e;
  std::vector<S> ys, gate;
  run_forward(h, n, ys, gate);
  std::copy(ys.begin(), ys.end(), out);
  return {};
}

template <class S>
Status CemMlpT<S>::precond_spectrum(double* out) const {
  return cem_precond_spectrum_checked(error_, config_.precond, params_.precond, config_.d, out);
}

template <class S>
Status CemMlpT<S>::precond_min_eigenvalue(double* out) const {
  return cem_precond_min_eigenvalue_checked(error_, config_.precond, params_.precond, config_.d, out);
}

template <class S>
Status CemMlpT<S>::precond_dense(double* out) const {
  return cem_precond_dense_checked(error_, config_.precond, params_.precond, config_.d, out);
}

template <class S>
Status CemMlpT<S>::backward(const S* h, int n, const S* grad_out, S* grad_h, bool accumulate) {
  if (Status e = check(n, h, grad_out); !e.ok()) return e;
  if (!accumulate) zero_grad();
  const int d = config_.d, m = config_.hidden, steps = config_.steps;
  const std::size_t nd = std::size_t(n) * d, nm = std::size_t(n) * m;
  const S* w = params_.w.data();
  std::vector<S> ys, gate;
  run_forward(h, n, ys, gate);
  std::vector<S> z(nm), phi(nm), gm(nm), dgm(nm), dz(nm), dgate(nm, S(0));
  std::vector<S> g(nd), dpg(nd), dg(nd), dy(grad_out, grad_out + nd);
  const S eta = step_size();
  const bool learn_eta = params_.theta.size() > 0;
  double deta = 0;  // ∂L/∂η = Σ_t ⟨∂L/∂y^{t+1}, g_t P⟩ (docs/MATH.md §B14)
  std::vector<S> pg(learn_eta ? nd : 0);
  for (int t = steps - 1; t >= 0; --t) {
    const S* y = ys.data() + t * nd;
    mlp_update(*this, y, gate.data(), n, z.data(), phi.data(), gm.data(), g.data());
    if (learn_eta) {  // dy is ∂L/∂y^{t+1} here
      cem_precond_apply(config_.precond, params_.precond, g.data(), n, d, pg.data());
      for (std::size_t e = 0; e < nd; ++e) deta += static_cast<double>(dy[e]) * static_cast<double>(pg[e]);
    }
    for (std::size_t e = 0; e < nd; ++e) dpg[e] = eta * dy[e];  // y' = y + η (g P)
    cem_precond_backward(config_.precond, params_.precond, g.data(), dpg.data(), n, d, dg.data(), grads_.precond);
    mm_nt(dg.data(), w, dgm.data(), n, d, m);                     // dgm = dg Wᵀ
    mm_tn(gm.data(), dg.data(), grads_.w.data(), m, n, d, true);  // dW += gmᵀ dg (down use of W)
    act_backward(config_.activation, z.data(), dz.data(), nm);    // dz = φ'(z) …
    for (std::size_t e = 0; e < nm; ++e) {
      dgate[e] += dgm[e] * phi[e];
      dz[e] = dz[e] * (dgm[e] * gate[e]);  // … ⊙ dφ, dφ = dgm ⊙ gate
    }
    mm_tn(dz.data(), y, grads_.w.data(), m, n, d, true);  // dW += dzᵀ y (up use of W)
    mm_nn(dz.data(), w, dy.data(), n, m, d, true);        // dy += dz W
  }
  if (learn_eta) {
    grads_.theta(0) += static_cast<S>(deta * cem_detail::sigmoid(static_cast<double>(params_.theta(0))));
  }
  mm_tn(dgate.data(), h, grads_.u.data(), m, n, d, true);           // dU += dAᵀ h
  mm_nn(dgate.data(), params_.u.data(), dy.data(), n, m, d, true);  // dh = dy⁰ + dA U
  if (grad_h != nullptr) std::copy(dy.begin(), dy.end(), grad_h);
  return {};
}

template class CemMlpT<float>;
template class CemMlpT<double>;

}  // namespace gatelab
