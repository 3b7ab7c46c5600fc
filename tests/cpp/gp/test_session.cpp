// GpSession's loss read-out: a range within the steps done copies those losses, any other is
// an out_of_range status and writes nothing (the binding hands JS the status). And the two ways
// to make a session (an experiment's spec, lab.gp's transformer config) give the same model.
#include <gtest/gtest.h>

#include <vector>

#include "gatelab/gp/session.hpp"

using namespace gatelab;

namespace {

GpTrainConfig small_train() {
  GpTrainConfig t;
  t.data.length = 6;
  t.data.dx = 1;
  t.d = 8;
  t.layers = 1;
  t.heads = 2;
  t.hidden = 8;
  t.batch = 2;
  t.warmup = 1;
  t.seed = 3;
  return t;
}

GpSession small_session() { return GpSession(small_train(), GpModelSpec{}); }

}  // namespace

TEST(GpSession, CopyLossesReadsARangeOfTheStepsDone) {
  GpSession s = small_session();
  ASSERT_TRUE(s.error().ok()) << s.error();
  ASSERT_TRUE(s.train(4).ok());
  ASSERT_EQ(s.steps_done(), 4);
  std::vector<double> out(2, -1.0);
  ASSERT_TRUE(s.copy_losses(1, 2, out.data()).ok());
  EXPECT_EQ(out, std::vector<double>(s.losses().begin() + 1, s.losses().begin() + 3));
  EXPECT_TRUE(s.copy_losses(4, 0, out.data()).ok());
}

TEST(GpSession, CopyLossesOutsideTheStepsDoneIsOutOfRange) {
  GpSession s = small_session();
  ASSERT_TRUE(s.train(3).ok());
  std::vector<double> out(8, -1.0);
  for (const auto& [from, count] : std::vector<std::pair<int, int>>{{-1, 1}, {0, 4}, {2, 2}, {4, 0}, {0, -1}}) {
    const Status e = s.copy_losses(from, count, out.data());
    EXPECT_EQ(e.code, ErrorCode::out_of_range) << from << ", " << count;
  }
  EXPECT_EQ(out, std::vector<double>(8, -1.0));
}

TEST(GpSession, ATransformerConfigTrainsAsTheSpecItComesFrom) {
  GpModelSpec spec;
  spec.steps = 2;
  spec.diagonal = CemDiagonal::per_head;
  spec.learn_eta = true;
  const GpTrainConfig t = small_train();
  GpSession from_spec(t, spec), from_config(t, gp_model_config(t, spec));
  ASSERT_TRUE(from_config.error().ok()) << from_config.error();
  ASSERT_TRUE(from_spec.train(3).ok());
  ASSERT_TRUE(from_config.train(3).ok());
  EXPECT_EQ(from_spec.losses(), from_config.losses());
  EXPECT_EQ(from_config.model_config().attention.diagonal, CemDiagonal::per_head);
  EXPECT_EQ(from_config.model_config().d_in, gp_token_width(t.data));  // set from the data
}

TEST(GpSession, AHeldLayerFieldReachesTheModelAndItsRefusalIsNamed) {
  const GpTrainConfig t = small_train();
  CemTransformerConfig m = gp_model_config(t, GpModelSpec{});
  m.mlp.steps = 3;  // a field lab.gp's flat options do not reach separately: the held config carries it
  GpSession session(t, m);
  ASSERT_TRUE(session.error().ok()) << session.error();
  EXPECT_EQ(session.model_config().mlp.steps, 3);
  EXPECT_EQ(session.model_config().attention.steps, 1);
  m.mlp.eta = -1.0f;
  const GpSession refused(t, m);
  EXPECT_EQ(refused.error().code, ErrorCode::out_of_range);
  EXPECT_EQ(refused.error().field, "mlp.eta");
  EXPECT_EQ(GpSession(t, m).train(1).code, ErrorCode::out_of_range);
}
