// A naive double-precision reference of the paper-A layers and activations, written
// straight from MATH.md with std:: math, for checking the fast float code: forward values
// and, by central differences, every gradient.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "gatelab/base/activations.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace reference {

inline double activation(gatelab::Activation a, double z, double beta = 1.0) {
  using gatelab::Activation;
  const double pi = 3.14159265358979323846;
  switch (a) {
    case Activation::identity: return z;
    case Activation::relu: return z > 0 ? z : 0;
    case Activation::leaky_relu: return z > 0 ? z : 0.01 * z;
    case Activation::relu2: return z > 0 ? z * z : 0;
    case Activation::gelu: return 0.5 * z * std::erfc(-z / std::sqrt(2.0));
    case Activation::gelu_tanh: return 0.5 * z * (1 + std::tanh(std::sqrt(2 / pi) * (z + 0.044715 * z * z * z)));
    case Activation::silu: return z / (1 + std::exp(-z));
    case Activation::swish: return z / (1 + std::exp(-beta * z));
    case Activation::sigmoid: return 1 / (1 + std::exp(-z));
    case Activation::tanh: return std::tanh(z);
    case Activation::softplus: return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
  }
  return 0;
}

// Parameters flattened as one vector [Q | K | V] so a test can perturb any of them.
struct Params {
  std::vector<double> q, k, v;
};

inline Params params_of(const gatelab::Layer& layer) {
  const auto& p = layer.params();
  return {std::vector<double>(p.q.begin(), p.q.end()), std::vector<double>(p.k.begin(), p.k.end()),
          std::vector<double>(p.v.begin(), p.v.end())};
}

// out (rows, d_out) in double.
inline std::vector<double> forward(const gatelab::LayerConfig& c, const Params& p, const std::vector<double>& x,
                                   int rows) {
  using gatelab::LayerKind;
  const int d = c.d_in, m = c.hidden, o = c.d_out, r = c.kind == LayerKind::mlp ? 1 : c.rank;
  std::vector<double> out(static_cast<std::size_t>(rows) * o, 0.0);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < m; ++j) {
      double h = 0;
      if (c.kind == LayerKind::mlp) {
        double z = 0;
        for (int e = 0; e < d; ++e) z += x[i * d + e] * p.k[j * d + e];
        h = activation(c.activation.kind, z, c.activation.beta);
      } else {
        double sym = 0;
        for (int t = 0; t < r; ++t) {
          double a = 0, b = 0;
          for (int e = 0; e < d; ++e) {
            a += x[i * d + e] * p.q[(j * r + t) * d + e];
            b += x[i * d + e] * p.k[(j * r + t) * d + e];
          }
          const double lambda = c.symmetrize;  // docs/MATH.md §A11
          if (c.kind == LayerKind::symmetric)
            sym += a * b;
          else if (c.kind == LayerKind::bigated)  // §A23
            h += activation(c.activation.kind, a, c.activation.beta) *
                 activation(c.activation.kind, b, c.activation.beta);
          else
            h += (1 - lambda / 2) * activation(c.activation.kind, a, c.activation.beta) * b +
                 (lambda / 2) * activation(c.activation.kind, b, c.activation.beta) * a;
        }
        if (c.kind == LayerKind::symmetric) h = activation(c.activation.kind, sym, c.activation.beta);
      }
      for (int e = 0; e < o; ++e) out[i * o + e] += h * p.v[j * o + e];
    }
  }
  return out;
}

}  // namespace reference
