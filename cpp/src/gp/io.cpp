// The float32 boundary of the GP area (gp/io.hpp): float buffers in, the double core, floats out.
#include "gatelab/gp/io.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "base/round_out.hpp"

namespace gatelab {

namespace {

Status check_sequence(const float* x, const float* y) {
  return x && y ? Status{} : invalid_value("", "the sequence arrays must not be null");
}

// n floats from p as doubles: a sequence's x (n·dx) and y (n), or m queries (m·dx).
std::vector<double> doubles(const float* p, std::size_t n) { return std::vector<double>(p, p + n); }
GpSequence sequence(const GpDataConfig& c, const float* x, const float* y) {
  return {doubles(x, std::size_t(c.length) * c.dx), doubles(y, c.length)};
}

}  // namespace

Status gp_sample_into(const GpDataConfig& c, int count, std::uint64_t seed, float* x, float* y) {
  if (Status e = validate(c); !e.ok()) return e;
  if (Status e = gp_validate_count(count); !e.ok()) return e;
  const std::vector<GpSequence> seqs = gp_sample_set(c, count, seed);
  for (int i = 0; i < count; ++i) {
    round_out(seqs[i].x, x + std::size_t(i) * c.length * c.dx);
    round_out(seqs[i].y, y + std::size_t(i) * c.length);
  }
  return {};
}

Status gp_posterior_into(const GpDataConfig& c, const float* x, const float* y, float* mean, float* var,
                         float* context_mean) {
  if (Status e = validate(c); !e.ok()) return e;
  if (Status e = check_sequence(x, y); !e.ok()) return e;
  const GpSequence s = sequence(c, x, y);
  const GpPosterior p = gp_posterior(c, s);
  round_out(p.mean, mean);
  round_out(p.var, var);
  round_out(gp_context_mean(s), context_mean);
  return {};
}

Status gp_posterior_at_into(const GpDataConfig& c, const float* x, const float* y, int context, const float* xq, int m,
                            float* mean, float* var) {
  if (Status e = validate(c); !e.ok()) return e;
  if (Status e = check_sequence(x, y); !e.ok()) return e;
  if (Status e = gp_validate_context(c, context); !e.ok()) return e;
  if (Status e = gp_validate_queries(xq, m); !e.ok()) return e;
  const GpPosterior p = gp_posterior_at(c, sequence(c, x, y), context, doubles(xq, std::size_t(m) * c.dx).data(), m);
  round_out(p.mean, mean);
  round_out(p.var, var);
  return {};
}

Status gp_predict_into(GpSession& s, const float* x, const float* y, float* out) {
  if (Status e = check_sequence(x, y); !e.ok()) return e;
  const GpDataConfig& c = s.config().data;
  return through_doubles(c.length, out, [&](double* pred) { return s.predict(sequence(c, x, y), pred); });
}

Status gp_predict_at_into(GpSession& s, const float* x, const float* y, int context, const float* xq, int m,
                          float* out) {
  if (Status e = check_sequence(x, y); !e.ok()) return e;
  if (Status e = gp_validate_queries(xq, m); !e.ok()) return e;
  const GpDataConfig& c = s.config().data;
  const std::vector<double> q = doubles(xq, std::size_t(m) * c.dx);
  return through_doubles(m, out,
                         [&](double* pred) { return s.predict_at(sequence(c, x, y), context, q.data(), m, pred); });
}

Status gp_losses_into(const GpSession& s, int from, int count, float* out) {
  return through_doubles(std::clamp(count, 0, s.steps_done()), out,
                         [&](double* losses) { return s.copy_losses(from, count, losses); });
}

Status gp_train_call(GpSession& s, int steps) {
  if (Status e = gp_validate_steps_per_call(steps); !e.ok()) return e;
  return s.train(steps);
}

}  // namespace gatelab
