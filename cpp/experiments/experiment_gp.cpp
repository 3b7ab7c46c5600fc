// The gp-recursion experiment (experiment_gp.hpp): default settings and models, the
// baselines on the held-out set, one (model, seed) job, and the JSON of the whole run.
#include "experiment_gp.hpp"

#include <chrono>
#include <cmath>

#include "experiment_json.hpp"

namespace gatelab {

std::vector<GpModelSpec> gp_default_models(int rank) {
  auto cem = [](std::string label, int steps, CemDiagonal diagonal, CemPrecond precond, int r) {
    GpModelSpec s;
    s.label = std::move(label);
    s.family = CemFamily::cem;
    s.steps = steps;
    s.diagonal = diagonal;
    s.precond = precond;
    s.precond_rank = precond == CemPrecond::none ? 0 : r;
    return s;
  };
  GpModelSpec standard;
  standard.label = "standard";
  standard.family = CemFamily::standard;
  standard.diagonal = CemDiagonal::none;
  return {standard,
          cem("cem T=1", 1, CemDiagonal::shared, CemPrecond::none, 0),
          cem("cem T=2", 2, CemDiagonal::shared, CemPrecond::none, 0),
          cem("cem T=4", 4, CemDiagonal::shared, CemPrecond::none, 0),
          cem("cem T=8", 8, CemDiagonal::shared, CemPrecond::none, 0),
          cem("cem T=2 no diag", 2, CemDiagonal::none, CemPrecond::none, 0),
          cem("cem T=2 per-head diag", 2, CemDiagonal::per_head, CemPrecond::none, 0),
          cem("cem T=2 precond", 2, CemDiagonal::shared, CemPrecond::paper, rank),
          cem("cem T=2 precond psd", 2, CemDiagonal::shared, CemPrecond::psd, rank)};
}

GpExperimentConfig gp_experiment_defaults(bool quick) {
  GpExperimentConfig c;
  GpTrainConfig& t = c.train;
  t.data.dx = 1;
  t.data.length = 32;
  t.data.length_scale = 0.5;
  t.data.signal_var = 1.0;
  t.data.noise_std = 0.1;
  t.d = 32;
  t.layers = 2;
  t.heads = 4;
  t.hidden = 64;
  t.eta = 0.25f;  // the best of 1, 0.5, 0.25 for T = 1 and 2 in a probe (docs/EXPERIMENTS.md)
  t.batch = 16;
  t.lr = 3e-3f;
  t.clip_norm = 1.0f;
  t.warmup = 100;
  c.models = gp_default_models(4);
  c.seeds = 3;
  c.train_steps = 1200;
  c.eval_sequences = 512;
  c.curve_points = 10;
  c.curve_sequences = 128;
  if (quick) {
    // Small enough for npm test (about 15 s on two cores): fewer models, steps and sequences.
    t.data.length = 16;
    t.d = 16;
    t.hidden = 32;
    t.heads = 2;
    t.batch = 8;
    t.warmup = 20;
    c.models = {c.models[0], c.models[1], c.models[2], c.models[3], c.models[5], c.models[7]};
    c.seeds = 2;
    c.train_steps = 150;
    c.eval_sequences = 128;
    c.curve_points = 3;
    c.curve_sequences = 64;
  }
  t.decay_steps = c.train_steps;
  return c;
}

std::string validate(const GpExperimentConfig& c) {
  if (c.models.empty()) return "models must not be empty";
  for (const auto& m : c.models) {
    if (Status e = validate(c.train, m); !e.ok()) return m.label + ": " + e.message;
  }
  if (c.seeds < 1 || c.seeds > 100) return "seeds must be in 1…100";
  if (c.train_steps < 1 || c.train_steps > 1000000) return "train_steps must be in 1…1000000";
  if (c.eval_sequences < 2 || c.eval_sequences > 100000) return "eval_sequences must be in 2…100000";
  if (c.curve_points < 1 || c.curve_points > 1000) return "curve_points must be in 1…1000";
  if (c.curve_sequences < 1) return "curve_sequences must be positive";
  return "";
}

GpBaselines gp_baselines(const GpDataConfig& data, const std::vector<GpSequence>& eval) {
  GpBaselines b;
  GpErrors posterior, context, zero;
  const std::vector<double> zeros(data.length, 0.0);
  std::vector<double> sd(data.length, 0.0);
  for (const auto& seq : eval) {
    const GpPosterior p = gp_posterior(data, seq);
    posterior.add(p.mean.data(), seq.y);
    context.add(gp_context_mean(seq).data(), seq.y);
    zero.add(zeros.data(), seq.y);
    for (int t = 0; t < data.length; ++t) sd[t] += std::sqrt(p.var[t]) / double(eval.size());
    b.posterior_means.push_back(p.mean);
  }
  b.posterior_rmse = posterior.rmse_by_position();
  b.context_mean_rmse = context.rmse_by_position();
  b.zero_rmse = zero.rmse_by_position();
  b.posterior_sd = sd;
  b.posterior = posterior.rmse();
  b.context_mean = context.rmse();
  b.zero = zero.rmse();
  return b;
}

GpErrors gp_evaluate(GpSession& session, const std::vector<GpSequence>& eval, int count,
                     std::vector<std::vector<double>>* predictions) {
  GpErrors errors;
  std::vector<double> pred(session.config().data.length);
  for (int i = 0; i < count && i < int(eval.size()); ++i) {
    (void)session.predict(eval[i], pred.data());  // the eval set was drawn with the session's own data config
    errors.add(pred.data(), eval[i].y);
    if (predictions) predictions->push_back(pred);
  }
  return errors;
}

GpRunResult gp_run(const GpExperimentConfig& c, int model, int seed, const std::vector<GpSequence>& eval,
                   const GpBaselines& baselines, const GpProgress& progress) {
  const auto started = std::chrono::steady_clock::now();
  GpRunResult r;
  r.model = model;
  r.seed = seed;
  r.label = c.models.at(model).label;
  GpTrainConfig train = c.train;
  train.seed = static_cast<std::uint64_t>(seed);
  GpSession session(train, c.models[model]);
  r.parameters = session.error().ok() ? session.parameter_count() : 0;
  r.error = session.error().message;
  const int chunk = std::max(1, c.train_steps / 20);
  int next_curve = 1;
  while (r.error.empty() && session.steps_done() < c.train_steps && !session.diverged()) {
    const int n = std::min(chunk, c.train_steps - session.steps_done());
    r.error = session.train(n).message;
    const int done = session.steps_done();
    if (progress) progress(double(done) / c.train_steps, session.losses().back());
    // Curve points at evenly spaced steps (the last one is the final evaluation below).
    while (next_curve < c.curve_points && done >= next_curve * c.train_steps / c.curve_points) {
      const int from = r.curve_steps.empty() ? 0 : r.curve_steps.back();
      double mean = 0;
      for (int s = from; s < done; ++s) mean += session.losses()[s] / double(done - from);
      r.curve_steps.push_back(done);
      r.curve_rmse.push_back(gp_evaluate(session, eval, c.curve_sequences, nullptr).rmse());
      r.curve_train_loss.push_back(mean);
      ++next_curve;
    }
  }
  r.diverged = session.diverged();
  std::vector<std::vector<double>> predictions;
  const GpErrors errors = gp_evaluate(session, eval, static_cast<int>(eval.size()), &predictions);
  r.rmse_by_position = errors.rmse_by_position();
  r.rmse = errors.rmse();
  const int done = session.steps_done();
  if (done > 0) {
    const int from = r.curve_steps.empty() ? 0 : r.curve_steps.back();
    double mean = 0;
    for (int s = from; s < done; ++s) mean += session.losses()[s] / double(std::max(1, done - from));
    r.curve_steps.push_back(done);
    r.curve_rmse.push_back(gp_evaluate(session, eval, c.curve_sequences, nullptr).rmse());
    r.curve_train_loss.push_back(mean);
  }
  r.leak = gp_leak_check(predictions, baselines.posterior_means, eval);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

std::string gp_experiment_json(const GpExperimentConfig& c, const GpBaselines& b, const std::vector<GpRunResult>& runs,
                               double seconds, int threads) {
  JsonWriter j;
  const GpTrainConfig& t = c.train;
  j.begin_object().field("experiment", "gp-recursion");
  j.key("settings").begin_object();
  j.field("dx", t.data.dx).field("length", t.data.length).field("lengthScale", t.data.length_scale);
  j.field("signalVar", t.data.signal_var)
      .field("noiseStd", t.data.noise_std)
      .field("inputs", gp_inputs_name(t.data.inputs));
  j.field("d", t.d).field("layers", t.layers).field("heads", t.heads).field("hidden", t.hidden);
  j.field("eta", double(t.eta))
      .field("batch", t.batch)
      .field("lr", double(t.lr))
      .field("weightDecay", double(t.weight_decay));
  j.field("clipNorm", double(t.clip_norm)).field("warmup", t.warmup).field("decaySteps", t.decay_steps);
  j.field("seeds", c.seeds).field("trainSteps", c.train_steps).field("evalSequences", c.eval_sequences);
  j.field("evalSeed", double(c.eval_seed)).field("curveSequences", c.curve_sequences);
  j.end_object();
  j.key("models").begin_array();
  for (const auto& m : c.models) {
    j.begin_object().field("label", m.label).field("family", cem_family_name(m.family)).field("steps", m.steps);
    j.field("diagonal", cem_diagonal_name(m.diagonal)).field("precond", cem_precond_name(m.precond));
    j.field("precondRank", m.precond_rank).end_object();
  }
  j.end_array();
  j.key("baselines").begin_object();
  j.field("posterior", b.posterior).field("contextMean", b.context_mean).field("zero", b.zero);
  j.field("posteriorByPosition", b.posterior_rmse).field("contextMeanByPosition", b.context_mean_rmse);
  j.field("zeroByPosition", b.zero_rmse).field("posteriorSdByPosition", b.posterior_sd);
  j.end_object();
  j.key("runs").begin_array();
  for (const auto& r : runs) {
    j.begin_object().field("model", r.model).field("label", r.label).field("seed", r.seed);
    j.field("parameters", r.parameters).field("error", r.error).field("diverged", r.diverged);
    j.field("rmse", r.rmse).field("rmseByPosition", r.rmse_by_position);
    j.field("curveSteps", r.curve_steps).field("curveRmse", r.curve_rmse).field("curveTrainLoss", r.curve_train_loss);
    j.key("leak").begin_object().field("modelMse", r.leak.model_mse).field("posteriorMse", r.leak.posterior_mse);
    j.field("diffMean", r.leak.diff_mean).field("diffSe", r.leak.diff_se).field("z", r.leak.z).end_object();
    j.field("seconds", r.seconds).end_object();
  }
  j.end_array();
  j.field("seconds", seconds).field("threads", threads);
  j.end_object();
  return j.str();
}

}  // namespace gatelab
