// The weight tie between one-step CEM layers and standard layers (see tie.hpp).
#include "gatelab/model/tie.hpp"

#include <algorithm>
#include <cmath>

#include "gatelab/model/transformer.hpp"

namespace gatelab {

Status attention_tie_problem(const CemAttention& a) {
  if (!a.error().ok()) return a.error();
  const auto& c = a.config();
  if (c.steps != 1) {
    return unsupported(
        "", "only one step (steps = 1) is one standard attention layer (steps = " + std::to_string(c.steps) + ")");
  }
  if (c.diagonal != CemDiagonal::none)
    return unsupported("", "a diagonal term has no standard-attention counterpart (diagonal must be 'none')");
  if (c.precond != CemPrecond::none)
    return unsupported("", "a preconditioner has no standard-attention counterpart (precond must be 'none')");
  return {};
}

Status mlp_tie_problem(const CemMlp& m) {
  if (!m.error().ok()) return m.error();
  const auto& c = m.config();
  if (c.steps != 1)
    return unsupported("", "only one step (steps = 1) is one gated MLP (steps = " + std::to_string(c.steps) + ")");
  if (c.precond != CemPrecond::none)
    return unsupported("", "a preconditioner has no gated-MLP counterpart (precond must be 'none')");
  return {};
}

CemStdAttention standard_from_tied(const CemAttention& a) {
  const auto& c = a.config();
  CemStdAttention s(CemStdAttentionConfig{c.d, c.heads, c.beta, c.seed});
  const auto& wq = a.params().wq;
  s.params().wq = wq;
  s.params().wk = a.params().wk;
  s.params().wv = a.params().wk;
  auto& wo = s.params().wo;
  const float eta = c.eta;
  for (std::size_t r = 0; r < wo.shape(0); ++r) {
    for (std::size_t k = 0; k < wo.shape(1); ++k) wo(r, k) = eta * wq(k, r);
  }
  return s;
}

LayerConfig standard_mlp_config(int d, int hidden, ActivationSpec activation, std::uint64_t seed) {
  CemTransformerConfig slot;
  slot.d = d;
  slot.std_mlp.hidden = hidden;
  slot.std_mlp.activation = activation;
  LayerConfig c = cem_block_std_mlp_config(slot, 0);
  c.seed = seed;
  return c;
}

Layer standard_mlp(int d, int hidden, ActivationSpec activation, std::uint64_t seed) {
  Layer layer(standard_mlp_config(d, hidden, activation, seed));
  cem_init_mlp_slot(layer);
  return layer;
}

Status validate_standard_mlp(int d, int hidden, ActivationSpec activation) {
  if (Status e = cem_validate_gated_mlp(d, hidden, activation); !e.ok()) return e;
  return validate(standard_mlp_config(d, hidden, activation, 0));
}

Layer gated_from_tied(const CemMlp& m) {
  const auto& c = m.config();
  Layer g(standard_mlp_config(c.d, c.hidden, c.activation, c.seed));
  const auto& w = m.params().w;
  const auto& u = m.params().u;
  auto& p = g.params();
  const float eta = c.eta;
  for (std::size_t k = 0; k < w.shape(0); ++k) {
    for (std::size_t e = 0; e < w.shape(1); ++e) {
      p.q(k, 0, e) = w(k, e);
      p.k(k, 0, e) = u(k, e);
      p.v(k, e) = eta * w(k, e);
    }
  }
  return g;
}

double attention_tie_gap(const CemAttention& a, const CemStdAttention& s) {
  const auto& wq = a.params().wq;
  const auto& p = s.params();
  const float eta = a.step_size();
  double gap = 0;
  for (std::size_t i = 0; i < wq.size(); ++i) {
    gap = std::max({gap, std::fabs(double(p.wq.data()[i]) - wq.data()[i]),
                    std::fabs(double(p.wk.data()[i]) - a.params().wk.data()[i]),
                    std::fabs(double(p.wv.data()[i]) - a.params().wk.data()[i])});
  }
  for (std::size_t r = 0; r < p.wo.shape(0); ++r) {
    for (std::size_t k = 0; k < p.wo.shape(1); ++k) {
      gap = std::max(gap, std::fabs(double(p.wo(r, k)) - double(eta * wq(k, r))));
    }
  }
  return gap;
}

double mlp_tie_gap(const CemMlp& m, const Layer& g) {
  const auto& w = m.params().w;
  const auto& u = m.params().u;
  const auto& p = g.params();
  const float eta = m.step_size();
  double gap = 0;
  for (std::size_t k = 0; k < w.shape(0); ++k) {
    for (std::size_t e = 0; e < w.shape(1); ++e) {
      gap = std::max({gap, std::fabs(double(p.q(k, 0, e)) - w(k, e)), std::fabs(double(p.k(k, 0, e)) - u(k, e)),
                      std::fabs(double(p.v(k, e)) - double(eta * w(k, e)))});
    }
  }
  return gap;
}

}  // namespace gatelab
