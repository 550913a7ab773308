// se_block_fuse_pass on quantized SE blocks (the slim form: fake quant ops
// before each 1x1 conv, int8 convs once quant_dequant_fuse_pass ran): the
// block becomes one squeeze_excitation op carrying the dequantized filters
// and the convs' input scales, and its output stays within float rounding of
// the exact float32 simulation of the quant ops; with the pass disabled the
// two int8 convs stay.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

const std::vector<Place> kX86 = {Place(TargetType::kX86), Place(TargetType::kHost)};

// x [1, c, 3, 12] -> avg pool -> [qdq] conv 1x1 (c -> 4) -> relu -> [qdq]
// conv 1x1 (4 -> c) -> hard_sigmoid -> mul(x, gate) -> y. Without
// `quantized_excite` the second conv is a plain float conv; y is fetched
// with `fetch_y`.
TestModel QuantSe(bool quantized_excite, bool fetch_y = true, int64_t c = 16) {
  TestModel m;
  m.Input("x", {1, c, 3, 12});
  auto& pool = m.Op("pool2d", {{"X", {"x"}}}, {{"Out", {"p"}}});
  pool.SetAttr("pooling_type", std::string("avg"));
  pool.SetAttr("ksize", std::vector<int>{1, 1});
  pool.SetAttr("adaptive", true);
  AddQuantConv(&m, "p", 0.3f, "conv2d", 1, "s", c, 4);
  m.Op("relu", {{"X", {"s"}}}, {{"Out", {"r"}}});
  if (quantized_excite) {
    AddQuantConv(&m, "r", 0.2f, "conv2d", 1, "e", 4, c);
  } else {
    m.RandomWeight("e.w", {c, 4, 1, 1}, -0.4f, 0.4f);
    auto& conv = m.Op("conv2d", {{"Input", {"r"}}, {"Filter", {"e.w"}}}, {{"Output", {"e"}}});
    conv.SetAttr("strides", std::vector<int32_t>{1, 1});
    conv.SetAttr("paddings", std::vector<int32_t>{0, 0});
    conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
    conv.SetAttr("groups", 1);
  }
  m.Op("hard_sigmoid", {{"X", {"e"}}}, {{"Out", {"g"}}});
  m.Op("elementwise_mul", {{"X", {"x"}}, {"Y", {"g"}}}, {{"Out", {"y"}}}).SetAttr("axis", -1);
  if (fetch_y) m.Output("y");
  return m;
}

// QuantSe's y read only by a quantized 1x1 conv (c -> 8) writing z.
TestModel QuantSeIntoConv(int64_t c = 16) {
  TestModel m = QuantSe(true, false, c);
  AddQuantConv(&m, "y", 0.7f, "conv2d", 1, "z", c, 8);
  m.Output("z");
  return m;
}

TEST(SeBlockFuseInt8, QuantizedBlockFusesAndMatchesTheSimulation) {
  for (bool quantized_excite : {true, false}) {
    SCOPED_TRACE(quantized_excite ? "both convs int8" : "squeeze conv int8 only");
    const TestModel m = QuantSe(quantized_excite);
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun r = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(r.outputs.empty());
    EXPECT_EQ(r.counters.at("made_int8"), quantized_excite ? 2 : 1) << r.pass_log;
    EXPECT_EQ(r.counters.at("fused_int8"), 1) << r.pass_log;
    EXPECT_EQ(CountOps(r.op_types, "squeeze_excitation"), 1);
    EXPECT_EQ(CountOps(r.op_types, "conv2d"), 0);
    const cpp::OpDesc* se = nullptr;
    for (const cpp::OpDesc& op : r.program.blocks[0].ops) {
      if (op.Type() == "squeeze_excitation") se = &op;
    }
    ASSERT_NE(se, nullptr);
    EXPECT_EQ(se->GetAttr<float>("Squeeze_input_scale"), 0.3f);
    EXPECT_EQ(se->HasAttr("Excite_input_scale"), quantized_excite);
    ExpectNearSimulation(sim, r);
  }
}

// int8_requantize_pass then has the fused op write the conv's levels.
// 16 channels: a gate period of 64; 24: 48 (gate vectors of mixed
// channels); 88: 176 (the classifier's width, a tail in the last pixel row).
TEST(SeBlockFuseInt8, FusedBlockWritesTheNextConvsLevels) {
  for (int64_t c : {16, 24, 88}) {
    SCOPED_TRACE(std::to_string(c) + " channels");
    const TestModel m = QuantSeIntoConv(c);
    const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
    const FusionRun r = RunOrFail(m, AllFusionPasses(), kX86);
    ASSERT_FALSE(r.outputs.empty());
    EXPECT_EQ(r.counters.at("fused_int8"), 1) << r.pass_log;
    EXPECT_EQ(r.counters.at("quantized_float_output"), 1) << r.pass_log;
    const cpp::VarDesc* y = r.program.blocks[0].FindVar("y");
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->dtype, DataType::kInt8);
    ExpectNearSimulation(sim, r);
  }
}

TEST(SeBlockFuseInt8, DisabledKeepsTheInt8Convs) {
  const TestModel m = QuantSe(true);
  std::vector<std::string> without = AllFusionPasses();
  without.erase(std::find(without.begin(), without.end(), "se_block_fuse_pass"));
  const FusionRun sim = RunOrFail(m, {}, {Place(TargetType::kHost)});
  const FusionRun r = RunOrFail(m, without, kX86);
  EXPECT_EQ(CountOps(r.op_types, "squeeze_excitation"), 0);
  EXPECT_EQ(CountOps(r.op_types, "conv2d"), 2);
  ExpectNearSimulation(sim, r);
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
