// The training API's entry points: lab.datasets.make, lab.createTrainer, lab.race and lab.lm
// (web/lib/train/). Nested objects (a trainer's data, a dataset's teacher, a race's models, an
// LM session's mlp) are entries of their own, named by the field that holds them.
#include "gatelab/train/options.hpp"

#include "gatelab/base/activations.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/train/dataset.hpp"
#include "gatelab/train/loss.hpp"
#include "gatelab/train/optimizer.hpp"
#include "gatelab/train/race.hpp"
#include "gatelab/train/lm.hpp"
#include "gatelab/train/trainer.hpp"

namespace gatelab {

namespace {

using T = OptionType;

std::string number(double v) { return default_number(v); }

std::vector<OptionField> dataset_fields() {
  const DatasetOptions o;
  return {{"count", T::integer, "", number(o.count), 4, max_dataset_points},
          {"noise", T::number, "", number(o.noise), 0, max_dataset_noise},
          {"train_fraction", T::number, "", number(o.train_fraction)},  // (0, 1]: half-open, no closed range
          {"seed", T::seed, "", number(double(o.seed))},
          {"teacher", T::object, "datasets.teacher"},
          {"points", T::object, "datasets.points"}};
}

// The trainer's layer, loss and optimizer fields; a race sets the layer per model and leaves out
// `skip` (its layer fields other than beta). The kind has no default (the API asks for it); the
// ranges of momentum, β1, β2 (in [0, 1)), ε and the rate (in (0, max]) are half-open, so not stated.
std::vector<OptionField> trainer_fields(bool race) {
  const TrainerOptions t;
  const OptimizerOptions& o = t.optimizer;
  std::vector<OptionField> fields;
  if (!race) {
    fields = {{"kind", T::name, "kinds"},
              {"activation", T::name, "activations", default_name(activation_name(t.layer.activation.kind))},
              // hidden · rank is capped (max_trainer_units), not each alone.
              {"hidden", T::integer, "", number(t.layer.hidden)},
              {"rank", T::integer, "", number(t.layer.rank)},
              {"symmetrize", T::number, "", number(t.layer.symmetrize), 0, 1}};
  }
  const std::vector<OptionField> rest = {
      {"beta", T::number, "", number(t.layer.activation.beta), -max_swish_beta, max_swish_beta},
      {"seed", T::seed, "", number(double(t.layer.seed))},
      {"bias_feature", T::boolean, "", default_flag(t.bias_feature)},
      {"loss", T::name, "losses", default_name(loss_name(t.loss))},
      {"optimizer", T::name, "trainerOptimizers", default_name(optimizer_name(o.kind))},
      {"learning_rate", T::number, "", number(o.learning_rate)},
      {"momentum", T::number, "", number(o.momentum)},
      {"beta1", T::number, "", number(o.beta1)},
      {"beta2", T::number, "", number(o.beta2)},
      {"epsilon", T::number, "", number(o.epsilon)},
      {"batch_size", T::integer, "", number(t.batch_size), 0, max_dataset_points},
      // A race records about 100 points: its default is ⌈steps / 100⌉, so it states none.
      {"eval_every", T::integer, "", race ? "" : number(t.eval_every), 1, max_steps_per_call},
      {"data", T::object, "trainer.data"}};
  fields.insert(fields.end(), rest.begin(), rest.end());
  return fields;
}

template <class Enum>
NameSet name_set(const char* name, std::initializer_list<Enum> values, const char* (*name_of)(Enum)) {
  NameSet set{name, {}};
  for (Enum v : values) set.values.push_back(name_of(v));
  return set;
}

}  // namespace

void add_train_options(OptionEntries& entries, NameSets& names) {
  const DatasetOptions data_defaults;
  entries.push_back({"datasets.make", dataset_fields()});
  entries.push_back(
      {"datasets.teacher",
       {{"kind", T::name, "kinds", default_name(layer_kind_name(data_defaults.teacher_kind))},
        {"activation", T::name, "activations", default_name(activation_name(data_defaults.teacher_activation.kind))},
        {"beta", T::number, "", number(data_defaults.teacher_activation.beta), -max_swish_beta, max_swish_beta},
        {"hidden", T::integer, "", number(data_defaults.teacher_hidden), 1, max_teacher_hidden},
        {"rank", T::integer, "", number(data_defaults.teacher_rank)}}});
  entries.push_back({"datasets.points", {{"x", T::floats}, {"y", T::floats}}});
  std::vector<OptionField> data = dataset_fields();
  data.insert(data.begin(), {"task", T::name, "tasks", default_name(task_name(data_defaults.task))});
  entries.push_back({"trainer.data", data});
  entries.push_back({"createTrainer", trainer_fields(false)});
  const RaceOptions r;
  std::vector<OptionField> race = trainer_fields(true);
  race.insert(race.begin(), {{"models", T::list, "race.model"},
                             {"width_rule", T::name, "widthRules", default_name(width_rule_name(r.width_rule))},
                             {"steps", T::integer, "", number(r.steps), 1, max_race_steps},
                             {"seeds", T::integer, "", number(r.seeds), 1, max_race_seeds},
                             {"budget", T::integer, "", number(r.budget), 1, max_race_budget},
                             {"mlp_hidden", T::integer, "", number(r.mlp_hidden), 1, max_trainer_units}});
  entries.push_back({"race", race});
  // The orbit search's grid (gatelab-teleport). reach's range is half-open (1, 100], so no closed range is stated.
  const TeleportSearch search;
  entries.push_back({"trainer.bestFactors",
                     {{"goal", T::name, "teleportGoals", default_name(teleport_goal_name(search.goal))},
                      {"points", T::integer, "", number(search.points), 3, max_teleport_grid_points},
                      {"reach", T::number, "", number(search.reach)}}});
  entries.push_back(
      {"race.model", {{"kind", T::name, "kinds"}, {"activation", T::name, "activations"}, {"symmetrize", T::number}}});

  // lab.lm: the API's defaults live in LmApiDefaults (train/lm.hpp). The budget depends on d (6·d², §A20)
  // and hidden follows the budget, so neither has a fixed default; the data seed defaults to the seed.
  const LmApiDefaults lm;
  entries.push_back({"lm.createCorpus",
                     {{"dev_fraction", T::number, "", number(lm.dev_fraction)},
                      {"validation_fraction", T::number, "", number(lm.validation_fraction)}}});
  entries.push_back({"lm.hiddenForBudget",
                     {{"kind", T::name, "kinds", default_name(layer_kind_name(lm.mlp_kind))},
                      {"rank", T::integer, "", number(lm.mlp_rank)},
                      {"d", T::integer},
                      {"budget", T::integer}}});
  // The model's checks are the transformer's (model/transformer.cpp, cem/common.cpp).
  entries.push_back({"lm.createSession",
                     {{"corpus", T::handle},
                      {"d", T::integer, "", number(lm.d), 1, cem_max_d},
                      {"layers", T::integer, "", number(lm.layers), 1, cem_max_layers},
                      {"heads", T::integer, "", number(lm.heads), 1, cem_max_heads},
                      {"mlp", T::object, "lm.mlp"},
                      {"context", T::integer, "", number(lm.context), 2, max_lm_context},
                      {"batch", T::integer, "", number(lm.batch), 1, max_lm_batch},
                      {"optimizer", T::name, "optimizers", default_name(optimizer_name(lm.optimizer))},
                      {"learning_rate", T::number, "", number(lm.learning_rate)},
                      {"weight_decay", T::number, "", number(lm.weight_decay), 0, max_weight_decay},
                      {"clip_norm", T::number, "", number(lm.clip_norm), 0, max_clip_norm},
                      {"momentum", T::number, "", number(lm.momentum)},
                      {"warmup", T::integer, "", number(lm.warmup)},
                      {"decay_steps", T::integer, "", number(lm.decay_steps)},
                      {"mlp_init_rms", T::number, "", number(lm.mlp_init_rms), 0, max_lm_mlp_init_rms},
                      {"gauge_fix", T::boolean, "", default_flag(lm.gauge_fix)},
                      {"seed", T::seed, "", number(double(lm.seed))},
                      {"data_seed", T::seed}}});
  entries.push_back({"lm.mlp",
                     {{"kind", T::name, "kinds", default_name(layer_kind_name(lm.mlp_kind))},
                      {"activation", T::name, "activations", default_name(activation_name(lm.mlp_activation))},
                      {"rank", T::integer, "", number(lm.mlp_rank)},
                      {"symmetrize", T::number, "", number(lm.mlp_symmetrize), 0, 1},
                      {"budget", T::integer},
                      {"hidden", T::integer, "", {}, 1, max_layer_dim},  // the paper-A layer's range
                      {"beta", T::number, "", number(lm.mlp_beta), -max_swish_beta, max_swish_beta}}});

  NameSet tasks{"tasks", {}};
  for (int i = 0; i < task_count; ++i) tasks.values.push_back(task_name(task_by_index(i)));
  names.push_back(std::move(tasks));
  names.push_back(name_set("losses", {LossKind::mse, LossKind::cross_entropy}, loss_name));
  names.push_back(name_set("optimizers",
                           {OptimizerKind::sgd, OptimizerKind::momentum, OptimizerKind::adam, OptimizerKind::adamw},
                           optimizer_name));
  // The trainer has no weight decay, so AdamW would be Adam: it offers the first three.
  names.push_back(name_set("trainerOptimizers", {OptimizerKind::sgd, OptimizerKind::momentum, OptimizerKind::adam},
                           optimizer_name));
  names.push_back(name_set("teleportGoals", {TeleportGoal::gradient, TeleportGoal::step}, teleport_goal_name));
  names.push_back(name_set("widthRules", {WidthRule::budget, WidthRule::shazeer}, width_rule_name));
}

}  // namespace gatelab
