// The xnnpack driver on quantized NN IR against the reference driver: a
// quantized conv whose output feeds a quantize runs as XNNPACK's int8
// convolution (requantized in XNNPACK), one with a float32 output as the
// float simulation; both within one output level of the reference. Fully
// connected likewise (int8 in XNNPACK only with a per-tensor weight scale).
// int8 models run on the subgraph runtime path: the operator path declines
// them, and the executable says so.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "lite/backends/npu/reference/reference_driver.h"
#include "lite/backends/npu/xnnpack/xnnpack_driver.h"

namespace lite {
namespace npu {
namespace {

using Ints = std::vector<int64_t>;

Operand Int8(const std::string& name, Ints dims, Lifetime lifetime, std::vector<float> scales,
             int32_t axis) {
  Operand o;
  o.name = name;
  o.dims = dims;
  o.lifetime = lifetime;
  o.type = ElementType::kInt8;
  o.quant.kind = scales.size() == 1 && lifetime != Lifetime::kConstant
                     ? Quantization::kPerTensor
                     : Quantization::kPerChannel;
  o.quant.scales = std::move(scales);
  o.quant.axis = axis;
  if (lifetime == Lifetime::kConstant) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    for (int64_t i = 0; i < n; ++i) o.data.push_back(static_cast<uint8_t>((i * 53 + 7) % 255 - 127));
  }
  return o;
}

Operand Float(const std::string& name, Ints dims, Lifetime lifetime) {
  Operand o;
  o.name = name;
  o.dims = dims;
  o.lifetime = lifetime;
  if (lifetime == Lifetime::kConstant) {
    for (int64_t i = 0; i < dims[0]; ++i) {
      const float v = 0.05f * static_cast<float>(i % 5) - 0.1f;
      const auto* p = reinterpret_cast<const uint8_t*>(&v);
      o.data.append(p, p + 4);
    }
  }
  return o;
}

// x [1, 4, 6, 6] -> quantize (0.02) -> conv 8x4x3x3 + bias -> relu ->
// quantize (0.05) -> depthwise 8x1x3x3 (stride 2) -> y float32.
Model TwoQuantizedConvs(float* level_step_effect) {
  Model m;
  const int x = m.AddOperand(Float("x", {1, 4, 6, 6}, Lifetime::kModelInput));
  const int xq = m.AddOperand(Int8("x.q", {1, 4, 6, 6}, Lifetime::kTemporary, {0.02f}, 0));
  std::vector<float> s1, s2;
  for (int c = 0; c < 8; ++c) {
    s1.push_back(0.002f * (c + 1));
    s2.push_back(0.004f * (8 - c));
  }
  const int w1 = m.AddOperand(Int8("w1", {8, 4, 3, 3}, Lifetime::kConstant, s1, 0));
  const int b1 = m.AddOperand(Float("b1", {8}, Lifetime::kConstant));
  const int c1 = m.AddOperand(Float("c1", {1, 8, 6, 6}, Lifetime::kTemporary));
  const int r1 = m.AddOperand(Float("r1", {1, 8, 6, 6}, Lifetime::kTemporary));
  const int rq = m.AddOperand(Int8("r1.q", {1, 8, 6, 6}, Lifetime::kTemporary, {0.05f}, 0));
  const int w2 = m.AddOperand(Int8("w2", {8, 1, 3, 3}, Lifetime::kConstant, s2, 0));
  const int y = m.AddOperand(Float("y", {1, 8, 3, 3}, Lifetime::kModelOutput));
  auto op = [&](OperationType t, std::vector<int> in, int out,
                std::map<std::string, AttrValue> attrs) {
    Operation o;
    o.type = t;
    o.inputs = in;
    o.outputs = {out};
    o.attrs = attrs;
    o.origin = std::string(OperationTypeName(t)) + " -> " + m.operands[out].name;
    m.AddOperation(o);
  };
  auto conv = [](int64_t stride, int64_t groups) -> std::map<std::string, AttrValue> {
    return {{"strides", Ints{stride, stride}}, {"paddings", Ints{1, 1, 1, 1}},
            {"dilations", Ints{1, 1}}, {"groups", groups}};
  };
  op(OperationType::kQuantize, {x}, xq, {{"round_type", int64_t(1)}});
  op(OperationType::kConv2D, {xq, w1, b1}, c1, conv(1, 1));
  op(OperationType::kRelu, {c1}, r1, {});
  op(OperationType::kQuantize, {r1}, rq, {{"round_type", int64_t(1)}});
  op(OperationType::kConv2D, {rq, w2}, y, conv(2, 8));
  m.inputs = {x};
  m.outputs = {y};
  // One level of r1.q moves an output by at most 0.05 * sum |w2[c]|.
  *level_step_effect = 0.f;
  for (int c = 0; c < 8; ++c) {
    float sum = 0.f;
    for (int k = 0; k < 9; ++k) sum += std::fabs(static_cast<int8_t>(m.operands[w2].data[c * 9 + k]) * s2[c]);
    *level_step_effect = std::max(*level_step_effect, 0.05f * sum);
  }
  return m;
}

std::vector<float> RunOn(Driver* driver, const Model& model, std::vector<float> x) {
  for (const Operation& op : model.operations) {
    Status s = driver->Supports(model, op);
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
  auto exe = driver->Compile(model, CompileOptions());
  EXPECT_TRUE(exe.ok()) << exe.status().ToString();
  if (!exe.ok()) return {};
  if (dynamic_cast<XnnpackDriver*>(driver)) {
    // int8 operands: the operator path declines, the subgraph runtime says why.
    EXPECT_EQ(exe.value()->Describe().rfind(
                  "xnnpack subgraph runtime (operators declined: int8 operand", 0),
              0u)
        << exe.value()->Describe();
  }
  std::vector<float> y(72, -100.f);
  Status s = driver->Execute(exe->get(), {{x.data(), x.size() * 4, {1, 4, 6, 6}}},
                             {{y.data(), y.size() * 4, {1, 8, 3, 3}}});
  EXPECT_TRUE(s.ok()) << s.ToString();
  return y;
}

TEST(XnnpackQuantized, ConvChainMatchesTheReferenceWithinOneLevel) {
  float step = 0.f;
  const Model model = TwoQuantizedConvs(&step);
  ASSERT_EQ(model.Validate(false), "");
  std::vector<float> x(144);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * i) * 1.5f;
  ReferenceDriver reference;
  XnnpackDriver xnnpack;
  const auto want = RunOn(&reference, model, x), got = RunOn(&xnnpack, model, x);
  ASSERT_EQ(want.size(), 72u);
  ASSERT_EQ(got.size(), 72u);
  float largest = 0.f, worst = 0.f;
  for (size_t i = 0; i < want.size(); ++i) {
    largest = std::max(largest, std::fabs(want[i]));
    worst = std::max(worst, std::fabs(got[i] - want[i]));
  }
  EXPECT_GT(largest, 10 * step) << "outputs too small to tell anything";
  EXPECT_LE(worst, step + 1e-5f) << "largest output " << largest;
}

// x [2, 16] -> quantize (0.05) -> fc [16, 6] (per tensor when `per_tensor`)
// + bias -> relu -> quantize (0.1) -> fc [6, 4] per channel -> y float32.
TEST(XnnpackQuantized, FullyConnectedChainMatchesTheReferenceWithinOneLevel) {
  for (bool per_tensor : {true, false}) {
    SCOPED_TRACE(per_tensor ? "per-tensor first fc (int8 in XNNPACK)" : "per-channel first fc");
    Model m;
    const int x = m.AddOperand(Float("x", {2, 16}, Lifetime::kModelInput));
    const int xq = m.AddOperand(Int8("x.q", {2, 16}, Lifetime::kTemporary, {0.05f}, 0));
    const int w1 = m.AddOperand(Int8("w1", {16, 6}, Lifetime::kConstant,
                                     per_tensor ? std::vector<float>{0.004f}
                                                : std::vector<float>{0.002f, 0.003f, 0.004f,
                                                                     0.005f, 0.006f, 0.007f},
                                     1));
    if (per_tensor) m.operands[w1].quant.kind = Quantization::kPerTensor;
    const int b1 = m.AddOperand(Float("b1", {6}, Lifetime::kConstant));
    const int f1 = m.AddOperand(Float("f1", {2, 6}, Lifetime::kTemporary));
    const int r1 = m.AddOperand(Float("r1", {2, 6}, Lifetime::kTemporary));
    const int rq = m.AddOperand(Int8("r1.q", {2, 6}, Lifetime::kTemporary, {0.1f}, 0));
    const std::vector<float> s2{0.01f, 0.02f, 0.03f, 0.04f};
    const int w2 = m.AddOperand(Int8("w2", {6, 4}, Lifetime::kConstant, s2, 1));
    const int y = m.AddOperand(Float("y", {2, 4}, Lifetime::kModelOutput));
    auto op = [&](OperationType t, std::vector<int> in, int out) {
      Operation o;
      o.type = t;
      o.inputs = in;
      o.outputs = {out};
      if (t == OperationType::kQuantize) o.attrs = {{"round_type", int64_t(1)}};
      o.origin = m.operands[out].name;
      m.AddOperation(o);
    };
    op(OperationType::kQuantize, {x}, xq);
    op(OperationType::kFullyConnected, {xq, w1, b1}, f1);
    op(OperationType::kRelu, {f1}, r1);
    op(OperationType::kQuantize, {r1}, rq);
    op(OperationType::kFullyConnected, {rq, w2}, y);
    m.inputs = {x};
    m.outputs = {y};
    ASSERT_EQ(m.Validate(false), "");
    float step = 0.f;
    for (int n = 0; n < 4; ++n) {
      float sum = 0.f;
      for (int k = 0; k < 6; ++k) sum += std::fabs(static_cast<int8_t>(m.operands[w2].data[k * 4 + n]) * s2[n]);
      step = std::max(step, 0.1f * sum);
    }
    std::vector<float> in(32);
    for (size_t i = 0; i < in.size(); ++i) in[i] = std::cos(0.7f * i) * 4.f;
    std::vector<std::vector<float>> results;
    ReferenceDriver reference;
    XnnpackDriver xnnpack;
    for (Driver* d : std::vector<Driver*>{&reference, &xnnpack}) {
      auto exe = d->Compile(m, CompileOptions());
      ASSERT_TRUE(exe.ok()) << exe.status().ToString();
      std::vector<float> out(8, -100.f);
      ASSERT_TRUE(d->Execute(exe->get(), {{in.data(), 128, {2, 16}}}, {{out.data(), 32, {2, 4}}}).ok());
      results.push_back(out);
    }
    float largest = 0.f, worst = 0.f;
    for (size_t i = 0; i < 8; ++i) {
      largest = std::max(largest, std::fabs(results[0][i]));
      worst = std::max(worst, std::fabs(results[1][i] - results[0][i]));
    }
    EXPECT_GT(largest, 2 * step);
    EXPECT_LE(worst, step + 1e-5f) << "largest output " << largest;
  }
}

}  // namespace
}  // namespace npu
}  // namespace lite
