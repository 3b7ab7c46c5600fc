// GpSession's loss read-out: a range within the steps done copies those losses, any other is
// an out_of_range status and writes nothing (the binding hands JS the status).
#include <gtest/gtest.h>

#include <vector>

#include "gatelab/gp/session.hpp"

using namespace gatelab;

namespace {

GpSession small_session() {
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
  return GpSession(t, GpModelSpec{});
}

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
