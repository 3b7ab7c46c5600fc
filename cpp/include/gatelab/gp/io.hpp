// The float32 boundary: what web/lib exchanges with the GP area (through cpp/bindings/bind_gp.cpp).
// Sequences, queries and results are float32 buffers; the core computes in double (data.hpp,
// session.hpp), reads each float as a double and rounds each result to float on the way out,
// so these calls give the bits of the double calls they wrap. n = config.length, dx = config.dx.
// Each call checks its arguments in the order its comment lists, returns the first problem and
// then writes nothing. Output buffers are the caller's, at the shapes given, and not checked
// (web/lib/core/heap.js allocates them), except where the session's own call checks them.
#pragma once

#include <cstdint>

#include "gatelab/base/status.hpp"
#include "gatelab/gp/data.hpp"
#include "gatelab/gp/session.hpp"

namespace gatelab {

// count sequences of gp_sample_set(config, count, seed): sequence i's x (n·dx) at x + i·n·dx and
// its y (n) at y + i·n, so x holds count·n·dx floats and y count·n. Checks the config, then count
// (gp_validate_count).
Status gp_sample_into(const GpDataConfig& config, int count, std::uint64_t seed, float* x, float* y);

// The posterior of one sequence x (n·dx), y (n): mean (n) and var (n) of every y_t given the
// pairs before t (gp_posterior), and context_mean (n), the running mean of the earlier y's
// (gp_context_mean). Checks the config, then that x and y are not null.
Status gp_posterior_into(const GpDataConfig& config, const float* x, const float* y, float* mean, float* var,
                         float* context_mean);

// The posterior at m queries xq (m·dx) given the first `context` pairs of x (n·dx), y (n):
// mean (m) and var (m) (gp_posterior_at). Checks the config, that x and y are not null, context
// (gp_validate_context), then xq and m (gp_validate_queries).
Status gp_posterior_at_into(const GpDataConfig& config, const float* x, const float* y, int context, const float* xq,
                            int m, float* mean, float* var);

// The session's predictions of y_t at every position of x (n·dx), y (n) into out (n). Checks
// that x and y are not null, then what GpSession::predict checks (its error, out not null).
Status gp_predict_into(GpSession& session, const float* x, const float* y, float* out);

// The session's predictions at m queries xq (m·dx), each after the first `context` pairs of
// x (n·dx), y (n), into out (m). Checks that x and y are not null, xq and m
// (gp_validate_queries), then what GpSession::predict_at checks (its error, out, context).
Status gp_predict_at_into(GpSession& session, const float* x, const float* y, int context, const float* xq, int m,
                          float* out);

// when the range is not within the steps done, then invalid_value for a null out (GpSession::copy_losses).
// when the range is not within the steps done (GpSession::copy_losses).
Status gp_losses_into(const GpSession& session, int from, int count, float* out);

// One call's training: steps checked against gp_max_steps_per_call (gp_validate_steps_per_call,
// field "n"), then GpSession::train(steps).
Status gp_train_call(GpSession& session, int steps);

}  // namespace gatelab
