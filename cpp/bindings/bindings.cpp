// Embind registrations: the one file that knows about Emscripten.
//
// The bound names are private to web/lib/, which wraps them into the public API. Arrays cross the boundary as heap pointers (web/lib/heap.js
// copies in and out); every call re-validates what C++ relies on and reports a problem as
// an error string ("" = ok), because exceptions are disabled in this build.
#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "gatelab/base/activations.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/paper_a/symmetry.hpp"

using namespace emscripten;
using namespace gatelab;

namespace {

using Ptr = std::uintptr_t;
// Largest grid side of exchangePlane and curve length of activationCurve (4 M floats).
constexpr int max_curve_points = 2048;
float* f32(Ptr p) { return reinterpret_cast<float*>(p); }

struct LayerOptions {
  std::string kind;
  std::string activation;
  float beta = 1.0f;
  int dIn = 0, hidden = 0, dOut = 0, rank = 1;
  double seed = 0;
};

struct NumberResult {
  std::string error;
  double value = 0;
};

std::string to_config(const LayerOptions& o, LayerConfig& c) {
  const auto kind = parse_layer_kind(o.kind);
  if (!kind) return "kind must be 'mlp', 'symmetric' or 'gated' (got '" + o.kind + "')";
  const auto act = parse_activation(o.activation);
  if (!act) return "activation must be one of the catalogue names (got '" + o.activation + "')";
  if (!(o.seed >= 0 && o.seed <= 4294967295.0) || std::floor(o.seed) != o.seed) {
    return "seed must be an integer from 0 to 4294967295";
  }
  c = LayerConfig{*kind, {*act, o.beta}, o.dIn, o.hidden, o.dOut, o.rank, static_cast<std::uint64_t>(o.seed)};
  return validate(c);
}

std::string validate_layer_options(const LayerOptions& o) {
  LayerConfig c;
  return to_config(o, c);
}

// Precondition (checked by the JS layer through validateLayerOptions): the options are valid.
Layer* create_layer(const LayerOptions& o) {
  LayerConfig c;
  to_config(o, c);
  return new Layer(c);
}

std::string check_rows(const Layer& layer, int rows) {
  if (rows < 1 || rows > layer.max_rows()) {
    return "rows must be an integer from 1 to " + std::to_string(layer.max_rows()) + " for this layer (got " +
           std::to_string(rows) + ")";
  }
  return {};
}

std::string layer_forward(const Layer& layer, Ptr x, int rows, Ptr out) {
  std::string error = check_rows(layer, rows);
  if (error.empty()) layer.forward(f32(x), rows, f32(out));
  return error;
}

std::string layer_backward(const Layer& layer, Ptr x, int rows, Ptr grad_out, Ptr grad_x, Ptr gq, Ptr gk, Ptr gv) {
  std::string error = check_rows(layer, rows);
  if (!error.empty()) return error;
  LayerParams grads = zeros_like(layer.params());
  layer.backward(f32(x), rows, f32(grad_out), grad_x ? f32(grad_x) : nullptr, grads);
  std::copy(grads.q.begin(), grads.q.end(), f32(gq));
  std::copy(grads.k.begin(), grads.k.end(), f32(gk));
  std::copy(grads.v.begin(), grads.v.end(), f32(gv));
  return {};
}

int param_size(const Layer& layer, int which) {
  const LayerParams& p = layer.params();
  return static_cast<int>(which == 0 ? p.q.size() : which == 1 ? p.k.size() : p.v.size());
}

void get_params(const Layer& layer, Ptr q, Ptr k, Ptr v) {
  const LayerParams& p = layer.params();
  std::copy(p.q.begin(), p.q.end(), f32(q));
  std::copy(p.k.begin(), p.k.end(), f32(k));
  std::copy(p.v.begin(), p.v.end(), f32(v));
}

void set_params(Layer& layer, Ptr q, Ptr k, Ptr v) {
  LayerParams& p = layer.params();
  std::copy(f32(q), f32(q) + p.q.size(), p.q.begin());
  std::copy(f32(k), f32(k) + p.k.size(), p.k.begin());
  std::copy(f32(v), f32(v) + p.v.size(), p.v.begin());
}

Layer* exchanged_layer(const Layer& layer) { return new Layer(layer.exchanged()); }
Layer* rescaled_layer(const Layer& layer, float alpha) { return new Layer(layer.rescaled(alpha)); }

std::string check_probe(const Layer& layer, int rows) {
  if (layer.config().kind == LayerKind::mlp) {
    return "the 'mlp' kind has no Q factor, so it has no exchange or scaling symmetry to probe";
  }
  return check_rows(layer, rows);
}

NumberResult symmetry_gap(const Layer& layer, Ptr x, int rows, bool exchange, float alpha) {
  NumberResult r{check_probe(layer, rows), 0.0};
  if (r.error.empty()) r.value = exchange ? exchange_gap(layer, f32(x), rows) : scaling_gap(layer, f32(x), rows, alpha);
  return r;
}

NumberResult scaling_gap_units(const Layer& layer, Ptr x, int rows, Ptr alphas) {
  NumberResult r{check_probe(layer, rows), 0.0};
  if (r.error.empty()) r.value = scaling_gap_per_unit(layer, f32(x), rows, f32(alphas));
  return r;
}

std::string check_curve(int act, float lo, float hi, int n) {
  if (act < 0 || act >= activation_count) return "unknown activation index " + std::to_string(act);
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi)) return "min and max must be finite with min < max";
  if (n < 2 || n > max_curve_points) return "n must be an integer from 2 to " + std::to_string(max_curve_points);
  return {};
}

std::string plane(int act, float beta, float lo, float hi, int n, Ptr out) {
  std::string error = check_curve(act, lo, hi, n);
  if (error.empty()) exchange_plane({activation_by_index(act), beta}, lo, hi, n, f32(out));
  return error;
}

std::string curve(int act, float beta, float lo, float hi, int n, Ptr z, Ptr value, Ptr derivative, Ptr ratio) {
  std::string error = check_curve(act, lo, hi, n);
  if (error.empty()) {
    activation_curve({activation_by_index(act), beta}, lo, hi, n, f32(z), f32(value), f32(derivative), f32(ratio));
  }
  return error;
}

std::string activation_name_at(int i) { return activation_name(activation_by_index(i)); }
int activation_degree(int i) { return homogeneity_degree(activation_by_index(i)).value_or(-1); }
bool activation_linear(int i) { return is_linear(activation_by_index(i)); }

LayerOptions layer_options(const Layer& layer) {
  const LayerConfig& c = layer.config();
  return {layer_kind_name(c.kind), activation_name(c.activation.kind), c.activation.beta, c.d_in, c.hidden,
          c.d_out, c.rank, static_cast<double>(c.seed)};
}

std::string version() { return GATELAB_VERSION; }

}  // namespace

EMSCRIPTEN_BINDINGS(gatelab) {
  function("version", &version);
  constant("maxLayerDim", max_layer_dim);
  constant("maxLayerParams", static_cast<double>(max_layer_params));
  constant("maxBatchFloats", static_cast<double>(max_batch_floats));
  constant("maxSwishBeta", max_swish_beta);
  constant("activationCount", activation_count);
  constant("maxCurvePoints", max_curve_points);
  function("activationName", &activation_name_at);
  function("activationDegree", &activation_degree);
  function("activationLinear", &activation_linear);
  function("exchangePlane", &plane);
  function("activationCurve", &curve);

  value_object<LayerOptions>("LayerOptions")
      .field("kind", &LayerOptions::kind)
      .field("activation", &LayerOptions::activation)
      .field("beta", &LayerOptions::beta)
      .field("dIn", &LayerOptions::dIn)
      .field("hidden", &LayerOptions::hidden)
      .field("dOut", &LayerOptions::dOut)
      .field("rank", &LayerOptions::rank)
      .field("seed", &LayerOptions::seed);
  value_object<NumberResult>("NumberResult").field("error", &NumberResult::error).field("value", &NumberResult::value);

  class_<Layer>("Layer")
      .function("options", &layer_options)
      .function("maxRows", &Layer::max_rows)
      .function("parameterCount", &Layer::parameter_count)
      .function("paramSize", &param_size)
      .function("forward", &layer_forward)
      .function("backward", &layer_backward)
      .function("getParams", &get_params)
      .function("setParams", &set_params)
      .function("exchanged", &exchanged_layer, allow_raw_pointers())
      .function("rescaled", &rescaled_layer, allow_raw_pointers());
  function("validateLayerOptions", &validate_layer_options);
  function("createLayer", &create_layer, allow_raw_pointers());
  function("liveLayerCount", &Layer::live_count);
  function("symmetryGap", &symmetry_gap);
  function("scalingGapPerUnit", &scaling_gap_units);
}
