// Embind registrations for paper B (Causal Energy Minimization, MATH.md B): CEM attention and
// the tied gated MLP (forward, energy, energy trace, per-step trajectory, the energy over a
// grid of a 2-D slice, the preconditioner's matrix and spectrum, backward), and the standard
// baselines they are compared with (untied attention, the gated MLP), including the standard
// layer whose weights satisfy the tie of a CEM layer. web/lib/cem.js wraps them.
//
// Same conventions as bindings.cpp: coarse calls (a whole batch, a whole grid), arrays by heap
// pointer, every problem returned as an error string ("" = ok), never thrown. The JS layer
// checks types, finiteness and lengths first; these functions check again what C++ relies on,
// and the core's validate() owns every range and cap. Messages use the JS spelling of names
// (precondRank, 'per-head').
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gatelab/base/activations.hpp"
#include "gatelab/cem/attention.hpp"
#include "gatelab/cem/baselines.hpp"
#include "gatelab/cem/common.hpp"
#include "gatelab/cem/mlp.hpp"
#include "gatelab/cem/tie.hpp"
#include "gatelab/cem/transformer.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/base/eigen.hpp"

using namespace emscripten;
using namespace gatelab;

namespace {

using Ptr = std::uintptr_t;
float* fp(Ptr p) { return reinterpret_cast<float*>(p); }

// Largest side G of an energy grid (G × G evaluations in one call).
constexpr int cem_max_grid = 512;

struct CemNumber {
  std::string error;
  double value = 0;
};

// The option objects web/lib/cem.js fills in completely (defaults applied there).
struct CemAttentionOptions {
  int d = 0, heads = 1, steps = 1;
  float eta = 1.0f, beta = 0.0f;  // beta 0 = 1/√d_h
  std::string diagonal, precond;
  int precondRank = 0;
  double seed = 0;
};

struct CemMlpOptions {
  int d = 0, hidden = 0, steps = 1;
  float eta = 1.0f;
  std::string activation;
  float activationBeta = 1.0f;  // swish β
  std::string precond;
  int precondRank = 0;
  double seed = 0;
};

struct CemStdAttentionOptions {
  int d = 0, heads = 1;
  float beta = 0.0f;
  double seed = 0;
};

struct CemGatedMlpOptions {
  int d = 0, hidden = 0;
  std::string activation;
  float activationBeta = 1.0f;
  double seed = 0;
};

// ---- options -----------------------------------------------------------------------------

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// The core's messages with the names a JS caller uses.
std::string js_names(std::string message) {
  replace_all(message, "precond_rank", "precondRank");
  replace_all(message, "per_head", "per-head");
  replace_all(message, "activation.beta", "beta");
  return message;
}

std::string check_seed(double seed) {
  if (!(seed >= 0 && seed <= 4294967295.0) || std::floor(seed) != seed) {
    return "seed must be an integer from 0 to 4294967295";
  }
  return {};
}

std::string parse_diagonal(const std::string& name, CemDiagonal& out) {
  const auto v = parse_cem_diagonal(name == "per-head" ? std::string("per_head") : name);
  if (!v || name == "per_head") return "diagonal must be 'none', 'per-head' or 'shared' (got '" + name + "')";
  out = *v;
  return {};
}

std::string parse_precond(const std::string& name, CemPrecond& out) {
  const auto v = parse_cem_precond(name);
  if (!v) return "precond must be 'none', 'paper' or 'psd' (got '" + name + "')";
  out = *v;
  return {};
}

std::string parse_activation_spec(const std::string& name, float beta, ActivationSpec& out) {
  const auto a = parse_activation(name);
  if (!a) return "activation must be one of the catalogue names (got '" + name + "')";
  out = {*a, *a == Activation::swish ? beta : 1.0f};
  return {};
}

std::string to_config(const CemAttentionOptions& o, CemAttentionConfig& c) {
  if (std::string e = check_seed(o.seed); !e.empty()) return e;
  if (std::string e = parse_diagonal(o.diagonal, c.diagonal); !e.empty()) return e;
  if (std::string e = parse_precond(o.precond, c.precond); !e.empty()) return e;
  c.d = o.d;
  c.heads = o.heads;
  c.steps = o.steps;
  c.eta = o.eta;
  c.beta = o.beta;
  c.precond_rank = o.precondRank;
  c.seed = static_cast<std::uint64_t>(o.seed);
  return js_names(validate(c));
}

std::string to_config(const CemMlpOptions& o, CemMlpConfig& c) {
  if (std::string e = check_seed(o.seed); !e.empty()) return e;
  if (std::string e = parse_activation_spec(o.activation, o.activationBeta, c.activation); !e.empty()) return e;
  if (std::string e = parse_precond(o.precond, c.precond); !e.empty()) return e;
  c.d = o.d;
  c.hidden = o.hidden;
  c.steps = o.steps;
  c.eta = o.eta;
  c.precond_rank = o.precondRank;
  c.seed = static_cast<std::uint64_t>(o.seed);
  return js_names(validate(c));
}

std::string to_config(const CemStdAttentionOptions& o, CemStdAttentionConfig& c) {
  if (std::string e = check_seed(o.seed); !e.empty()) return e;
  c = {o.d, o.heads, o.beta, static_cast<std::uint64_t>(o.seed)};
  return js_names(validate(c));
}

std::string to_config(const CemGatedMlpOptions& o, LayerConfig& c) {
  if (std::string e = check_seed(o.seed); !e.empty()) return e;
  ActivationSpec activation;
  if (std::string e = parse_activation_spec(o.activation, o.activationBeta, activation); !e.empty()) return e;
  if (std::string e = cem_validate_gated_mlp(o.d, o.hidden, activation); !e.empty()) return js_names(e);
  c = standard_mlp_config(o.d, o.hidden, activation, static_cast<std::uint64_t>(o.seed));
  return js_names(validate(c));
}

// lab.cem's gated MLP: the paper-A gated rank-1 layer (the transformer's MLP slot), shown to
// JS in the Llama layout: Wgate = Q, Wup = K (M × d) and Wdown = Vᵀ (d × M), transposed here.
struct StandardMlp {
  Layer layer;
  explicit StandardMlp(const LayerConfig& c) : layer(c) { cem_init_mlp_slot(layer); }
  explicit StandardMlp(Layer l) : layer(std::move(l)) {}
  const std::string& error() const {
    static const std::string none;
    return none;
  }
  std::size_t parameter_count() const { return layer.parameter_count(); }
  std::string forward(const float* x, int n, float* out) const {
    if (n < 1 || n > std::min(cem_max_rows, layer.max_rows())) return "n must be in 1…" + std::to_string(cem_max_rows);
    layer.forward(x, n, out);
    return {};
  }
  std::vector<ParamView<float>> parameters() {
    auto& p = layer.params();
    auto& g = layer.grads();
    const int m = layer.config().hidden, d = layer.config().d_in;
    const std::size_t size = std::size_t(m) * d;
    return {{"w_gate", p.q.data(), g.q.data(), size, m, d},
            {"w_up", p.k.data(), g.k.data(), size, m, d},
            {"w_down", p.v.data(), g.v.data(), size, d, m}};  // stored as V (M × d)
  }
};

template <class Options, class Config>
std::string validate_options(const Options& o) {
  Config c;
  return to_config(o, c);
}

// Precondition (checked by web/lib/cem.js through the validate function): valid options.
template <class Layer, class Options, class Config>
Layer* create(const Options& o) {
  Config c;
  to_config(o, c);
  return new Layer(c);
}

// ---- parameters as named views, concatenated in parameters() order ------------------------

template <class L>
int view_count(L& layer) {
  return static_cast<int>(layer.parameters().size());
}

template <class L>
bool has_view(L& layer, int k) {
  return k >= 0 && k < view_count(layer);
}

template <class L>
std::string view_name(L& layer, int k) {
  return has_view(layer, k) ? layer.parameters()[k].name : std::string();
}

template <class L>
int view_size(L& layer, int k) {
  return has_view(layer, k) ? static_cast<int>(layer.parameters()[k].size) : 0;
}

template <class L>
int view_rows(L& layer, int k) {
  return has_view(layer, k) ? layer.parameters()[k].rows : 0;
}

template <class L>
int view_cols(L& layer, int k) {
  return has_view(layer, k) ? layer.parameters()[k].cols : 0;
}

template <class L>
double parameter_count(const L& layer) {
  return static_cast<double>(layer.parameter_count());
}

// A view's values in the layout JS sees (rows × cols): as stored, except the gated MLP's
// w_down, which is stored transposed (V = W_downᵀ).
void copy_view_out(const ParamView<float>& v, const float* src, float* dst) {
  const bool transposed = v.name == "w_down";
  for (std::size_t e = 0; e < v.size; ++e) {
    dst[e] = transposed ? src[(e % v.cols) * v.rows + e / v.cols] : src[e];
  }
}

void copy_view_in(const ParamView<float>& v, const float* src, float* dst) {
  const bool transposed = v.name == "w_down";
  for (std::size_t e = 0; e < v.size; ++e) {
    if (transposed) {
      dst[(e % v.cols) * v.rows + e / v.cols] = src[e];
    } else {
      dst[e] = src[e];
    }
  }
}

// out: every parameter (or its gradient) one after the other, in parameters() order.
template <class L>
void get_values(L& layer, Ptr out, bool grads) {
  float* dst = fp(out);
  for (const auto& v : layer.parameters()) {
    copy_view_out(v, grads ? v.grad : v.value, dst);
    dst += v.size;
  }
}

template <class L>
void get_params(L& layer, Ptr out) {
  get_values(layer, out, false);
}

template <class L>
std::string set_params(L& layer, Ptr in) {
  if (!layer.error().empty()) return layer.error();
  if (!in) return "params must not be null";
  const float* src = fp(in);
  std::size_t total = 0;
  for (const auto& v : layer.parameters()) total += v.size;
  for (std::size_t e = 0; e < total; ++e) {
    if (!std::isfinite(src[e])) return "every parameter must be finite";
  }
  for (const auto& v : layer.parameters()) {
    copy_view_in(v, src, v.value);
    src += v.size;
  }
  return {};
}

// ---- calls on batches ----------------------------------------------------------------------

template <class L>
std::string forward(const L& layer, Ptr h, int n, Ptr out) {
  return js_names(layer.forward(fp(h), n, fp(out)));
}

template <class L>
CemNumber energy(const L& layer, Ptr h, int n, int i, Ptr y) {
  CemNumber r;
  r.error = js_names(layer.energy(fp(h), n, i, fp(y), &r.value));
  return r;
}

// out: (n, T+1) as float.
template <class L>
std::string energy_trace(const L& layer, Ptr h, int n, Ptr out) {
  if (!layer.error().empty()) return layer.error();
  if (std::string e = cem_check_call(n, fp(h), fp(out)); !e.empty()) return js_names(e);
  const int columns = layer.config().steps + 1;
  std::vector<double> trace(std::size_t(n) * columns);
  if (std::string e = layer.energy_trace(fp(h), n, trace.data()); !e.empty()) return js_names(e);
  std::copy(trace.begin(), trace.end(), fp(out));
  return {};
}

// out: (T+1, n, d), y⁰ = h, …, y^T, the variables after each step. Step t is the forward of
// the same weights with t steps (bit for bit what the T-step forward passes through).
template <class L>
std::string trajectory(const L& layer, Ptr h, int n, Ptr out) {
  if (!layer.error().empty()) return layer.error();
  if (std::string e = cem_check_call(n, fp(h), fp(out)); !e.empty()) return js_names(e);
  const int steps = layer.config().steps;
  const std::size_t nd = std::size_t(n) * layer.config().d;
  if ((steps + 1) * nd > cem_max_tensor_floats) {
    return "n·d·(steps + 1) must be at most " + std::to_string(cem_max_tensor_floats) + " (n = " + std::to_string(n) + ")";
  }
  std::copy(fp(h), fp(h) + nd, fp(out));
  for (int t = 1; t <= steps; ++t) {
    auto config = layer.config();
    config.steps = t;
    L partial(config);
    partial.params() = layer.params();
    if (std::string e = partial.forward(fp(h), n, fp(out) + t * nd); !e.empty()) return js_names(e);
  }
  return {};
}

// out: (G, G), row r, column c = ε(origin + u_c·a₀ + v_r·a₁ | h_0..h_i), with
// u_c = lo + (hi − lo)·c/(G − 1) and v_r likewise; axes = [a₀ | a₁], each (d).
template <class L>
std::string energy_grid(const L& layer, Ptr h, int n, int i, Ptr origin, Ptr axes, float lo, float hi, int g,
                        Ptr out) {
  if (!layer.error().empty()) return layer.error();
  if (g < 2 || g > cem_max_grid) return "G must be an integer from 2 to " + std::to_string(cem_max_grid);
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi)) return "min and max must be finite with min < max";
  if (!origin || !axes || !out) return "origin, axes and output must not be null";
  const int d = layer.config().d;
  const float* o = fp(origin);
  const float* a0 = fp(axes);
  const float* a1 = a0 + d;
  std::vector<float> y(d);
  float* dst = fp(out);
  for (int r = 0; r < g; ++r) {
    const double v = lo + (static_cast<double>(hi) - lo) * r / (g - 1);
    for (int c = 0; c < g; ++c) {
      const double u = lo + (static_cast<double>(hi) - lo) * c / (g - 1);
      for (int k = 0; k < d; ++k) y[k] = static_cast<float>(o[k] + u * a0[k] + v * a1[k]);
      double e = 0;
      if (std::string error = layer.energy(fp(h), n, i, y.data(), &e); !error.empty()) return js_names(error);
      dst[std::size_t(r) * g + c] = static_cast<float>(e);
    }
  }
  return {};
}

template <class L>
CemNumber min_eigenvalue(const L& layer) {
  CemNumber r;
  r.error = layer.precond_min_eigenvalue(&r.value);
  return r;
}

// out: P, d × d, row-major.
template <class L>
std::string preconditioner(const L& layer, Ptr out) {
  const int d = layer.config().d;
  std::vector<double> p(std::size_t(d) * d);
  if (std::string e = layer.precond_dense(p.data()); !e.empty()) return e;
  std::copy(p.begin(), p.end(), fp(out));
  return {};
}

// The spectrum is for looking at: one call must stay interactive, and Jacobi's cost grows as
// d³ (d = 512 takes ~4 s natively), so it keeps its own cap below eigen.hpp's.
constexpr int max_spectrum_dim = 512;
static_assert(max_spectrum_dim <= max_eigen_dim);

// out: the d eigenvalues of P, ascending.
template <class L>
std::string spectrum(const L& layer, Ptr out) {
  const int d = layer.config().d;
  if (d > max_spectrum_dim) {
    return "the spectrum needs d ≤ " + std::to_string(max_spectrum_dim) + " (d = " + std::to_string(d) + ")";
  }
  std::vector<double> p(std::size_t(d) * d);
  if (std::string e = layer.precond_dense(p.data()); !e.empty()) return e;
  const std::vector<double> values = symmetric_eigenvalues(p.data(), d, EigenOrder::descending);
  std::copy(values.rbegin(), values.rend(), fp(out));
  return {};
}

// Writes dL/dh (n, d) and dL/dθ (concatenated like get_params).
template <class L>
std::string backward(L& layer, Ptr h, int n, Ptr grad_out, Ptr grad_h, Ptr grad_params) {
  if (!grad_out || !grad_params) return "gradOut must not be null";
  if (std::string e = layer.backward(fp(h), n, fp(grad_out), grad_h ? fp(grad_h) : nullptr); !e.empty()) {
    return js_names(e);
  }
  get_values(layer, grad_params, true);
  return {};
}

float attention_beta(const CemAttention& layer) { return layer.beta(); }
float std_attention_beta(const CemStdAttention& layer) { return layer.beta(); }

template <class L>
std::string forward_baseline(const L& layer, Ptr x, int n, Ptr out) {
  return js_names(layer.forward(fp(x), n, fp(out)));
}

// ---- the tie (MATH.md B2, B3) ---------------------------------------------------------------

CemStdAttention* standard_from_tied_handle(const CemAttention& a) {
  return attention_tie_problem(a).empty() ? new CemStdAttention(standard_from_tied(a)) : nullptr;
}

StandardMlp* gated_from_tied_handle(const CemMlp& m) {
  return mlp_tie_problem(m).empty() ? new StandardMlp(gated_from_tied(m)) : nullptr;
}

template <class L, class C>
void common_methods(C& cls) {
  cls.function("parameterCount", &parameter_count<L>)
      .function("viewCount", &view_count<L>)
      .function("viewName", &view_name<L>)
      .function("viewSize", &view_size<L>)
      .function("viewRows", &view_rows<L>)
      .function("viewCols", &view_cols<L>)
      .function("getParams", &get_params<L>)
      .function("setParams", &set_params<L>);
}

template <class L, class C>
void cem_methods(C& cls) {
  common_methods<L>(cls);
  cls.function("forward", &forward<L>)
      .function("energy", &energy<L>)
      .function("energyTrace", &energy_trace<L>)
      .function("trajectory", &trajectory<L>)
      .function("energyGrid", &energy_grid<L>)
      .function("minEigenvalue", &min_eigenvalue<L>)
      .function("preconditioner", &preconditioner<L>)
      .function("spectrum", &spectrum<L>)
      .function("backward", &backward<L>);
}

}  // namespace

EMSCRIPTEN_BINDINGS(cem) {
  constant("cemMaxD", cem_max_d);
  constant("cemMaxRows", cem_max_rows);
  constant("cemMaxSteps", cem_max_steps);
  constant("cemMaxHeads", cem_max_heads);
  constant("cemMaxHidden", cem_max_hidden);
  constant("cemMaxRank", cem_max_rank);
  constant("cemMaxEta", static_cast<double>(cem_max_eta));
  constant("cemMaxBeta", static_cast<double>(cem_max_beta));
  constant("cemMaxGrid", cem_max_grid);
  constant("cemMaxTensorFloats", static_cast<double>(cem_max_tensor_floats));
  constant("cemMaxSpectrumDim", max_spectrum_dim);

  value_object<CemNumber>("CemNumber").field("error", &CemNumber::error).field("value", &CemNumber::value);
  value_object<CemAttentionOptions>("CemAttentionOptions")
      .field("d", &CemAttentionOptions::d)
      .field("heads", &CemAttentionOptions::heads)
      .field("steps", &CemAttentionOptions::steps)
      .field("eta", &CemAttentionOptions::eta)
      .field("beta", &CemAttentionOptions::beta)
      .field("diagonal", &CemAttentionOptions::diagonal)
      .field("precond", &CemAttentionOptions::precond)
      .field("precondRank", &CemAttentionOptions::precondRank)
      .field("seed", &CemAttentionOptions::seed);
  value_object<CemMlpOptions>("CemMlpOptions")
      .field("d", &CemMlpOptions::d)
      .field("hidden", &CemMlpOptions::hidden)
      .field("steps", &CemMlpOptions::steps)
      .field("eta", &CemMlpOptions::eta)
      .field("activation", &CemMlpOptions::activation)
      .field("activationBeta", &CemMlpOptions::activationBeta)
      .field("precond", &CemMlpOptions::precond)
      .field("precondRank", &CemMlpOptions::precondRank)
      .field("seed", &CemMlpOptions::seed);
  value_object<CemStdAttentionOptions>("CemStdAttentionOptions")
      .field("d", &CemStdAttentionOptions::d)
      .field("heads", &CemStdAttentionOptions::heads)
      .field("beta", &CemStdAttentionOptions::beta)
      .field("seed", &CemStdAttentionOptions::seed);
  value_object<CemGatedMlpOptions>("CemGatedMlpOptions")
      .field("d", &CemGatedMlpOptions::d)
      .field("hidden", &CemGatedMlpOptions::hidden)
      .field("activation", &CemGatedMlpOptions::activation)
      .field("activationBeta", &CemGatedMlpOptions::activationBeta)
      .field("seed", &CemGatedMlpOptions::seed);

  auto attention = class_<CemAttention>("CemAttention");
  cem_methods<CemAttention>(attention);
  attention.function("beta", &attention_beta);

  auto mlp = class_<CemMlp>("CemMlp");
  cem_methods<CemMlp>(mlp);

  auto standard = class_<CemStdAttention>("CemStdAttention");
  common_methods<CemStdAttention>(standard);
  standard.function("forward", &forward_baseline<CemStdAttention>).function("beta", &std_attention_beta);

  auto gated = class_<StandardMlp>("CemGatedMlp");
  common_methods<StandardMlp>(gated);
  gated.function("forward", &forward_baseline<StandardMlp>);

  function("validateCemAttentionOptions", &validate_options<CemAttentionOptions, CemAttentionConfig>);
  function("validateCemMlpOptions", &validate_options<CemMlpOptions, CemMlpConfig>);
  function("validateCemStdAttentionOptions", &validate_options<CemStdAttentionOptions, CemStdAttentionConfig>);
  function("validateCemGatedMlpOptions", &validate_options<CemGatedMlpOptions, LayerConfig>);
  function("createCemAttention", &create<CemAttention, CemAttentionOptions, CemAttentionConfig>, allow_raw_pointers());
  function("createCemMlp", &create<CemMlp, CemMlpOptions, CemMlpConfig>, allow_raw_pointers());
  function("createCemStdAttention", &create<CemStdAttention, CemStdAttentionOptions, CemStdAttentionConfig>,
           allow_raw_pointers());
  function("createCemGatedMlp", &create<StandardMlp, CemGatedMlpOptions, LayerConfig>, allow_raw_pointers());
  function("cemAttentionTieProblem", &attention_tie_problem);
  function("cemMlpTieProblem", &mlp_tie_problem);
  function("cemStandardFromTied", &standard_from_tied_handle, allow_raw_pointers());
  function("cemGatedFromTied", &gated_from_tied_handle, allow_raw_pointers());
}
