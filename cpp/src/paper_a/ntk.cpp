// The empirical NTK (see ntk.hpp). Output (i, o) depends on row i only, so its parameter
// gradient is the backward of row i alone with the one-hot output gradient e_o: the same
// numbers as a backward over all rows with a one-hot of length rows·d_out, whose other rows
// contribute exact zeros, at 1/rows of the cost. J is kept in the layer's scalar (it is what
// backward wrote); G sums its products in double in parameter order, upper triangle mirrored,
// so G is exactly symmetric.
#include "gatelab/paper_a/ntk.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "gatelab/base/eigen.hpp"

namespace gatelab {

template <class S>
Status validate_ntk(const LayerT<S>& layer, int rows) {
  if (Status e = validate_rows(rows, layer.max_rows()); !e.ok()) return e;
  const long long outputs = static_cast<long long>(rows) * layer.config().d_out;
  if (outputs > max_ntk_outputs) {
    return out_of_range("rows", "rows · d_out must be at most " + std::to_string(max_ntk_outputs) +
                                    " for the NTK (got " + std::to_string(outputs) +
                                    "; the Gram matrix is its square)");
  }
  if (layer.parameter_count() > static_cast<std::size_t>(max_ntk_parameters)) {
    return out_of_range("", "the NTK takes layers of at most " + std::to_string(max_ntk_parameters) +
                                " parameters (this one has " + std::to_string(layer.parameter_count()) + ")");
  }
  return {};
}

template <class S>
NtkT<S> neural_tangent_kernel(const LayerT<S>& layer, const S* x, int rows) {
  const LayerConfig& c = layer.config();
  const std::size_t p = layer.parameter_count();
  const int n = rows * c.d_out;
  std::vector<S> jacobian(static_cast<std::size_t>(n) * p);
  std::vector<S> grad_out(c.d_out);
  LayerT<S> probe(layer);  // its grads() take each row's gradient
  const LayerParamsT<S>& grads = probe.grads();
  for (int i = 0; i < rows; ++i) {
    for (int o = 0; o < c.d_out; ++o) {
      std::fill(grad_out.begin(), grad_out.end(), S(0));
      grad_out[o] = S(1);
      probe.backward_unchecked(x + static_cast<std::size_t>(i) * c.d_in, 1, grad_out.data(), nullptr);
      S* row = jacobian.data() + static_cast<std::size_t>(i * c.d_out + o) * p;
      row = std::copy(grads.q.begin(), grads.q.end(), row);
      row = std::copy(grads.k.begin(), grads.k.end(), row);
      std::copy(grads.v.begin(), grads.v.end(), row);
    }
  }
  NtkT<S> out;
  out.outputs = n;
  out.gram.assign(static_cast<std::size_t>(n) * n, 0.0);
  for (int a = 0; a < n; ++a) {
    const S* ja = jacobian.data() + static_cast<std::size_t>(a) * p;
    for (int b = a; b < n; ++b) {
      const S* jb = jacobian.data() + static_cast<std::size_t>(b) * p;
      double sum = 0.0;
      for (std::size_t k = 0; k < p; ++k) sum += static_cast<double>(ja[k]) * static_cast<double>(jb[k]);
      out.gram[static_cast<std::size_t>(a) * n + b] = out.gram[static_cast<std::size_t>(b) * n + a] = sum;
    }
  }
  if (!std::all_of(out.gram.begin(), out.gram.end(), [](double v) { return std::isfinite(v); })) {
    out.eigenvalues.assign(n, NAN);  // an overflowing layer: Jacobi needs finite entries
    out.condition_number = NAN;
    return out;
  }
  out.eigenvalues = symmetric_eigenvalues(out.gram.data(), n, EigenOrder::descending);
  const std::size_t k = std::min(static_cast<std::size_t>(n), p);
  const double smallest = out.eigenvalues[k - 1];
  out.condition_number = smallest > 0.0 ? out.eigenvalues[0] / smallest : INFINITY;
  return out;
}

template Status validate_ntk(const LayerT<float>&, int);
template Status validate_ntk(const LayerT<double>&, int);
template NtkT<float> neural_tangent_kernel(const LayerT<float>&, const float*, int);
template NtkT<double> neural_tangent_kernel(const LayerT<double>&, const double*, int);

}  // namespace gatelab
