// The standard baselines of the CEM experiments: RMSNorm, its backward next to its forward.
// The untied causal multi-head attention is in std_attention.cpp. See baselines.hpp.
#include "gatelab/model/baselines.hpp"

#include <algorithm>
#include <cmath>

#include "cem/math.hpp"

namespace gatelab {

using namespace cem_detail;

template <class S>
void cem_rmsnorm_forward(const S* x, const S* gain, int n, int d, S eps, S* y, S* inv_rms) {
  for (int i = 0; i < n; ++i) {
    const S* xr = x + std::size_t(i) * d;
    S sum = 0;
    for (int c = 0; c < d; ++c) sum += xr[c] * xr[c];
    const S r = S(1) / std::sqrt(sum / S(d) + eps);  // sqrt is correctly rounded everywhere
    inv_rms[i] = r;
    for (int c = 0; c < d; ++c) y[std::size_t(i) * d + c] = xr[c] * r * gain[c];
  }
}

template <class S>
void cem_rmsnorm_backward(const S* x, const S* gain, const S* inv_rms, const S* dy, int n, int d, S* dx, S* dgain) {
  // y_c = x_c r g_c, r = (mean(x²) + ε)^(−1/2): dx_c = r g_c dy_c − r³ x_c Σ_k g_k dy_k x_k / d.
  for (int i = 0; i < n; ++i) {
    const S* xr = x + std::size_t(i) * d;
    const S* g = dy + std::size_t(i) * d;
    const S r = inv_rms[i];
    S dot = 0;
    for (int c = 0; c < d; ++c) dot += gain[c] * g[c] * xr[c];
    const S coef = r * r * r * dot / S(d);
    for (int c = 0; c < d; ++c) {
      dx[std::size_t(i) * d + c] = r * gain[c] * g[c] - coef * xr[c];
      dgain[c] += g[c] * xr[c] * r;
    }
  }
}

template void cem_rmsnorm_forward<float>(const float*, const float*, int, int, float, float*, float*);
template void cem_rmsnorm_forward<double>(const double*, const double*, int, int, double, double*, double*);
template void cem_rmsnorm_backward<float>(const float*, const float*, const float*, const float*, int, int, float*,
                                          float*);
template void cem_rmsnorm_backward<double>(const double*, const double*, const double*, const double*, int, int,
                                           double*, double*);

}  // namespace gatelab
