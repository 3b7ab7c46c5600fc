// The training API's entry points: lab.datasets.make, lab.createTrainer, lab.race and lab.lm
// (web/lib/train/). Nested objects (a trainer's data, a dataset's teacher, a race's models, an
// LM session's mlp) are entries of their own, named by the field that holds them.
#include "gatelab/train/options.hpp"

#include "gatelab/train/dataset.hpp"
#include "gatelab/train/loss.hpp"
#include "gatelab/train/optimizer.hpp"
#include "gatelab/train/race.hpp"
#include "gatelab/train/trainer.hpp"

namespace gatelab {

namespace {

using T = OptionType;

std::vector<OptionField> dataset_fields() {
  return {{"count", T::integer},
          {"noise", T::number},
          {"train_fraction", T::number},
          {"seed", T::seed},
          {"teacher", T::object, "datasets.teacher"},
          {"points", T::object, "datasets.points"}};
}

// The trainer's layer, loss and optimizer fields; a race sets the layer per model and leaves out
// `skip` (its layer fields other than beta).
std::vector<OptionField> trainer_fields(bool race) {
  std::vector<OptionField> fields;
  if (!race) {
    fields = {{"kind", T::name, "kinds"},
              {"activation", T::name, "activations"},
              {"hidden", T::integer},
              {"rank", T::integer},
              {"symmetrize", T::number}};
  }
  const std::vector<OptionField> rest = {{"beta", T::number},
                                         {"seed", T::seed},
                                         {"bias_feature", T::boolean},
                                         {"loss", T::name, "losses"},
                                         {"optimizer", T::name, "trainerOptimizers"},
                                         {"learning_rate", T::number},
                                         {"momentum", T::number},
                                         {"beta1", T::number},
                                         {"beta2", T::number},
                                         {"epsilon", T::number},
                                         {"batch_size", T::integer},
                                         {"eval_every", T::integer},
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
  entries.push_back({"datasets.make", dataset_fields()});
  entries.push_back({"datasets.teacher",
                     {{"kind", T::name, "kinds"},
                      {"activation", T::name, "activations"},
                      {"beta", T::number},
                      {"hidden", T::integer},
                      {"rank", T::integer}}});
  entries.push_back({"datasets.points", {{"x", T::floats}, {"y", T::floats}}});
  std::vector<OptionField> data = dataset_fields();
  data.insert(data.begin(), {"task", T::name, "tasks"});
  entries.push_back({"trainer.data", data});
  entries.push_back({"createTrainer", trainer_fields(false)});
  std::vector<OptionField> race = trainer_fields(true);
  race.insert(race.begin(), {{"models", T::list, "race.model"},
                             {"width_rule", T::name, "widthRules"},
                             {"steps", T::integer},
                             {"seeds", T::integer},
                             {"budget", T::integer},
                             {"mlp_hidden", T::integer}});
  entries.push_back({"race", race});
  // The orbit search's grid (gatelab-teleport). reach's range is half-open (1, 100], so no closed range is stated.
  entries.push_back({"trainer.bestFactors",
                     {{"goal", T::name, "teleportGoals"},
                      {"points", T::integer, "", 3, max_teleport_grid_points},
                      {"reach", T::number}}});
  entries.push_back(
      {"race.model", {{"kind", T::name, "kinds"}, {"activation", T::name, "activations"}, {"symmetrize", T::number}}});

  entries.push_back({"lm.createCorpus", {{"dev_fraction", T::number}, {"validation_fraction", T::number}}});
  entries.push_back({"lm.hiddenForBudget",
                     {{"kind", T::name, "kinds"}, {"rank", T::integer}, {"d", T::integer}, {"budget", T::integer}}});
  entries.push_back({"lm.createSession",
                     {{"corpus", T::handle},
                      {"d", T::integer},
                      {"layers", T::integer},
                      {"heads", T::integer},
                      {"mlp", T::object, "lm.mlp"},
                      {"context", T::integer},
                      {"batch", T::integer},
                      {"optimizer", T::name, "optimizers"},
                      {"learning_rate", T::number},
                      {"weight_decay", T::number},
                      {"clip_norm", T::number},
                      {"momentum", T::number},
                      {"warmup", T::integer},
                      {"decay_steps", T::integer},
                      {"mlp_init_rms", T::number},
                      {"gauge_fix", T::boolean},
                      {"seed", T::seed},
                      {"data_seed", T::seed}}});
  entries.push_back({"lm.mlp",
                     {{"kind", T::name, "kinds"},
                      {"activation", T::name, "activations"},
                      {"rank", T::integer},
                      {"symmetrize", T::number},
                      {"budget", T::integer},
                      {"hidden", T::integer},
                      {"beta", T::number}}});

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
