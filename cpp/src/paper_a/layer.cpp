// Layer construction, validation, parameter initialisation, parameter views and the symmetry
// transforms (exchange, inverse scaling, gauge fixing) of the paper-A family. Forward and
// backward live in layer_forward.cpp and layer_backward.cpp.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include "gatelab/base/rng.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "paper_a/layer_workspace.hpp"

namespace gatelab {
namespace {

template <class S>
std::atomic<int> live_layers{0};

Status dim_error(const char* field, int value) {
  return out_of_range(field, std::string(field) + " must be an integer from 1 to " + std::to_string(max_layer_dim) +
                                 " (got " + std::to_string(value) + ")");
}

int stored_rank(const LayerConfig& c) { return c.kind == LayerKind::mlp ? 1 : c.rank; }

// Float draws for every scalar, so a double layer starts from exactly the float layer's numbers.
template <class S>
void fill_normal(Pcg32& rng, S* data, std::size_t n, float scale) {
  for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<S>(scale * rng.normal());
}

}  // namespace

const char* layer_kind_name(LayerKind kind) {
  switch (kind) {
    case LayerKind::mlp: return "mlp";
    case LayerKind::symmetric: return "symmetric";
    case LayerKind::gated: return "gated";
    case LayerKind::bigated: return "bigated";
  }
  return "?";
}

std::optional<LayerKind> parse_layer_kind(std::string_view name) {
  return optional_from<LayerKind>([&](LayerKind& v) { return parse_layer_kind(name, "kind", v); });
}

Status parse_layer_kind(std::string_view name, std::string_view field, LayerKind& out) {
  return parse_choice(name, field, {LayerKind::mlp, LayerKind::symmetric, LayerKind::gated, LayerKind::bigated},
                      layer_kind_name, out);
}

Status parse_activation_spec(std::string_view name, float beta, std::string_view field, ActivationSpec& out) {
  Activation a{};
  if (Status e = parse_activation(name, field, a); !e.ok()) return e;
  if (!std::isfinite(beta) || std::fabs(beta) > max_swish_beta)
    return out_of_range("beta",
                        "beta must be finite with |beta| <= " + std::to_string(static_cast<int>(max_swish_beta)));
  out = {a, beta};
  return {};
}

Status validate_rows(int rows, int max_rows) {
  if (rows < 1 || rows > max_rows) {
    return out_of_range("rows", "rows must be an integer from 1 to " + std::to_string(max_rows) +
                                    " for this layer (got " + std::to_string(rows) + ")");
  }
  return {};
}

Status validate_symmetrize(float symmetrize) {
  if (!(symmetrize >= 0.0f && symmetrize <= 1.0f)) {
    return out_of_range("symmetrize",
                        "symmetrize must be a finite number in [0, 1] (got " + std::to_string(symmetrize) + ")");
  }
  return {};
}

Status validate(const LayerConfig& c) {
  if (c.d_in < 1 || c.d_in > max_layer_dim) return dim_error("d_in", c.d_in);
  if (c.hidden < 1 || c.hidden > max_layer_dim) return dim_error("hidden", c.hidden);
  if (c.d_out < 1 || c.d_out > max_layer_dim) return dim_error("d_out", c.d_out);
  if (c.kind != LayerKind::mlp && (c.rank < 1 || c.rank > c.d_in)) {
    return out_of_range("rank", "rank must be an integer from 1 to d_in = " + std::to_string(c.d_in) + " (got " +
                                    std::to_string(c.rank) + ")");
  }
  if (!std::isfinite(c.activation.beta) || std::fabs(c.activation.beta) > max_swish_beta) {
    return out_of_range(
        "beta", "beta must be a finite number with |beta| <= " + std::to_string(static_cast<int>(max_swish_beta)));
  }
  if (Status e = validate_symmetrize(c.symmetrize); !e.ok()) return e;
  if (c.symmetrize != 0.0f && c.kind != LayerKind::gated) {
    return unsupported("symmetrize", std::string("symmetrize applies to the 'gated' kind only (kind is '") +
                                         layer_kind_name(c.kind) + "')");
  }
  const std::size_t r = static_cast<std::size_t>(stored_rank(c));
  const std::size_t count =
      static_cast<std::size_t>(c.hidden) *
      ((c.kind == LayerKind::mlp ? 1 : 2) * r * static_cast<std::size_t>(c.d_in) + static_cast<std::size_t>(c.d_out));
  if (count > max_layer_params) {
    return out_of_range("", "the layer would have " + std::to_string(count) + " parameters; the cap is " +
                                std::to_string(max_layer_params) + " (reduce hidden, rank or the dimensions)");
  }
  return {};
}

Status gauge_fix_problem(const LayerConfig& c) {
  if (c.kind == LayerKind::symmetric) return {};
  if (c.kind == LayerKind::mlp) return unsupported("", "the 'mlp' kind has no Q factor to fix");
  const auto degree = homogeneity_degree(c.activation.kind);
  if (!degree) {
    return out_of_range(
        "", std::string("gauge fixing changes a gated layer whose activation is not positively homogeneous ('") +
                activation_name(c.activation.kind) + "')");
  }
  if (*degree != 1 && c.symmetrize != 0.0f)
    return unsupported("", "gauge fixing with symmetrize > 0 needs a degree-1 activation");
  // bigated: σ(a/c)σ(c·b) = σ(a)σ(b) for every degree, so the power is 1 (§A23).
  return {};
}

template <class S>
LayerT<S>::LayerT(const LayerConfig& config)
    : config_(config), error_(validate(config)), workspace_(std::make_unique<Workspace>()) {
  ++live_layers<S>;
  if (!error_.ok()) return;  // no parameters: a refused config may ask for any size
  const std::size_t m = config.hidden, d = config.d_in, r = stored_rank(config);
  Pcg32 rng(config.seed);
  const float key_scale = 1.0f / std::sqrt(static_cast<float>(d));
  if (config.kind != LayerKind::mlp) {
    params_.q = xt::xtensor<S, 3>::from_shape({m, r, d});
    fill_normal(rng, params_.q.data(), params_.q.size(), key_scale);
  } else {
    params_.q = xt::xtensor<S, 3>::from_shape({0, 0, 0});
  }
  params_.k = xt::xtensor<S, 3>::from_shape({m, r, d});
  fill_normal(rng, params_.k.data(), params_.k.size(), key_scale);
  params_.v = xt::xtensor<S, 2>::from_shape({m, static_cast<std::size_t>(config.d_out)});
  fill_normal(rng, params_.v.data(), params_.v.size(), 1.0f / std::sqrt(static_cast<float>(m)));
  grads_ = zeros_like(params_);
}

template <class S>
LayerT<S>::LayerT(const LayerT& other)
    : config_(other.config_),
      error_(other.error_),
      params_(other.params_),
      grads_(other.grads_),
      workspace_(std::make_unique<Workspace>()) {
  ++live_layers<S>;
}

template <class S>
LayerT<S>& LayerT<S>::operator=(const LayerT& other) {
  config_ = other.config_;
  error_ = other.error_;
  params_ = other.params_;
  grads_ = other.grads_;
  return *this;
}

template <class S>
void LayerT<S>::zero_grad() {
  grads_.q.fill(S(0));
  grads_.k.fill(S(0));
  grads_.v.fill(S(0));
}

template <class S>
LayerT<S>::~LayerT() {
  --live_layers<S>;
}

template <class S>
int LayerT<S>::live_count() {
  return live_layers<S>.load();
}

template <class S>
std::size_t LayerT<S>::parameter_count() const {
  return params_.q.size() + params_.k.size() + params_.v.size();
}

template <class S>
std::vector<ParamView<S>> LayerT<S>::views(Params& p, Params& g) {
  std::vector<ParamView<S>> out;
  const int m = static_cast<int>(p.v.shape()[0]);
  if (p.q.size() > 0) {
    out.push_back({"q", p.q.data(), g.q.data(), p.q.size(), static_cast<int>(p.q.size() / p.q.shape()[2]),
                   static_cast<int>(p.q.shape()[2])});
  }
  out.push_back({"k", p.k.data(), g.k.data(), p.k.size(), static_cast<int>(p.k.size() / p.k.shape()[2]),
                 static_cast<int>(p.k.shape()[2])});
  out.push_back({"v", p.v.data(), g.v.data(), p.v.size(), m, static_cast<int>(p.v.shape()[1])});
  return out;
}

template <class S>
Status LayerT<S>::check(int rows, const void* in, const void* out) const {
  if (!error_.ok()) return error_;
  if (Status e = validate_rows(rows, max_rows()); !e.ok()) return e;
  if (in == nullptr || out == nullptr) return invalid_value("", "input and output pointers must not be null");
  return {};
}

template <class S>
int LayerT<S>::max_rows() const {
  const std::size_t widest = std::max({static_cast<std::size_t>(config_.d_in), static_cast<std::size_t>(config_.d_out),
                                       static_cast<std::size_t>(config_.hidden) * stored_rank(config_)});
  return static_cast<int>(max_batch_floats / widest);
}

template <class S>
LayerT<S> LayerT<S>::exchanged() const {
  LayerT out(*this);
  std::swap(out.params_.q, out.params_.k);
  return out;
}

template <class S>
LayerT<S> LayerT<S>::rescaled(float alpha) const {
  LayerT out(*this);
  out.params_.q *= static_cast<S>(alpha);
  out.params_.k /= static_cast<S>(alpha);
  return out;
}

template <class S>
LayerT<S> LayerT<S>::rescaled_per_unit(const float* alphas) const {
  LayerT out(*this);
  const std::size_t m = params_.q.shape()[0];
  for (std::size_t j = 0; j < m; ++j) {
    xt::view(out.params_.q, j) *= static_cast<S>(alphas[j]);
    xt::view(out.params_.k, j) /= static_cast<S>(alphas[j]);
  }
  return out;
}

template <class S>
void LayerT<S>::gauge_fix() {
  if (!gauge_fix_problem(config_).ok()) return;
  const int degree = config_.kind == LayerKind::symmetric || config_.kind == LayerKind::bigated
                         ? 1
                         : homogeneity_degree(config_.activation.kind).value_or(1);
  const std::size_t pairs = params_.q.size() / static_cast<std::size_t>(config_.d_in);
  const int d = config_.d_in;
  for (std::size_t p = 0; p < pairs; ++p) {
    S* q = params_.q.data() + p * d;
    S* k = params_.k.data() + p * d;
    double norm2 = 0;
    for (int e = 0; e < d; ++e) norm2 += double(q[e]) * double(q[e]);
    if (!(norm2 > 0)) continue;
    const double norm = std::sqrt(norm2);  // sqrt is correctly rounded everywhere
    double k_scale = 1;
    for (int t = 0; t < degree; ++t) k_scale *= norm;
    for (int e = 0; e < d; ++e) {
      q[e] = static_cast<S>(q[e] / norm);
      k[e] = static_cast<S>(k[e] * k_scale);
    }
  }
}

template class LayerT<float>;
template class LayerT<double>;

}  // namespace gatelab
