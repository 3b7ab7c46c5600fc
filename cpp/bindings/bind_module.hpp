// The one way every module is bound (paper A's layer, CEM attention and MLP, the baselines):
// parameters as named views and one flat vector (read_flat's layout), drawn from the library's
// generator, forward, backward with dL/dθ in that layout; web/lib/core/module.js wraps them once.
#pragma once

#include <string>

#include "bind_common.hpp"
#include "gatelab/base/param_draw.hpp"
#include "gatelab/cem/attention.hpp"
#include "gatelab/cem/mlp.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace gatelab::bind {

// The paper-A layer's own options, read one way for lab.createLayer, createTrainer and lab.lm's
// options.mlp (the transformer's std_mlp), so a field the layer gains reaches all; sizes, seed: the caller's.
inline Status read_layer_fields(const val& o, LayerConfig& c) {
  if (Status e = parse_layer_kind(get<std::string>(o, "kind"), "kind", c.kind); !e.ok()) return e;
  if (Status e = parse_activation(get<std::string>(o, "activation"), "activation", c.activation.kind); !e.ok())
    return e;
  read_fields(o, "beta", c.activation.beta, "hidden", c.hidden, "rank", c.rank, "symmetrize", c.symmetrize);
  return {};
}

// A CEM layer's descent (T, η, preconditioner), and the attention's heads and diagonal, read one way
// for lab.cem's makers and lab.gp's transformer (both layers); d, β, the MLP's σ, seed: the caller's.
template <class C>
Status read_cem_descent_fields(const val& o, C& c) {
  read_fields(o, "steps", c.steps, "eta", c.eta, "precondRank", c.precond_rank);
  return parse_cem_precond(get<std::string>(o, "precond"), c.precond);
}
inline Status read_cem_attention_fields(const val& o, CemAttentionConfig& c) {
  read_fields(o, "heads", c.heads);
  Status e = parse_cem_diagonal(get<std::string>(o, "diagonal"), c.diagonal);
  return e.ok() ? read_cem_descent_fields(o, c) : e;
}

// A field of parameter view k (its zero when there is none); all views as one flat vector.
template <class L, class R, auto field>
R view_field(L& layer, int k) {
  const auto views = layer.parameters();
  return k >= 0 && k < static_cast<int>(views.size()) ? static_cast<R>(views[k].*field) : R{};
}
template <class L>
Status set_params(L& layer, Ptr in) {
  if (!layer.error().ok()) return layer.error();
  return in ? write_flat(layer.parameters(), f32(in)) : invalid_value("params", "params must not be null");
}

// Writes dL/dh (n, d; skipped when grad_h is 0) and dL/dθ in getParams' flat layout.
template <class L>
Status backward(L& layer, Ptr h, int n, Ptr grad_out, Ptr grad_h, Ptr grad_params) {
  if (!grad_out || !grad_params) return invalid_value("gradOut", "gradOut must not be null");
  return run_if_ok(layer.backward(f32(h), n, f32(grad_out), grad_h ? f32(grad_h) : nullptr),
                   [&] { read_flat(layer.parameters(), f32(grad_params), true); });
}

// Laid out by hand: clang-format 14 would put each `+[]` lambda on a line of its own.
// clang-format off
template <class L>
emscripten::class_<L> module_methods(const char* name) {
  return emscripten::class_<L>(name)
      .function("parameterCount", &L::parameter_count)
      .function("viewCount", +[](L& l) { return static_cast<int>(l.parameters().size()); })
      .function("viewName", &view_field<L, std::string, &ParamView<float>::name>)
      .function("viewSize", &view_field<L, int, &ParamView<float>::size>)
      .function("viewRows", &view_field<L, int, &ParamView<float>::rows>)
      .function("viewCols", &view_field<L, int, &ParamView<float>::cols>)
      .function("getParams", +[](L& l, Ptr out) { read_flat(l.parameters(), f32(out)); })
      .function("setParams", &set_params<L>)
      .function("drawParams", +[](L& l, const val& names, double seed, double scale) {  // names: view names
        return draw_params(l, emscripten::vecFromJSArray<std::string>(names), seed, scale);
      })
      .function("forward", +[](const L& l, Ptr h, int n, Ptr out) { return l.forward(f32(h), n, f32(out)); });
}
// clang-format on

}  // namespace gatelab::bind
