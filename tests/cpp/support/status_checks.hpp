// Checks on a gatelab::Status by what a program reads from it: the code and the field, never the
// message, so a reworded sentence breaks no test while a wrong code or a wrong field does.
//   EXPECT_OK(layer.forward(...));                                  // ok (message "")
//   EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "hidden");   // (code, field)
// The field is the core's snake_case name, dotted when nested ("mlp.hidden"), "" when the
// problem is no one field's (null buffers, state). A failure prints the whole Status.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "gatelab/base/status.hpp"

namespace gatelab::status_checks {

inline ::testing::AssertionResult is_ok(const char* expr, const Status& s) {
  if (s.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expr << " is not ok: " << s;
}

inline ::testing::AssertionResult is_error(const char* expr, const char*, const char*, const Status& s, ErrorCode code,
                                           std::string_view field) {
  if (code == ErrorCode::ok) return ::testing::AssertionFailure() << "EXPECT_ERROR needs a code other than ok";
  if (s.code == code && s.field == field) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expr << " is " << s << "\n  expected: " << error_code_name(code) << " ["
                                       << field << "]";
}

}  // namespace gatelab::status_checks

#define EXPECT_OK(status) EXPECT_PRED_FORMAT1(::gatelab::status_checks::is_ok, status)
#define ASSERT_OK(status) ASSERT_PRED_FORMAT1(::gatelab::status_checks::is_ok, status)
#define EXPECT_ERROR(status, code, field) EXPECT_PRED_FORMAT3(::gatelab::status_checks::is_error, status, code, field)
#define ASSERT_ERROR(status, code, field) ASSERT_PRED_FORMAT3(::gatelab::status_checks::is_error, status, code, field)
