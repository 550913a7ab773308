// conv_bn_fuse_pass: matches and non-matches, and outputs before/after the
// fusion through the host kernels (all three conv types, groups, an existing
// Bias, a shared filter).
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "conv_bn_fuse_pass";

// x [1, cin, 6, 5] -> conv `type` -> c -> batch_norm -> y (fetched).
TestModel ConvBn(const std::string& type, int cin, int cout, int groups) {
  TestModel m;
  m.Input("x", {1, cin, 6, 5});
  const bool transposed = type.find("transpose") != std::string::npos;
  DDim fdims = transposed ? DDim{cin, cout / groups, 3, 3} : DDim{cout, cin / groups, 3, 3};
  m.RandomWeight("w", fdims);
  auto& conv = m.Op(type, {{"Input", {"x"}}, {"Filter", {"w"}}}, {{"Output", {"c"}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", groups);
  m.RandomWeight("gamma", {cout}, 0.5f, 1.5f);
  m.RandomWeight("beta", {cout});
  m.RandomWeight("mean", {cout});
  m.RandomWeight("var", {cout}, 0.5f, 2.f);
  m.Op("batch_norm",
       {{"X", {"c"}}, {"Scale", {"gamma"}}, {"Bias", {"beta"}}, {"Mean", {"mean"}},
        {"Variance", {"var"}}},
       {{"Y", {"y"}}, {"MeanOut", {"mean"}}, {"VarianceOut", {"var"}},
        {"SavedMean", {"sm"}}, {"SavedVariance", {"sv"}}})
      .SetAttr("epsilon", 1e-3f);
  m.Output("y");
  return m;
}

void ExpectFused(const TestModel& m, const std::vector<std::string>& passes = {kPass}) {
  double diff = 0;
  auto run = RunAndCompare(m, passes, &diff);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "batch_norm"), 0) << run->pass_log;
  EXPECT_LT(diff, 1e-4);
  const auto& ops = run->program.blocks[0].ops;
  for (const auto& op : ops) {
    if (op.Type().find("conv") != std::string::npos) {
      EXPECT_TRUE(op.HasInput("Bias"));
    }
  }
}

TEST(ConvBnFuse, Conv2d) { ExpectFused(ConvBn("conv2d", 4, 6, 1)); }
TEST(ConvBnFuse, GroupedConv2d) { ExpectFused(ConvBn("conv2d", 4, 6, 2)); }
TEST(ConvBnFuse, DepthwiseConv2d) { ExpectFused(ConvBn("depthwise_conv2d", 4, 4, 4)); }
TEST(ConvBnFuse, Conv2dTranspose) { ExpectFused(ConvBn("conv2d_transpose", 4, 6, 1)); }
// Filter [C_in=4, C_out/groups=3, 3, 3]: the scale runs along dim 1 per group.
TEST(ConvBnFuse, GroupedConv2dTranspose) { ExpectFused(ConvBn("conv2d_transpose", 4, 6, 2)); }

TEST(ConvBnFuse, ExistingBiasIsFolded) {
  TestModel m = ConvBn("conv2d_transpose", 4, 6, 2);
  // c = conv(x) + cb, then bn: conv_elementwise_add gives the conv a Bias first.
  auto& ops = m.program.blocks[0].ops;
  ops[1].SetOutput("Output", {"c0"});
  m.RandomWeight("cb", {6});
  cpp::OpDesc add("elementwise_add");
  add.SetInput("X", {"c0"});
  add.SetInput("Y", {"cb"});
  add.SetOutput("Out", {"c"});
  add.SetAttr("axis", 1);
  ops.insert(ops.begin() + 2, add);
  m.program.blocks[0].vars.push_back(cpp::VarDesc{});
  m.program.blocks[0].vars.back().name = "c0";
  ExpectFused(m, {"conv_elementwise_add_fuse_pass", kPass});
}

TEST(ConvBnFuse, SharedFilterIsNotModified) {
  TestModel m = ConvBn("conv2d", 4, 6, 1);
  auto& conv2 = m.Op("conv2d", {{"Input", {"x"}}, {"Filter", {"w"}}}, {{"Output", {"c2"}}});
  conv2.SetAttr("paddings", std::vector<int32_t>{1, 1});
  m.Output("c2");
  double diff = 0;
  auto run = RunAndCompare(m, {kPass}, &diff);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->counters["matched"], 1);
  EXPECT_LT(diff, 1e-4);
}

TEST(ConvBnFuse, IntermediateWithTwoConsumersIsKept) {
  TestModel m = ConvBn("conv2d", 4, 6, 1);
  m.Op("relu", {{"X", {"c"}}}, {{"Out", {"r"}}});
  m.Output("r");
  auto run = RunWith(m, {kPass}, m.RandomInputs());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "batch_norm"), 1);
}

TEST(ConvBnFuse, FetchedIntermediateIsKept) {
  TestModel m = ConvBn("conv2d", 4, 6, 1);
  m.Output("c");
  auto run = RunWith(m, {kPass}, {});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "batch_norm"), 1);
}

TEST(ConvBnFuse, NonPersistableStatisticsAreKept) {
  TestModel m = ConvBn("conv2d", 4, 6, 1);
  auto& ops = m.program.blocks[0].ops;  // mean computed at run time
  ops[2].SetInput("Mean", {"mean2"});
  cpp::OpDesc scale("scale");
  scale.SetInput("X", {"mean"});
  scale.SetOutput("Out", {"mean2"});
  scale.SetAttr("scale", 2.f);
  ops.insert(ops.begin() + 1, scale);
  m.program.blocks[0].vars.push_back(cpp::VarDesc{});
  m.program.blocks[0].vars.back().name = "mean2";
  auto run = RunWith(m, {kPass}, m.RandomInputs());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "batch_norm"), 1);
}

TEST(ConvBnFuse, ConvWithFusedActivationIsKept) {
  TestModel m = ConvBn("conv2d", 4, 6, 1);
  m.program.blocks[0].ops[1].SetAttr("fuse_activation", std::string("relu"));
  auto run = RunWith(m, {kPass}, {});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, "batch_norm"), 1);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
