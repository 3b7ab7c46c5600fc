// Embind registrations for GP in-context regression (issue 6): GP sequences and their exact
// posterior, and GpSession, a small CEM or standard transformer learning the task live (the
// <gatelab-gp> figure). web/lib/gp.js wraps these private names. Same conventions as
// bindings.cpp: coarse calls (a batch of steps, a whole sequence), arrays by heap pointer as
// float32, every problem returned as an error string ("" = ok), never thrown.
#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gatelab/gp/session.hpp"
#include "gatelab/gp/data.hpp"

using namespace emscripten;
using namespace gatelab;

namespace {

using Ptr = std::uintptr_t;
float* f32(Ptr p) { return reinterpret_cast<float*>(p); }

constexpr int max_steps_per_call = 10000;
constexpr int max_sample_count = 4096;

// Every field is filled in by web/lib/gp.js.
struct GpOptions {
  int dx = 1, length = 16;
  double lengthScale = 0.5, signalVar = 1.0, noiseStd = 0.1;
  std::string inputs = "uniform", family = "cem", diagonal = "shared", precond = "none";
  int d = 16, layers = 2, heads = 2, hidden = 32, steps = 1, precondRank = 0, batch = 8, warmup = 20;
  float eta = 0.25f, lr = 3e-3f, clipNorm = 1.0f;
  double seed = 0;
};

std::string to_data(const GpOptions& o, GpDataConfig& c) {
  const auto inputs = parse_gp_inputs(o.inputs);
  if (!inputs) return "inputs must be 'uniform' or 'normal'";
  c.dx = o.dx;
  c.length = o.length;
  c.length_scale = o.lengthScale;
  c.signal_var = o.signalVar;
  c.noise_std = o.noiseStd;
  c.inputs = *inputs;
  return validate(c);
}

std::string to_train(const GpOptions& o, GpTrainConfig& t, GpModelSpec& s) {
  if (std::string e = to_data(o, t.data); !e.empty()) return e;
  const auto family = parse_cem_family(o.family);
  const auto diagonal = parse_cem_diagonal(o.diagonal);
  const auto precond = parse_cem_precond(o.precond);
  if (!family) return "family must be 'cem' or 'standard'";
  if (!diagonal) return "diagonal must be 'none', 'per_head' or 'shared'";
  if (!precond) return "precond must be 'none', 'paper' or 'psd'";
  if (!(o.seed >= 0 && o.seed <= 4294967295.0) || std::floor(o.seed) != o.seed) return "seed must be an integer from 0 to 4294967295";
  t.d = o.d;
  t.layers = o.layers;
  t.heads = o.heads;
  t.hidden = o.hidden;
  t.eta = o.eta;
  t.batch = o.batch;
  t.lr = o.lr;
  t.clip_norm = o.clipNorm;
  t.warmup = o.warmup;
  t.seed = static_cast<std::uint64_t>(o.seed);
  s.label = o.family;
  s.family = *family;
  s.steps = o.steps;
  s.diagonal = *diagonal;
  s.precond = *precond;
  s.precond_rank = o.precondRank;
  return validate(t, s);
}

std::string validate_options(const GpOptions& o) {
  GpTrainConfig t;
  GpModelSpec s;
  return to_train(o, t, s);
}

GpSequence read_sequence(const GpDataConfig& c, Ptr x, Ptr y) {
  GpSequence s;
  s.x.assign(f32(x), f32(x) + std::size_t(c.length) * c.dx);
  s.y.assign(f32(y), f32(y) + c.length);
  return s;
}

std::string check_sequence(Ptr x, Ptr y) { return x && y ? "" : "the sequence arrays must not be null"; }

// count sequences from seed into x (count·n·dx) and y (count·n).
std::string sample(const GpOptions& o, double seed, int count, Ptr x, Ptr y) {
  GpDataConfig c;
  if (std::string e = to_data(o, c); !e.empty()) return e;
  if (!(seed >= 0 && seed <= 4294967295.0) || std::floor(seed) != seed) return "seed must be an integer from 0 to 4294967295";
  if (count < 1 || count > max_sample_count) return "count must be an integer from 1 to " + std::to_string(max_sample_count);
  const auto seqs = gp_sample_set(c, count, static_cast<std::uint64_t>(seed));
  for (int i = 0; i < count; ++i) {
    for (std::size_t k = 0; k < seqs[i].x.size(); ++k) f32(x)[i * seqs[i].x.size() + k] = static_cast<float>(seqs[i].x[k]);
    for (std::size_t k = 0; k < seqs[i].y.size(); ++k) f32(y)[i * seqs[i].y.size() + k] = static_cast<float>(seqs[i].y[k]);
  }
  return "";
}

// Posterior mean and variance of every y_t given the pairs before t; and the context mean.
std::string posterior(const GpOptions& o, Ptr x, Ptr y, Ptr mean, Ptr var, Ptr context_mean) {
  GpDataConfig c;
  if (std::string e = to_data(o, c); !e.empty()) return e;
  if (std::string e = check_sequence(x, y); !e.empty()) return e;
  const GpSequence s = read_sequence(c, x, y);
  const GpPosterior p = gp_posterior(c, s);
  const std::vector<double> cm = gp_context_mean(s);
  for (int t = 0; t < c.length; ++t) {
    f32(mean)[t] = static_cast<float>(p.mean[t]);
    f32(var)[t] = static_cast<float>(p.var[t]);
    f32(context_mean)[t] = static_cast<float>(cm[t]);
  }
  return "";
}

// Posterior at m queries xq (m·dx) after the first `context` pairs.
std::string posterior_at(const GpOptions& o, Ptr x, Ptr y, int context, Ptr xq, int m, Ptr mean, Ptr var) {
  GpDataConfig c;
  if (std::string e = to_data(o, c); !e.empty()) return e;
  if (std::string e = check_sequence(x, y); !e.empty()) return e;
  if (context < 0 || context > c.length) return "context must be an integer from 0 to " + std::to_string(c.length);
  if (m < 1 || m > 4096 || !xq) return "xq must hold from 1 to 4096 queries";
  std::vector<double> q(f32(xq), f32(xq) + std::size_t(m) * c.dx);
  const GpPosterior p = gp_posterior_at(c, read_sequence(c, x, y), context, q.data(), m);
  for (int i = 0; i < m; ++i) {
    f32(mean)[i] = static_cast<float>(p.mean[i]);
    f32(var)[i] = static_cast<float>(p.var[i]);
  }
  return "";
}

// Precondition (checked by the JS layer through gpValidate): the options are valid.
GpSession* create_session(const GpOptions& o) {
  GpTrainConfig t;
  GpModelSpec s;
  to_train(o, t, s);
  return new GpSession(t, s);
}

std::string session_train(GpSession& s, int steps) {
  if (steps < 1 || steps > max_steps_per_call) return "n must be an integer from 1 to " + std::to_string(max_steps_per_call);
  return s.train(steps);
}

std::string session_predict(GpSession& s, Ptr x, Ptr y, Ptr out) {
  if (std::string e = check_sequence(x, y); !e.empty()) return e;
  const GpDataConfig& c = s.config().data;
  std::vector<double> pred(c.length);
  if (std::string e = s.predict(read_sequence(c, x, y), pred.data()); !e.empty()) return e;
  for (int t = 0; t < c.length; ++t) f32(out)[t] = static_cast<float>(pred[t]);
  return "";
}

std::string session_predict_at(GpSession& s, Ptr x, Ptr y, int context, Ptr xq, int m, Ptr out) {
  if (std::string e = check_sequence(x, y); !e.empty()) return e;
  const GpDataConfig& c = s.config().data;
  if (m < 1 || m > 4096 || !xq) return "xq must hold from 1 to 4096 queries";
  std::vector<double> q(f32(xq), f32(xq) + std::size_t(m) * c.dx), pred(m);
  if (std::string e = s.predict_at(read_sequence(c, x, y), context, q.data(), m, pred.data()); !e.empty()) return e;
  for (int i = 0; i < m; ++i) f32(out)[i] = static_cast<float>(pred[i]);
  return "";
}

// Mean train MSE of steps [from, from + count) into out.
std::string session_losses(const GpSession& s, int from, int count, Ptr out) {
  if (from < 0 || count < 0 || from + count > s.steps_done()) return "loss range out of bounds";
  for (int i = 0; i < count; ++i) f32(out)[i] = static_cast<float>(s.losses()[from + i]);
  return "";
}

int session_steps(const GpSession& s) { return s.steps_done(); }
int session_parameters(const GpSession& s) { return static_cast<int>(s.parameter_count()); }
bool session_diverged(const GpSession& s) { return s.diverged(); }

}  // namespace

EMSCRIPTEN_BINDINGS(gp) {
  constant("gpMaxStepsPerCall", max_steps_per_call);
  constant("gpMaxSampleCount", max_sample_count);
  constant("gpMaxLength", gp_max_length);
  constant("gpMaxDx", gp_max_dx);
  value_object<GpOptions>("GpOptions")
      .field("dx", &GpOptions::dx)
      .field("length", &GpOptions::length)
      .field("lengthScale", &GpOptions::lengthScale)
      .field("signalVar", &GpOptions::signalVar)
      .field("noiseStd", &GpOptions::noiseStd)
      .field("inputs", &GpOptions::inputs)
      .field("family", &GpOptions::family)
      .field("diagonal", &GpOptions::diagonal)
      .field("precond", &GpOptions::precond)
      .field("d", &GpOptions::d)
      .field("layers", &GpOptions::layers)
      .field("heads", &GpOptions::heads)
      .field("hidden", &GpOptions::hidden)
      .field("steps", &GpOptions::steps)
      .field("precondRank", &GpOptions::precondRank)
      .field("batch", &GpOptions::batch)
      .field("warmup", &GpOptions::warmup)
      .field("eta", &GpOptions::eta)
      .field("lr", &GpOptions::lr)
      .field("clipNorm", &GpOptions::clipNorm)
      .field("seed", &GpOptions::seed);
  function("gpValidate", &validate_options);
  function("gpSample", &sample);
  function("gpPosterior", &posterior);
  function("gpPosteriorAt", &posterior_at);
  function("gpCreateSession", &create_session, allow_raw_pointers());
  class_<GpSession>("GpSession")
      .function("train", &session_train)
      .function("predict", &session_predict)
      .function("predictAt", &session_predict_at)
      .function("losses", &session_losses)
      .function("stepsDone", &session_steps)
      .function("parameterCount", &session_parameters)
      .function("diverged", &session_diverged);
}
