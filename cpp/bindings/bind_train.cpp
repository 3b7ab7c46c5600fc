// Embind registrations of the train area (docs/MATH.md §T): the 2-D datasets, the paper-A
// trainer and the training race; web/lib/ wraps them. A user's own points cross as x
// (count, 2) and y (count), 0 when the task is not 'user'. A race comes back as a transient
// handle that JS reads out and deletes at once.
#include "bind_module.hpp"

#include "gatelab/train/dataset.hpp"
#include "gatelab/train/race.hpp"
#include "gatelab/train/trainer.hpp"

using namespace emscripten;
using namespace gatelab;
using namespace gatelab::bind;

namespace {

Status to_config(const val& j, DatasetOptions& o) {
  if (Status e = parse_task(get<std::string>(j, "task"), o.task); !e.ok()) return e;
  if (Status e = parse_layer_kind(get<std::string>(j, "teacherKind"), "teacher.kind", o.teacher_kind); !e.ok())
    return e;
  if (Status e = seed_of(j, o.seed); !e.ok()) return e;
  read_fields(j, "count", o.count, "noise", o.noise, "trainFraction", o.train_fraction, "teacherHidden",
              o.teacher_hidden, "teacherRank", o.teacher_rank);
  const Status e = parse_activation_spec(get<std::string>(j, "teacherActivation"), get<float>(j, "teacherBeta"),
                                         "teacher.activation", o.teacher_activation);
  return e.ok() ? validate_task(o) : e;
}

// The dataset options and, for the 'user' task, its points.
Status to_data(const val& j, Ptr x, Ptr y, int count, DatasetOptions& o) {
  Status e = to_config(j, o);
  return e.ok() ? validate_points(o, f32(x), f32(y), count) : e;
}

// The layer's own fields as lab.createLayer reads them; validate(t) checks them with the rest.
Status to_config(const val& j, TrainerOptions& t) {
  Status e = read_layer_fields(j, t.layer);
  if (e.ok()) e = parse_loss(get<std::string>(j, "loss"), t.loss);
  if (e.ok()) e = parse_optimizer(get<std::string>(j, "optimizer"), t.optimizer.kind);
  if (e.ok()) e = seed_of(j, t.layer.seed);
  if (!e.ok()) return e;
  OptimizerOptions& p = t.optimizer;
  read_fields(j, "biasFeature", t.bias_feature, "learningRate", p.learning_rate, "momentum", p.momentum, "beta1",
              p.beta1, "beta2", p.beta2, "epsilon", p.epsilon, "batchSize", t.batch_size, "evalEvery", t.eval_every);
  return validate(t);
}

val sizes(const val& j, int user_count) {
  DatasetOptions o;
  int train = 0, test = 0;
  Status e = to_config(j, o);
  if (e.ok()) e = dataset_sizes(o, user_count, train, test);
  return object_of("error", e, "train", train, "test", test);
}

Status make_dataset_into(const val& j, Ptr x, Ptr y, int count, Ptr xtr, Ptr ytr, Ptr xte, Ptr yte) {
  DatasetOptions o;
  return run_if_ok(to_data(j, x, y, count, o), [&] {
    copy_dataset(build_dataset(o, f32(x), f32(y), count), f32(xtr), f32(ytr), f32(xte), f32(yte));
  });
}

Status validate_trainer(const val& t, const val& d, Ptr x, Ptr y, int count) {
  TrainerOptions o;
  DatasetOptions data;
  Status e = to_config(t, o);
  return e.ok() ? to_data(d, x, y, count, data) : e;
}

Trainer* create_trainer(const val& t, const val& d, Ptr x, Ptr y, int count) {
  TrainerOptions o;
  DatasetOptions data;
  (void)to_config(t, o);  // both valid: web/lib called _paValidateTrainer first
  (void)to_config(d, data);
  return new Trainer(o, build_dataset(data, f32(x), f32(y), count));
}

val step(Trainer& trainer, int n) {
  const Status e = validate_step_count(n);
  const int done = e.ok() ? trainer.step(n) : 0;
  const Divergence d = e.ok() ? trainer.divergence() : Divergence{};
  return object_of("error", e, "done", done, "diverged", d.diverged, "step", d.step, "rolledBackTo", d.rolled_back_to,
                   "cause", d.cause, "message", d.message);
}

val teleport_js(Trainer& trainer, Ptr factors) {
  TeleportResult r;
  const Status e = trainer.teleport(f32(factors), r);
  return object_of("error", e, "lossBefore", r.loss_before, "lossAfter", r.loss_after, "gradNormBefore",
                   r.grad_norm_before, "gradNormAfter", r.grad_norm_after);
}

// r.models is a list "kind:activation[:symmetrize],…".
Status to_race(const val& r, const val& t, const val& d, Ptr x, Ptr y, int count, RaceOptions& o) {
  if (Status e = to_config(t, o.trainer); !e.ok()) return e;
  if (Status e = to_data(d, x, y, count, o.data); !e.ok()) return e;
  if (o.data.task == Task::user) o.user_data = build_dataset(o.data, f32(x), f32(y), count);
  const std::string models = get<std::string>(r, "models");
  if (Status e = parse_race_models(models, get<float>(t, "beta"), o.models); !e.ok()) return e;
  if (Status e = parse_width_rule(get<std::string>(r, "widthRule"), o.width_rule); !e.ok()) return e;
  read_fields(r, "steps", o.steps, "seeds", o.seeds, "budget", o.budget, "mlpHidden", o.mlp_hidden);
  return validate(o);
}

Status validate_race(const val& r, const val& t, const val& d, Ptr x, Ptr y, int count) {
  RaceOptions o;
  return to_race(r, t, d, x, y, count, o);
}

using RaceRun = Run<RaceResult>;
RaceRun* run_race_js(const val& r, const val& t, const val& d, Ptr x, Ptr y, int count) {
  RaceOptions o;
  return new RaceRun(to_race(r, t, d, x, y, count, o), [&] { return run_race(o); });
}

// Model i (null when there is none).
val model(const RaceRun& run, int i) {
  if (i < 0 || i >= run.size()) return val::null();
  const RaceResult& r = run.rows[i];
  return object_of("label", r.label, "kind", layer_kind_name(r.model.kind), "activation",
                   activation_name(r.model.activation.kind), "symmetrize", r.model.symmetrize, "firstDivergence",
                   r.first_divergence, "hidden", r.hidden, "parameters", static_cast<int>(r.parameters), "diverged",
                   r.diverged);
}

}  // namespace

// Laid out by hand: clang-format 14 would put each `+[]` lambda on a line of its own.
// clang-format off
EMSCRIPTEN_BINDINGS(gatelab_train) {
  constants({{"_maxDatasetPoints", max_dataset_points}, {"_maxGridSide", max_grid_side},
             {"_maxStepsPerCall", max_steps_per_call}, {"_maxTrainerUnits", max_trainer_units},
             {"_maxLearningRate", max_learning_rate}});

  function("_paDatasetSizes", &sizes);
  function("_paMakeDataset", &make_dataset_into);
  function("_paValidateTrainer", &validate_trainer);
  function("_paCreateTrainer", &create_trainer, allow_raw_pointers());
  class_<Trainer>("PaTrainer")
      .function("step", &step)
      .function("historySize", +[](const Trainer& t) { return static_cast<int>(t.history().size()); })
      .function("copyHistory",
                +[](const Trainer& t, int from, int n, Ptr out) { return copy_history(t, from, n, f32(out)); })
      .function("grid", +[](const Trainer& t, int g, float extent, Ptr out) { return t.grid(g, extent, f32(out)); })
      .function("setLearningRate", &Trainer::set_learning_rate)
      .function("layer", +[](const Trainer& t) { return new Layer(t.layer()); }, allow_raw_pointers())  // a copy
      .function("count", +[](const Trainer& t, int which) {
        return static_cast<int>((which == 0 ? t.data().y_train : t.data().y_test).size());
      })
      .function("getData", +[](const Trainer& t, Ptr xtr, Ptr ytr, Ptr xte, Ptr yte) {
        copy_dataset(t.data(), f32(xtr), f32(ytr), f32(xte), f32(yte));
      })
      .function("gradientNorm", &Trainer::gradient_norm)
      .function("teleport", &teleport_js)
      .function("balance", +[](const Trainer& t, Ptr out) { copy_out(t.balance(), out); })
      .function("balanceDrift", &Trainer::balance_drift)
      .function("probeOrbit", +[](const Trainer& t, Ptr factors) {
        OrbitProbe r;
        const Status e = t.probe_orbit(f32(factors), r);
        return object_of("error", e, "loss", r.loss, "gradNorm", r.grad_norm, "nextLoss", r.next_loss);
      })
      .function("bestFactors", +[](const Trainer& t, const std::string& goal, int points, float reach, Ptr out) {
        return t.best_factors(goal, points, reach, f32(out));
      })
      .function("stepsDone", &Trainer::steps_done)
      .function("parameterCount", +[](const Trainer& t) { return static_cast<int>(t.layer().parameter_count()); });

  function("_paValidateRace", &validate_race);
  function("_paRunRace", &run_race_js, allow_raw_pointers());
  class_<RaceRun>("PaRaceRun")
      .function("error", +[](const RaceRun& r) { return r.error; })
      .function("modelCount", &RaceRun::size)
      .function("recordCount", +[](const RaceRun& r) { return r.size() ? int(r.rows[0].curves.steps.size()) : 0; })
      .function("seedCount", +[](const RaceRun& r) { return r.size() ? int(r.rows[0].final_values[0].size()) : 0; })
      .function("model", &model)
      .function("copyCurves", +[](const RaceRun& r, int i, Ptr out) {  // copy_race_curves' layout
        if (i >= 0 && i < r.size()) copy_race_curves(r.rows[i], f32(out));
      });
}
// clang-format on
