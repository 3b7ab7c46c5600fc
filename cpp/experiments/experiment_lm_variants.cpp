// The settings and variant tables of the language-model experiments (experiment_lm.hpp).
#include <algorithm>
#include <cmath>

#include "experiment_lm.hpp"
#include "gatelab/paper_a/labels.hpp"

namespace gatelab {
namespace {

using A = Activation;
using K = LayerKind;

std::vector<float> adamw_grid() { return {2e-3f, 4e-3f, 8e-3f}; }
std::vector<float> momentum_grid() { return {0.1f, 0.3f, 0.6f}; }

// A variant of mlp-lm: the paper-A layer in the slot at the settings' budget (§A20).
LmVariant slot(const LmExperimentSettings& s, std::string name, std::string group, K kind, A a, int rank = 1,
               float symmetrize = 0.0f, bool gauge_fix = false, OptimizerKind optimizer = OptimizerKind::adamw) {
  LmVariant v;
  v.name = std::move(name);
  v.group = std::move(group);
  v.kind = kind;
  v.activation = {a, 1.0f};
  v.rank = kind == K::mlp ? 1 : rank;
  v.symmetrize = symmetrize;
  v.gauge_fix = gauge_fix;
  v.optimizer = optimizer;
  v.hidden = lm_mlp_hidden(kind, v.rank, s.d, s.budget);
  v.label = layer_label(kind, a, v.rank, symmetrize) + (gauge_fix ? ", gauge-fixed" : "") +
            (optimizer == OptimizerKind::momentum ? ", SGD-momentum" : "");
  v.learning_rates = optimizer == OptimizerKind::momentum ? momentum_grid() : adamw_grid();
  return v;
}

void mlp_lm_settings(bool quick, LmExperimentSettings& s) {
  s.experiment = "mlp-lm";
  // A dev-split pilot of FFN-GELU against SwiGLU (5 seeds, rate 0.004) did not resolve the pair
  // at 2,000 steps (−0.020 [−0.042, +0.003]) and began to at 4,000 (+0.011 [−0.005, +0.027]):
  // the main runs take 4,000 steps, the sweep 2,000, the headline pair 8,000 (docs/PAPER_A_LM.md).
  if (!quick) {
    s.steps = 4000;
    s.sweep_steps = 2000;
    s.long_steps = 8000;
  }
  s.reference = "swiglu";
  s.long_variants = {"swiglu", "symgated-silu"};
}

void mlp_lm(bool quick, const LmExperimentSettings& s, std::vector<LmVariant>& out) {
  const auto momentum = OptimizerKind::momentum;
  if (quick) {
    out = {slot(s, "ffn-gelu", "main", K::mlp, A::gelu),
           slot(s, "swiglu", "main", K::gated, A::silu),
           slot(s, "symgated-silu", "main", K::gated, A::silu, 1, 1.0f),
           slot(s, "symmetric-silu", "main", K::symmetric, A::silu),
           slot(s, "dial-silu-0.5", "mechanism", K::gated, A::silu, 1, 0.5f),
           slot(s, "reglu-gauge", "mechanism", K::gated, A::relu, 1, 0.0f, true)};
    return;
  }
  out = {
      slot(s, "ffn-gelu", "main", K::mlp, A::gelu),
      slot(s, "ffn-relu", "main", K::mlp, A::relu),
      slot(s, "bilinear", "main", K::gated, A::identity),
      slot(s, "reglu", "main", K::gated, A::relu),
      slot(s, "geglu", "main", K::gated, A::gelu),
      slot(s, "swiglu", "main", K::gated, A::silu),
      slot(s, "glu", "main", K::gated, A::sigmoid),
      slot(s, "symmetric-relu", "main", K::symmetric, A::relu),
      slot(s, "symmetric-silu", "main", K::symmetric, A::silu),
      slot(s, "symmetric-gelu", "main", K::symmetric, A::gelu),
      slot(s, "symgated-relu", "main", K::gated, A::relu, 1, 1.0f),
      slot(s, "symgated-silu", "main", K::gated, A::silu, 1, 1.0f),
      slot(s, "dial-silu-0.25", "mechanism", K::gated, A::silu, 1, 0.25f),
      slot(s, "dial-silu-0.5", "mechanism", K::gated, A::silu, 1, 0.5f),
      slot(s, "dial-silu-0.75", "mechanism", K::gated, A::silu, 1, 0.75f),
      slot(s, "symmetric-relu-r2", "mechanism", K::symmetric, A::relu, 2),
      slot(s, "symmetric-relu-r4", "mechanism", K::symmetric, A::relu, 4),
      slot(s, "reglu-gauge", "mechanism", K::gated, A::relu, 1, 0.0f, true),
      slot(s, "symmetric-relu-gauge", "mechanism", K::symmetric, A::relu, 1, 0.0f, true),
      slot(s, "swiglu-momentum", "mechanism", K::gated, A::silu, 1, 0.0f, false, momentum),
      slot(s, "symgated-silu-momentum", "mechanism", K::gated, A::silu, 1, 1.0f, false, momentum),
      slot(s, "reglu-momentum", "mechanism", K::gated, A::relu, 1, 0.0f, false, momentum),
      slot(s, "symmetric-relu-momentum", "mechanism", K::symmetric, A::relu, 1, 0.0f, false, momentum),
  };
  // Issue #23's study (docs/MATH.md §A23, docs/PAPER_A_LM_PROTOCOL.md): the same-σ controls and the
  // exchange-symmetric corners, at the same budget (FFN d_ff = 3d, bigated m = 2d). By name only.
  for (LmVariant v :
       {slot(s, "ffn-silu", "main", K::mlp, A::silu), slot(s, "ffn-relu2", "main", K::mlp, A::relu2),
        slot(s, "silu-silu", "main", K::bigated, A::silu), slot(s, "relu-relu", "mechanism", K::bigated, A::relu)}) {
    v.by_name = true;
    out.push_back(v);
  }
}

// <gatelab-lm>: the figure's model (small enough to train in a page: about 8 ms a step in wasm),
// a constant rate after warm-up (the reader may stop any time), a curve point every 50 steps on
// 128 fixed validation windows, the figure's text (the first 339,181 bytes: data/lm/README.md)
// and its MLP menu at one budget (gated m = 64, FFN d_ff = 96). The first three are its default
// models; SwiGLU sets every variant's initial MLP output RMS, as in mlp-lm. One rate for all:
// the figure illustrates, the mlp-lm experiment sweeps.
void lm_figure_settings(LmExperimentSettings& s) {
  s.experiment = "lm-figure";
  s.d = 32;
  s.layers = 2;
  s.heads = 4;
  s.context = 32;
  s.batch = 8;
  s.budget = 6144;
  s.steps = 2000;
  s.long_steps = 4000;
  s.warmup = 50;
  s.decay = false;
  s.max_chars = 339181;
  s.eval_every = 50;
  s.eval_windows = 128;
  s.diagnostic_windows = 8;
  s.sample_chars = 160;
  s.seeds = 3;
  s.reference = "swiglu";
  s.long_variants = {};
}

void lm_figure(const LmExperimentSettings& s, std::vector<LmVariant>& out) {
  out = {
      slot(s, "swiglu", "figure", K::gated, A::silu),
      slot(s, "symgated-silu", "figure", K::gated, A::silu, 1, 1.0f),
      slot(s, "ffn-gelu", "figure", K::mlp, A::gelu),
      slot(s, "ffn-relu", "figure", K::mlp, A::relu),
      slot(s, "bilinear", "figure", K::gated, A::identity),
      slot(s, "reglu", "figure", K::gated, A::relu),
      slot(s, "geglu", "figure", K::gated, A::gelu),
      slot(s, "glu", "figure", K::gated, A::sigmoid),
      slot(s, "symgated-relu", "figure", K::gated, A::relu, 1, 1.0f),
      slot(s, "dial-silu-0.25", "figure", K::gated, A::silu, 1, 0.25f),
      slot(s, "dial-silu-0.5", "figure", K::gated, A::silu, 1, 0.5f),
      slot(s, "dial-silu-0.75", "figure", K::gated, A::silu, 1, 0.75f),
      slot(s, "symmetric-relu", "figure", K::symmetric, A::relu),
      slot(s, "symmetric-silu", "figure", K::symmetric, A::silu),
      slot(s, "symmetric-gelu", "figure", K::symmetric, A::gelu),
      // issue #23's same-σ controls and exchange-symmetric corners (§A23), after the older menu
      slot(s, "ffn-silu", "figure", K::mlp, A::silu),
      slot(s, "ffn-relu2", "figure", K::mlp, A::relu2),
      slot(s, "silu-silu", "figure", K::bigated, A::silu),
  };
  for (auto& v : out) v.learning_rates = {4e-3f};
}

// A variant of tiny-lm: a Llama-style block (SwiGLU, M = 2d) or tied CEM blocks.
LmVariant family(std::string name, CemFamily f, int steps, int d) {
  LmVariant v;
  v.name = std::move(name);
  v.group = "main";
  v.family = f;
  v.d = d;
  v.hidden = 2 * d;
  v.steps = steps;
  v.diagonal = f == CemFamily::cem ? CemDiagonal::shared : CemDiagonal::none;
  v.label = f == CemFamily::cem ? "CEM T=" + std::to_string(steps) + " d=" + std::to_string(d)
                                : "Llama d=" + std::to_string(d);
  v.learning_rates = adamw_grid();
  return v;
}

void tiny_lm_settings(bool quick, LmExperimentSettings& s) {
  s.experiment = "tiny-lm";
  s.seeds = quick ? 2 : 4;
  s.weight_decay = 0.0f;
  s.long_variants = {};
}

void tiny_lm(bool quick, std::vector<LmVariant>& out) {
  if (quick) {
    out = {family("llama-d16", CemFamily::standard, 1, 16), family("cem-t1-d16", CemFamily::cem, 1, 16),
           family("cem-t2-d16", CemFamily::cem, 2, 16)};
    return;
  }
  // Equal width (d = 64, M = 128) for the three headline models; a narrower Llama with about
  // the CEM model's parameters and a wider CEM with about the Llama's place the two families
  // on one loss-against-parameters plot.
  out = {family("llama-d64", CemFamily::standard, 1, 64), family("cem-t1-d64", CemFamily::cem, 1, 64),
         family("cem-t2-d64", CemFamily::cem, 2, 64), family("llama-d48", CemFamily::standard, 1, 48),
         family("cem-t2-d80", CemFamily::cem, 2, 80)};
}

void shrink_for_quick(LmExperimentSettings& s) {
  s.d = 16;
  s.layers = 1;
  s.heads = 2;
  s.context = 16;
  s.batch = 4;
  s.budget = 768;  // gated m = 16, FFN d_ff = 24
  s.steps = 150;
  s.long_steps = 300;
  s.warmup = 5;
  s.eval_windows = 16;
  s.curve_points = 2;
  s.diagnostic_windows = 4;
  s.sample_chars = 40;
  s.seeds = 2;
  s.max_chars = 60000;
}

// The experiment's own settings (after the quick shrink); "" or the unknown name's error.
std::string experiment_settings(const std::string& name, bool quick, LmExperimentSettings& s) {
  s = {};
  if (name == "lm-figure") {
    if (quick) return "lm-figure has no --quick settings: it is the browser figure's own size";
    lm_figure_settings(s);
    return "";
  }
  if (name != "mlp-lm" && name != "tiny-lm") return "unknown experiment '" + name + "' (mlp-lm, tiny-lm, lm-figure)";
  if (quick) shrink_for_quick(s);
  if (name == "mlp-lm") mlp_lm_settings(quick, s);
  if (name == "tiny-lm") tiny_lm_settings(quick, s);
  return "";
}

void experiment_variants(bool quick, const LmExperimentSettings& s, std::vector<LmVariant>& v) {
  if (s.experiment == "lm-figure") lm_figure(s, v);
  if (s.experiment == "mlp-lm") mlp_lm(quick, s, v);
  if (s.experiment == "tiny-lm") tiny_lm(quick, v);
}

// The study's settings: every flag given replaces the experiment's value.
std::string study_settings(const LmStudy& st, LmExperimentSettings& s) {
  if (st.d > 0) {
    if (s.experiment == "tiny-lm") return "--d: tiny-lm's models fix their own widths (llama-d64, cem-t2-d80, …)";
    // The budget keeps its ratio to d² (24,576 = 6·64²; 3·d² in the quick settings): equal MLP
    // parameters for every variant at the new width, with the same m/d and d_ff/d (§A20).
    s.budget = static_cast<int>(static_cast<long long>(s.budget) * st.d * st.d / (static_cast<long long>(s.d) * s.d));
    s.d = st.d;
  }
  if (st.layers > 0) s.layers = st.layers;
  if (st.heads > 0) s.heads = st.heads;
  if (st.context > 0) s.context = st.context;
  if (st.batch > 0) s.batch = st.batch;
  if (st.steps > 0) {  // the sweep at the runs' length; the long phase twice as long
    s.steps = st.steps;
    s.long_steps = 2 * st.steps;
    s.sweep_steps = 0;
    if (s.eval_every == 0 && s.steps < s.curve_points) {
      return "--steps must be at least the curve's " + std::to_string(s.curve_points) + " points";
    }
  }
  if (st.seeds > 0) s.seeds = st.seeds;
  if (s.seeds >= s.sweep_seed) {
    return "--seeds must be below " + std::to_string(s.sweep_seed) + " (the sweep's seeds start there)";
  }
  if (st.sweep_seeds > 0) s.sweep_seeds = st.sweep_seeds;
  if (st.eta > 0) s.eta = st.eta;
  s.study_args = st.args;
  return "";
}

// The study's table: every width divisible by the heads, η only where a CEM layer uses it, the
// subset of --variants (the reference stays, unlisted) and the rate grids.
std::string study_table(const LmStudy& st, LmExperimentSettings& s, std::vector<LmVariant>& v) {
  bool cem = false;
  for (const LmVariant& x : v) {
    const int d = x.d > 0 ? x.d : s.d;
    if (d % s.heads != 0) {
      return "--heads must divide the width (" + x.name + ": d = " + std::to_string(d) +
             ", heads = " + std::to_string(s.heads) + ")";
    }
    cem = cem || x.family == CemFamily::cem;
  }
  if (st.eta > 0 && !cem) return "--eta: " + s.experiment + " has no CEM layer, so no step size η";
  auto find = [&](const std::string& name) {
    for (LmVariant& x : v) {
      if (x.name == name) return &x;
    }
    return static_cast<LmVariant*>(nullptr);
  };
  auto names = [&] {
    std::string all;
    for (const LmVariant& x : v) {
      if (x.listed) all += (all.empty() ? "" : ", ") + x.name;
    }
    return all;
  };
  if (st.variants.empty()) {
    v.erase(std::remove_if(v.begin(), v.end(), [](const LmVariant& x) { return x.by_name; }), v.end());
  } else {
    for (const std::string& name : st.variants) {
      if (find(name) == nullptr)
        return "--variants: no variant '" + name + "' in " + s.experiment + " (" + names() + ")";
    }
    std::vector<LmVariant> kept;
    for (LmVariant& x : v) {
      x.listed = std::find(st.variants.begin(), st.variants.end(), x.name) != st.variants.end();
      if (x.listed || x.name == s.reference) kept.push_back(x);
    }
    v = kept;
    std::vector<std::string> long_variants;
    for (const std::string& name : s.long_variants) {
      if (const LmVariant* x = find(name); x != nullptr && x->listed) long_variants.push_back(name);
    }
    s.long_variants = long_variants;
  }
  if (!st.rates.empty()) {
    for (LmVariant& x : v) x.learning_rates = st.rates;
  }
  for (const auto& [name, rates] : st.variant_rates) {
    LmVariant* x = find(name);
    if (x == nullptr || !x->listed) {
      return "--rates: no variant '" + name + "' in the study (" + names() + ")";
    }
    x->learning_rates = rates;
  }
  return "";
}

}  // namespace

std::string lm_experiment(const std::string& name, bool quick, LmExperimentSettings& s, std::vector<LmVariant>& v) {
  return lm_experiment(name, quick, LmStudy{}, s, v);
}

std::string lm_experiment(const std::string& name, bool quick, const LmStudy& study, LmExperimentSettings& s,
                          std::vector<LmVariant>& v) {
  v.clear();
  if (std::string e = experiment_settings(name, quick, s); !e.empty()) return e;
  if (std::string e = study_settings(study, s); !e.empty()) return e;
  experiment_variants(quick, s, v);
  return study_table(study, s, v);
}

}  // namespace gatelab
