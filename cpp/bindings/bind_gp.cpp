// Embind registrations of GP in-context regression (docs/MATH.md §B12): GP sequences, their
// exact posterior, and GpSession, a small transformer learning the task live (<gatelab-gp>);
// web/lib/gp/ wraps them. Arrays cross as float32 buffers, which gp/io.hpp reads and writes.
#include "bind_module.hpp"

#include "gatelab/gp/io.hpp"  // and data.hpp, session.hpp

using namespace emscripten;
using namespace gatelab;
using namespace gatelab::bind;

namespace {

// The data part of the options.
Status to_config(const val& o, GpDataConfig& c) {
  if (Status e = parse_gp_inputs(get<std::string>(o, "inputs"), c.inputs); !e.ok()) return e;
  read_fields(o, "dx", c.dx, "length", c.length, "lengthScale", c.length_scale, "signalVar", c.signal_var, "noiseStd",
              c.noise_std);
  return validate(c);
}

struct SessionConfig {
  GpTrainConfig train;
  CemTransformerConfig model;
};

// And the session part: the transformer, its layers read as lab.cem's makers read them (the JS
// API's one steps, eta and preconditioner serve attention and MLP), and its training.
Status to_config(const val& o, SessionConfig& c) {
  GpTrainConfig& t = c.train;
  CemTransformerConfig& m = c.model;
  Status e = to_config(o, t.data);
  if (e.ok()) e = parse_cem_family(get<std::string>(o, "family"), m.family);
  if (e.ok()) e = seed_of(o, t.seed);
  if (e.ok()) e = read_cem_attention_fields(o, m.attention);
  if (e.ok()) e = read_cem_descent_fields(o, m.mlp);
  if (!e.ok()) return e;
  read_fields(o, "d", m.d, "layers", m.layers, "hidden", m.mlp.hidden, "learnEta", m.attention.learn_eta, "batch",
              t.batch, "lr", t.lr, "clipNorm", t.clip_norm, "warmup", t.warmup);
  m.seed = t.seed;
  cem_set_heads(m, m.attention.heads);  // and the standard family's
  cem_set_hidden(m, m.mlp.hidden);
  cem_set_learn_eta(m, m.attention.learn_eta);
  return validate(t, m);
}

GpSession* create_session(const val& o) {
  SessionConfig c;
  (void)to_config(o, c);  // valid: web/lib called _gpValidate first
  return new GpSession(c.train, c.model);
}

Status sample(const val& o, double seed, int count, Ptr x, Ptr y) {
  GpDataConfig c;
  Status e = to_config(o, c);
  if (e.ok()) e = validate_seed(seed);  // seeds cross as JS numbers
  return e.ok() ? gp_sample_into(c, count, static_cast<std::uint64_t>(seed), f32(x), f32(y)) : e;
}
Status posterior(const val& o, Ptr x, Ptr y, Ptr mean, Ptr var, Ptr context_mean) {
  GpDataConfig c;
  if (Status e = to_config(o, c); !e.ok()) return e;
  return gp_posterior_into(c, f32(x), f32(y), f32(mean), f32(var), f32(context_mean));
}
Status posterior_at(const val& o, Ptr x, Ptr y, int context, Ptr xq, int m, Ptr mean, Ptr var) {
  GpDataConfig c;
  if (Status e = to_config(o, c); !e.ok()) return e;
  return gp_posterior_at_into(c, f32(x), f32(y), context, f32(xq), m, f32(mean), f32(var));
}

Status predict(GpSession& s, Ptr x, Ptr y, Ptr out) { return gp_predict_into(s, f32(x), f32(y), f32(out)); }
Status predict_at(GpSession& s, Ptr x, Ptr y, int context, Ptr xq, int m, Ptr out) {
  return gp_predict_at_into(s, f32(x), f32(y), context, f32(xq), m, f32(out));
}
Status losses(const GpSession& s, int from, int count, Ptr out) { return gp_losses_into(s, from, count, f32(out)); }
Status step_sizes(GpSession& s, Ptr out) { return s.step_sizes(f32(out)); }

}  // namespace

EMSCRIPTEN_BINDINGS(gatelab_gp) {
  constants({{"_gpMaxStepsPerCall", gp_max_steps_per_call}, {"_gpMaxSampleCount", gp_max_sample_count}});
  function("_gpValidate", &validate_options<SessionConfig, to_config>);
  function("_gpSample", &sample);
  function("_gpPosterior", &posterior);
  function("_gpPosteriorAt", &posterior_at);
  function("_gpCreateSession", &create_session, allow_raw_pointers());
  class_<GpSession>("GpSession")
      .function("train", &gp_train_call)
      .function("predict", &predict)
      .function("predictAt", &predict_at)
      .function("losses", &losses)
      .function("stepsDone", &GpSession::steps_done)
      .function("parameterCount", &GpSession::parameter_count)
      .function("diverged", &GpSession::diverged)
      .function("setEvalSteps", &GpSession::set_eval_steps)
      .function("evalSteps", &GpSession::eval_steps)
      .function("stepSizes", &step_sizes);
}
