// The parameter grid of the layer test suites: every kind × every activation × the given
// ranks (the mlp has rank 1 only), with readable GoogleTest names such as gated_silu_r2.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "gatelab/paper_a/layer.hpp"

namespace gatelab::testing_support {

struct LayerCase {
  LayerKind kind;
  Activation activation;
  int rank;
  float symmetrize = 0.0f;  // gated only
};

inline std::string layer_case_name(const ::testing::TestParamInfo<LayerCase>& info) {
  std::string name = std::string(layer_kind_name(info.param.kind)) + "_" + activation_name(info.param.activation) +
                     "_r" + std::to_string(info.param.rank);
  if (info.param.symmetrize != 0.0f) name += "_sym" + std::to_string(static_cast<int>(info.param.symmetrize * 100));
  return name;
}

// Every kind × activation × rank; with symmetrize_values, also gated layers at each λ.
inline std::vector<LayerCase> layer_cases(std::initializer_list<int> ranks,
                                          std::initializer_list<float> symmetrize_values = {}) {
  std::vector<LayerCase> cases;
  for (int a = 0; a < activation_count; ++a) {
    cases.push_back({LayerKind::mlp, activation_by_index(a), 1});
    for (LayerKind kind : {LayerKind::symmetric, LayerKind::gated, LayerKind::bigated}) {
      for (int rank : ranks) cases.push_back({kind, activation_by_index(a), rank});
    }
    for (float lambda : symmetrize_values) {
      for (int rank : ranks) cases.push_back({LayerKind::gated, activation_by_index(a), rank, lambda});
    }
  }
  return cases;
}

}  // namespace gatelab::testing_support
