// GpSession: one transformer learning in-context GP regression (see gp.hpp) — config
// checks, the learning-rate schedule, the training step and the predictions.
#include <algorithm>
#include <cmath>

#include "gatelab/gp/session.hpp"
#include "gatelab/train/loss.hpp"

namespace gatelab {

Status gp_validate_steps_per_call(int steps) {
  if (steps < 1 || steps > gp_max_steps_per_call) {
    return out_of_range("n", "n must be an integer from 1 to " + std::to_string(gp_max_steps_per_call));
  }
  return {};
}

namespace {

// The data and training fields.
Status validate_training(const GpTrainConfig& c) {
  if (Status e = validate(c.data); !e.ok()) return e.within("data");
  if (c.batch < 1 || c.batch > gp_max_batch)
    return out_of_range(
        "batch", "batch must be in 1…" + std::to_string(gp_max_batch) + " (batch = " + std::to_string(c.batch) + ")");
  if (!(c.lr > 0.0f && c.lr <= 1.0f)) return out_of_range("lr", "lr must be in (0, 1]");
  if (!(c.weight_decay >= 0.0f && c.weight_decay <= 1.0f))
    return out_of_range("weight_decay", "weight_decay must be in [0, 1]");
  if (!(c.clip_norm >= 0.0f && c.clip_norm <= max_clip_norm))
    return out_of_range("clip_norm", "clip_norm must be in [0, 1e6]");
  if (c.warmup < 0) return out_of_range("warmup", "warmup must not be negative");
  if (c.decay_steps < 0) return out_of_range("decay_steps", "decay_steps must not be negative");
  return {};
}

// The model with the data's token width in and one number out.
CemTransformerConfig shaped(const GpDataConfig& data, CemTransformerConfig model) {
  model.d_in = gp_token_width(data);
  model.d_out = 1;
  return model;
}

}  // namespace

Status validate(const GpTrainConfig& c, const CemTransformerConfig& model) {
  if (Status e = validate_training(c); !e.ok()) return e;
  return validate(shaped(c.data, model));
}

Status validate(const GpTrainConfig& c, const GpModelSpec& spec) {
  if (Status e = validate_training(c); !e.ok()) return e;
  if (spec.steps < 1 || spec.steps > cem_max_steps) {
    return out_of_range("steps", "steps must be in 1…" + std::to_string(cem_max_steps) +
                                     " (steps = " + std::to_string(spec.steps) + ")");
  }
  if (spec.mlp_steps < 0 || spec.mlp_steps > cem_max_steps) {
    return out_of_range("mlp_steps", "mlp_steps must be 0 (as steps) or in 1…" + std::to_string(cem_max_steps) +
                                         " (mlp_steps = " + std::to_string(spec.mlp_steps) + ")");
  }
  if (!(spec.eta >= 0.0f && spec.eta <= cem_max_eta)) {
    return out_of_range("eta", "eta must be 0 (the config's) or in (0, " + std::to_string(cem_max_eta) + "]");
  }
  return validate(gp_model_config(c, spec));
}

CemTransformerConfig gp_model_config(const GpTrainConfig& c, const GpModelSpec& spec) {
  CemTransformerConfig m;
  m.family = spec.family;
  m.d_in = gp_token_width(c.data);
  m.d = c.d;
  m.d_out = 1;
  m.layers = c.layers;
  cem_set_heads(m, c.heads);
  cem_set_hidden(m, c.hidden);
  m.attention.diagonal = spec.diagonal;
  cem_set_shared_descent(m, spec.steps, spec.eta > 0.0f ? spec.eta : c.eta, spec.precond, spec.precond_rank);
  if (spec.mlp_steps > 0) m.mlp.steps = spec.mlp_steps;
  cem_set_learn_eta(m, spec.learn_eta);
  m.seed = c.seed;
  return m;
}

OptimizerOptions gp_optimizer_options(const GpTrainConfig& c) {
  OptimizerOptions o;
  o.kind = OptimizerKind::adamw;
  o.learning_rate = c.lr;
  o.weight_decay = c.weight_decay;
  o.clip_norm = c.clip_norm;
  return o;
}

float gp_learning_rate(const GpTrainConfig& c, int step) { return scheduled_lr(c.lr, c.warmup, c.decay_steps, step); }

GpSession::GpSession(const GpTrainConfig& config, const GpModelSpec& spec)
    : GpSession(config, gp_model_config(config, spec)) {
  error_ = validate(config, spec);  // the spec's own fields first (mlp_steps, eta 0 = the config's), then the model's
}

GpSession::GpSession(const GpTrainConfig& config, const CemTransformerConfig& model)
    : config_(config),
      error_(validate(config, model)),
      model_(shaped(config.data, model)),
      optimizer_(gp_optimizer_options(config)),
      stream_(config.seed, 11u) {}

Status GpSession::train(int steps) {
  if (!error_.ok()) return error_;
  if (steps < 0 || steps > 1000000) return out_of_range("steps", "steps must be in 0…1000000");
  if (diverged_) return invalid_state("", "training diverged at step " + std::to_string(steps_done()));
  const int n = config_.data.length, width = gp_token_width(config_.data), batch = config_.batch;
  tokens_.resize(std::size_t(n) * width);
  out_.resize(n);
  target_.resize(n);
  grad_.resize(n);
  for (int s = 0; s < steps; ++s) {
    model_.zero_grad();
    double total = 0;
    for (int b = 0; b < batch; ++b) {
      const GpSequence seq = gp_sample(config_.data, stream_);
      gp_tokens(config_.data, seq, tokens_.data());
      for (int t = 0; t < n; ++t) target_[t] = static_cast<float>(seq.y[t]);
      if (Status e = model_.forward(tokens_.data(), n, out_.data()); !e.ok()) return e;
      double loss = 0;
      if (Status e = mse_loss(out_.data(), target_.data(), n, &loss, grad_.data()); !e.ok()) return e;
      total += loss / batch;
      for (auto& g : grad_) g /= static_cast<float>(batch);
      if (Status e = model_.backward(grad_.data(), nullptr); !e.ok()) return e;
    }
    losses_.push_back(total);
    if (!std::isfinite(total)) {
      diverged_ = true;
      return {};
    }
    optimizer_.set_learning_rate(gp_learning_rate(config_, steps_done() - 1));
    if (Status e = optimizer_.step(model_.parameters()); !e.ok()) return e;
  }
  return {};
}

Status GpSession::set_eval_steps(int steps) {
  if (!error_.ok()) return error_;
  if (steps == 0) {
    eval_steps_ = 0;
    return {};
  }
  if (model_.config().family != CemFamily::cem)
    return unsupported("", "eval_steps needs a cem model (the standard blocks take no steps)");
  if (steps < 0 || steps > cem_max_steps) {
    return out_of_range("eval_steps", "eval_steps must be 0 (as trained) or in 1…" + std::to_string(cem_max_steps) +
                                          " (eval_steps = " + std::to_string(steps) + ")");
  }
  eval_steps_ = steps;
  return {};
}

Status GpSession::step_sizes(float* out) {
  if (!error_.ok()) return error_;
  if (model_.config().family != CemFamily::cem)
    return unsupported("", "step sizes need a cem model (the standard blocks take no steps)");
  for (int l = 0; l < model_.config().layers; ++l) {
    out[2 * l] = model_.cem_attention(l)->step_size();
    out[2 * l + 1] = model_.cem_mlp(l)->step_size();
  }
  return {};
}

Status GpSession::forward_eval(int rows) {
  if (eval_steps_ == 0) return model_.forward(tokens_.data(), rows, out_.data());
  const int attn = model_.config().attention.steps, mlp = model_.config().mlp.steps;
  if (Status e = model_.set_steps(eval_steps_, eval_steps_); !e.ok()) return e;
  Status e = model_.forward(tokens_.data(), rows, out_.data());
  (void)model_.set_steps(attn, mlp);  // restores counts the model accepted before, so it cannot fail
  return e;
}

Status GpSession::copy_losses(int from, int count, double* out) const {
  const int done = steps_done();
  if (from < 0 || count < 0 || from > done || count > done - from) {
    return out_of_range("", "the loss range [" + std::to_string(from) + ", " + std::to_string(from) + " + " +
                                std::to_string(count) + ") is not within the " + std::to_string(done) + " steps done");
  }
  if (out == nullptr && count > 0) return invalid_value("out", "out must not be null");
  std::copy_n(losses_.begin() + from, count, out);
  return {};
}

Status GpSession::predict(const GpSequence& seq, double* out) {
  if (!error_.ok()) return error_;
  const int n = config_.data.length, width = gp_token_width(config_.data);
  if (out == nullptr) return invalid_value("out", "out must not be null");
  if (int(seq.y.size()) != n || int(seq.x.size()) != n * config_.data.dx) {
    return out_of_range(
        "", "the sequence must hold " + std::to_string(n) + " pairs of dx = " + std::to_string(config_.data.dx));
  }
  tokens_.resize(std::size_t(n) * width);
  out_.resize(n);
  gp_tokens(config_.data, seq, tokens_.data());
  if (Status e = forward_eval(n); !e.ok()) return e;
  for (int t = 0; t < n; ++t) out[t] = out_[t];
  return {};
}

Status GpSession::predict_at(const GpSequence& seq, int context, const double* xq, int m, double* out) {
  if (!error_.ok()) return error_;
  const int n = config_.data.length, dx = config_.data.dx, width = gp_token_width(config_.data);
  if (out == nullptr || xq == nullptr) return invalid_value("", "xq and out must not be null");
  if (int(seq.y.size()) != n || int(seq.x.size()) != n * dx)
    return invalid_value("", "the sequence does not match the session");
  if (context < 0 || context >= n) return out_of_range("context", "context must be in 0…" + std::to_string(n - 1));
  if (m < 0 || m > 4096) return out_of_range("m", "m must be in 0…4096");
  const int rows = context + 1;
  tokens_.resize(std::size_t(n) * width);
  out_.resize(n);
  gp_tokens(config_.data, seq, tokens_.data());
  // The causal model's output at position `context` depends on tokens 0 … context only, so
  // replacing x_context by a query asks for the prediction at that query.
  for (int q = 0; q < m; ++q) {
    for (int k = 0; k < dx; ++k)
      tokens_[std::size_t(context) * width + k] = static_cast<float>(xq[std::size_t(q) * dx + k]);
    if (Status e = forward_eval(rows); !e.ok()) return e;
    out[q] = out_[context];
  }
  return {};
}

}  // namespace gatelab
