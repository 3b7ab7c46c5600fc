// Embind registrations of GP in-context regression (docs/MATH.md §B12): GP sequences, their
// exact posterior, and GpSession, a small transformer learning the task live (<gatelab-gp>);
// web/lib/gp/ wraps them. Arrays cross as float32 buffers, which gp/io.hpp reads and writes.
#include "bind_common.hpp"

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
  GpModelSpec spec;
};

// And the session part: the transformer and its training.
Status to_config(const val& o, SessionConfig& c) {
  GpTrainConfig& t = c.train;
  if (Status e = to_config(o, t.data); !e.ok()) return e;
  GpModelSpec& s = c.spec;
  const std::string family_name = get<std::string>(o, "family");
  if (Status e = parse_cem_family(family_name, s.family); !e.ok()) return e;
  if (Status e = parse_cem_diagonal(get<std::string>(o, "diagonal"), s.diagonal); !e.ok()) return e;
  if (Status e = parse_cem_precond(get<std::string>(o, "precond"), s.precond); !e.ok()) return e;
  if (Status e = seed_of(o, t.seed); !e.ok()) return e;
  read_fields(o, "d", t.d, "layers", t.layers, "heads", t.heads, "hidden", t.hidden, "eta", t.eta, "batch", t.batch,
              "lr", t.lr, "clipNorm", t.clip_norm, "warmup", t.warmup);
  // mlp_steps 0 and eta 0 (the defaults): the MLP's T and η are the attention's (the JS API has
  // one steps, one eta).
  s.label = family_name;
  read_fields(o, "steps", s.steps, "precondRank", s.precond_rank, "learnEta", s.learn_eta);
  return validate(t, c.spec);
}

GpSession* create_session(const val& o) {
  SessionConfig c;
  (void)to_config(o, c);  // valid: web/lib called _gpValidate first
  return new GpSession(c.train, c.spec);
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
  constants({{"_gpMaxLength", gp_max_length}, {"_gpMaxDx", gp_max_dx}});
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
