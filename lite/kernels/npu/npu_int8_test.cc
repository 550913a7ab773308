// PaddleSlim-quantized convs on `npu,host`: quant_dequant_fuse_pass asks the
// NPU driver (through the device-support registry) and makes both convs
// int8, the subgraph pass puts them on the device, and the result stays
// within one activation level of the host float simulation (the default
// driver, xnnpack: the first conv runs as XNNPACK's int8 convolution
// writing the second conv's int8 input).
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "tests/passes/fusion_test_util.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {
namespace {

constexpr char kActQdq[] = "fake_quantize_dequantize_moving_average_abs_max";
constexpr char kChannelQdq[] = "fake_channel_wise_quantize_dequantize_abs_max";
constexpr float kSecondScale = 1.5f;  // InScale of the second conv's input

std::vector<float> Ramp(int64_t n, float step) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = std::sin(step * static_cast<float>(i)) * 0.5f;
  return v;
}

// `in` -> activation qdq (InScale `scale`) -> `type` 3x3 (weights `w`, qdq
// per output channel) -> `out`.
void QuantizedConv(TestModel* m, const std::string& type, const std::string& in,
                   const std::string& w, float scale, const std::string& out) {
  m->Weight(in + ".scale", {1}, {scale});
  m->Op(kActQdq, {{"X", {in}}, {"InScale", {in + ".scale"}}},
        {{"Out", {in + ".qdq"}}, {"OutScale", {in + ".scale"}}})
      .SetAttr("bit_length", 8);
  auto& wq = m->Op(kChannelQdq, {{"X", {w}}}, {{"Out", {w + ".qdq"}}, {"OutScale", {w + ".s"}}});
  wq.SetAttr("bit_length", 8);
  wq.SetAttr("quant_axis", 0);
  auto& conv = m->Op(type, {{"Input", {in + ".qdq"}}, {"Filter", {w + ".qdq"}}}, {{"Output", {out}}});
  conv.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv.SetAttr("groups", type == "depthwise_conv2d" ? 8 : 1);
}

// x [1, 8, 10, 10] -> int8 conv -> relu -> int8 depthwise conv -> y.
TestModel TwoQuantizedConvs(std::vector<float>* second_weights) {
  TestModel m;
  m.Input("x", {1, 8, 10, 10});
  m.Weight("w1", {8, 8, 3, 3}, Ramp(8 * 8 * 9, 0.37f));
  *second_weights = Ramp(8 * 9, 0.91f);
  m.Weight("w2", {8, 1, 3, 3}, *second_weights);
  QuantizedConv(&m, "conv2d", "x", "w1", 0.9f, "c1");
  m.Op("relu", {{"X", {"c1"}}}, {{"Out", {"r1"}}});
  QuantizedConv(&m, "depthwise_conv2d", "r1", "w2", kSecondScale, "y");
  m.Output("y");
  return m;
}

TEST(NpuInt8, SlimConvsGoInt8OnTheDeviceAndMatchTheSimulation) {
  std::vector<float> w2;
  const TestModel m = TwoQuantizedConvs(&w2);
  // One level of the second conv's input moves an output by at most this.
  float step = 0.f;
  for (int c = 0; c < 8; ++c) {
    float sum = 0.f;
    for (int k = 0; k < 9; ++k) sum += std::fabs(w2[c * 9 + k]);
    step = std::max(step, kSecondScale / 127.f * sum);
  }
  auto sim = RunWith(m, {}, m.RandomInputs(), {Place(TargetType::kHost)});
  ASSERT_TRUE(sim.ok()) << sim.status().ToString();
  auto npu = RunWith(m, AllFusionPasses(), m.RandomInputs(),
                     {Place(TargetType::kNPU), Place(TargetType::kHost)});
  ASSERT_TRUE(npu.ok()) << npu.status().ToString();
  EXPECT_EQ(npu->counters["made_int8"], 2) << npu->pass_log;
  EXPECT_EQ(CountOps(npu->op_types, "subgraph"), 1) << npu->pass_log;
  EXPECT_EQ(CountOps(npu->op_types, "conv2d") + CountOps(npu->op_types, "depthwise_conv2d"), 0);
  double worst = 0, largest = 0;
  for (size_t i = 0; i < sim->outputs[0].size(); ++i) {
    worst = std::max(worst, std::fabs(double(sim->outputs[0][i]) - npu->outputs[0][i]));
    largest = std::max(largest, std::fabs(double(sim->outputs[0][i])));
  }
  EXPECT_GT(largest, 10 * step);
  EXPECT_LE(worst, step + 1e-5 * largest) << "largest " << largest;
}

}  // namespace
}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
