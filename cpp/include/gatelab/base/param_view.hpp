// ParamView: a named (value, grad, size) window onto one parameter tensor, so optimizers, the
// bindings and the gradient tests treat every layer's parameters alike, whichever object owns
// them (a paper-A layer, a CEM layer, a transformer). A list of views in a fixed order is a
// model's flat parameter vector. `decay` says whether decoupled weight decay (AdamW) applies:
// matrices yes; norm gains, diagonals and preconditioner parameters no.
#pragma once

#include "gatelab/base/status.hpp"
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gatelab {

// One parameter tensor, row-major, rows × cols = size (a vector has rows = 1). value and
// grad point into the owning object and stay valid while it lives and is not reconfigured.
template <class S>
struct ParamView {
  std::string name;  // e.g. "wq", "block1.attn.wk"
  S* value = nullptr;
  S* grad = nullptr;
  std::size_t size = 0;
  int rows = 0;
  int cols = 0;
  bool decay = true;
  // The view's layout is rows × cols, row-major; transposed: it is stored as the transpose
  // (cols × rows), e.g. a gated MLP's W_down (d × M) held as V = W_downᵀ (M × d).
  bool transposed = false;
};

// Where element e of a view's rows × cols layout is stored.
template <class S>
std::size_t stored_index(const ParamView<S>& v, std::size_t e) {
  return v.transposed ? (e % v.cols) * v.rows + e / v.cols : e;
}

template <class S>
std::size_t count_parameters(const std::vector<ParamView<S>>& views) {
  std::size_t total = 0;
  for (const auto& v : views) total += v.size;
  return total;
}

// A model's flat parameter vector: every view's values (grads: gradients) one after the
// other, each in its rows × cols layout; out holds count_parameters(views) numbers.
template <class S>
void read_flat(const std::vector<ParamView<S>>& views, S* out, bool grads = false) {
  for (const auto& v : views) {
    for (std::size_t e = 0; e < v.size; ++e) *out++ = (grads ? v.grad : v.value)[stored_index(v, e)];
  }
}

// The inverse of read_flat for the values: ok or, when an entry of in is not finite, an
// error and nothing changed.
template <class S>
Status write_flat(const std::vector<ParamView<S>>& views, const S* in) {
  const std::size_t total = count_parameters(views);
  for (std::size_t e = 0; e < total; ++e) {
    if (!std::isfinite(in[e])) return not_finite("", "every parameter must be finite");
  }
  for (const auto& v : views) {
    for (std::size_t e = 0; e < v.size; ++e) v.value[stored_index(v, e)] = *in++;
  }
  return {};
}

// Copies every value from src into dst (same names and sizes, any scalar types).
template <class D, class S>
Status copy_parameters(const std::vector<ParamView<D>>& dst, const std::vector<ParamView<S>>& src) {
  if (dst.size() != src.size()) return invalid_value("", "parameter lists differ in length");
  for (std::size_t i = 0; i < dst.size(); ++i) {
    if (dst[i].name != src[i].name || dst[i].size != src[i].size) {
      return invalid_value("", "parameter " + dst[i].name + " does not match " + src[i].name);
    }
    for (std::size_t j = 0; j < dst[i].size; ++j) dst[i].value[j] = static_cast<D>(src[i].value[j]);
  }
  return {};
}

template <class S>
const ParamView<S>* find_parameter(const std::vector<ParamView<S>>& views, std::string_view name) {
  for (const auto& v : views) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

// Overwrites the named parameter with size values from data.
template <class S>
Status set_parameter(const std::vector<ParamView<S>>& views, std::string_view name, const S* data, std::size_t size) {
  const ParamView<S>* v = find_parameter(views, name);
  if (v == nullptr) return invalid_value("", "no parameter named '" + std::string(name) + "'");
  if (size != v->size || data == nullptr) {
    return unsupported(
        "", "parameter " + v->name + " needs " + std::to_string(v->size) + " values, got " + std::to_string(size));
  }
  for (std::size_t j = 0; j < size; ++j) v->value[j] = data[j];
  return {};
}

// Prefixes every view's name (e.g. "block0.mlp.") and appends the views to out.
template <class S>
void append_views(std::vector<ParamView<S>>& out, std::vector<ParamView<S>> views, const std::string& prefix) {
  for (auto& v : views) {
    v.name = prefix + v.name;
    out.push_back(std::move(v));
  }
}

}  // namespace gatelab
