// The training loop (see trainer.hpp). One step: draw a minibatch, forward, loss, backward,
// check, update, and every eval_every steps evaluate both splits. The explanation of a
// divergence is in trainer_divergence.cpp.
#include "gatelab/train/trainer.hpp"

#include <algorithm>
#include <cmath>

namespace gatelab {
namespace {

// Chunk of rows per forward call when evaluating a whole split or a grid: bounds the
// layer's workspace whatever the split size.
constexpr int eval_chunk_rows = 1024;

std::vector<float> features_of(const xt::xtensor<float, 2>& x, int d_in) {
  const std::size_t n = x.shape()[0];
  std::vector<float> f(n * d_in, 1.0f);
  for (std::size_t i = 0; i < n; ++i) {
    f[i * d_in] = x(i, 0);
    f[i * d_in + 1] = x(i, 1);
  }
  return f;
}

void forward_chunked(const Layer& layer, const float* x, int rows, float* out) {
  const int d = layer.config().d_in;
  for (int start = 0; start < rows; start += eval_chunk_rows) {
    const int n = std::min(eval_chunk_rows, rows - start);
    layer.forward_unchecked(x + static_cast<std::size_t>(start) * d, n, out + start);
  }
}

LossValue split_loss(const Layer& layer, LossKind kind, const std::vector<float>& features,
                     const xt::xtensor<float, 1>& labels) {
  const int rows = static_cast<int>(labels.size());
  std::vector<float> out(rows);
  forward_chunked(layer, features.data(), rows, out.data());
  return evaluate_loss(kind, out.data(), labels.data(), rows, nullptr);
}

}  // namespace

bool all_finite(const LayerParams& p) {
  auto finite = [](const auto& t) { return std::all_of(t.begin(), t.end(), [](float v) { return std::isfinite(v); }); };
  return finite(p.q) && finite(p.k) && finite(p.v);
}

LayerConfig trainer_layer_config(const TrainerOptions& o) {
  LayerConfig c = o.layer;
  c.d_in = o.bias_feature ? 3 : 2;
  c.d_out = 1;
  return c;
}

Status validate(const TrainerOptions& o) {
  const LayerConfig c = trainer_layer_config(o);
  if (Status e = validate(c); !e.ok()) return e;
  const int units = c.hidden * (c.kind == LayerKind::mlp ? 1 : c.rank);
  if (units > max_trainer_units) {
    return out_of_range("hidden", "hidden · rank must be at most " + std::to_string(max_trainer_units) +
                                      " for training (got " + std::to_string(units) + ")");
  }
  if (Status e = validate(o.optimizer); !e.ok()) return e;
  if (o.batch_size < 0 || o.batch_size > max_dataset_points) {
    return out_of_range("batch_size",
                        "batch_size must be an integer from 0 (full batch) to " + std::to_string(max_dataset_points));
  }
  if (o.eval_every < 1 || o.eval_every > max_steps_per_call) {
    return out_of_range("eval_every", "eval_every must be an integer from 1 to " + std::to_string(max_steps_per_call));
  }
  return {};
}

Trainer::Trainer(const TrainerOptions& options, Dataset data)
    : options_(options),
      data_(std::move(data)),
      layer_(trainer_layer_config(options)),
      optimizer_(options.optimizer, layer_.parameter_count()),
      shuffle_(options.layer.seed, 0xba7c),
      d_in_(layer_.config().d_in) {
  train_features_ = features_of(data_.x_train, d_in_);
  test_features_ = features_of(data_.x_test, d_in_);
  const int n_train = static_cast<int>(data_.y_train.size());
  if (options_.batch_size <= 0 || options_.batch_size > n_train) options_.batch_size = n_train;
  order_.resize(n_train);
  for (int i = 0; i < n_train; ++i) order_[i] = i;
  cursor_ = order_.size();  // the first step shuffles
  if (options_.batch_size < n_train) {
    batch_x_.resize(static_cast<std::size_t>(options_.batch_size) * d_in_);
    batch_y_.resize(options_.batch_size);
    batch_xp_ = batch_x_.data();
    batch_yp_ = batch_y_.data();
  } else {  // full batch: every step sees the whole split in its own order
    batch_xp_ = train_features_.data();
    batch_yp_ = data_.y_train.data();
  }
  batch_out_.resize(options_.batch_size);
  grad_out_.resize(options_.batch_size);
  grads_ = zeros_like(layer_.params());
  good_params_ = layer_.params();
  good_optimizer_ = optimizer_.state();
  initial_balance_ = balance();
  const TrainRecord start = evaluate();
  if (std::isfinite(start.train_loss) && std::isfinite(start.test_loss)) {
    history_.push_back(start);
  } else {
    fail(0, false, "loss", std::isfinite(start.train_loss) ? start.test_loss : start.train_loss);
  }
}

TrainRecord Trainer::evaluate() const {
  const LossValue train = split_loss(layer_, options_.loss, train_features_, data_.y_train);
  const LossValue test = split_loss(layer_, options_.loss, test_features_, data_.y_test);
  return {steps_done_,
          static_cast<float>(train.loss),
          static_cast<float>(test.loss),
          static_cast<float>(train.accuracy),
          static_cast<float>(test.accuracy),
          0.0f};
}

// Fills batch_x_/batch_y_ with the next batch_size rows of the epoch's permutation; a new
// epoch (Fisher–Yates with the trainer's own stream) starts when too few rows remain. A full
// batch needs neither: the gradient is a sum over all rows, so it reads the split in place.
void Trainer::next_batch() {
  const std::size_t b = options_.batch_size;
  if (b == order_.size()) return;
  if (cursor_ + b > order_.size()) {
    for (std::size_t i = order_.size() - 1; i > 0; --i) {
      std::swap(order_[i], order_[shuffle_.below(static_cast<std::uint32_t>(i + 1))]);
    }
    cursor_ = 0;
  }
  for (std::size_t i = 0; i < b; ++i) {
    const int row = order_[cursor_ + i];
    std::copy_n(train_features_.data() + static_cast<std::size_t>(row) * d_in_, d_in_, batch_x_.data() + i * d_in_);
    batch_y_[i] = data_.y_train[row];
  }
  cursor_ += b;
}

// One step; false when it diverged (the state is then rolled back and the trainer stopped).
bool Trainer::train_one_step() {
  const int step = steps_done_ + 1;
  const int b = options_.batch_size;
  next_batch();
  const bool finite = layer_.train_pass(
      batch_xp_, b, batch_out_.data(), grad_out_.data(),
      [&](int start, int count, const float* out, float* grad) {
        return loss_gradient(options_.loss, out, batch_yp_ + start, count, grad, b);
      },
      grads_);
  if (!finite) {  // some output is not finite: the whole batch's loss value tells how
    layer_.forward_unchecked(batch_xp_, b, batch_out_.data());
    fail(step, false, "loss", evaluate_loss(options_.loss, batch_out_.data(), batch_yp_, b, nullptr).loss);
    return false;
  }
  // The current parameters gave a finite loss: they are the new rollback point.
  good_params_ = layer_.params();
  good_optimizer_ = optimizer_.state();
  good_step_ = steps_done_;

  // The optimizer measures the gradient norm and refuses a non-finite one (nothing changes).
  const bool stepped = optimizer_.step(layer_.params(), grads_).ok();
  const double grad_norm = optimizer_.last_gradient_norm();
  if (!stepped) {
    fail(step, true, "gradient", grad_norm);
    return false;
  }
  if (steps_done_ == 0) first_grad_norm_ = grad_norm;
  last_grad_norm_ = grad_norm;
  if (!all_finite(layer_.params())) {
    fail(step, false, "parameters", NAN);
    return false;
  }
  steps_done_ = step;
  if (step % options_.eval_every == 0) {
    TrainRecord r = evaluate();
    r.grad_norm = static_cast<float>(grad_norm);
    if (!std::isfinite(r.train_loss) || !std::isfinite(r.test_loss)) {
      fail(step, false, "loss", std::isfinite(r.train_loss) ? r.test_loss : r.train_loss);
      return false;
    }
    history_.push_back(r);
  }
  return true;
}

int Trainer::step(int n) {
  int done = 0;
  while (done < n && !divergence_.diverged && history_.size() < max_trainer_history) {
    if (!train_one_step()) break;
    ++done;
  }
  return done;
}

Status Trainer::set_learning_rate(float learning_rate) {
  if (Status e = validate_learning_rate(learning_rate); !e.ok()) return e;
  optimizer_.set_learning_rate(learning_rate);
  options_.optimizer.learning_rate = learning_rate;
  divergence_ = {};
  return {};
}

Status Trainer::grid(int g, float extent, float* out) const {
  if (Status e = validate_grid(g, extent); !e.ok()) return e;
  std::vector<float> row(static_cast<std::size_t>(g) * d_in_, 1.0f);
  const float step = 2.0f * extent / static_cast<float>(g - 1);
  for (int i = 0; i < g; ++i) {  // one image row per forward call
    for (int j = 0; j < g; ++j) {
      row[j * d_in_] = -extent + step * static_cast<float>(j);
      row[j * d_in_ + 1] = extent - step * static_cast<float>(i);
    }
    forward_chunked(layer_, row.data(), g, out + static_cast<std::size_t>(i) * g);
  }
  return {};
}

Status validate_step_count(int n) {
  if (n < 1 || n > max_steps_per_call)
    return out_of_range("n", "n must be an integer from 1 to " + std::to_string(max_steps_per_call));
  return {};
}

Status validate_grid(int side, float extent) {
  if (side < 2 || side > max_grid_side)
    return out_of_range("size", "size must be an integer from 2 to " + std::to_string(max_grid_side));
  if (!(extent > 0 && extent <= max_grid_extent))
    return out_of_range("extent", "extent must be a number in (0, 10000]");
  return {};
}

Status validate_learning_rate(float rate) {
  if (!(rate > 0 && rate <= max_learning_rate))
    return out_of_range("learning_rate", "learning_rate must be a number in (0, 1000000]");
  return {};
}

Status copy_history(const Trainer& t, int from, int count, float* out) {
  const int size = static_cast<int>(t.history().size());
  if (from < 0 || count < 0 || from > size || count > size - from)
    return out_of_range("", "history range out of bounds");
  for (int i = 0; i < count; ++i) {
    const TrainRecord& r = t.history()[from + i];
    const float row[train_record_fields] = {static_cast<float>(r.step), r.train_loss,    r.test_loss,
                                            r.train_accuracy,           r.test_accuracy, r.grad_norm};
    std::copy(row, row + train_record_fields, out + static_cast<std::size_t>(i) * train_record_fields);
  }
  return {};
}

}  // namespace gatelab
