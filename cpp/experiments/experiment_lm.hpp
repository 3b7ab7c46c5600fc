// The language-model experiments on the character transformer (train/lm.hpp):
//   mlp-lm   paper A's question in a language model (docs/PAPER_A_LM.md): only the MLP slot
//            changes — FFNs, the gated family, the symmetric form, symgated (the exchange-
//            symmetrised gated unit), the λ dial, symmetric rank r and gauge-fixed forms — at
//            one MLP parameter budget and one initial MLP output RMS (docs/MATH.md §A20);
//   tiny-lm  paper B's weight tying on text (docs/EXPERIMENTS.md): Llama-style blocks against
//            tied CEM blocks at T = 1, 2, at equal width and at about equal parameters;
//   lm-figure the <gatelab-lm> figure's model, schedule, evaluation and MLP menu: the one place
//            its defaults live (web/components/paper-a/lm/lm-preset.js is generated from it), so
//            `lm-job --experiment lm-figure` reproduces the figure's curves bit for bit.
// A study changes an experiment from the command line (LmStudy: width, depth, heads, batch,
// context, steps, seeds, sweep seeds, η, a subset of the variants, rate grids), so a new study
// is a command rather than a code change; every job's JSON records the settings it ran with.
// The unit of work is one job: (variant, phase, seed, learning rate) → one JSON object.
// Phases: "sweep" (the learning-rate sweep, scored on the dev split, its own seeds), "main"
// (scored on validation) and "long" (the headline variants at the longer horizon, validation).
// Jobs are deterministic and independent, so a runner may spread them over threads or machines
// and get the same numbers (scripts/experiments/lm-jobs.mjs plans, runs and merges them).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gatelab/cem/common.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/train/lm.hpp"
#include "gatelab/train/optimizer.hpp"

namespace gatelab {

struct LmVariant {
  std::string name;   // command-line id, e.g. "swiglu", "symgated-silu", "cem-t2-d64"
  std::string label;  // as readers know it (paper_a/labels.hpp) plus what else differs
  std::string group;  // mlp-lm: "main" or "mechanism"; tiny-lm: "main"; lm-figure: "figure"
  CemFamily family = CemFamily::standard;
  int d = 0;  // 0: the settings' width
  // The MLP: the paper-A layer of the standard family's slot, or φ of the CEM MLP.
  LayerKind kind = LayerKind::gated;
  ActivationSpec activation{Activation::silu, 1.0f};
  int rank = 1;
  float symmetrize = 0.0f;
  int hidden = 0;
  bool gauge_fix = false;
  // The CEM family: T, the diagonal of the attention.
  int steps = 1;
  CemDiagonal diagonal = CemDiagonal::shared;
  OptimizerKind optimizer = OptimizerKind::adamw;
  std::vector<float> learning_rates;  // the sweep grid (3 values unless a study says otherwise)
  // false: left out by a study's --variants, kept only as the reference of the initial MLP output
  // RMS (§A20); no job runs it and the table does not list it.
  bool listed = true;
  // true: in the table, but only a study's --variants that names it runs it; the experiment's own
  // plan (no --variants) leaves it out, so the plans written before it existed stay bit for bit.
  bool by_name = false;
};

struct LmExperimentSettings {
  std::string experiment = "mlp-lm";
  int d = 64, layers = 2, heads = 4, context = 64, batch = 16;
  int budget = 24576;  // mlp-lm: MLP parameters per block
  int steps = 2000, long_steps = 4000;
  int sweep_steps = 0;  // > 0: the sweep's (shorter) runs; 0: the main runs' steps
  int warmup = 100;
  bool decay = true;  // linear decay to 10 % over the run's steps; false: constant after warm-up
  float weight_decay = 0.1f, clip_norm = 1.0f, momentum = 0.9f, eta = 0.25f;
  double dev_fraction = 0.05, validation_fraction = 0.05;
  int max_chars = 0;        // > 0: only the first max_chars characters of the text (quick runs)
  int eval_windows = 1024;  // every evaluation of a curve uses the same windows
  int curve_points = 10;
  int eval_every = 0;  // > 0: a curve point every eval_every steps (and at the end), not curve_points
  int diagnostic_windows = 16;
  int sample_chars = 200;
  int seeds = 5, sweep_seed = 101;         // reported seeds are 1…seeds; the sweep uses its own
  int sweep_seeds = 1;                     // the sweep runs seeds sweep_seed … sweep_seed + sweep_seeds − 1
  std::string reference;                   // mlp-lm: its initial MLP output RMS is every variant's
  std::vector<std::string> long_variants;  // the headline variants of the long phase
  std::vector<std::string> study_args;     // the study's flags (LmStudy::args), recorded by every job
};

// The command line's changes to an experiment (0 or empty: the experiment's own value).
struct LmStudy {
  int d = 0, layers = 0, heads = 0, context = 0, batch = 0, steps = 0, seeds = 0, sweep_seeds = 0;
  float eta = 0.0f;
  std::vector<std::string> variants;  // a subset of the table by name (the table's order is kept)
  std::vector<float> rates;           // every listed variant's rate grid
  std::vector<std::pair<std::string, std::vector<float>>> variant_rates;  // one variant's grid
  std::vector<std::string> args;  // the flags as given, in the canonical order of lm_parse_study
};

// The study of the flags (name without "--", value) in the order given: --d, --layers, --heads,
// --context, --batch, --steps, --seeds, --sweep-seeds (positive integers), --eta (a positive
// number), --variants a,b,c, and --rates, once as a list for every variant ("0.002,0.004") and
// once per variant as name=list ("swiglu=0.002,0.004,0.008"); other flags are skipped. "" when
// fine, else an error naming the flag.
std::string lm_parse_study(const std::vector<std::pair<std::string, std::string>>& flags, LmStudy& study);
bool lm_is_study_flag(const std::string& name);

// The settings and variants of an experiment ("mlp-lm", "tiny-lm" or "lm-figure"); "" when it exists.
std::string lm_experiment(const std::string& name, bool quick, LmExperimentSettings& settings,
                          std::vector<LmVariant>& variants);
// The same with a study applied: --d scales the MLP budget with d² (equal MLP parameters at the
// new width, docs/MATH.md §A20), --steps sets the sweep's steps to the same and the long phase's
// to twice. "" when fine, else an error naming the flag.
std::string lm_experiment(const std::string& name, bool quick, const LmStudy& study, LmExperimentSettings& settings,
                          std::vector<LmVariant>& variants);
std::string lm_variants_json(const LmExperimentSettings& settings, const std::vector<LmVariant>& variants);

// The session config of a variant's job (the schedule decays over `steps` unless settings.decay is off).
LmConfig lm_job_config(const LmExperimentSettings& settings, const LmVariant& variant, int seed, float learning_rate,
                       int steps);
// The steps at which a run of `steps` steps evaluates its curve.
std::vector<int> lm_curve_steps(const LmExperimentSettings& settings, int steps);

struct LmJob {
  std::string variant, phase;
  int seed = 1;
  float learning_rate = 1e-3f;
  int ntk_tokens = 0;  // > 0: the MLP blocks' NTK condition number on that many tokens (§A24)
};
// One job's JSON object in *json ("" when fine, else the error).
std::string lm_run_job(const LmExperimentSettings& settings, const std::vector<LmVariant>& variants, const LmJob& job,
                       const std::string& text, std::string* json);

}  // namespace gatelab
