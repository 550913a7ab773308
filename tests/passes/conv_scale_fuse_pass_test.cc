// conv_scale_fuse_pass: conv -> scale (either bias order, with or without
// the conv's own bias, a fused activation on the scale) becomes the conv
// alone with a scaled filter and bias, for conv2d, depthwise_conv2d and
// conv2d_transpose; an int8 conv's Filter_scales take the factor (its
// output stays within float rounding of the simulation). Kept: a scale with
// ScaleTensor, a conv output read elsewhere. A conv with an activation takes
// a scale without one as its post-activation affine map (fuse_post_*), also
// right after the fold (conv -> scale + hard_swish -> scale: one conv), on
// host, on x86 and in int8 chains whose levels follow the map's sign.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "conv_scale_fuse_pass";

struct Case {
  std::string type = "conv2d";
  bool bias = true;
  bool bias_after_scale = true;
  std::string act;  // the scale's fused activation
};

// x [1, 8, 7, 7] -> conv 3x3 (pad 1; the transposed conv: 2x2 stride 2)
// -> c; y = scale(c, -1.3, 0.4) fetched, or with `second` z = scale(y, 0.5,
// -0.25, bias before the scale) fetched.
TestModel ConvScale(const Case& k, bool second = false) {
  TestModel m;
  m.Input("x", {1, 8, 7, 7});
  const bool transposed = k.type == "conv2d_transpose";
  const bool dw = k.type == "depthwise_conv2d";
  const int ks = transposed ? 2 : 3;
  m.RandomWeight("w", {8, dw ? 1 : 8, ks, ks}, -0.4f, 0.4f);
  std::map<std::string, std::vector<std::string>> in = {{"Input", {"x"}}, {"Filter", {"w"}}};
  if (k.bias) {
    m.RandomWeight("b", {8});
    in["Bias"] = {"b"};
  }
  auto& conv = m.Op(k.type, in, {{"Output", {"c"}}});
  conv.SetAttr("strides", std::vector<int32_t>{transposed ? 2 : 1, transposed ? 2 : 1});
  conv.SetAttr("paddings", std::vector<int32_t>{transposed ? 0 : 1, transposed ? 0 : 1});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", dw ? 8 : 1);
  auto& scale = m.Op("scale", {{"X", {"c"}}}, {{"Out", {"y"}}});
  scale.SetAttr("scale", -1.3f);
  scale.SetAttr("bias", 0.4f);
  scale.SetAttr("bias_after_scale", k.bias_after_scale);
  if (!k.act.empty()) {
    scale.SetAttr("fuse_activation", k.act);
    scale.SetAttr("fuse_alpha", 6.f);
    scale.SetAttr("fuse_beta", 6.f);
    scale.SetAttr("fuse_gamma", 3.f);
  }
  if (second) {
    auto& s2 = m.Op("scale", {{"X", {"y"}}}, {{"Out", {"z"}}});
    s2.SetAttr("scale", 0.5f);
    s2.SetAttr("bias", -0.25f);
    s2.SetAttr("bias_after_scale", false);
    m.Output("z");
  } else {
    m.Output("y");
  }
  return m;
}

TEST(ConvScaleFuse, TheScaleFoldsIntoTheFilterAndBias) {
  std::vector<std::pair<std::string, Case>> cases;
  Case k;
  cases.push_back({"conv2d", k});
  k.bias = false;
  k.bias_after_scale = false;
  cases.push_back({"no bias, bias before the scale", k});
  k.bias = true;
  cases.push_back({"bias before the scale", k});
  k.act = "hard_swish";
  cases.push_back({"hard_swish moves to the conv", k});
  Case dw;
  dw.type = "depthwise_conv2d";
  dw.act = "relu6";
  cases.push_back({"depthwise relu6", dw});
  Case tr;
  tr.type = "conv2d_transpose";
  cases.push_back({"conv2d_transpose", tr});
  for (const auto& c : cases) {
    SCOPED_TRACE(c.first);
    FusionRun r = ExpectFusedMatches(ConvScale(c.second), kPass, 1e-5);
    EXPECT_EQ(CountOps(r.op_types, "scale"), 0) << r.pass_log;
    EXPECT_EQ(r.counters["matched"], 1);
    ASSERT_EQ(r.op_types.size(), 3u);
    const cpp::OpDesc& conv = r.program.blocks[0].ops[1];
    EXPECT_EQ(conv.Type(), c.second.type);
    EXPECT_EQ(conv.Output("Output"), std::vector<std::string>{"y"});
    EXPECT_EQ(conv.GetAttr<std::string>("fuse_activation", ""), c.second.act);
    EXPECT_TRUE(conv.HasInput("Bias"));
  }
  // x86 runs the folded conv (the own 1x1 / Winograd kernels or oneDNN)
  // and matches the two ops on host.
  Case hs;
  hs.act = "hard_swish";
  const TestModel m = ConvScale(hs);
  const FusionRun host = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun x86 = RunOrFail(m, {kPass}, {Place(TargetType::kX86), Place(TargetType::kHost)});
  EXPECT_EQ(CountOps(x86.op_types, "scale"), 0);
  EXPECT_LE(MaxAbsDiff(host.outputs, x86.outputs), 1e-4);
}

TEST(ConvScaleFuse, KeptWhereTheScaleCannotFold) {
  {
    SCOPED_TRACE("ScaleTensor");
    TestModel m = ConvScale(Case());
    m.Weight("st", {1}, {2.f});
    m.program.blocks[0].ops[2].SetInput("ScaleTensor", {"st"});
    FusionRun r = ExpectFusedMatches(m, kPass);
    EXPECT_EQ(CountOps(r.op_types, "scale"), 1);
    EXPECT_EQ(r.counters["declined_scale"], 1);
  }
  {
    SCOPED_TRACE("conv output read elsewhere");
    TestModel m = ConvScale(Case());
    m.Output("c");
    FusionRun r = ExpectFusedMatches(m, kPass);
    EXPECT_EQ(CountOps(r.op_types, "scale"), 1);
    EXPECT_EQ(r.counters["matched"], 0);
  }
  {
    SCOPED_TRACE("conv with its own activation and a scale with one");
    Case k;
    k.act = "relu6";
    TestModel m = ConvScale(k);
    m.program.blocks[0].ops[1].SetAttr("fuse_activation", std::string("relu"));
    FusionRun r = ExpectFusedMatches(m, kPass);
    EXPECT_EQ(CountOps(r.op_types, "scale"), 1);
    EXPECT_EQ(r.counters["matched"], 0);
  }
  {
    SCOPED_TRACE("a transposed conv with an activation");
    Case k;
    k.type = "conv2d_transpose";
    TestModel m = ConvScale(k);
    m.program.blocks[0].ops[1].SetAttr("fuse_activation", std::string("relu"));
    FusionRun r = ExpectFusedMatches(m, kPass);
    EXPECT_EQ(CountOps(r.op_types, "scale"), 1);
  }
}

// ConvScale(k, second) with activation `conv_act` on the conv.
TestModel ActConvScale(const Case& k, const std::string& conv_act, bool second) {
  TestModel m = ConvScale(k, second);
  if (!conv_act.empty()) {
    cpp::OpDesc& conv = m.program.blocks[0].ops[1];
    conv.SetAttr("fuse_activation", conv_act);
    conv.SetAttr("fuse_alpha", 6.f);
    conv.SetAttr("fuse_beta", 6.f);
    conv.SetAttr("fuse_gamma", 3.f);
  }
  return m;
}

TEST(ConvScaleFuse, AScaleAfterTheActivationBecomesThePostAffineMap) {
  struct PostCase {
    std::string what, conv_act;
    Case k;
    bool second;
    float post_scale, post_bias;
  };
  Case plain;
  Case hs;
  hs.act = "hard_swish";
  Case dw;
  dw.type = "depthwise_conv2d";
  Case before;
  before.bias_after_scale = false;
  const std::vector<PostCase> cases = {
      {"relu conv, one scale", "relu", plain, false, -1.3f, 0.4f},
      {"bias before the scale", "relu", before, false, -1.3f, -1.3f * 0.4f},
      {"two scales compose", "relu", plain, true, -0.65f, 0.5f * (0.4f - 0.25f)},
      {"depthwise hard_swish conv", "hard_swish", dw, false, -1.3f, 0.4f},
      {"fold, then the next scale", "", hs, true, 0.5f, -0.125f},
  };
  for (const PostCase& c : cases) {
    SCOPED_TRACE(c.what);
    const TestModel m = ActConvScale(c.k, c.conv_act, c.second);
    FusionRun r = ExpectFusedMatches(m, kPass, 1e-5);
    EXPECT_EQ(CountOps(r.op_types, "scale"), 0) << r.pass_log;
    ASSERT_EQ(r.op_types.size(), 3u);
    const cpp::OpDesc& conv = r.program.blocks[0].ops[1];
    EXPECT_NEAR(conv.GetAttr<float>("fuse_post_scale", 1.f), c.post_scale, 1e-6);
    EXPECT_NEAR(conv.GetAttr<float>("fuse_post_bias", 0.f), c.post_bias, 1e-6);
    EXPECT_EQ(r.counters["post_affine"], c.second && c.conv_act != "" ? 2 : 1);
    const FusionRun host = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun x86 =
        RunOrFail(m, {kPass}, {Place(TargetType::kX86), Place(TargetType::kHost)});

    EXPECT_EQ(CountOps(x86.op_types, "scale"), 0);
    EXPECT_LE(MaxAbsDiff(host.outputs, x86.outputs), 1e-4);
  }
}

// x [1, 16, 9, 9] -> [qdq] int8 conv 1x1 (16 -> 24) + relu -> scale (a, b)
// -> [qdq] int8 conv 1x1 (24 -> 8) -> y: the first conv writes the second's
// levels through its post-activation map (uint8 only when a, b >= 0).
TEST(ConvScaleFuse, Int8ChainsThroughThePostAffineMap) {
  for (const auto& ab : std::vector<std::pair<float, float>>{{0.8f, 0.1f}, {-0.8f, 0.1f}}) {
    SCOPED_TRACE("post map " + std::to_string(ab.first) + " x + " + std::to_string(ab.second));
    TestModel m;
    m.Input("x", {1, 16, 9, 9});
    AddQuantConv(&m, "x", 0.9f, "conv2d", 1, "c", 16, 24);
    m.Op("relu", {{"X", {"c"}}}, {{"Out", {"r"}}});
    auto& scale = m.Op("scale", {{"X", {"r"}}}, {{"Out", {"s"}}});
    scale.SetAttr("scale", ab.first);
    scale.SetAttr("bias", ab.second);
    AddQuantConv(&m, "s", 1.1f, "conv2d", 1, "y", 24, 8);
    m.Output("y");
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun int8 =
        RunOrFail(m, AllFusionPasses(), {Place(TargetType::kX86), Place(TargetType::kHost)});
    ASSERT_FALSE(int8.outputs.empty());
    EXPECT_EQ(CountOps(int8.op_types, "scale"), 0) << int8.pass_log;
    const cpp::VarDesc* s = int8.program.blocks[0].FindVar("s");
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(DataTypeName(s->dtype), std::string(ab.first > 0 ? "uint8" : "int8"));
    ExpectNearSimulation(sim, int8);
  }
}

TEST(ConvScaleFuse, Int8ConvScalesItsFilterScales) {
  TestModel m;
  m.Input("x", {1, 16, 9, 9});
  AddQuantConv(&m, "x", 0.9f, "conv2d", 1, "c", 16, 24);
  auto& scale = m.Op("scale", {{"X", {"c"}}}, {{"Out", {"y"}}});
  scale.SetAttr("scale", -0.7f);
  scale.SetAttr("bias", 0.2f);
  scale.SetAttr("fuse_activation", std::string("hard_swish"));
  scale.SetAttr("fuse_alpha", 6.f);
  scale.SetAttr("fuse_beta", 6.f);
  scale.SetAttr("fuse_gamma", 3.f);
  m.Output("y");
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun int8 =
      RunOrFail(m, AllFusionPasses(), {Place(TargetType::kX86), Place(TargetType::kHost)});
  ASSERT_FALSE(int8.outputs.empty());
  EXPECT_EQ(CountOps(int8.op_types, "scale"), 0) << int8.pass_log;
  const cpp::OpDesc* conv = nullptr;
  for (const cpp::OpDesc& op : int8.program.blocks[0].ops) {
    if (op.Type() == "conv2d") conv = &op;
  }
  ASSERT_NE(conv, nullptr);
  EXPECT_TRUE(conv->GetAttr<bool>("enable_int8", false));
  EXPECT_EQ(conv->GetAttr<std::string>("fuse_activation", ""), "hard_swish");
  ExpectNearSimulation(sim, int8);
}

// conv_prescale_fuse_pass (before the device cut): the scale right after
// the conv folds into its weights and takes its activation there; the scale
// after the activation stays an op (the NPU bridges read no post-activation
// map), and a conv that already has an activation keeps its scale.
TEST(ConvPrescaleFuse, FoldsOnlyTheScaleBeforeTheActivation) {
  Case hs;
  hs.act = "hard_swish";
  {
    SCOPED_TRACE("conv -> scale + hard_swish -> scale");
    FusionRun r = ExpectFusedMatches(ConvScale(hs, true), "conv_prescale_fuse_pass", 1e-5);
    EXPECT_EQ(CountOps(r.op_types, "scale"), 1) << r.pass_log;
    EXPECT_EQ(r.counters["matched"], 1);
    EXPECT_EQ(r.counters["post_affine"], 0);
    const cpp::OpDesc* conv = FindOp(r, "conv2d");
    ASSERT_NE(conv, nullptr);
    EXPECT_EQ(conv->GetAttr<std::string>("fuse_activation", ""), "hard_swish");
    EXPECT_FALSE(conv->HasAttr("fuse_post_scale"));
  }
  {
    SCOPED_TRACE("relu conv -> scale");
    FusionRun r =
        ExpectFusedMatches(ActConvScale(Case(), "relu", false), "conv_prescale_fuse_pass");
    EXPECT_EQ(CountOps(r.op_types, "scale"), 1) << r.pass_log;
    EXPECT_EQ(r.counters["matched"], 0);
  }
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
