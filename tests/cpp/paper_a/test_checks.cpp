// The argument checks of the paper-A API that the bindings call before the core runs: row
// counts, activation names with their beta, the symmetry probes' preconditions and the curve
// ranges. Each names the argument it refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "gatelab/paper_a/layer.hpp"
#include "gatelab/paper_a/symmetry.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

TEST(Checks, RowsAreFromOneToTheLayersMaximum) {
  EXPECT_OK(validate_rows(1, 10));
  EXPECT_OK(validate_rows(10, 10));
  EXPECT_ERROR(validate_rows(0, 10), ErrorCode::out_of_range, "rows");
  EXPECT_ERROR(validate_rows(11, 10), ErrorCode::out_of_range, "rows");
}

TEST(Checks, ActivationSpecsNameTheFieldAndBoundBeta) {
  ActivationSpec spec;
  ASSERT_OK(parse_activation_spec("swish", -2.5f, "activation", spec));
  EXPECT_EQ(spec.kind, Activation::swish);
  EXPECT_EQ(spec.beta, -2.5f);
  ASSERT_OK(parse_activation_spec("relu", 3.0f, "activation", spec));
  EXPECT_EQ(spec.beta, 3.0f);  // kept, as ActivationSpec does
  EXPECT_ERROR(parse_activation_spec("swiglu", 1.0f, "teacher.activation", spec), ErrorCode::invalid_value,
               "teacher.activation");
  EXPECT_ERROR(parse_activation_spec("relu", 100.5f, "activation", spec), ErrorCode::out_of_range, "beta");
  EXPECT_ERROR(parse_activation_spec("relu", std::numeric_limits<float>::infinity(), "activation", spec),
               ErrorCode::out_of_range, "beta");
  EXPECT_EQ(spec.kind, Activation::relu);  // unchanged on error
}

TEST(Checks, SymmetryProbesNeedAQFactorAndARowCount) {
  const Layer mlp({LayerKind::mlp, {Activation::relu, 1.0f}, 3, 4, 1, 1, 1});
  const Layer gated({LayerKind::gated, {Activation::relu, 1.0f}, 3, 4, 1, 1, 1});
  EXPECT_ERROR(validate_symmetry_probe(mlp, 1), ErrorCode::unsupported, "");
  EXPECT_OK(validate_symmetry_probe(gated, 5));
  EXPECT_EQ(validate_symmetry_probe(gated, 0), validate_rows(0, gated.max_rows()));
  EXPECT_EQ(validate_symmetry_probe(gated, gated.max_rows() + 1),
            validate_rows(gated.max_rows() + 1, gated.max_rows()));
}

TEST(Checks, CurvesNeedAFiniteIntervalAndAPointCount) {
  EXPECT_OK(validate_curve(-1, 1, 2));
  EXPECT_OK(validate_curve(-1, 1, max_curve_points));
  EXPECT_ERROR(validate_curve(1, 1, 10), ErrorCode::not_finite, "");
  EXPECT_ERROR(validate_curve(-1, std::nanf(""), 10), ErrorCode::not_finite, "");
  EXPECT_ERROR(validate_curve(-1, 1, 1), ErrorCode::out_of_range, "n");
  EXPECT_ERROR(validate_curve(-1, 1, max_curve_points + 1), ErrorCode::out_of_range, "n");
}

TEST(Checks, ActivationCurvesAlsoNeedACatalogueIndex) {
  EXPECT_OK(validate_activation_curve(0, -1, 1, 2));
  EXPECT_OK(validate_activation_curve(activation_count - 1, -1, 1, 2));
  const Status unknown = validate_activation_curve(activation_count, -1, 1, 2);
  EXPECT_ERROR(unknown, ErrorCode::invalid_value, "activation");
  EXPECT_ERROR(validate_activation_curve(-1, -1, 1, 2), ErrorCode::invalid_value, "activation");
  // The index is checked first; with a good index the interval checks are validate_curve's.
  EXPECT_ERROR(validate_activation_curve(-1, 1, 1, 1), ErrorCode::invalid_value, "activation");
  EXPECT_EQ(validate_activation_curve(0, 1, 1, 10), validate_curve(1, 1, 10));
}
