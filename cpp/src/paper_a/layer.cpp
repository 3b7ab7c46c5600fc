// Layer construction, validation, parameter initialisation and the symmetry transforms
// (exchange and inverse scaling) of the paper-A family. Forward and backward live in
// layer_forward.cpp and layer_backward.cpp.
#include <atomic>
#include <cmath>
#include <algorithm>
#include <string>

#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include "gatelab/paper_a/layer.hpp"
#include "gatelab/base/rng.hpp"
#include "paper_a/layer_workspace.hpp"

namespace gatelab {
namespace {

std::atomic<int> live_layers{0};

std::string dim_error(const char* field, int value) {
  return std::string(field) + " must be an integer from 1 to " + std::to_string(max_layer_dim) + " (got " +
         std::to_string(value) + ")";
}

int stored_rank(const LayerConfig& c) { return c.kind == LayerKind::mlp ? 1 : c.rank; }

void fill_normal(Pcg32& rng, float* data, std::size_t n, float scale) {
  for (std::size_t i = 0; i < n; ++i) data[i] = scale * rng.normal();
}

}  // namespace

const char* layer_kind_name(LayerKind kind) {
  switch (kind) {
    case LayerKind::mlp: return "mlp";
    case LayerKind::symmetric: return "symmetric";
    case LayerKind::gated: return "gated";
  }
  return "?";
}

std::optional<LayerKind> parse_layer_kind(std::string_view name) {
  for (LayerKind k : {LayerKind::mlp, LayerKind::symmetric, LayerKind::gated}) {
    if (name == layer_kind_name(k)) return k;
  }
  return std::nullopt;
}

std::string validate(const LayerConfig& c) {
  if (c.d_in < 1 || c.d_in > max_layer_dim) return dim_error("dIn", c.d_in);
  if (c.hidden < 1 || c.hidden > max_layer_dim) return dim_error("hidden", c.hidden);
  if (c.d_out < 1 || c.d_out > max_layer_dim) return dim_error("dOut", c.d_out);
  if (c.kind != LayerKind::mlp && (c.rank < 1 || c.rank > c.d_in)) {
    return "rank must be an integer from 1 to dIn = " + std::to_string(c.d_in) + " (got " +
           std::to_string(c.rank) + ")";
  }
  if (!std::isfinite(c.activation.beta) || std::fabs(c.activation.beta) > max_swish_beta) {
    return "beta must be a finite number with |beta| <= " + std::to_string(static_cast<int>(max_swish_beta));
  }
  const std::size_t r = static_cast<std::size_t>(stored_rank(c));
  const std::size_t count = static_cast<std::size_t>(c.hidden) *
      ((c.kind == LayerKind::mlp ? 1 : 2) * r * static_cast<std::size_t>(c.d_in) + static_cast<std::size_t>(c.d_out));
  if (count > max_layer_params) {
    return "the layer would have " + std::to_string(count) + " parameters; the cap is " +
           std::to_string(max_layer_params) + " (reduce hidden, rank or the dimensions)";
  }
  return {};
}

Layer::Layer(const LayerConfig& config) : config_(config), workspace_(std::make_unique<Workspace>()) {
  ++live_layers;
  const std::size_t m = config.hidden, d = config.d_in, r = stored_rank(config);
  Pcg32 rng(config.seed);
  const float key_scale = 1.0f / std::sqrt(static_cast<float>(d));
  if (config.kind != LayerKind::mlp) {
    params_.q = xt::xtensor<float, 3>::from_shape({m, r, d});
    fill_normal(rng, params_.q.data(), params_.q.size(), key_scale);
  } else {
    params_.q = xt::xtensor<float, 3>::from_shape({0, 0, 0});
  }
  params_.k = xt::xtensor<float, 3>::from_shape({m, r, d});
  fill_normal(rng, params_.k.data(), params_.k.size(), key_scale);
  params_.v = xt::xtensor<float, 2>::from_shape({m, static_cast<std::size_t>(config.d_out)});
  fill_normal(rng, params_.v.data(), params_.v.size(), 1.0f / std::sqrt(static_cast<float>(m)));
}

Layer::Layer(const Layer& other)
    : config_(other.config_), params_(other.params_), workspace_(std::make_unique<Workspace>()) {
  ++live_layers;
}

Layer& Layer::operator=(const Layer& other) {
  config_ = other.config_;
  params_ = other.params_;
  return *this;
}

Layer::~Layer() { --live_layers; }

int Layer::live_count() { return live_layers.load(); }

std::size_t Layer::parameter_count() const { return params_.q.size() + params_.k.size() + params_.v.size(); }

int Layer::max_rows() const {
  const std::size_t widest = std::max({static_cast<std::size_t>(config_.d_in), static_cast<std::size_t>(config_.d_out),
                                       static_cast<std::size_t>(config_.hidden) * stored_rank(config_)});
  return static_cast<int>(max_batch_floats / widest);
}

Layer Layer::exchanged() const {
  Layer out(*this);
  std::swap(out.params_.q, out.params_.k);
  return out;
}

Layer Layer::rescaled(float alpha) const {
  Layer out(*this);
  out.params_.q *= alpha;
  out.params_.k /= alpha;
  return out;
}

Layer Layer::rescaled_per_unit(const float* alphas) const {
  Layer out(*this);
  const std::size_t m = params_.q.shape()[0];
  for (std::size_t j = 0; j < m; ++j) {
    xt::view(out.params_.q, j) *= alphas[j];
    xt::view(out.params_.k, j) /= alphas[j];
  }
  return out;
}

LayerParams zeros_like(const LayerParams& p) {
  return {xt::zeros<float>(p.q.shape()), xt::zeros<float>(p.k.shape()), xt::zeros<float>(p.v.shape())};
}

}  // namespace gatelab
