// The gp-descent suites (experiment_gp_descent.hpp): their settings and jobs, one job's
// training, scoring, test-time recursion and probes, and the JSON of a job and of a run.
#include "experiment_gp_descent.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "experiment_json.hpp"

namespace gatelab {

namespace {

std::string number_name(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

GpModelSpec cem_model(int steps, float eta, CemDiagonal diagonal = CemDiagonal::shared) {
  GpModelSpec s;
  s.family = CemFamily::cem;
  s.steps = steps;
  s.eta = eta;
  s.diagonal = diagonal;
  s.label = "cem T=" + std::to_string(steps) + " η=" + number_name(eta);
  return s;
}

GpDescentJob job(std::string suite, std::string name, GpModelSpec spec, int dx = 1) {
  GpDescentJob j;
  j.suite = std::move(suite);
  j.name = std::move(name);
  j.spec = std::move(spec);
  j.dx = dx;
  return j;
}

std::vector<GpDescentJob> grid_models(bool quick) {
  const std::vector<int> depths = quick ? std::vector<int>{1, 2} : std::vector<int>{1, 2, 4, 8};
  const std::vector<float> etas =
      quick ? std::vector<float>{0.125f, 0.25f} : std::vector<float>{0.0625f, 0.125f, 0.25f, 0.5f};
  std::vector<GpDescentJob> out;
  GpModelSpec standard;
  standard.label = "standard";
  standard.family = CemFamily::standard;
  standard.diagonal = CemDiagonal::none;
  out.push_back(job("grid", "standard", standard));
  for (int t : depths) {
    for (float eta : etas)
      out.push_back(job("grid", "cem-t" + std::to_string(t) + "-eta" + number_name(eta), cem_model(t, eta)));
  }
  for (int t : quick ? std::vector<int>{1} : depths) {
    GpModelSpec s = cem_model(t, 0.25f);
    s.learn_eta = true;
    s.label = "cem T=" + std::to_string(t) + " learned η";
    out.push_back(job("grid", "cem-t" + std::to_string(t) + "-learned", s));
  }
  for (auto [attn, mlp] :
       quick ? std::vector<std::pair<int, int>>{{2, 1}} : std::vector<std::pair<int, int>>{{2, 1}, {1, 2}}) {
    GpModelSpec s = cem_model(attn, 0.25f);
    s.mlp_steps = mlp;
    s.label = "cem T_attn=" + std::to_string(attn) + " T_mlp=" + std::to_string(mlp) + " η=0.25";
    out.push_back(job("grid", "cem-attn" + std::to_string(attn) + "-mlp" + std::to_string(mlp), s));
  }
  for (CemPrecond p : quick ? std::vector<CemPrecond>{CemPrecond::paper}
                            : std::vector<CemPrecond>{CemPrecond::paper, CemPrecond::psd}) {
    GpModelSpec s = cem_model(1, 0.25f);
    s.precond = p;
    s.precond_rank = 4;
    s.label = std::string("cem T=1 η=0.25 precond ") + cem_precond_name(p);
    out.push_back(job("grid", std::string("cem-t1-precond-") + cem_precond_name(p), s));
  }
  return out;
}

// Exploratory, added after the grid ran: its dev choice for T ≥ 2 was its smallest η (1/16), so
// this suite asks whether 1/32 does better. The references (T = 1 at its chosen 1/8, T ≥ 2 at
// 1/16) carry the grid's names, so a run that shares the grid's --jobs-dir reads them instead
// of training them again (the jobs are deterministic: the same numbers either way).
std::vector<GpDescentJob> small_eta_models(bool quick) {
  std::vector<GpDescentJob> out;
  out.push_back(job("small-eta", "cem-t1-eta0.125", cem_model(1, 0.125f)));
  for (int t : quick ? std::vector<int>{2} : std::vector<int>{2, 4, 8}) {
    out.push_back(job("small-eta", "cem-t" + std::to_string(t) + "-eta0.0625", cem_model(t, 0.0625f)));
    out.push_back(job("small-eta", "cem-t" + std::to_string(t) + "-eta0.03125", cem_model(t, 0.03125f)));
  }
  return out;
}

std::vector<GpDescentJob> diagonal_models(bool quick) {
  std::vector<GpDescentJob> out;
  const std::vector<int> dxs = quick ? std::vector<int>{1, 4} : std::vector<int>{1, 8, 16};
  for (int dx : dxs) {
    for (CemDiagonal diag : {CemDiagonal::none, CemDiagonal::per_head, CemDiagonal::shared}) {
      if (quick && diag == CemDiagonal::per_head) continue;
      GpModelSpec s = cem_model(2, 0.25f, diag);
      s.label = std::string("cem T=2 ") + cem_diagonal_name(diag) + " diagonal, dx=" + std::to_string(dx);
      out.push_back(
          job("diagonal", std::string("diag-") + cem_diagonal_name(diag) + "-dx" + std::to_string(dx), s, dx));
    }
  }
  return out;
}

// Frobenius norms per block and head: ‖diag(d_k)‖ = ‖d_k‖ and ‖W_Q^kᵀ W_K^k‖ (d×d).
void write_diag_norms(JsonWriter& j, CemTransformer& model) {
  j.key("diagNorms").begin_array();
  for (int l = 0; model.cem_attention(l) != nullptr; ++l) {
    const CemAttention& a = *model.cem_attention(l);
    const int d = a.config().d, heads = a.config().heads, dh = d / heads;
    const auto& p = a.params();
    for (int k = 0; k < heads; ++k) {
      double diag = 0, wqk = 0;
      if (p.diag.size() > 0) {
        const std::size_t row = p.diag.shape(0) == 1 ? 0 : std::size_t(k);
        for (int c = 0; c < d; ++c) diag += double(p.diag(row, c)) * double(p.diag(row, c));
      }
      for (int r = 0; r < d; ++r) {
        for (int c = 0; c < d; ++c) {
          double e = 0;
          for (int a2 = 0; a2 < dh; ++a2) e += double(p.wq(k * dh + a2, r)) * double(p.wk(k * dh + a2, c));
          wqk += e * e;
        }
      }
      j.begin_object().field("block", l).field("head", k).field("diag", std::sqrt(diag)).field("wqk", std::sqrt(wqk));
      j.end_object();
    }
  }
  j.end_array();
}

// Per block at the current T′: the attention energy of every position before and after each
// step (mean over the probe sequences), the share of (sequence, position) pairs whose energy
// fell at each step, the attention entropy per step, and the MLP's energy likewise.
struct BlockProbe {
  std::vector<double> energy, entropy, mlp_energy;  // (n, T′+1), (n, T′), (T′+1)
  std::vector<double> descended, mlp_descended;     // (T′)
  bool mlp_ok = true;
};

std::vector<BlockProbe> probe(GpSession& session, const std::vector<GpSequence>& set, int count, int steps) {
  CemTransformer& model = session.model();
  const GpDataConfig& data = session.config().data;
  const int n = data.length, layers = model.config().layers, d = model.config().d;
  std::vector<BlockProbe> out(layers);
  for (auto& b : out) {
    b.energy.assign(std::size_t(n) * (steps + 1), 0.0);
    b.entropy.assign(std::size_t(n) * steps, 0.0);
    b.mlp_energy.assign(steps + 1, 0.0);
    b.descended.assign(steps, 0.0);
    b.mlp_descended.assign(steps, 0.0);
  }
  std::vector<float> tokens(std::size_t(n) * gp_token_width(data)), pred(n), input(std::size_t(n) * d);
  std::vector<double> trace(std::size_t(n) * (steps + 1)), entropy(std::size_t(n) * steps);
  const double w = 1.0 / count;
  for (int s = 0; s < count; ++s) {
    gp_tokens(data, set[s], tokens.data());
    if (!model.forward(tokens.data(), n, pred.data()).ok()) continue;
    for (int l = 0; l < layers; ++l) {
      BlockProbe& b = out[l];
      std::copy(model.attention_input(l), model.attention_input(l) + input.size(), input.begin());
      // The forward above succeeded on these rows, so the probes' inputs are valid.
      (void)model.cem_attention(l)->energy_trace(input.data(), n, trace.data());
      (void)model.cem_attention(l)->attention_entropy(input.data(), n, entropy.data());
      for (std::size_t e = 0; e < trace.size(); ++e) b.energy[e] += w * trace[e];
      for (std::size_t e = 0; e < entropy.size(); ++e) b.entropy[e] += w * entropy[e];
      for (int i = 0; i < n; ++i) {
        for (int t = 0; t < steps; ++t) {
          const double* row = trace.data() + std::size_t(i) * (steps + 1);
          if (row[t + 1] < row[t]) b.descended[t] += w / n;
        }
      }
      std::copy(model.mlp_input(l), model.mlp_input(l) + input.size(), input.begin());
      if (!b.mlp_ok || !model.cem_mlp(l)->energy_trace(input.data(), n, trace.data()).ok()) {
        b.mlp_ok = false;
        continue;
      }
      for (int i = 0; i < n; ++i) {
        const double* row = trace.data() + std::size_t(i) * (steps + 1);
        for (int t = 0; t <= steps; ++t) b.mlp_energy[t] += w * row[t] / n;
        for (int t = 0; t < steps; ++t) {
          if (row[t + 1] < row[t]) b.mlp_descended[t] += w / n;
        }
      }
    }
  }
  return out;
}

void write_test_time(JsonWriter& j, const GpDescentSettings& st, GpSession& session,
                     const std::vector<GpSequence>& eval) {
  CemTransformer& model = session.model();
  const int attn = model.config().attention.steps, mlp = model.config().mlp.steps;
  j.key("testTime").begin_array();
  for (int steps : st.eval_steps) {
    (void)session.set_eval_steps(steps);  // validated with the settings
    const double rmse = gp_evaluate(session, eval, st.test_time_sequences).rmse();
    (void)session.set_eval_steps(0);
    // The settings validated eval_steps, and attn/mlp are the counts the model holds now.
    (void)model.set_steps(steps, steps);
    const std::vector<BlockProbe> blocks =
        probe(session, eval, std::min<int>(st.probe_sequences, int(eval.size())), steps);
    (void)model.set_steps(attn, mlp);
    j.begin_object().field("steps", steps).field("rmse", rmse).key("blocks").begin_array();
    for (std::size_t l = 0; l < blocks.size(); ++l) {
      const BlockProbe& b = blocks[l];
      j.begin_object().field("block", int(l)).field("energyByPosition", b.energy).field("entropyByPosition", b.entropy);
      j.field("descended", b.descended);
      if (b.mlp_ok) j.field("mlpEnergy", b.mlp_energy).field("mlpDescended", b.mlp_descended);
      j.end_object();
    }
    j.end_array().end_object();
  }
  j.end_array();
}

void write_settings(JsonWriter& j, const GpDescentSettings& st) {
  const GpTrainConfig& t = st.base.train;
  j.key("settings").begin_object();
  j.field("length", t.data.length).field("lengthScale", t.data.length_scale).field("noiseStd", t.data.noise_std);
  j.field("d", t.d).field("layers", t.layers).field("heads", t.heads).field("hidden", t.hidden);
  j.field("batch", t.batch).field("lr", double(t.lr)).field("warmup", t.warmup).field("clipNorm", double(t.clip_norm));
  j.field("trainSteps", st.base.train_steps).field("evalSequences", st.base.eval_sequences);
  j.field("evalSeed", double(st.base.eval_seed))
      .field("devSequences", st.dev_sequences)
      .field("devSeed", double(st.dev_seed));
  j.field("evalSteps", st.eval_steps).field("testTimeSequences", st.test_time_sequences);
  j.field("probeSequences", st.probe_sequences);
  j.end_object();
}

}  // namespace

GpDataConfig gp_descent_data(const GpDescentSettings& st, int dx) {
  GpDataConfig data = st.base.train.data;
  data.dx = dx;
  data.length_scale = st.base.train.data.length_scale * std::sqrt(static_cast<double>(dx));
  return data;
}

GpDescentSettings gp_descent_settings(bool quick) {
  GpDescentSettings s;
  s.base = gp_experiment_defaults(quick);
  s.base.models.clear();
  if (quick) {
    s.dev_sequences = 64;
    s.eval_steps = {1, 2, 3};
    s.test_time_sequences = 64;
    s.probe_sequences = 4;
  }
  return s;
}

std::vector<GpDescentJob> gp_descent_jobs(const std::string& suite, bool quick, int seeds, std::string* error) {
  std::vector<GpDescentJob> models;
  if (suite == "grid") {
    models = grid_models(quick);
  } else if (suite == "diagonal") {
    models = diagonal_models(quick);
  } else if (suite == "small-eta") {
    models = small_eta_models(quick);
  } else {
    *error = "unknown suite '" + suite + "' (grid, diagonal, small-eta)";
    return {};
  }
  if (seeds < 1 || seeds > 100) {
    *error = "seeds must be in 1…100";
    return {};
  }
  std::vector<GpDescentJob> out;
  for (const auto& m : models) {
    for (int seed = 1; seed <= seeds; ++seed) {
      GpDescentJob j = m;
      j.seed = seed;
      out.push_back(j);
    }
  }
  return out;
}

std::string gp_descent_run(const GpDescentSettings& st, const GpDescentJob& job) {
  const auto started = std::chrono::steady_clock::now();
  GpTrainConfig train = st.base.train;
  train.data = gp_descent_data(st, job.dx);
  train.seed = static_cast<std::uint64_t>(job.seed);
  train.decay_steps = st.base.train_steps;
  GpSession session(train, job.spec);
  std::string error = session.error().message;
  const int chunk = std::max(1, st.base.train_steps / 10);
  std::vector<double> train_loss;
  while (error.empty() && session.steps_done() < st.base.train_steps && !session.diverged()) {
    const int from = session.steps_done();
    error = session.train(std::min(chunk, st.base.train_steps - from)).message;
    double mean = 0;
    for (int s = from; s < session.steps_done(); ++s) mean += session.losses()[s] / double(session.steps_done() - from);
    train_loss.push_back(mean);
  }
  const GpModelSpec& m = job.spec;
  JsonWriter j;
  j.begin_object().field("suite", job.suite).field("name", job.name).field("label", m.label).field("seed", job.seed);
  j.field("dx", job.dx).field("family", cem_family_name(m.family)).field("steps", m.steps);
  j.field("mlpSteps", m.mlp_steps > 0 ? m.mlp_steps : m.steps)
      .field("eta", double(m.eta))
      .field("learnEta", m.learn_eta);
  j.field("diagonal", cem_diagonal_name(m.diagonal)).field("precond", cem_precond_name(m.precond));
  j.field("parameters", error.empty() ? session.parameter_count() : std::size_t{0});
  j.field("error", error).field("diverged", session.diverged()).field("trainLoss", train_loss);
  if (error.empty() && !session.diverged()) {
    const auto dev = gp_sample_set(train.data, st.dev_sequences, st.dev_seed);
    const auto eval = gp_sample_set(train.data, st.base.eval_sequences, st.base.eval_seed);
    const GpBaselines baselines = gp_baselines(train.data, eval);
    std::vector<std::vector<double>> predictions;
    const GpErrors held_out = gp_evaluate(session, eval, int(eval.size()), &predictions);
    j.field("devRmse", gp_evaluate(session, dev, int(dev.size())).rmse());
    j.field("rmse", held_out.rmse()).field("rmseByPosition", held_out.rmse_by_position());
    j.field("leakZ", gp_leak_check(predictions, baselines.posterior_means, eval).z);
    CemTransformer& model = session.model();
    if (m.family == CemFamily::cem) {
      j.key("learnedEta").begin_array();
      for (int l = 0; model.cem_attention(l) != nullptr; ++l) {
        j.begin_object().field("block", l).field("attention", double(model.cem_attention(l)->step_size()));
        j.field("mlp", double(model.cem_mlp(l)->step_size())).end_object();
      }
      j.end_array();
      write_diag_norms(j, model);
      if (job.suite == "grid" && m.mlp_steps == 0) write_test_time(j, st, session, eval);
    }
  }
  j.field("seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  j.end_object();
  return j.str();
}

std::string gp_descent_header_json(const std::string& suite, const GpDescentSettings& st, const std::vector<int>& dxs) {
  JsonWriter j;
  j.begin_object().field("experiment", "gp-descent").field("suite", suite);
  write_settings(j, st);
  j.key("baselines").begin_array();
  for (int dx : dxs) {
    const GpDataConfig data = gp_descent_data(st, dx);
    const GpBaselines b = gp_baselines(data, gp_sample_set(data, st.base.eval_sequences, st.base.eval_seed));
    j.begin_object()
        .field("dx", dx)
        .field("lengthScale", data.length_scale)
        .field("posterior", b.posterior)
        .field("contextMean", b.context_mean);
    j.field("zero", b.zero).field("posteriorByPosition", b.posterior_rmse).end_object();
  }
  j.end_array().end_object();
  return j.str();
}

}  // namespace gatelab
