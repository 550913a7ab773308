// conv_activation_fuse_pass and elementwise_activation_fuse_pass: every
// fusable activation with its attributes, non-matches, and outputs
// before/after through the host kernels.
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

// x [1, 3, 5, 5] -> conv `type` (+ Bias) -> c -> `act` -> y
TestModel ConvAct(const std::string& type, const std::string& act) {
  TestModel m;
  m.Input("x", {1, 3, 5, 5});
  const int groups = type.find("depthwise") != std::string::npos ? 3 : 1;
  m.RandomWeight("w", {3, 3 / groups, 3, 3});
  m.RandomWeight("b", {3});
  auto& conv = m.Op(type, {{"Input", {"x"}}, {"Filter", {"w"}}, {"Bias", {"b"}}},
                    {{"Output", {"c"}}});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", groups);
  auto& a = m.Op(act, {{"X", {"c"}}}, {{"Out", {"y"}}});
  if (act == "leaky_relu") a.SetAttr("alpha", 0.1f);
  if (act == "relu6") a.SetAttr("threshold", 0.5f);
  if (act == "hard_sigmoid") a.SetAttr("slope", 0.3f);
  if (act == "swish") a.SetAttr("beta", 1.5f);
  m.Output("y");
  return m;
}

// a, b [2, 3, 4] -> `ew` -> e -> `act` -> y
TestModel EwAct(const std::string& ew, const std::string& act) {
  TestModel m;
  m.Input("a", {2, 3, 4});
  m.Input("b", {2, 3, 4});
  m.Op(ew, {{"X", {"a"}}, {"Y", {"b"}}}, {{"Out", {"e"}}});
  m.Op(act, {{"X", {"e"}}}, {{"Out", {"y"}}});
  m.Output("y");
  return m;
}

void ExpectFused(const TestModel& m, const std::string& pass, const std::string& act) {
  double diff = 0;
  auto run = RunAndCompare(m, {pass}, &diff);
  ASSERT_TRUE(run.ok()) << act << ": " << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, act), 0) << run->pass_log;
  EXPECT_LT(diff, 1e-5) << act;
}

void ExpectKept(const TestModel& m, const std::string& pass, const std::string& act) {
  auto run = RunWith(m, {pass}, {});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(CountOps(run->op_types, act), 1) << run->pass_log;
}

const std::vector<std::string> kActs = {"relu",         "relu6",   "leaky_relu", "hard_swish",
                                        "hard_sigmoid", "sigmoid", "swish"};

TEST(ConvActivationFuse, EveryActivation) {
  for (const auto& act : kActs) ExpectFused(ConvAct("conv2d", act), "conv_activation_fuse_pass", act);
}

TEST(ConvActivationFuse, DepthwiseAndTransposed) {
  ExpectFused(ConvAct("depthwise_conv2d", "relu6"), "conv_activation_fuse_pass", "relu6");
  ExpectFused(ConvAct("conv2d_transpose", "leaky_relu"), "conv_activation_fuse_pass",
              "leaky_relu");
}

TEST(ConvActivationFuse, AlreadyFusedConvIsKept) {
  TestModel m = ConvAct("conv2d", "relu");
  m.program.blocks[0].ops[1].SetAttr("fuse_activation", std::string("sigmoid"));
  ExpectKept(m, "conv_activation_fuse_pass", "relu");
}

TEST(ConvActivationFuse, UnlistedActivationIsKept) {
  ExpectKept(ConvAct("conv2d", "tanh"), "conv_activation_fuse_pass", "tanh");
}

TEST(ConvActivationFuse, FetchedConvOutputIsKept) {
  TestModel m = ConvAct("conv2d", "relu");
  m.Output("c");
  ExpectKept(m, "conv_activation_fuse_pass", "relu");
}

TEST(ElementwiseActivationFuse, EveryOpAndActivation) {
  for (const char* ew : {"elementwise_add", "elementwise_sub", "elementwise_mul",
                         "elementwise_div"}) {
    for (const auto& act : kActs) {
      ExpectFused(EwAct(ew, act), "elementwise_activation_fuse_pass", act);
    }
  }
}

TEST(ElementwiseActivationFuse, AlreadyFusedIsKept) {
  TestModel m = EwAct("elementwise_add", "relu");
  m.program.blocks[0].ops[2].SetAttr("fuse_activation", std::string("relu6"));
  ExpectKept(m, "elementwise_activation_fuse_pass", "relu");
}

TEST(ElementwiseActivationFuse, OutputUsedTwiceIsKept) {
  TestModel m = EwAct("elementwise_add", "relu");
  m.Op("sigmoid", {{"X", {"e"}}}, {{"Out", {"z"}}});
  m.Output("z");
  ExpectKept(m, "elementwise_activation_fuse_pass", "relu");
}

TEST(ElementwiseActivationFuse, MaxIsNotFused) {
  ExpectKept(EwAct("elementwise_max", "relu"), "elementwise_activation_fuse_pass", "relu");
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
