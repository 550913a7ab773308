// Quantized programs through the optimizer and the runtime: a malformed quant
// op fails predictor creation with a Status naming it; the weight quant ops
// fold as constants to the very values the run-time kernel computes; and the
// quantize_linear / dequantize_linear form (round_type 1) computes exactly
// what the fake quant-dequant form computes, per tensor on activations and
// per channel on conv (axis 0) and matmul (axis 1) weights.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

constexpr char kActQdq[] = "fake_quantize_dequantize_moving_average_abs_max";
constexpr char kChannelQdq[] = "fake_channel_wise_quantize_dequantize_abs_max";

void ConvAttrs(cpp::OpDesc* conv) {
  conv->SetAttr("strides", std::vector<int32_t>{1, 1});
  conv->SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv->SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv->SetAttr("groups", 1);
}

// x [1,3,6,6] -> act quant-dequant (InScale 0.8) -> conv2d 3x3 (W quant-
// dequantized per output channel) -> matmul with Y [4*6*6... ] flattened.
// Every quant op gets `bits` and the weight op `axis`.
TestModel FakeForm(float in_scale, int bits = 8, int axis = 0) {
  TestModel m;
  m.Input("x", {1, 3, 6, 6});
  m.Weight("x.scale", {1}, {in_scale});
  auto& a = m.Op(kActQdq, {{"X", {"x"}}, {"InScale", {"x.scale"}}},
                 {{"Out", {"x.qdq"}}, {"OutScale", {"x.scale"}}});
  a.SetAttr("bit_length", bits);
  a.SetAttr("is_test", true);
  m.RandomWeight("w", {4, 3, 3, 3}, -0.5f, 0.5f);
  auto& w = m.Op(kChannelQdq, {{"X", {"w"}}}, {{"Out", {"w.qdq"}}, {"OutScale", {"w.scale"}}});
  w.SetAttr("bit_length", 8);
  w.SetAttr("quant_axis", axis);
  ConvAttrs(&m.Op("conv2d", {{"Input", {"x.qdq"}}, {"Filter", {"w.qdq"}}}, {{"Output", {"y"}}}));
  m.Output("y");
  return m;
}

std::string Message(const StatusOr<FusionRun>& r) {
  return r.ok() ? "created" : r.status().message();
}

void ExpectCreationFails(const TestModel& m, const std::string& op, const std::string& what) {
  const std::vector<Tensor> inputs = m.RandomInputs();
  for (const auto& fusions : {AllFusionPasses(), std::vector<std::string>{}}) {
    auto run = RunWith(m, fusions, inputs);
    EXPECT_FALSE(run.ok());
    EXPECT_NE(Message(run).find(op), std::string::npos) << Message(run);
    EXPECT_NE(Message(run).find(what), std::string::npos) << Message(run);
  }
}

TEST(QuantProgram, MalformedQuantOpsFailAtCreationNamingTheOp) {
  const std::string act = std::string(kActQdq) + " (output: x.qdq)";
  const std::string weight = std::string(kChannelQdq) + " (output: w.qdq)";
  ExpectCreationFails(FakeForm(0.f), act, "x.scale");
  ExpectCreationFails(FakeForm(-1.f), act, "must be finite and > 0");
  ExpectCreationFails(FakeForm(0.8f, 16), act, "bit_length 16");
  ExpectCreationFails(FakeForm(0.8f, 8, 2), weight, "quant_axis");

  TestModel missing = FakeForm(0.8f);
  missing.program.blocks[0].ops[1].SetInput("InScale", {"no_such_scale"});
  auto run = RunWith(missing, AllFusionPasses(), missing.RandomInputs());
  EXPECT_FALSE(run.ok());
  EXPECT_NE(Message(run).find("no_such_scale"), std::string::npos) << Message(run);
}

TEST(QuantProgram, FoldedWeightQuantMatchesTheRunTimeKernel) {
  const TestModel m = FakeForm(0.8f);
  auto folded = RunWith(m, AllFusionPasses(), m.RandomInputs());
  auto plain = RunWith(m, {}, m.RandomInputs());
  ASSERT_TRUE(folded.ok()) << folded.status().ToString();
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(CountOps(folded->op_types, kChannelQdq), 0) << folded->pass_log;
  EXPECT_EQ(CountOps(plain->op_types, kChannelQdq), 1);
  EXPECT_EQ(folded->outputs, plain->outputs);
}

// The same network with quantize_linear + dequantize_linear pairs.
TestModel LinearForm(float in_scale, const std::vector<float>& w_scales) {
  TestModel m;
  m.Input("x", {1, 3, 6, 6});
  m.Weight("x.scale", {1}, {in_scale});
  m.Weight("x.zp", {1}, {0.f});
  auto pair = [&m](const std::string& in, const std::string& scale, const std::string& zp,
                   int axis) {
    for (const char* type : {"quantize_linear", "dequantize_linear"}) {
      const bool q = std::string(type) == "quantize_linear";
      auto& op = m.Op(type, {{"X", {q ? in : in + ".q"}}, {"Scale", {scale}}, {"ZeroPoint", {zp}}},
                      {{"Y", {q ? in + ".q" : in + ".qdq"}}});
      op.SetAttr("quant_axis", axis);
      op.SetAttr("bit_length", 8);
      op.SetAttr("round_type", 1);
    }
  };
  pair("x", "x.scale", "x.zp", -1);
  m.RandomWeight("w", {4, 3, 3, 3}, -0.5f, 0.5f);
  m.Weight("w.scale", {4}, w_scales);
  m.Weight("w.zp", {4}, {0.f, 0.f, 0.f, 0.f});
  pair("w", "w.scale", "w.zp", 0);
  ConvAttrs(&m.Op("conv2d", {{"Input", {"x.qdq"}}, {"Filter", {"w.qdq"}}}, {{"Output", {"y"}}}));
  m.Output("y");
  return m;
}

TEST(QuantProgram, LinearFormEqualsFakeFormWithTheSameScales) {
  const TestModel fake = FakeForm(0.8f);
  // The fake form's weight scales: max |w| per output channel.
  const Tensor& w = fake.weights.at("w");
  std::vector<float> scales(4, 0.f);
  for (int64_t i = 0; i < w.numel(); ++i) {
    scales[i / 27] = std::max(scales[i / 27], std::abs(w.data<float>()[i]));
  }
  const TestModel linear = LinearForm(0.8f, scales);
  auto a = RunWith(fake, AllFusionPasses(), fake.RandomInputs());
  auto b = RunWith(linear, AllFusionPasses(), linear.RandomInputs());
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(a->outputs, b->outputs);
  // A scale 10% off changes the result: the comparison can fail.
  auto c = RunWith(LinearForm(0.88f, scales), AllFusionPasses(), linear.RandomInputs());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_NE(a->outputs, c->outputs);
}

TEST(QuantProgram, LinearFormMatmulWeightPerColumn) {
  // x [2, 3] @ W [3, 2], W quant-dequantized per column (quant_axis 1).
  TestModel m;
  m.Input("x", {2, 3});
  m.Weight("w", {3, 2}, {0.5f, -2.f, 0.25f, 1.f, -0.125f, 0.5f});
  m.Weight("w.scale", {2}, {0.5f, 2.f});
  auto& q = m.Op("quantize_linear", {{"X", {"w"}}, {"Scale", {"w.scale"}}}, {{"Y", {"w.q"}}});
  q.SetAttr("quant_axis", 1);
  auto& d = m.Op("dequantize_linear", {{"X", {"w.q"}}, {"Scale", {"w.scale"}}}, {{"Y", {"w.qdq"}}});
  d.SetAttr("quant_axis", 1);
  m.Op("matmul_v2", {{"X", {"x"}}, {"Y", {"w.qdq"}}}, {{"Out", {"y"}}});
  m.Output("y");
  Tensor x;
  x.Resize({2, 3});
  const std::vector<float> xv = {1.f, 2.f, 3.f, -1.f, 0.5f, 4.f};
  std::copy(xv.begin(), xv.end(), x.mutable_data<float>());
  auto run = RunWith(m, {}, {x});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  // Column scales 0.5 and 2, round_type 0 (quantize_linear's default):
  // 0.25 -> 63.5 -> 64 (ties to even), -0.125 -> -31.75 -> -32.
  const float s[2] = {0.5f, 2.f};
  const std::vector<float> wv = {0.5f, -2.f, 0.25f, 1.f, -0.125f, 0.5f};
  float w[3][2];
  for (int k = 0; k < 3; ++k) {
    for (int c = 0; c < 2; ++c) w[k][c] = std::nearbyint(wv[k * 2 + c] * 127.f / s[c]) * s[c] / 127.f;
  }
  EXPECT_EQ(w[1][0], 64.f * 0.5f / 127.f);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 2; ++c) {
      float want = 0.f;
      for (int k = 0; k < 3; ++k) want += xv[r * 3 + k] * w[k][c];
      EXPECT_NEAR(run->outputs[0][r * 2 + c], want, 1e-5f) << r << "," << c;
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
