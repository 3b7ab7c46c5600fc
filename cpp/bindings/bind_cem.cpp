// Embind registrations of paper B (docs/MATH.md §B): CEM attention and the tied gated MLP with
// their energy probes (§B15), the standard baselines and the weight tie between them (§B9);
// web/lib/cem.js wraps them.
#include "bind_module.hpp"

#include "gatelab/cem/probes.hpp"
#include "gatelab/model/baselines.hpp"
#include "gatelab/model/gated_mlp.hpp"
#include "gatelab/model/tie.hpp"
#include "gatelab/model/transformer.hpp"

using namespace emscripten;
using namespace gatelab;
using namespace gatelab::bind;

namespace {

Status to_config(const val& o, CemAttentionConfig& c) {
  if (Status e = seed_of(o, c.seed); !e.ok()) return e;
  if (Status e = read_cem_attention_fields(o, c); !e.ok()) return e;
  read_fields(o, "d", c.d, "beta", c.beta);
  return validate(c);
}

Status to_config(const val& o, CemMlpConfig& c) {
  if (Status e = seed_of(o, c.seed); !e.ok()) return e;
  Status e = parse_cem_activation(get<std::string>(o, "activation"), get<float>(o, "activationBeta"), c.activation);
  if (e.ok()) e = read_cem_descent_fields(o, c);
  if (!e.ok()) return e;
  read_fields(o, "d", c.d, "hidden", c.hidden);
  return validate(c);
}

Status to_config(const val& o, CemStdAttentionConfig& c) {
  if (Status e = seed_of(o, c.seed); !e.ok()) return e;
  read_fields(o, "d", c.d, "heads", c.heads, "beta", c.beta);
  return validate(c);
}

Status to_config(const val& o, CemGatedMlpConfig& c) {
  if (Status e = seed_of(o, c.seed); !e.ok()) return e;
  if (Status e = parse_cem_activation(get<std::string>(o, "activation"), get<float>(o, "activationBeta"), c.activation);
      !e.ok())
    return e;
  read_fields(o, "d", c.d, "hidden", c.hidden);
  return validate(c);
}

// out: (G, G); axes = [a₀ | a₁], each (d).
template <class L>
Status energy_grid(const L& layer, Ptr h, int n, int i, Ptr origin, Ptr axes, float lo, float hi, int g, Ptr out) {
  return energy_grid_f32(layer, f32(h), n, i, CemSlice{f32(origin), f32(axes), lo, hi, g}, f32(out));
}

// Laid out by hand: clang-format 14 would put each `+[]` lambda on a line of its own.
// clang-format off
template <class L>
class_<L> cem_methods(const char* name) {
  return module_methods<L>(name)
      .function("energy", +[](const L& l, Ptr h, int n, int i, Ptr y) {
        return number_from([&](double* e) { return l.energy(f32(h), n, i, f32(y), e); });
      })
      .function("energyGradient", +[](const L& l, Ptr h, int n, int i, Ptr y, Ptr out) {  // (d) = ∇_y ε(y | h, i)
        return energy_gradient_f32(l, f32(h), n, i, f32(y), f32(out));
      })
      .function("energyTrace", +[](const L& l, Ptr h, int n, Ptr out) { return energy_trace_f32(l, f32(h), n, f32(out)); })
      .function("trajectory", +[](const L& l, Ptr h, int n, Ptr out) { return l.trajectory(f32(h), n, f32(out)); })
      .function("energyGrid", &energy_grid<L>)
      .function("minEigenvalue", +[](const L& l) {
        return number_from([&](double* v) { return l.precond_min_eigenvalue(v); });
      })
      .function("preconditioner", +[](const L& l, Ptr out) { return precond_dense_f32(l, f32(out)); })
      .function("spectrum", +[](const L& l, Ptr out) { return precond_spectrum_f32(l, f32(out)); })
      .function("backward", &backward<L>);
}
// clang-format on

}  // namespace

// Laid out by hand: clang-format 14 would put each `+[]` lambda on a line of its own.
// clang-format off
EMSCRIPTEN_BINDINGS(gatelab_cem) {
  constants({{"_cemMaxD", cem_max_d}, {"_cemMaxRows", cem_max_rows}, {"_cemMaxSteps", cem_max_steps},
             {"_cemMaxHeads", cem_max_heads}, {"_cemMaxHidden", cem_max_hidden}, {"_cemMaxRank", cem_max_rank},
             {"_cemMaxEta", cem_max_eta}, {"_cemMaxBeta", cem_max_beta}, {"_cemMaxGrid", cem_max_grid},
             {"_cemMaxTensorFloats", cem_max_tensor_floats}, {"_cemMaxSpectrumDim", cem_max_spectrum_dim}});

  cem_methods<CemAttention>("CemAttention").function("beta", &CemAttention::beta);
  cem_methods<CemMlp>("CemMlp");
  module_methods<CemStdAttention>("CemStdAttention").function("beta", &CemStdAttention::beta);
  module_methods<CemGatedMlp>("CemGatedMlp");

  function("_validateCemAttentionOptions", &validate_options<CemAttentionConfig, to_config>);
  function("_validateCemMlpOptions", &validate_options<CemMlpConfig, to_config>);
  function("_validateCemStdAttentionOptions", &validate_options<CemStdAttentionConfig, to_config>);
  function("_validateCemGatedMlpOptions", &validate_options<CemGatedMlpConfig, to_config>);
  function("_createCemAttention", &create<CemAttention, CemAttentionConfig, to_config>, allow_raw_pointers());
  function("_createCemMlp", &create<CemMlp, CemMlpConfig, to_config>, allow_raw_pointers());
  function("_createCemStdAttention", &create<CemStdAttention, CemStdAttentionConfig, to_config>, allow_raw_pointers());
  function("_createCemGatedMlp", &create<CemGatedMlp, CemGatedMlpConfig, to_config>, allow_raw_pointers());
  function("_cemDefaultPrecondRank", +[](const std::string& precond, int d) {
    CemPrecond p = CemPrecond::none;
    return parse_cem_precond(precond, p).ok() ? cem_default_precond_rank(p, d) : 0;
  });
  function("_cemAttentionTieProblem", &attention_tie_problem);
  function("_cemMlpTieProblem", &mlp_tie_problem);
  function("_cemStandardFromTied", +[](const CemAttention& a) {
    return attention_tie_problem(a).ok() ? new CemStdAttention(standard_from_tied(a)) : nullptr;
  }, allow_raw_pointers());
  function("_cemGatedFromTied", +[](const CemMlp& m) {
    return mlp_tie_problem(m).ok() ? new CemGatedMlp(gated_from_tied(m)) : nullptr;
  }, allow_raw_pointers());
}
// clang-format on
