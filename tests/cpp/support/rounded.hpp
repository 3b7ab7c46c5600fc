// What a float32 result of the core must equal: its double result, each value rounded once.
#pragma once

#include <vector>

namespace gatelab::testing_support {

inline std::vector<float> rounded(const std::vector<double>& values) { return {values.begin(), values.end()}; }

}  // namespace gatelab::testing_support
