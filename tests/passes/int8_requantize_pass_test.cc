// int8_requantize_pass: chained int8 convs pass int8 levels (uint8 after
// relu) instead of float32, with outputs matching the exact float32
// simulation of the fake quant ops; a var some float op also reads (a
// residual add) or a fetched one stays float32. A concat or a residual add
// read only by int8 convs writes those convs' levels.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "lite/backends/x86/nchw_input_conv.h"
#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

// A quantized `type` conv (`k`x`k`, 8 -> 8 channels) of `in` writing `out`.
void QuantConv(TestModel* m, const std::string& in, float s, const std::string& type, int k,
               const std::string& out) {
  AddQuantConv(m, in, s, type, k, out, 8, 8, type == "depthwise_conv2d" ? 8 : 1);
}

// x -> conv 3x3 [-> relu] -> conv 1x1 -> hard_swish -> depthwise 3x3 -> y;
// with `residual`, y2 = (conv 1x1 output) + x is fetched too.
TestModel Chain(bool relu, bool residual) {
  TestModel m;
  m.Input("x", {1, 8, 10, 10});
  QuantConv(&m, "x", 0.9f, "conv2d", 3, "c1");
  std::string a = "c1";
  if (relu) {
    m.Op("relu", {{"X", {"c1"}}}, {{"Out", {"r1"}}});
    a = "r1";
  }
  QuantConv(&m, a, 1.3f, "conv2d", 1, "c2");
  m.Op("hard_swish", {{"X", {"c2"}}}, {{"Out", {"h2"}}});
  QuantConv(&m, "h2", 0.8f, "depthwise_conv2d", 3, "y");
  m.Output("y");
  if (residual) {
    m.Op("elementwise_add", {{"X", {"h2"}}, {"Y", {"x"}}}, {{"Out", {"y2"}}})
        .SetAttr("axis", -1);
    m.Output("y2");
  }
  return m;
}

TEST(Int8Requantize, ChainedConvsPassLevelsAndMatchTheSimulation) {
  for (bool relu : {false, true}) {
    SCOPED_TRACE(relu ? "relu" : "no relu");
    const TestModel m = Chain(relu, false);
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(int8.outputs.empty());
    EXPECT_EQ(int8.counters.at("made_int8"), 3) << int8.pass_log;
    EXPECT_EQ(int8.counters.at("requantized"), 2) << int8.pass_log;
    // relu folds into the first conv: its output is non-negative, uint8.
    EXPECT_EQ(VarType(int8, relu ? "r1" : "c1"), relu ? "uint8" : "int8");
    EXPECT_EQ(VarType(int8, "h2"), "int8");
    EXPECT_EQ(VarType(int8, "y"), "float32");
    ExpectNearSimulation(sim, int8);
  }
}

// A model's first int8 conv (3 channels of the fed NCHW image, 17 x 19: 20
// blocks of 16 pixels and a tail) reads the image in NCHW: no layout op
// before it (the fetched output gets the only one), alone or writing the
// next int8 conv's levels, and the outputs match the simulation.
TEST(Int8Requantize, FirstConvReadsTheNchwImage) {
  for (bool chained : {false, true}) {
    SCOPED_TRACE(chained ? "writing levels for a 1x1 conv" : "alone");
    TestModel m;
    m.Input("x", {1, 3, 17, 19});
    AddQuantConv(&m, "x", 0.9f, "conv2d", 3, "c1", 3, 8);
    std::string y = "c1";
    if (chained) {
      QuantConv(&m, "c1", 1.3f, "conv2d", 1, "c2");
      y = "c2";
    }
    m.Output(y);
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(int8.outputs.empty());
    EXPECT_EQ(int8.counters.at("made_int8"), chained ? 2 : 1) << int8.pass_log;
    // Without the AVX-512 NCHW-input kernel (build or CPU) the image is
    // reordered to NHWC first: a second layout op.
    EXPECT_EQ(CountOps(int8.op_types, "layout"), lite::x86::NchwInputConv::Available() ? 1 : 2)
        << int8.pass_log;
    if (chained) EXPECT_EQ(VarType(int8, "c1"), "int8");
    ExpectNearSimulation(sim, int8);
  }
}

TEST(Int8Requantize, FloatReaderKeepsTheVarFloat) {
  const TestModel m = Chain(true, true);
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
  ASSERT_FALSE(int8.outputs.empty());
  EXPECT_EQ(int8.counters.at("requantized"), 1) << int8.pass_log;
  // h2 (the add reads it) and y (fetched).
  EXPECT_EQ(int8.counters.at("declined_float_reader"), 2) << int8.pass_log;
  EXPECT_EQ(VarType(int8, "r1"), "uint8");
  EXPECT_EQ(VarType(int8, "h2"), "float32");
  ExpectNearSimulation(sim, int8);
}

TEST(Int8Requantize, DisabledKeepsFloatBetweenInt8Convs) {
  const TestModel m = Chain(true, false);
  std::vector<std::string> without = AllFusionPasses();
  without.erase(std::find(without.begin(), without.end(), "int8_requantize_pass"));
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun r = RunOrFail(m, without, kX86);
  EXPECT_EQ(VarType(r, "r1"), "float32");
  EXPECT_EQ(VarType(r, "h2"), "float32");
  ExpectNearSimulation(sim, r);
}

// Depthwise 5x5 convs, which x86 runs on its own int8 depthwise kernel
// (lite/backends/x86/depthwise_int8_nhwc.h): float32 input, s8 or u8 levels
// in and out, float32 out: x -> dw 5x5 [-> relu] -> dw 5x5 -> hard_swish ->
// dw 5x5 -> y, 20 channels (a vector and a tail), against the simulation.
TEST(Int8Requantize, DepthwiseChainMatchesTheSimulation) {
  for (bool relu : {false, true}) {
    SCOPED_TRACE(relu ? "relu" : "no relu");
    TestModel m;
    m.Input("x", {1, 20, 7, 9});
    AddQuantConv(&m, "x", 0.9f, "depthwise_conv2d", 5, "d1", 20, 20, 20);
    std::string a = "d1";
    if (relu) {
      m.Op("relu", {{"X", {"d1"}}}, {{"Out", {"r1"}}});
      a = "r1";
    }
    AddQuantConv(&m, a, 1.3f, "depthwise_conv2d", 5, "d2", 20, 20, 20);
    m.Op("hard_swish", {{"X", {"d2"}}}, {{"Out", {"h2"}}});
    AddQuantConv(&m, "h2", 0.8f, "depthwise_conv2d", 5, "y", 20, 20, 20);
    m.Output("y");
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(int8.outputs.empty());
    EXPECT_EQ(int8.counters.at("made_int8"), 3) << int8.pass_log;
    EXPECT_EQ(int8.counters.at("requantized"), 2) << int8.pass_log;
    EXPECT_EQ(VarType(int8, relu ? "r1" : "d1"), relu ? "uint8" : "int8");
    EXPECT_EQ(VarType(int8, "h2"), "int8");
    ExpectNearSimulation(sim, int8);
  }
}

// a [1, 4, 6, 6] and b [1, 4, 3, 3] (upscaled x2 by nearest_interp, which
// concat_upscale_fuse_pass folds into the concat) -> concat on channels, or
// a and a' on H (`axis` 2: oneDNN's concat path) -> quantized 3x3 conv -> y.
TestModel ConcatIntoConv(int axis) {
  TestModel m;
  m.Input("a", {1, 4, 6, 6});
  std::string second = "a2";
  if (axis == 1) {
    m.Input("b", {1, 4, 3, 3});
    auto& up = m.Op("nearest_interp_v2", {{"X", {"b"}}}, {{"Out", {"ub"}}});
    up.SetAttr("scale", std::vector<float>{2.f, 2.f});
    up.SetAttr("align_corners", false);
    m.program.blocks[0].FindVar("ub")->dims = {1, 4, 6, 6};
    second = "ub";
  } else {
    m.Input("a2", {1, 4, 6, 6});
  }
  m.Op("concat", {{"X", {"a", second}}}, {{"Out", {"cat"}}}).SetAttr("axis", axis);
  AddQuantConv(&m, "cat", 1.1f, "conv2d", 3, "y", axis == 1 ? 8 : 4, 8);
  m.Output("y");
  return m;
}

TEST(Int8Requantize, ConcatWritesTheConvsLevels) {
  for (int axis : {1, 2}) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    const TestModel m = ConcatIntoConv(axis);
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(int8.outputs.empty());
    EXPECT_EQ(int8.counters.at("quantized_float_output"), 1) << int8.pass_log;
    EXPECT_EQ(VarType(int8, "cat"), "int8");
    EXPECT_EQ(CountOps(int8.op_types, "nearest_interp_v2"), 0);
    ExpectNearSimulation(sim, int8);
  }
}

TEST(Int8Requantize, FetchedConcatStaysFloat) {
  TestModel m = ConcatIntoConv(1);
  m.Output("cat");
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
  EXPECT_EQ(int8.counters.count("quantized_float_output"), 0u) << int8.pass_log;
  EXPECT_EQ(VarType(int8, "cat"), "float32");
  ExpectNearSimulation(sim, int8);
}

// x -> int8 conv 3x3 -> hard_swish -> h; r = h + x [-> relu] -> int8 conv
// 1x1 -> y (and, with `second_reader`, a second int8 1x1 conv of r -> z).
TestModel ResidualIntoConv(bool relu, bool second_reader) {
  TestModel m;
  m.Input("x", {1, 8, 10, 10});
  QuantConv(&m, "x", 0.9f, "conv2d", 3, "c1");
  m.Op("hard_swish", {{"X", {"c1"}}}, {{"Out", {"h"}}});
  m.program.blocks[0].FindVar("h")->dims = {1, 8, 10, 10};  // as Paddle declares them
  m.Op("elementwise_add", {{"X", {"h"}}, {"Y", {"x"}}}, {{"Out", {"sum"}}}).SetAttr("axis", -1);
  std::string r = "sum";
  if (relu) {
    m.Op("relu", {{"X", {"sum"}}}, {{"Out", {"r"}}});
    r = "r";
  }
  QuantConv(&m, r, 1.7f, "conv2d", 1, "y");
  m.Output("y");
  if (second_reader) {  // a 1x1 conv on the same quant-dequant output
    m.RandomWeight("z.w", {8, 8, 1, 1}, -0.4f, 0.4f);
    auto& wq = m.Op("fake_channel_wise_quantize_dequantize_abs_max", {{"X", {"z.w"}}},
                    {{"Out", {"z.wq"}}, {"OutScale", {"z.ws"}}});
    wq.SetAttr("bit_length", 8);
    wq.SetAttr("quant_axis", 0);
    auto& conv = m.Op("conv2d", {{"Input", {r + ".qdq"}}, {"Filter", {"z.wq"}}}, {{"Output", {"z"}}});
    conv.SetAttr("strides", std::vector<int32_t>{1, 1});
    conv.SetAttr("paddings", std::vector<int32_t>{0, 0});
    conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
    conv.SetAttr("groups", 1);
    m.Output("z");
  }
  return m;
}

TEST(Int8Requantize, ResidualAddWritesTheConvsLevels) {
  for (bool relu : {false, true}) {
    for (bool second_reader : {false, true}) {
      SCOPED_TRACE(std::string(relu ? "relu" : "no relu") + (second_reader ? ", two readers" : ""));
      const TestModel m = ResidualIntoConv(relu, second_reader);
      const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
      const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
      ASSERT_FALSE(int8.outputs.empty());
      EXPECT_EQ(int8.counters.at("quantized_float_output"), 1) << int8.pass_log;
      // The relu folds into the add (elementwise_activation_fuse_pass).
      EXPECT_EQ(VarType(int8, relu ? "r" : "sum"), "int8");
      EXPECT_EQ(VarType(int8, "h"), "float32");  // the add reads it
      ExpectNearSimulation(sim, int8);
    }
  }
}

TEST(Int8Requantize, ResidualAddReadByAFloatOpStaysFloat) {
  TestModel m = ResidualIntoConv(false, false);
  m.Op("relu", {{"X", {"sum"}}}, {{"Out", {"other"}}});
  m.Output("other");
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
  EXPECT_EQ(int8.counters.count("quantized_float_output"), 0u) << int8.pass_log;
  EXPECT_EQ(VarType(int8, "sum"), "float32");
  ExpectNearSimulation(sim, int8);
}

TEST(Int8Requantize, BroadcastAddStaysFloat) {
  TestModel m;
  m.Input("x", {1, 8, 10, 10});
  m.Input("b", {1, 8, 1, 1});
  m.Op("elementwise_add", {{"X", {"x"}}, {"Y", {"b"}}}, {{"Out", {"sum"}}}).SetAttr("axis", -1);
  QuantConv(&m, "sum", 1.7f, "conv2d", 1, "y");
  m.Output("y");
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
  EXPECT_EQ(int8.counters.count("quantized_float_output"), 0u) << int8.pass_log;
  EXPECT_EQ(VarType(int8, "sum"), "float32");
  ExpectNearSimulation(sim, int8);
}

// A pyramid's top-down add: sum = a + nearest_interp_v2(b, x2), which
// interp_residual_fuse_pass makes one resize with ResidualData a -> int8
// conv 3x3 -> y.
TEST(Int8Requantize, UpscaleResidualAddWritesTheConvsLevels) {
  TestModel m;
  m.Input("a", {1, 8, 6, 6});
  m.Input("b", {1, 8, 3, 3});
  auto& up = m.Op("nearest_interp_v2", {{"X", {"b"}}}, {{"Out", {"ub"}}});
  up.SetAttr("scale", std::vector<float>{2.f, 2.f});
  up.SetAttr("align_corners", false);
  m.program.blocks[0].FindVar("ub")->dims = {1, 8, 6, 6};
  m.Op("elementwise_add", {{"X", {"a"}}, {"Y", {"ub"}}}, {{"Out", {"sum"}}}).SetAttr("axis", -1);
  QuantConv(&m, "sum", 1.3f, "conv2d", 3, "y");
  m.Output("y");
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
  ASSERT_FALSE(int8.outputs.empty());
  EXPECT_EQ(CountOps(int8.op_types, "elementwise_add"), 0) << int8.pass_log;
  EXPECT_EQ(int8.counters.at("quantized_float_output"), 1) << int8.pass_log;
  EXPECT_EQ(VarType(int8, "sum"), "int8");
  ExpectNearSimulation(sim, int8);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
