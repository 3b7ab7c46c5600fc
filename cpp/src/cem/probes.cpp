// The energy over a 2-D slice (cem/probes.hpp, docs/MATH.md §B15): G² calls of the layer's
// energy(), which checks h, n and i; the slice is checked here first. And the probes' float32 forms.
#include "gatelab/cem/probes.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/round_out.hpp"

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

template <class L>
Status energy_gradient_f32(const L& layer, const float* h, int n, int i, const float* y, float* out) {
  return through_doubles(layer.config().d, out, [&](double* g) { return layer.energy_gradient(h, n, i, y, g); });
}

template <class L>
Status energy_trace_f32(const L& layer, const float* h, int n, float* out) {
  // (n, T + 1) only for a valid n: otherwise the buffer stays empty and the probe refuses n.
  const std::size_t size = n >= 1 && n <= cem_max_rows ? std::size_t(n) * (layer.config().steps + 1) : 0;
  return through_doubles(size, out, [&](double* t) { return layer.energy_trace(h, n, t); });
}

template <class L>
Status energy_grid_f32(const L& layer, const float* h, int n, int i, const CemSlice& slice, float* out) {
  const std::size_t size = slice.g >= 2 && slice.g <= cem_max_grid ? std::size_t(slice.g) * slice.g : 0;
  return through_doubles(size, out, [&](double* grid) { return cem_energy_grid(layer, h, n, i, slice, grid); });
}

template <class L>
Status precond_dense_f32(const L& layer, float* out) {
  const std::size_t d = layer.config().d;
  return through_doubles(d * d, out, [&](double* p) { return layer.precond_dense(p); });
}

template <class L>
Status precond_spectrum_f32(const L& layer, float* out) {
  return through_doubles(layer.config().d, out, [&](double* values) { return layer.precond_spectrum(values); });
}

#define GATELAB_CEM_PROBES_F32(L)                                                              \
  template Status energy_gradient_f32(const L&, const float*, int, int, const float*, float*); \
  template Status energy_trace_f32(const L&, const float*, int, float*);                       \
  template Status energy_grid_f32(const L&, const float*, int, int, const CemSlice&, float*);  \
  template Status precond_dense_f32(const L&, float*);                                         \
  template Status precond_spectrum_f32(const L&, float*);
GATELAB_CEM_PROBES_F32(CemAttention)
GATELAB_CEM_PROBES_F32(CemMlp)
#undef GATELAB_CEM_PROBES_F32

}  // namespace gatelab
