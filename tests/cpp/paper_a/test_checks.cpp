// The argument checks of the paper-A API that the bindings call before the core runs: row
// counts, activation names with their beta, the symmetry probes' preconditions and the curve
// ranges. Each names the argument it refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "gatelab/paper_a/layer.hpp"
#include "gatelab/paper_a/symmetry.hpp"

using namespace gatelab;

TEST(Checks, RowsAreFromOneToTheLayersMaximum) {
  EXPECT_EQ(validate_rows(1, 10), "");
  EXPECT_EQ(validate_rows(10, 10), "");
  EXPECT_EQ(validate_rows(0, 10), "rows must be an integer from 1 to 10 for this layer (got 0)");
  EXPECT_EQ(validate_rows(11, 10), "rows must be an integer from 1 to 10 for this layer (got 11)");
}

TEST(Checks, ActivationSpecsNameTheFieldAndBoundBeta) {
  ActivationSpec spec;
  ASSERT_EQ(parse_activation_spec("swish", -2.5f, "activation", spec), "");
  EXPECT_EQ(spec.kind, Activation::swish);
  EXPECT_EQ(spec.beta, -2.5f);
  ASSERT_EQ(parse_activation_spec("relu", 3.0f, "activation", spec), "");
  EXPECT_EQ(spec.beta, 3.0f);  // kept, as ActivationSpec does
  EXPECT_EQ(parse_activation_spec("swiglu", 1.0f, "teacher.activation", spec),
            "teacher.activation must be one of the catalogue names (got 'swiglu')");
  EXPECT_EQ(parse_activation_spec("relu", 100.5f, "activation", spec), "beta must be finite with |beta| <= 100");
  EXPECT_EQ(parse_activation_spec("relu", std::numeric_limits<float>::infinity(), "activation", spec),
            "beta must be finite with |beta| <= 100");
  EXPECT_EQ(spec.kind, Activation::relu);  // unchanged on error
}

TEST(Checks, SymmetryProbesNeedAQFactorAndARowCount) {
  const Layer mlp({LayerKind::mlp, {Activation::relu, 1.0f}, 3, 4, 1, 1, 1});
  const Layer gated({LayerKind::gated, {Activation::relu, 1.0f}, 3, 4, 1, 1, 1});
  EXPECT_EQ(validate_symmetry_probe(mlp, 1),
            "the 'mlp' kind has no Q factor, so it has no exchange or scaling symmetry to probe");
  EXPECT_EQ(validate_symmetry_probe(gated, 5), "");
  EXPECT_EQ(validate_symmetry_probe(gated, 0), validate_rows(0, gated.max_rows()));
  EXPECT_EQ(validate_symmetry_probe(gated, gated.max_rows() + 1),
            validate_rows(gated.max_rows() + 1, gated.max_rows()));
}

TEST(Checks, CurvesNeedAFiniteIntervalAndAPointCount) {
  EXPECT_EQ(validate_curve(-1, 1, 2), "");
  EXPECT_EQ(validate_curve(-1, 1, max_curve_points), "");
  EXPECT_EQ(validate_curve(1, 1, 10), "min and max must be finite with min < max");
  EXPECT_EQ(validate_curve(-1, std::nanf(""), 10), "min and max must be finite with min < max");
  EXPECT_EQ(validate_curve(-1, 1, 1), "n must be an integer from 2 to 2048");
  EXPECT_EQ(validate_curve(-1, 1, max_curve_points + 1), "n must be an integer from 2 to 2048");
}

TEST(Checks, ActivationCurvesAlsoNeedACatalogueIndex) {
  EXPECT_EQ(validate_activation_curve(0, -1, 1, 2), "");
  EXPECT_EQ(validate_activation_curve(activation_count - 1, -1, 1, 2), "");
  const Status unknown = validate_activation_curve(activation_count, -1, 1, 2);
  EXPECT_EQ(unknown.code, ErrorCode::invalid_value);
  EXPECT_EQ(unknown, "unknown activation index " + std::to_string(activation_count));
  EXPECT_EQ(validate_activation_curve(-1, -1, 1, 2), "unknown activation index -1");
  // The index is checked first; with a good index the interval checks are validate_curve's.
  EXPECT_EQ(validate_activation_curve(-1, 1, 1, 1), "unknown activation index -1");
  EXPECT_EQ(validate_activation_curve(0, 1, 1, 10), validate_curve(1, 1, 10));
}
