// constant_folding_pass: ops on weights only are computed at optimization
// time (chains too); ops reading run-time values, fetched results and
// unsupported ops stay. Outputs before/after through the host kernels.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "constant_folding_pass";

// MobileNetV3 (PaddleClas) conv bias: conv(x) + reshape2(b -> [1, 3, 1, 1]).
TestModel ConvReshapedBias() {
  TestModel m;
  m.Input("x", {1, 3, 4, 4});
  m.RandomWeight("w", {3, 3, 1, 1});
  m.RandomWeight("b", {3});
  m.Op("conv2d", {{"Input", {"x"}}, {"Filter", {"w"}}}, {{"Output", {"c"}}});
  m.Op("reshape2", {{"X", {"b"}}}, {{"Out", {"rb"}}, {"XShape", {"rb_shape"}}})
      .SetAttr("shape", std::vector<int32_t>{1, 3, 1, 1});
  m.Op("elementwise_add", {{"X", {"c"}}, {"Y", {"rb"}}}, {{"Out", {"y"}}});
  m.Output("y");
  return m;
}

TEST(ConstantFolding, ReshapedBiasThenConvBias) {
  double diff = 0;
  auto run = RunAndCompare(ConvReshapedBias(), {kPass, "conv_elementwise_add_fuse_pass"}, &diff);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->op_types, (std::vector<std::string>{"feed", "conv2d", "fetch"})) << run->pass_log;
  EXPECT_LT(diff, 1e-6);
}

TEST(ConstantFolding, ChainsFold) {
  TestModel m;
  m.Input("x", {2, 3});
  m.RandomWeight("w", {3, 2});
  m.Op("scale", {{"X", {"w"}}}, {{"Out", {"s"}}}).SetAttr("scale", 3.f);
  m.Op("transpose2", {{"X", {"s"}}}, {{"Out", {"t"}}, {"XShape", {"t_shape"}}})
      .SetAttr("axis", std::vector<int32_t>{1, 0});
  m.Op("elementwise_mul", {{"X", {"x"}}, {"Y", {"t"}}}, {{"Out", {"y"}}});
  m.Output("y");
  double diff = 0;
  auto run = RunAndCompare(m, {kPass}, &diff);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->op_types, (std::vector<std::string>{"feed", "elementwise_mul", "fetch"}));
  EXPECT_EQ(run->counters["matched"], 2);
  EXPECT_LT(diff, 1e-6);
}

TEST(ConstantFolding, RunTimeInputsAndFetchedResultsStay) {
  TestModel m;
  m.Input("x", {3});
  m.RandomWeight("w", {3});
  m.Op("scale", {{"X", {"w"}}}, {{"Out", {"s"}}}).SetAttr("scale", 2.f);  // fetched
  m.Op("elementwise_add", {{"X", {"x"}}, {"Y", {"w"}}}, {{"Out", {"y"}}});
  m.Output("s");
  m.Output("y");
  double diff = 0;
  auto run = RunAndCompare(m, {kPass}, &diff);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "scale"), 1);
  EXPECT_EQ(CountOps(run->op_types, "elementwise_add"), 1);
  EXPECT_LT(diff, 1e-6);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
