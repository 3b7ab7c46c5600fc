// The training race (docs/MATH.md §T6): several models trained side by side on the same
// data at an equal parameter budget — the standard MLP, the symmetric rank-1 form, the
// gated form (one per chosen activation) and the bilinear layer (gated with identity) —
// over several seeds, reduced to a mean and a band (min, max, std) per curve. It tests the
// paper's suggestion that breaking the exchange symmetry is why gated MLPs work. Widths
// come from the budget (hidden = round(budget / parameters per unit)) or from Shazeer's
// 2/3 rule (gated and symmetric hidden = round(2/3 · MLP hidden)). Native and wasm give the
// same bits for the same options.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatelab/train/trainer.hpp"

namespace gatelab {

// Documented caps. A race holds, per model, running sums of records × 4 metrics (≈ 200 bytes
// per record: at most 16 × 10001 × 200 B ≈ 32 MB) and one trainer at a time.
inline constexpr int max_race_models = 16;
inline constexpr int max_race_seeds = 64;
inline constexpr int max_race_steps = 100000;
inline constexpr int max_race_records = 10001;  // steps / eval_every + 1
inline constexpr int max_race_budget = 1 << 16;

struct RaceModel {
  LayerKind kind = LayerKind::gated;
  ActivationSpec activation{};  // bilinear = gated with identity
  float symmetrize = 0.0f;      // λ of docs/MATH.md §A11 ('gated' only)
};

enum class WidthRule { budget, shazeer };
const char* width_rule_name(WidthRule rule);  // "budget", "shazeer"
std::optional<WidthRule> parse_width_rule(std::string_view name);
Status parse_width_rule(std::string_view name, WidthRule& out);  // the same as a status naming "width_rule"

// Models as comma-separated "kind:activation" or "kind:activation:symmetrize" items
// ("mlp:relu,gated:silu,gated:silu:1"), each activation with parameter beta
// (parse_activation_spec), appended to out (at most max_race_models in all): ok or a status
// naming models and the bad entry. λ's range and kind are checked by validate(RaceOptions).
Status parse_race_models(std::string_view list, float beta, std::vector<RaceModel>& out);

struct RaceOptions {
  DatasetOptions data;               // data.seed + seed index gives each seed its own sample
  std::optional<Dataset> user_data;  // when set, every seed trains on these points instead
  TrainerOptions trainer;            // layer.kind/activation/hidden are set per model; layer.seed is the base seed
  std::vector<RaceModel> models;
  int steps = 1000;
  int seeds = 3;
  WidthRule width_rule = WidthRule::budget;
  int budget = 128;     // parameters per model (budget rule)
  int mlp_hidden = 32;  // the MLP width (shazeer rule)
};

// layer_label's name, as the figures show it: "MLP (ReLU)", "symmetric (ReLU)", "ReGLU", "SwiGLU", "GEGLU (tanh)",
// "gated (tanh)", "symgated (SiLU)" (λ = 1), "SwiGLU, λ = 0.5".
std::string race_label(const RaceModel& model);
// The models of the default race: mlp·relu, symmetric·relu, gated relu/gelu/silu/sigmoid, bilinear.
std::vector<RaceModel> default_race_models();
// The hidden width of one model under the options' rule.
int race_hidden(const RaceOptions& options, const RaceModel& model);

Status validate(const RaceOptions& options);

// Curves of one model: records at steps 0, eval_every, 2·eval_every, …; each metric (the
// TrainRecord fields in order: train_loss, test_loss, train_accuracy, test_accuracy) has
// mean, sample std (n − 1), min and max over seeds. A diverged run keeps its last good values to the end.
inline constexpr int race_metrics = 4;
struct RaceCurves {
  std::vector<int> steps;
  std::vector<float> mean[race_metrics], std[race_metrics], min[race_metrics], max[race_metrics];
};

struct RaceResult {
  RaceModel model;
  std::string label;
  int hidden = 0;
  std::size_t parameters = 0;
  int diverged = 0;              // runs (of seeds) that diverged
  std::string first_divergence;  // the first such run's message
  RaceCurves curves;
  // Final values per seed, for tables: [metric][seed].
  std::vector<float> final_values[race_metrics];
};

// Precondition: validate(options) is ok.
std::vector<RaceResult> run_race(const RaceOptions& options);

// A result's curves as one float array, the layout the JS side reads (R records, S seeds): the
// R steps, then per metric its mean, std, min and max (R each), then the final values per
// metric (S each): 17·R + 4·S floats, race_curve_floats() of them.
std::size_t race_curve_floats(const RaceResult& result);
void copy_race_curves(const RaceResult& result, float* out);

}  // namespace gatelab
