// Status: every code's JS spelling, nesting a config's problem in another's, the renaming the
// bindings apply, and a problem from each area with its code and field set where it arises
// (nothing downstream reads them back out of the message).
#include <gtest/gtest.h>

#include "gatelab/base/status.hpp"
#include "gatelab/cem/attention.hpp"
#include "gatelab/model/transformer.hpp"
#include "gatelab/gp/session.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/train/optimizer.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

TEST(Status, CodesHaveTheJsSpellings) {
  EXPECT_STREQ(error_code_name(ErrorCode::ok), "ok");
  EXPECT_STREQ(error_code_name(ErrorCode::invalid_type), "invalid-type");
  EXPECT_STREQ(error_code_name(ErrorCode::invalid_value), "invalid-value");
  EXPECT_STREQ(error_code_name(ErrorCode::out_of_range), "out-of-range");
  EXPECT_STREQ(error_code_name(ErrorCode::unsupported), "unsupported");
  EXPECT_STREQ(error_code_name(ErrorCode::not_finite), "not-finite");
  EXPECT_STREQ(error_code_name(ErrorCode::invalid_state), "invalid-state");
  EXPECT_STREQ(error_code_name(ErrorCode::disposed), "disposed");
}

TEST(Status, OkIsEmptyAndWithinKeepsIt) {
  const Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_OK(ok);
  EXPECT_TRUE(ok.within("mlp").ok());
}

// The message assertions below are the only ones the C++ tests keep: within() and renamed()
// rewrite the message itself, so its text is what they are for. Every other test asserts
// (code, field) through support/status_checks.hpp.
TEST(Status, WithinScopesTheFieldAndTheMessage) {
  const Status inner = out_of_range("hidden", "hidden must be in 1…1024 (hidden = 0)");
  const Status outer = inner.within("mlp");
  EXPECT_ERROR(outer, ErrorCode::out_of_range, "mlp.hidden");
  EXPECT_EQ(outer.message, "mlp: hidden must be in 1…1024 (hidden = 0)");
  EXPECT_ERROR(invalid_state("", "diverged").within("data"), ErrorCode::invalid_state, "data");
}

TEST(Status, RenamedGivesCamelCaseFieldsAndListedNames) {
  const NameMap names = {{"activation.beta", "beta"}, {"per_head", "per-head"}};
  const Status rank =
      renamed(out_of_range("precond_rank", "precond_rank must be in 0…2 (precond_rank = 3, d = 4)"), names);
  EXPECT_EQ(rank.field, "precondRank");
  EXPECT_EQ(rank.message, "precondRank must be in 0…2 (precondRank = 3, d = 4)");
  const Status nested =
      renamed(out_of_range("data.length_scale", "data: length_scale must be in [0.001, 1000]"), names);
  EXPECT_EQ(nested.field, "data.lengthScale");
  EXPECT_EQ(nested.message, "data: lengthScale must be in [0.001, 1000]");
  const Status beta = renamed(out_of_range("activation.beta", "activation.beta must be in (0, 50]"), names);
  EXPECT_EQ(beta.field, "beta");
  EXPECT_EQ(beta.message, "beta must be in (0, 50]");
  // A quoted value keeps its spelling unless listed; a listed name inside a longer one is not renamed.
  const Status value =
      renamed(invalid_value("diagonal", "diagonal must be 'none', 'per_head' or 'shared' (got 'gelu_tanh')"), names);
  EXPECT_EQ(value.message, "diagonal must be 'none', 'per-head' or 'shared' (got 'gelu_tanh')");
  EXPECT_EQ(renamed(invalid_value("", "no per_heads"), names).message, "no perHeads");
  // Every unquoted snake_case word is a field the message names, the call's own or another.
  const Status word = renamed(out_of_range("rank", "rank must be an integer from 1 to d_in = 4 (got 9)"), {});
  EXPECT_EQ(word.message, "rank must be an integer from 1 to dIn = 4 (got 9)");
  EXPECT_EQ(renamed(unsupported("", "a layer's eval_every; 'gelu_tanh' has none"), {}).message,
            "a layer's evalEvery; 'gelu_tanh' has none");
  EXPECT_EQ(renamed(Status{}, names), Status{});
}

TEST(Status, EachAreaSetsCodeAndFieldWhereTheProblemArises) {
  CemAttentionConfig attention;
  attention.d = 8;
  attention.heads = 3;
  const Status heads = validate(attention);
  EXPECT_ERROR(heads, ErrorCode::invalid_value, "heads");

  CemTransformerConfig transformer;
  cem_set_hidden(transformer, 0);
  EXPECT_ERROR(validate(transformer), ErrorCode::out_of_range, "mlp.hidden");

  LayerConfig layer;
  layer.rank = 0;
  EXPECT_ERROR(validate(layer), ErrorCode::out_of_range, "rank");

  OptimizerOptions optimizer;
  optimizer.learning_rate = -1.0f;
  EXPECT_ERROR(validate(optimizer), ErrorCode::out_of_range, "learning_rate");

  GpTrainConfig train;
  train.data.length_scale = 0.0;
  EXPECT_ERROR(validate(train, GpModelSpec{}), ErrorCode::out_of_range, "data.length_scale");
}
