// One harness for every module of the library (the paper-A layer kinds, CEM attention, the CEM
// MLP, the standard attention and the gated MLP of the transformer's slot): each is checked the
// same way through the face they share (Status forward/backward, error(), parameter views):
//  - the float module's forward against the double module's with the same parameters;
//  - the double module's backward against central differences of Σ weights ⊙ forward;
//  - the parameter views' round trip (read_flat, write_flat) and refusal of a non-finite value;
//  - Status (code, field) on bad input: a row count out of range, a null buffer, a refused config.
// The per-module tests keep what is particular to each (the energy descent, the reference
// formulas, the golden hashes).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gatelab/cem/attention.hpp"
#include "gatelab/cem/mlp.hpp"
#include "gatelab/model/baselines.hpp"
#include "gatelab/model/tie.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "support/cem_layer_checks.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

namespace gatelab {
namespace {

// What the harness needs to know of a module besides its type: its input and output widths, the
// field its row count is named by, and the finite-difference step and tolerance its activation allows.
struct Shape {
  int d_in = 0;
  int d_out = 0;
  const char* rows_field = "n";
  double eps = 1e-3;
  double tol = 3e-3;
};

template <class M64, class M32, class Config>
void check_module(const Config& config, const Shape& s) {
  const int n = 4;
  M64 module(config);
  M32 single(config);
  ASSERT_OK(module.error());
  ASSERT_OK(single.error());
  ASSERT_EQ(count_parameters(module.parameters()), module.parameter_count());
  cemtest::randomize(module.parameters(), 21, 0.5);

  // Forward: float against double, the same parameters.
  std::vector<double> h = cemtest::randn<double>(std::size_t(n) * s.d_in, 5);
  const std::vector<float> hf(h.begin(), h.end());
  std::vector<double> out(std::size_t(n) * s.d_out);
  std::vector<float> outf(out.size());
  ASSERT_OK(copy_parameters(single.parameters(), module.parameters()));
  ASSERT_OK(module.forward(h.data(), n, out.data()));
  ASSERT_OK(single.forward(hf.data(), n, outf.data()));
  EXPECT_LE(cemtest::rel_error(outf, out), 1e-4) << "forward, float against double";

  // Backward: against central differences (double), then the float backward's dL/dh.
  const std::vector<double> weights = cemtest::randn<double>(out.size(), 7);
  std::vector<double> grad_h;
  ASSERT_NO_FATAL_FAILURE(
      cemtest::expect_backward_matches_finite_differences(module, h, n, weights, s.eps, s.tol, grad_h));
  ASSERT_NO_FATAL_FAILURE(cemtest::expect_float_backward_agrees(single, module, h, n, weights, grad_h));

  // Parameter views: a flat vector written is read back bit for bit; a NaN is refused, nothing changed.
  const auto views = single.parameters();
  std::vector<float> flat(count_parameters(views)), back(flat.size());
  for (std::size_t i = 0; i < flat.size(); ++i) flat[i] = 0.25f * float(i % 7) - 0.5f;
  ASSERT_OK(write_flat(views, flat.data()));
  read_flat(views, back.data());
  EXPECT_EQ(back, flat);
  std::vector<float> bad(flat);
  bad.back() = NAN;
  EXPECT_ERROR(write_flat(views, bad.data()), ErrorCode::not_finite, "");
  read_flat(views, back.data());
  EXPECT_EQ(back, flat);

  // Status on bad input: (code, field), the module usable afterwards.
  EXPECT_ERROR(single.forward(hf.data(), 0, outf.data()), ErrorCode::out_of_range, s.rows_field);
  EXPECT_ERROR(single.forward(hf.data(), -3, outf.data()), ErrorCode::out_of_range, s.rows_field);
  EXPECT_ERROR(single.forward(nullptr, n, outf.data()), ErrorCode::invalid_value, "");
  EXPECT_ERROR(single.forward(hf.data(), n, nullptr), ErrorCode::invalid_value, "");
  std::vector<float> wf(weights.begin(), weights.end()), grad_hf(hf.size());
  EXPECT_ERROR(single.backward(hf.data(), 0, wf.data(), grad_hf.data()), ErrorCode::out_of_range, s.rows_field);
  EXPECT_ERROR(single.backward(hf.data(), n, nullptr, grad_hf.data()), ErrorCode::invalid_value, "");
  EXPECT_OK(single.forward(hf.data(), n, outf.data()));
}

// A refused config gives a module whose error() names the field and whose calls return it.
template <class M, class Config>
void check_refused(const Config& config, ErrorCode code, const char* field, int d_in) {
  M module(config);
  EXPECT_ERROR(module.error(), code, field);
  std::vector<float> h(std::size_t(2) * d_in), out(h.size() * 4);
  EXPECT_EQ(module.forward(h.data(), 2, out.data()), module.error());
  EXPECT_EQ(module.backward(h.data(), 2, out.data(), nullptr), module.error());
}

LayerConfig paper_a(LayerKind kind, Activation act, int rank, float symmetrize = 0.0f) {
  LayerConfig c;
  c.kind = kind;
  c.activation = {act, 1.0f};
  c.d_in = 3;
  c.hidden = 4;
  c.d_out = 2;
  c.rank = rank;
  c.seed = 11;
  c.symmetrize = symmetrize;
  return c;
}

TEST(Modules, PaperALayerKinds) {
  for (LayerKind kind : {LayerKind::mlp, LayerKind::symmetric, LayerKind::gated, LayerKind::bigated}) {
    SCOPED_TRACE(layer_kind_name(kind));
    const LayerConfig c = paper_a(kind, Activation::gelu, 2);
    check_module<Layer64, Layer>(c, {c.d_in, c.d_out, "rows"});
  }
  const LayerConfig sym = paper_a(LayerKind::gated, Activation::silu, 1, 0.5f);
  check_module<Layer64, Layer>(sym, {sym.d_in, sym.d_out, "rows"});
  LayerConfig refused = paper_a(LayerKind::gated, Activation::gelu, 1);
  refused.hidden = 0;
  check_refused<Layer>(refused, ErrorCode::out_of_range, "hidden", refused.d_in);
}

TEST(Modules, CemAttention) {
  CemAttentionConfig c;
  c.d = 4;
  c.heads = 2;
  c.steps = 2;
  c.eta = 0.5f;
  c.diagonal = CemDiagonal::shared;
  c.seed = 3;
  check_module<CemAttention64, CemAttention>(c, {c.d, c.d, "n", 1e-6, 1e-6});
  c.heads = 3;
  check_refused<CemAttention>(c, ErrorCode::invalid_value, "heads", c.d);
}

TEST(Modules, CemMlp) {
  CemMlpConfig c;
  c.d = 4;
  c.hidden = 6;
  c.steps = 2;
  c.eta = 0.5f;
  c.seed = 4;
  check_module<CemMlp64, CemMlp>(c, {c.d, c.d});
  c.steps = 0;
  check_refused<CemMlp>(c, ErrorCode::out_of_range, "steps", c.d);
}

TEST(Modules, StandardAttention) {
  const CemStdAttentionConfig c{4, 2, 0.0f, 5};
  check_module<CemStdAttention64, CemStdAttention>(c, {c.d, c.d, "n", 1e-6, 1e-6});
  check_refused<CemStdAttention>(CemStdAttentionConfig{9, 2, 0.0f, 0}, ErrorCode::invalid_value, "heads", 9);
}

TEST(Modules, GatedMlpOfTheTransformerSlot) {
  const LayerConfig c = standard_mlp_config(4, 6, {Activation::silu, 1.0f}, 6);
  check_module<Layer64, Layer>(c, {c.d_in, c.d_out, "rows"});
}

}  // namespace
}  // namespace gatelab
