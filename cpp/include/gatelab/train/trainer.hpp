// Trains one paper-A layer on a 2-D dataset (docs/MATH.md §T5): minibatches drawn by a
// seeded permutation each epoch (the train_count mod batch rows left over are skipped that
// epoch), a loss, an optimizer, train/test curves, a decision-boundary grid, and divergence
// handling — NaN or Infinity in the loss, the gradient or the parameters is caught at the
// step where it appears, the parameters and optimizer state roll back to the last step
// whose loss was finite, training stops, and a message names the likely cause (a gradient
// blow-up means the learning rate; an output overflow with tame gradients means the weight
// scale). Inputs are (x, y) plus, by default, a constant 1 so the bias-free layers of
// docs/MATH.md part A get a bias per unit. Deterministic: a seed gives the same curves bit for bit,
// natively and in wasm.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <string>
#include <vector>

#include "gatelab/train/dataset.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/train/loss.hpp"
#include "gatelab/train/optimizer.hpp"
#include "gatelab/base/rng.hpp"

namespace gatelab {

// Documented caps.
inline constexpr int max_trainer_units = 1024;  // hidden · rank
inline constexpr int max_steps_per_call = 100000;
inline constexpr std::size_t max_trainer_history = 1u << 20;  // records kept
inline constexpr int max_grid_side = 512;
inline constexpr float max_grid_extent = 1e4f;

struct TrainerOptions {
  LayerConfig layer;         // d_in and d_out are set by the trainer (2 or 3, and 1)
  bool bias_feature = true;  // append a constant 1 to every input
  LossKind loss = LossKind::cross_entropy;
  OptimizerOptions optimizer;
  int batch_size = 32;  // 0 or ≥ train points = full batch
  int eval_every = 1;   // record the curves every this many steps
};

struct TrainRecord {
  int step = 0;
  float train_loss = 0, test_loss = 0, train_accuracy = 0, test_accuracy = 0;
  float grad_norm = 0;  // ‖∇θ‖ of the last minibatch (0 at step 0)
};
inline constexpr int train_record_fields = 6;

// What a teleport did (Trainer::teleport): the training loss and ‖∇_θ L‖ on the whole training
// split before and after the move.
struct TeleportResult {
  double loss_before = 0, loss_after = 0, grad_norm_before = 0, grad_norm_after = 0;
};

// The layer at a point of its orbit, measured without moving there (Trainer::probe_orbit, docs/MATH.md
// §A21): the training loss, ‖∇_θ L‖, and the training loss after one plain gradient step θ − η∇L of the
// trainer's learning rate η on the whole training split (what a full-batch 'sgd' step would reach).
struct OrbitProbe {
  double loss = 0, grad_norm = 0, next_loss = 0;
};

// Which factors Trainer::best_factors looks for on its grid (docs/MATH.md §A21):
// gradient — the smallest ‖∇L‖ (separable per unit, so each unit's own best grid point);
// step — the lowest loss after the next plain gradient step (one sweep of unit-by-unit search).
enum class TeleportGoal { gradient, step };
inline constexpr int max_teleport_grid_points = 101;
inline constexpr float max_teleport_reach = 100.0f;

// The grid is c_i = reach^(2i/(points − 1) − 1), i = 0 … points − 1: log-spaced on [1/reach, reach]
// with c = 1 in the middle (points odd, 3 … max_teleport_grid_points; 1 < reach ≤ max_teleport_reach).
struct TeleportSearch {
  TeleportGoal goal = TeleportGoal::step;
  int points = 13;
  float reach = 4.0f;
};
// ok, or a status naming 'points' or 'reach'.
Status validate(const TeleportSearch& search);
// "gradient" or "step": the goal's name in the API.
const char* teleport_goal_name(TeleportGoal goal);
// "gradient" or "step", else invalid_value naming 'goal'.
Status parse_teleport_goal(const std::string& name, TeleportGoal& goal);

struct Divergence {
  bool diverged = false;
  int step = 0;            // the step whose loss, gradient or update was not finite
  int rolled_back_to = 0;  // the parameters now in the layer are those after this step
  std::string cause;       // "gradient" (learning rate) or "overflow" (weight/output scale)
  std::string message;
};

// The layer config the trainer builds (d_in = 2 + bias_feature, d_out = 1).
LayerConfig trainer_layer_config(const TrainerOptions& options);
// ok when valid, else a status naming the field.
Status validate(const TrainerOptions& options);

class Trainer {
 public:
  // Precondition: validate(options) is ok and data has ≥ 1 train and ≥ 1 test point.
  Trainer(const TrainerOptions& options, Dataset data);

  // Runs up to n minibatch steps, 1 ≤ n ≤ max_steps_per_call; returns how many completed
  // (fewer after a divergence, or when the history is full). A stopped trainer runs none.
  int step(int n);
  // A new learning rate, which also lifts a divergence stop (the rolled-back state resumes);
  // refused, changing nothing, unless validate_learning_rate(learning_rate) is ok.
  Status set_learning_rate(float learning_rate);

  const std::vector<TrainRecord>& history() const { return history_; }
  const Divergence& divergence() const { return divergence_; }
  int steps_done() const { return steps_done_; }
  const Layer& layer() const { return layer_; }
  const Dataset& data() const { return data_; }
  const TrainerOptions& options() const { return options_; }

  // out (g, g): the raw output at x_j = −e + 2e·j/(g−1), y_i = e − 2e·i/(g−1) (row 0 on
  // top, as an image). 2 ≤ g ≤ max_grid_side, 0 < e ≤ max_grid_extent, else validate_grid's
  // refusal and nothing written.
  Status grid(int g, float extent, float* out) const;
  // Losses and accuracies of the current parameters (grad_norm 0).
  TrainRecord evaluate() const;

  // The symmetry handles of docs/MATH.md §A14, §A21. gradient_norm: ‖∇_θ L‖ of the training
  // loss over the whole training split at the current parameters (in double; NaN when an
  // output is not finite); a full-batch step's record shows the same number as a float.
  double gradient_norm() const;
  // Moves the layer along its inverse-scaling orbit by one factor per hidden unit (the rules
  // and refusals of paper_a/orbit.hpp teleport; a refusal changes nothing). The function is
  // unchanged, so the loss is up to float rounding; the gradient is not. The optimizer's
  // moments are kept as they are, and the teleported parameters become the rollback point.
  Status teleport(const float* factors, TeleportResult& result);
  // Per hidden unit: ‖q_j‖² − ‖k_j‖² (mlp: ‖k_j‖² − ‖v_j‖²) of the current parameters.
  std::vector<double> balance() const;
  // The reported drift of docs/MATH.md §A14: the RMS over units of balance() now minus balance()
  // when the trainer was made (teleports included: they move the balance on purpose).
  double balance_drift() const;
  // The layer moved by factors (as teleport), measured but not kept (trainer_teleport_search.cpp);
  // teleport's refusals, nothing changed. next_loss is NaN when the gradient is not finite.
  Status probe_orbit(const float* factors, OrbitProbe& probe) const;
  // factors (config.hidden): the best grid point per unit for search.goal; every factor is 1 where no
  // grid point beats the current point, so teleport(factors) never makes the goal worse. Refusals:
  // teleport_problem, validate(search); factors untouched then.
  Status best_factors(const TeleportSearch& search, float* factors) const;
  // The same with the search given by its parts (goal by name: parse_teleport_goal), as JS passes it.
  Status best_factors(const std::string& goal, int points, float reach, float* factors) const;

 private:
  bool train_one_step();
  void next_batch();
  void fail(int step, bool gradient_blew_up, const char* what, double bad_value);
  // The training loss and ‖∇_θ L‖ of layer over the whole training split (trainer_orbit.cpp);
  // grads, when given, receives ∇_θ L (shaped like the parameters; incomplete when the norm is NaN).
  void full_training_gradient(const Layer& layer, double& loss, double& grad_norm, LayerParams* grads = nullptr) const;
  // The training loss of layer over the whole training split.
  double training_loss(const Layer& layer) const;

  TrainerOptions options_;
  Dataset data_;
  Layer layer_;
  Optimizer optimizer_;
  Pcg32 shuffle_;
  int d_in_;
  std::vector<float> train_features_, test_features_;  // (n, d_in)
  std::vector<int> order_;
  std::size_t cursor_ = 0;
  // Per-step scratch, sized once. batch_xp_/batch_yp_ point at the current batch: the
  // gathered minibatch in batch_x_/batch_y_, or the whole training split for a full batch.
  std::vector<float> batch_x_, batch_y_, batch_out_, grad_out_;
  const float* batch_xp_ = nullptr;
  const float* batch_yp_ = nullptr;
  LayerParams grads_;
  // The last state whose loss was verified finite, and which step it follows.
  LayerParams good_params_;
  OptimizerState good_optimizer_;
  int good_step_ = 0;
  int steps_done_ = 0;
  double first_grad_norm_ = 0, last_grad_norm_ = 0;
  std::vector<TrainRecord> history_;
  Divergence divergence_;
  std::vector<double> initial_balance_;  // balance() at construction, for balance_drift()
};

// True when every entry of q, k and v is finite.
bool all_finite(const LayerParams& params);

// The arguments of step(), grid() and set_learning_rate(): ok or a status naming the one out
// of range (1 ≤ n ≤ max_steps_per_call; 2 ≤ side ≤ max_grid_side, 0 < extent ≤ max_grid_extent;
// 0 < rate ≤ max_learning_rate).
Status validate_step_count(int n);
Status validate_grid(int side, float extent);
Status validate_learning_rate(float rate);

// History records [from, from + count) as rows of train_record_fields floats: step, train
// loss, test loss, train accuracy, test accuracy, gradient norm. ok or why not (out of range).
Status copy_history(const Trainer& trainer, int from, int count, float* out);

}  // namespace gatelab
