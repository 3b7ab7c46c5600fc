// Teleporting along the inverse-scaling orbit and the per-unit balance (see orbit.hpp). A unit's
// slice of Q and K (or of K and V for mlp) is contiguous: unit j owns rows j·r … j·r + r − 1 of
// the (m·r, d_in) factors, and row j of V.
#include "gatelab/paper_a/orbit.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace gatelab {
namespace {

// The two factors an orbit moves, per unit: the one multiplied by c (q, or k for mlp) and the
// one divided by it (k, or v for mlp). Ptr is S* or const S*, as params is.
template <class Ptr>
struct Orbit {
  Ptr up, down;
  std::size_t up_per_unit, down_per_unit;
};

template <class P>
auto orbit_of(P& params, const LayerConfig& c) {
  const std::size_t m = static_cast<std::size_t>(c.hidden);
  using Ptr = decltype(params.k.data());
  const std::size_t q = params.q.size() / m, k = params.k.size() / m, v = params.v.size() / m;
  if (c.kind == LayerKind::mlp) return Orbit<Ptr>{params.k.data(), params.v.data(), k, v};
  return Orbit<Ptr>{params.q.data(), params.k.data(), q, k};
}

template <class S>
double squared_norm(const S* v, std::size_t n) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += static_cast<double>(v[i]) * static_cast<double>(v[i]);
  return sum;
}

}  // namespace

Status teleport_problem(const LayerConfig& c) {
  if (c.kind == LayerKind::symmetric) return {};
  const auto degree = homogeneity_degree(c.activation.kind);
  const std::string what =
      c.kind == LayerKind::mlp ? "an 'mlp' layer" : "a '" + std::string(layer_kind_name(c.kind)) + "' layer";
  if (!degree) {
    return unsupported("", what + " with activation '" + activation_name(c.activation.kind) +
                               "' has no inverse-scaling orbit: the activation is not positively homogeneous");
  }
  if (*degree != 1 && c.kind != LayerKind::bigated) {  // bigated: σ(ca)σ(b/c) = σ(a)σ(b) at any degree (§A23)
    return unsupported("", what + " with activation '" + activation_name(c.activation.kind) + "' (degree " +
                               std::to_string(*degree) + ") keeps its function along (c q, k / c^" +
                               std::to_string(*degree) + "), not along teleport's (c q, k / c)");
  }
  return {};
}

template <class S>
Status teleport(LayerParamsT<S>& params, const LayerConfig& c, const float* factors) {
  if (Status e = teleport_problem(c); !e.ok()) return e;
  for (int j = 0; j < c.hidden; ++j) {
    if (!(std::isfinite(factors[j]) && factors[j] > 0.0f)) {
      return out_of_range("factors", "factors must be finite and > 0 (unit " + std::to_string(j) + " has " +
                                         std::to_string(factors[j]) + ")");
    }
  }
  LayerParamsT<S> moved = params;
  const auto f = orbit_of(moved, c);
  for (int j = 0; j < c.hidden; ++j) {
    const S factor = static_cast<S>(factors[j]);
    S* up = f.up + j * f.up_per_unit;
    S* down = f.down + j * f.down_per_unit;
    std::transform(up, up + f.up_per_unit, up, [&](S v) { return v * factor; });
    std::transform(down, down + f.down_per_unit, down, [&](S v) { return v / factor; });
  }
  const auto finite = [](S v) { return std::isfinite(v); };
  const auto all_finite = [&](const auto& t) { return std::all_of(t.begin(), t.end(), finite); };
  if (!(all_finite(moved.q) && all_finite(moved.k) && all_finite(moved.v)))
    return out_of_range("factors", "factors move some weight beyond the finite range; nothing was changed");
  params = std::move(moved);
  return {};
}

template <class S>
void unit_balance(const LayerParamsT<S>& params, const LayerConfig& c, double* out) {
  const auto f = orbit_of(params, c);
  for (int j = 0; j < c.hidden; ++j) {
    out[j] = squared_norm(f.up + j * f.up_per_unit, f.up_per_unit) -
             squared_norm(f.down + j * f.down_per_unit, f.down_per_unit);
  }
}

template Status teleport(LayerParamsT<float>&, const LayerConfig&, const float*);
template Status teleport(LayerParamsT<double>&, const LayerConfig&, const float*);
template void unit_balance(const LayerParamsT<float>&, const LayerConfig&, double*);
template void unit_balance(const LayerParamsT<double>&, const LayerConfig&, double*);

}  // namespace gatelab
