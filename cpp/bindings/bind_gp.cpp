// Embind registrations of GP in-context regression (docs/MATH.md §B12): GP sequences, their
// exact posterior, and GpSession, a small transformer learning the task live (<gatelab-gp>);
// web/lib/gp/ wraps them. The core works in double; arrays cross as float32.
#include "bind_common.hpp"

#include "gatelab/gp/data.hpp"
#include "gatelab/gp/session.hpp"

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

Status check_sequence(Ptr x, Ptr y) {
  return x && y ? Status{} : invalid_value("", "the sequence arrays must not be null");
}

// n floats from p as doubles: a sequence's x (length·dx) and y (length), or m queries (m·dx).
std::vector<double> doubles(Ptr p, std::size_t n) { return std::vector<double>(f32(p), f32(p) + n); }
GpSequence sequence(const GpDataConfig& c, Ptr x, Ptr y) {
  return {doubles(x, std::size_t(c.length) * c.dx), doubles(y, c.length)};
}

// count sequences from seed into x (count·n·dx) and y (count·n).
Status sample(const val& o, double seed, int count, Ptr x, Ptr y) {
  GpDataConfig c;
  if (Status e = to_config(o, c); !e.ok()) return e;
  if (Status e = validate_seed(seed); !e.ok()) return e;
  return run_if_ok(gp_validate_count(count), [&] {
    const auto seqs = gp_sample_set(c, count, static_cast<std::uint64_t>(seed));
    for (int i = 0; i < count; ++i) {
      copy_out(seqs[i].x, x + sizeof(float) * i * seqs[i].x.size());
      copy_out(seqs[i].y, y + sizeof(float) * i * seqs[i].y.size());
    }
  });
}

// Posterior mean and variance of every y_t given the pairs before t; and the context mean.
Status posterior(const val& o, Ptr x, Ptr y, Ptr mean, Ptr var, Ptr context_mean) {
  GpDataConfig c;
  if (Status e = to_config(o, c); !e.ok()) return e;
  return run_if_ok(check_sequence(x, y), [&] {
    const GpSequence s = sequence(c, x, y);
    const GpPosterior p = gp_posterior(c, s);
    copy_out(p.mean, mean);
    copy_out(p.var, var);
    copy_out(gp_context_mean(s), context_mean);
  });
}

// Posterior at m queries xq (m·dx) after the first `context` pairs.
Status posterior_at(const val& o, Ptr x, Ptr y, int context, Ptr xq, int m, Ptr mean, Ptr var) {
  GpDataConfig c;
  if (Status e = to_config(o, c); !e.ok()) return e;
  if (Status e = check_sequence(x, y); !e.ok()) return e;
  if (Status e = gp_validate_context(c, context); !e.ok()) return e;
  return run_if_ok(gp_validate_queries(f32(xq), m), [&] {
    const GpPosterior p = gp_posterior_at(c, sequence(c, x, y), context, doubles(xq, std::size_t(m) * c.dx).data(), m);
    copy_out(p.mean, mean);
    copy_out(p.var, var);
  });
}

Status predict(GpSession& s, Ptr x, Ptr y, Ptr out) {
  if (Status e = check_sequence(x, y); !e.ok()) return e;
  const GpDataConfig& c = s.config().data;
  return through_doubles(c.length, out, [&](double* pred) { return s.predict(sequence(c, x, y), pred); });
}

Status predict_at(GpSession& s, Ptr x, Ptr y, int context, Ptr xq, int m, Ptr out) {
  if (Status e = check_sequence(x, y); !e.ok()) return e;
  if (Status e = gp_validate_queries(f32(xq), m); !e.ok()) return e;
  const GpDataConfig& c = s.config().data;
  const std::vector<double> q = doubles(xq, std::size_t(m) * c.dx);
  return through_doubles(m, out,
                         [&](double* pred) { return s.predict_at(sequence(c, x, y), context, q.data(), m, pred); });
}

// Mean train MSE of steps [from, from + count) into out.
Status losses(const GpSession& s, int from, int count, Ptr out) {
  return through_doubles(std::clamp(count, 0, s.steps_done()), out,
                         [&](double* l) { return s.copy_losses(from, count, l); });
}

Status step_sizes(GpSession& s, Ptr out) { return s.step_sizes(f32(out)); }

}  // namespace

// Laid out by hand: clang-format 14 would put each `+[]` lambda on a line of its own.
// clang-format off
EMSCRIPTEN_BINDINGS(gatelab_gp) {
  constants({{"_gpMaxStepsPerCall", gp_max_steps_per_call}, {"_gpMaxSampleCount", gp_max_sample_count},
             {"_gpMaxLength", gp_max_length}, {"_gpMaxDx", gp_max_dx}});
  function("_gpValidate", &validate_options<SessionConfig, to_config>);
  function("_gpSample", &sample);
  function("_gpPosterior", &posterior);
  function("_gpPosteriorAt", &posterior_at);
  function("_gpCreateSession", &create_session, allow_raw_pointers());
  class_<GpSession>("GpSession")
      .function("train", +[](GpSession& s, int n) {
        const Status e = gp_validate_steps_per_call(n);
        return e.ok() ? s.train(n) : e;
      })
      .function("predict", &predict)
      .function("predictAt", &predict_at)
      .function("losses", &losses)
      .function("stepsDone", &GpSession::steps_done)
      .function("parameterCount", +[](const GpSession& s) { return static_cast<int>(s.parameter_count()); })
      .function("diverged", &GpSession::diverged)
      .function("setEvalSteps", &GpSession::set_eval_steps)
      .function("evalSteps", &GpSession::eval_steps)
      .function("stepSizes", &step_sizes);
}
// clang-format on
