// conv_residual_fuse_pass: conv(x) + r (either operand order) becomes the
// conv with ResidualData r, the add's activation moving to the conv; on x86
// the fused conv matches the two ops (1x1 own GEMM, Winograd, oneDNN direct
// and depthwise). Kept: a conv with its own activation, an r of other dims,
// a conv output read elsewhere, and host-only places (no device kernel). In
// quantized blocks the int8 conv takes the residual and, read only by int8
// convs, writes the next conv's levels; outputs stay within float rounding
// of the exact simulation of the quant ops.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const char* kPass = "conv_residual_fuse_pass";
const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

struct Block {
  std::string type = "conv2d";
  int k = 1;          // kernel size (padding k / 2)
  int64_t c = 16;     // channels in and out
  int64_t hw = 12;    // map size
  bool swapped = false;  // add(x, conv) instead of add(conv, x)
  std::string act;       // the add's fused activation
};

// x [1, c, hw, hw] -> conv (bias) -> a; out = a + x; out fetched.
TestModel Residual(const Block& b) {
  TestModel m;
  m.Input("x", {1, b.c, b.hw, b.hw});
  const int64_t groups = b.type == "depthwise_conv2d" ? b.c : 1;
  m.RandomWeight("w", {b.c, b.c / groups, b.k, b.k}, -0.3f, 0.3f);
  m.RandomWeight("bias", {b.c});
  auto& conv = m.Op(b.type, {{"Input", {"x"}}, {"Filter", {"w"}}, {"Bias", {"bias"}}},
                    {{"Output", {"a"}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{b.k / 2, b.k / 2});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", static_cast<int32_t>(groups));
  m.program.blocks[0].FindVar("a")->dims = {1, b.c, b.hw, b.hw};
  auto& add = b.swapped ? m.Op("elementwise_add", {{"X", {"x"}}, {"Y", {"a"}}}, {{"Out", {"out"}}})
                        : m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"x"}}}, {{"Out", {"out"}}});
  add.SetAttr("axis", -1);
  if (!b.act.empty()) {
    add.SetAttr("fuse_activation", b.act);
    add.SetAttr("fuse_alpha", b.act == "relu6" ? 1.5f : 6.f);
    add.SetAttr("fuse_beta", 6.f);
    add.SetAttr("fuse_gamma", 3.f);
  }
  m.Output("out");
  return m;
}

// `names`' one name without layout_cast_pass's "/nhwc" suffix.
std::string Base(const std::vector<std::string>& names) {
  if (names.size() != 1) return "<" + std::to_string(names.size()) + " names>";
  return names[0].substr(0, names[0].find('/'));
}

TEST(ConvResidualFuse, TheAddFoldsIntoTheConvOnEveryX86Path) {
  std::vector<std::pair<std::string, Block>> cases;
  Block b;
  cases.push_back({"1x1", b});
  b.swapped = true;
  b.act = "relu6";
  cases.push_back({"1x1, add(x, conv), relu6", b});
  b.act = "hard_swish";
  cases.push_back({"1x1 hard_swish", b});
  Block w;
  w.k = 3;
  w.hw = 34;
  w.act = "relu";
  cases.push_back({"3x3 Winograd relu", w});
  Block d;
  d.k = 3;
  d.c = 5;
  cases.push_back({"3x3 direct", d});
  Block dw;
  dw.type = "depthwise_conv2d";
  dw.k = 3;
  dw.act = "relu6";
  cases.push_back({"depthwise relu6", dw});
  for (const auto& c : cases) {
    SCOPED_TRACE(c.first);
    const TestModel m = Residual(c.second);
    const FusionRun two = RunOrFail(m, {}, kX86);
    const FusionRun one = RunOrFail(m, {kPass}, kX86);
    ASSERT_FALSE(one.outputs.empty());
    EXPECT_EQ(one.counters.at("matched"), 1) << one.pass_log;
    EXPECT_EQ(CountOps(one.op_types, "elementwise_add"), 0);
    const cpp::OpDesc* conv = FindOp(one, c.second.type);
    ASSERT_NE(conv, nullptr);
    EXPECT_EQ(Base(conv->Input("ResidualData")), "x");
    EXPECT_EQ(Base(conv->Output("Output")), "out");
    EXPECT_EQ(conv->GetAttr<std::string>("fuse_activation", ""), c.second.act);
    EXPECT_LE(MaxAbsDiff(two.outputs, one.outputs), 1e-5);
    // And the host kernels' unfused result.
    const FusionRun host = RunOrFail(m, {}, {Place(TargetType::kHost)});
    EXPECT_LE(MaxAbsDiff(host.outputs, one.outputs), 1e-4);
  }
}

TEST(ConvResidualFuse, KeptWhereTheSumIsNotAConvPlusResidual) {
  {
    SCOPED_TRACE("the conv has its own activation");
    TestModel m = Residual(Block());
    m.program.blocks[0].ops[1].SetAttr("fuse_activation", std::string("relu"));
    const FusionRun r = RunOrFail(m, {kPass}, kX86);
    EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 1);
    EXPECT_EQ(r.counters.count("matched"), 0u);
  }
  {
    SCOPED_TRACE("the conv output is read elsewhere");
    TestModel m = Residual(Block());
    m.Output("a");
    const FusionRun r = RunOrFail(m, {kPass}, kX86);
    EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 1);
    EXPECT_EQ(r.counters.count("matched"), 0u);
  }
  {
    SCOPED_TRACE("r is broadcast");
    TestModel m;
    m.Input("x", {1, 16, 6, 6});
    m.Input("s", {1, 16, 1, 1});
    m.RandomWeight("w", {16, 16, 1, 1});
    auto& conv = m.Op("conv2d", {{"Input", {"x"}}, {"Filter", {"w"}}}, {{"Output", {"a"}}});
    conv.SetAttr("strides", std::vector<int32_t>{1, 1});
    conv.SetAttr("paddings", std::vector<int32_t>{0, 0});
    conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
    conv.SetAttr("groups", 1);
    m.program.blocks[0].FindVar("a")->dims = {1, 16, 6, 6};
    m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"s"}}}, {{"Out", {"out"}}}).SetAttr("axis", -1);
    m.Output("out");
    const FusionRun r = RunOrFail(m, {kPass}, kX86);
    EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 1);
    EXPECT_EQ(r.counters.at("declined_shapes"), 1) << r.pass_log;
  }
  {
    SCOPED_TRACE("host only");
    const FusionRun r = RunOrFail(Residual(Block()), {kPass}, {Place(TargetType::kHost)});
    EXPECT_EQ(CountOps(r.op_types, "elementwise_add"), 1);
    EXPECT_EQ(r.counters.at("declined_no_kernel"), 1) << r.pass_log;
  }
}

// The residual is computed after the conv in program order (r = relu(x)
// written by an op listed between the conv and the add): the fused conv
// reads r, so the program runs r's producer first.
TEST(ConvResidualFuse, AResidualProducedAfterTheConvRunsBeforeIt) {
  TestModel m;
  m.Input("x", {1, 16, 6, 6});
  m.RandomWeight("w", {16, 16, 1, 1});
  m.Op("conv2d", {{"Input", {"x"}}, {"Filter", {"w"}}}, {{"Output", {"a"}}});
  m.Op("relu", {{"X", {"x"}}}, {{"Out", {"r"}}});
  m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"r"}}}, {{"Out", {"out"}}}).SetAttr("axis", -1);
  cpp::OpDesc& conv = m.program.blocks[0].ops[1];
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{0, 0});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", 1);
  m.program.blocks[0].FindVar("a")->dims = {1, 16, 6, 6};
  m.program.blocks[0].FindVar("r")->dims = {1, 16, 6, 6};
  m.Output("out");
  const FusionRun host = RunOrFail(m, {}, {Place(TargetType::kHost)});
  FusionRun fused = RunOrFail(m, {kPass}, kX86);
  ASSERT_FALSE(fused.outputs.empty());
  EXPECT_EQ(fused.counters["matched"], 1) << fused.pass_log;
  EXPECT_LE(MaxAbsDiff(host.outputs, fused.outputs), 1e-5);
}

// x [1, c, 10, 10] -> [qdq] int8 conv 1x1 (c -> c) -> a; sum = a + x (the
// add's activation `act`); sum fetched, or (`into_conv`) read only by an
// int8 conv 1x1 (c -> 8) -> y.
TestModel QuantResidual(int64_t c, const std::string& act, bool into_conv) {
  TestModel m;
  m.Input("x", {1, c, 10, 10});
  AddQuantConv(&m, "x", 0.9f, "conv2d", 1, "a", c, c);
  m.program.blocks[0].FindVar("a")->dims = {1, c, 10, 10};
  auto& add = m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"x"}}}, {{"Out", {"sum"}}});
  add.SetAttr("axis", -1);
  if (!act.empty()) add.SetAttr("fuse_activation", act);
  if (into_conv) {
    AddQuantConv(&m, "sum", 1.7f, "conv2d", 1, "y", c, 8);
    m.Output("y");
  } else {
    m.Output("sum");
  }
  return m;
}

TEST(ConvResidualFuse, Int8ConvTakesTheResidualAndMatchesTheSimulation) {
  // 8 channels: the own 1x1 kernel's pair mode; 16: its s8 form; 64: oneDNN.
  for (int64_t c : {8, 16, 64}) {
    for (const std::string act : {"", "relu"}) {
      for (bool into_conv : {false, true}) {
        SCOPED_TRACE(std::to_string(c) + " channels, act '" + act + "'" +
                     (into_conv ? ", read by an int8 conv" : ", fetched"));
        const TestModel m = QuantResidual(c, act, into_conv);
        const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
        const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
        ASSERT_FALSE(int8.outputs.empty());
        EXPECT_EQ(CountOps(int8.op_types, "elementwise_add"), 0) << int8.pass_log;
        const cpp::OpDesc* conv = FindOp(int8, "conv2d");
        ASSERT_NE(conv, nullptr);
        EXPECT_TRUE(conv->GetAttr<bool>("enable_int8", false));
        EXPECT_EQ(Base(conv->Input("ResidualData")), "x");
        EXPECT_EQ(VarType(int8, "sum"),
                  !into_conv ? "float32" : act.empty() ? "int8" : "uint8");
        ExpectNearSimulation(sim, int8);
      }
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
