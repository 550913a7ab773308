// quant_dequant_fuse_pass: fake quant-dequant around convs becomes int8
// convs where the x86 int8 kernel takes them (counted made_int8), with
// outputs close to the float32 simulation; host-only keeps the simulation
// exactly (declined_no_int8_kernel); batch norm after an int8 conv folds into
// its Filter_scales; a conv whose input is not quantized is declined.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "lite/core/mir/fusion/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

constexpr char kPass[] = "quant_dequant_fuse_pass";
constexpr char kActQdq[] = "fake_quantize_dequantize_moving_average_abs_max";
constexpr char kChannelQdq[] = "fake_channel_wise_quantize_dequantize_abs_max";

const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

// x [1, 8, 10, 10] -> act qdq -> `type` 3x3 (W qdq per output channel)
// [-> batch_norm] -> relu -> y.
TestModel QuantConv(const std::string& type, bool with_bn, bool quantize_input = true) {
  TestModel m;
  m.Input("x", {1, 8, 10, 10});
  std::string in = "x";
  if (quantize_input) {
    m.Weight("x.scale", {1}, {0.9f});
    m.Op(kActQdq, {{"X", {"x"}}, {"InScale", {"x.scale"}}},
         {{"Out", {"x.qdq"}}, {"OutScale", {"x.scale"}}})
        .SetAttr("bit_length", 8);
    in = "x.qdq";
  }
  const bool dw = type == "depthwise_conv2d";
  m.RandomWeight("w", {8, dw ? 1 : 8, 3, 3}, -0.4f, 0.4f);
  auto& wq = m.Op(kChannelQdq, {{"X", {"w"}}}, {{"Out", {"w.qdq"}}, {"OutScale", {"w.s"}}});
  wq.SetAttr("bit_length", 8);
  wq.SetAttr("quant_axis", 0);
  auto& conv = m.Op(type, {{"Input", {in}}, {"Filter", {"w.qdq"}}}, {{"Output", {"c"}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", dw ? 8 : 1);
  std::string pre = "c";
  if (with_bn) {
    m.RandomWeight("gamma", {8}, -1.5f, 1.5f);  // negative scales too
    m.RandomWeight("beta", {8});
    m.RandomWeight("mean", {8});
    m.RandomWeight("var", {8}, 0.5f, 2.f);
    m.Op("batch_norm",
         {{"X", {"c"}}, {"Scale", {"gamma"}}, {"Bias", {"beta"}}, {"Mean", {"mean"}},
          {"Variance", {"var"}}},
         {{"Y", {"b"}}, {"MeanOut", {"mean"}}, {"VarianceOut", {"var"}},
          {"SavedMean", {"sm"}}, {"SavedVariance", {"sv"}}});
    pre = "b";
  }
  m.Op("relu", {{"X", {pre}}}, {{"Out", {"y"}}});
  m.Output("y");
  return m;
}

bool HasInt8Conv(const FusionRun& r) {
  for (const auto& op : r.program.blocks[0].ops) {
    if (op.GetAttr<bool>("enable_int8", false)) return true;
  }
  return false;
}

TEST(QuantDequantFuse, ConvsBecomeInt8OnX86AndStayCloseToTheSimulation) {
  for (const char* type : {"conv2d", "depthwise_conv2d"}) {
    for (bool bn : {false, true}) {
      SCOPED_TRACE(std::string(type) + (bn ? " + batch_norm" : ""));
      const TestModel m = QuantConv(type, bn);
      const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
      const FusionRun int8 = RunOrFail(m, AllFusionPasses(), kX86);
      ASSERT_FALSE(int8.outputs.empty());
      EXPECT_EQ(int8.counters.at("made_int8"), 1) << int8.pass_log;
      EXPECT_TRUE(HasInt8Conv(int8));
      EXPECT_EQ(CountOps(int8.op_types, kActQdq), 0);
      EXPECT_EQ(CountOps(int8.op_types, kChannelQdq), 0);
      EXPECT_EQ(CountOps(int8.op_types, "batch_norm"), 0);
      ExpectNearSimulation(sim, int8);
    }
  }
}

TEST(QuantDequantFuse, HostOnlyOrDisabledKeepsTheExactSimulation) {
  const TestModel m = QuantConv("conv2d", true);
  const FusionRun plain = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun host = RunOrFail(m, {kPass}, {Place(TargetType::kHost)});
  EXPECT_EQ(host.counters.at("declined_no_int8_kernel"), 1) << host.pass_log;
  EXPECT_FALSE(HasInt8Conv(host));
  EXPECT_EQ(host.outputs, plain.outputs);
  std::vector<std::string> without = AllFusionPasses();
  without.erase(std::find(without.begin(), without.end(), kPass));
  const FusionRun x86_sim = RunOrFail(m, without, kX86);
  EXPECT_FALSE(HasInt8Conv(x86_sim));
  EXPECT_EQ(CountOps(x86_sim.op_types, kActQdq), 1);
}

TEST(QuantDequantFuse, UnquantizedInputIsDeclined) {
  const TestModel m = QuantConv("conv2d", false, false);
  // All fusions: the x86 float conv needs its Filter as a weight, which
  // constant_folding_pass makes of the weight quant op's output.
  const FusionRun r = RunOrFail(m, AllFusionPasses(), kX86);
  EXPECT_EQ(r.counters.at("declined_pattern"), 1) << r.pass_log;
  EXPECT_FALSE(HasInt8Conv(r));
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
