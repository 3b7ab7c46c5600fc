// What the trainer does when a step produces NaN or Infinity: measure what blew up while the
// bad state is still there, roll back to the last state whose loss was finite, stop, and
// write a message a reader can act on. The diagnosis: if the gradient norm became
// non-finite or grew a thousandfold since step 1, the learning rate is too large; if the
// gradients stayed tame but the output overflowed, the update pushed the weights (whose
// output grows like a power of their scale) too far — again a learning-rate cut, phrased
// around the weight scale, plus an input-scale hint for large user coordinates.
#include <cmath>
#include <cstdio>
#include <string>

#include "gatelab/train/trainer.hpp"

namespace gatelab {
namespace {

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

double max_abs(const float* v, std::size_t n) {
  double m = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = std::fabs(static_cast<double>(v[i]));
    if (!(a <= m)) m = a;  // NaN wins, so a NaN shows up in the message
  }
  return m;
}

double max_abs(const LayerParams& p) {
  const double a = max_abs(p.q.data(), p.q.size()), b = max_abs(p.k.data(), p.k.size()),
               c = max_abs(p.v.data(), p.v.size());
  return std::isnan(a) || std::isnan(b) || std::isnan(c) ? NAN : std::fmax(a, std::fmax(b, c));
}

}  // namespace

void Trainer::fail(int step, bool gradient_blew_up, const char* what, double bad_value) {
  // Facts about the bad state, before it is thrown away.
  const double max_weight = max_abs(layer_.params());
  layer_.forward_unchecked(batch_xp_, options_.batch_size, batch_out_.data());
  const double max_output = max_abs(batch_out_.data(), batch_out_.size());
  const double max_input = std::fmax(max_abs(train_features_.data(), train_features_.size()),
                                     max_abs(test_features_.data(), test_features_.size()));

  layer_.params() = good_params_;
  optimizer_.restore(good_optimizer_);
  steps_done_ = good_step_;
  while (!history_.empty() && history_.back().step > good_step_) history_.pop_back();

  const float lr = options_.optimizer.learning_rate;
  const bool exploded = gradient_blew_up || (first_grad_norm_ > 0 && last_grad_norm_ > 1e3 * first_grad_norm_);
  const std::string value = std::isnan(bad_value) ? "NaN" : "Infinity";
  std::string m;
  if (step == 0) {
    m = "the initial loss is " + value + " before any training: the inputs reach |x| = " + number(max_input) +
        "; rescale them to about [-1, 1]";
  } else if (exploded) {
    m = std::string(what) + " became " + value + " at step " + std::to_string(step) + ": the gradient norm grew from " +
        number(first_grad_norm_) + " at step 1 to " + number(gradient_blew_up ? bad_value : last_grad_norm_) +
        ", so the learning rate " + number(lr) + " is too large for this model; try <= " + number(lr / 10);
  } else {
    m = std::string(what) + " became " + value + " at step " + std::to_string(step) +
        ": the layer's output overflowed (|output| reached " + number(max_output) +
        ", weights up to |w| = " + number(max_weight) + ") while the gradient norm stayed near " +
        number(last_grad_norm_) + "; ";
    m += options_.optimizer.kind == OptimizerKind::adam
             ? "Adam moves every weight by up to the learning rate (" + number(lr) + ") per step, and that"
             : "steps of learning rate (" + number(lr) + ") x gradient";
    m += " pushed the weights too far; try a learning rate <= " + number(lr / 10);
    if (options_.layer.kind != LayerKind::mlp) {
      m += " (a " + std::string(layer_kind_name(options_.layer.kind)) +
           " layer multiplies two projections by V, so its output grows like the cube of the weight scale)";
    }
    if (max_input > 100) m += "; the inputs also reach |x| = " + number(max_input) + ": rescale them to about [-1, 1]";
  }
  if (step > 0) m += ". Training stopped; the parameters were rolled back to step " + std::to_string(good_step_) + ".";
  divergence_ = {true, step, good_step_, exploded ? "gradient" : "overflow", m};
}

}  // namespace gatelab
