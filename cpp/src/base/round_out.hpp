// The core computes some results in double and hands them out as float32 (what web/lib reads):
// these round each value once, so a float result is exactly its double result rounded.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "gatelab/base/status.hpp"

namespace gatelab {

// values rounded to float into out (values.size() floats).
inline void round_out(const std::vector<double>& values, float* out) {
  std::transform(values.begin(), values.end(), out, [](double v) { return static_cast<float>(v); });
}

// call(buffer) on n doubles, rounded into out when it succeeds. A null out reaches call as null,
// so the refusal is call's own; nothing is written when call refuses.
template <class Call>
Status through_doubles(std::size_t n, float* out, Call call) {
  std::vector<double> buffer(out ? n : 0);
  const Status e = call(out ? buffer.data() : nullptr);
  if (e.ok()) round_out(buffer, out);
  return e;
}

}  // namespace gatelab
