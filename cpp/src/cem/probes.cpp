// The energy over a 2-D slice (cem/probes.hpp, docs/MATH.md §B15): G² calls of the layer's
// energy(), which checks h, n and i; the slice is checked here first.
#include "gatelab/cem/probes.hpp"

#include <cmath>
#include <vector>

namespace gatelab {

namespace {

Status check_slice(const Status& layer_error, const CemSlice& s, const double* out) {
  if (!layer_error.ok()) return layer_error;
  if (s.g < 2 || s.g > cem_max_grid)
    return out_of_range("G", "G must be an integer from 2 to " + std::to_string(cem_max_grid));
  if (!std::isfinite(s.lo) || !std::isfinite(s.hi) || !(s.lo < s.hi))
    return not_finite("", "min and max must be finite with min < max");
  if (s.origin == nullptr || s.axes == nullptr || out == nullptr)
    return invalid_value("", "origin, axes and output must not be null");
  return {};
}

template <class L>
Status energy_grid(const L& layer, const float* h, int n, int i, const CemSlice& s, double* out) {
  if (Status e = check_slice(layer.error(), s, out); !e.ok()) return e;
  const int d = layer.config().d, g = s.g;
  const float* a0 = s.axes;
  const float* a1 = s.axes + d;
  const double lo = s.lo, span = static_cast<double>(s.hi) - s.lo;
  std::vector<float> y(d);
  for (int r = 0; r < g; ++r) {
    const double v = lo + span * r / (g - 1);
    for (int c = 0; c < g; ++c) {
      const double u = lo + span * c / (g - 1);
      for (int k = 0; k < d; ++k) y[k] = static_cast<float>(s.origin[k] + u * a0[k] + v * a1[k]);
      if (Status e = layer.energy(h, n, i, y.data(), out + std::size_t(r) * g + c); !e.ok()) return e;
    }
  }
  return {};
}

}  // namespace

Status cem_energy_grid(const CemAttention& layer, const float* h, int n, int i, const CemSlice& slice, double* out) {
  return energy_grid(layer, h, n, i, slice, out);
}

Status cem_energy_grid(const CemMlp& layer, const float* h, int n, int i, const CemSlice& slice, double* out) {
  return energy_grid(layer, h, n, i, slice, out);
}

}  // namespace gatelab
