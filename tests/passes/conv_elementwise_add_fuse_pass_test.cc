// conv_elementwise_add_fuse_pass: per-channel bias shapes and axes, existing
// Bias, all conv types; non-matches; outputs before/after through the host
// kernels.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "conv_elementwise_add_fuse_pass";

// x [1, 4, 5, 5] -> conv `type` (C_out 4) -> c -> elementwise_add(Y = b) -> y
TestModel ConvAdd(const std::string& type, const DDim& bdims, int axis, bool bias_weight = true) {
  TestModel m;
  m.Input("x", {1, 4, 5, 5});
  const int groups = type.find("depthwise") != std::string::npos ? 4 : 1;
  m.RandomWeight("w", {4, 4 / groups, 3, 3});
  auto& conv = m.Op(type, {{"Input", {"x"}}, {"Filter", {"w"}}}, {{"Output", {"c"}}});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", groups);
  if (bias_weight) {
    m.RandomWeight("b", bdims);
  } else {
    m.Input("b", bdims);
  }
  m.Op("elementwise_add", {{"X", {"c"}}, {"Y", {"b"}}}, {{"Out", {"y"}}}).SetAttr("axis", axis);
  m.Output("y");
  return m;
}

void ExpectFused(const TestModel& m) {
  double diff = 0;
  auto run = RunAndCompare(m, {kPass}, &diff);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "elementwise_add"), 0) << run->pass_log;
  EXPECT_EQ(run->counters["matched"], 1);
  EXPECT_LT(diff, 1e-5);
}

void ExpectKept(const TestModel& m, bool run_it = true) {
  auto run = RunWith(m, {kPass}, run_it ? m.RandomInputs() : std::vector<Tensor>{});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "elementwise_add"), 1) << run->pass_log;
}

TEST(ConvElementwiseAddFuse, VectorBiasAxis1) { ExpectFused(ConvAdd("conv2d", {4}, 1)); }
TEST(ConvElementwiseAddFuse, Nchw1C11Bias) { ExpectFused(ConvAdd("conv2d", {1, 4, 1, 1}, -1)); }
TEST(ConvElementwiseAddFuse, C11BiasTrailing) { ExpectFused(ConvAdd("conv2d", {4, 1, 1}, -1)); }
TEST(ConvElementwiseAddFuse, ScalarBias) { ExpectFused(ConvAdd("conv2d", {1}, -1)); }
TEST(ConvElementwiseAddFuse, Depthwise) { ExpectFused(ConvAdd("depthwise_conv2d", {4}, 1)); }
TEST(ConvElementwiseAddFuse, Transposed) { ExpectFused(ConvAdd("conv2d_transpose", {4}, 1)); }

TEST(ConvElementwiseAddFuse, AddsToExistingBias) {
  TestModel m = ConvAdd("conv2d", {1, 4, 1, 1}, -1);
  m.RandomWeight("b0", {4});
  m.program.blocks[0].ops[1].SetInput("Bias", {"b0"});
  ExpectFused(m);
}

// [C] with axis -1 lines up with W, not with the channels.
TEST(ConvElementwiseAddFuse, TrailingVectorIsNotPerChannel) {
  ExpectKept(ConvAdd("conv2d", {5}, -1));
}
TEST(ConvElementwiseAddFuse, SpatialBiasIsKept) { ExpectKept(ConvAdd("conv2d", {4, 5, 5}, 1)); }
TEST(ConvElementwiseAddFuse, NonPersistableBiasIsKept) {
  ExpectKept(ConvAdd("conv2d", {4}, 1, /*bias_weight=*/false), false);
}

TEST(ConvElementwiseAddFuse, ConvOutputUsedTwiceIsKept) {
  TestModel m = ConvAdd("conv2d", {4}, 1);
  m.Output("c");
  ExpectKept(m);
}

TEST(ConvElementwiseAddFuse, ConvWithFusedActivationIsKept) {
  TestModel m = ConvAdd("conv2d", {4}, 1);
  m.program.blocks[0].ops[1].SetAttr("fuse_activation", std::string("relu"));
  ExpectKept(m);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
