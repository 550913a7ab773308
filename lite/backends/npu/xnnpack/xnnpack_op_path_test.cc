// The xnnpack driver's operator path (xnnpack_op_path.h) against the
// reference driver on a small float model, and its reuse of created
// operators: a compile at a second input size reuses them (the driver's
// counters say so), executables of both sizes run interleaved (each run
// sets the operators up for its own size again), executables are destroyed
// in either order, and a change of structure (other weights, another
// stride) creates new operators. Constants sharing their buffers with the
// last model's are recognised without hashing their bytes.
#include <cmath>

#include <gtest/gtest.h>

#include "lite/backends/npu/reference/reference_driver.h"
#include "lite/backends/npu/xnnpack/xnnpack_driver.h"

namespace lite {
namespace npu {
namespace {

using Ints = std::vector<int64_t>;

Operand Tensor(const std::string& name, Ints dims, Lifetime lifetime, float seed = 0.f) {
  Operand o;
  o.name = name;
  o.dims = dims;
  o.lifetime = lifetime;
  if (lifetime == Lifetime::kConstant) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    for (int64_t i = 0; i < n; ++i) {
      const float v = 0.07f * static_cast<float>((i * 7 + 3) % 11) - 0.3f + seed;
      const auto* p = reinterpret_cast<const uint8_t*>(&v);
      o.data.append(p, p + 4);
    }
  }
  return o;
}

// x [1, 3, H, W] -> conv 8x3x3x3 + bias -> relu (folded) = c
// c -> depthwise 8x1x3x3 stride `dw_stride` -> hard_swish -> add [1, 8, 1, 1]
//   -> sigmoid * itself (mul) = d
// d -> resize_nearest x2 ; concat(that, c) -> y1 [1, 16, H, W]
// d -> global average pool -> reshape [1, 8] -> fc 8x4 -> softmax -> y2
// H and W even (dw_stride 2); `seed` shifts the conv weights.
Model Net(int64_t H, int64_t W, float seed = 0.f, int64_t dw_stride = 2) {
  Model m;
  const int64_t h = H / dw_stride, w = W / dw_stride;
  auto add = [&](Operand o) { return m.AddOperand(std::move(o)); };
  const int x = add(Tensor("x", {1, 3, H, W}, Lifetime::kModelInput));
  const int w1 = add(Tensor("w1", {8, 3, 3, 3}, Lifetime::kConstant, seed));
  const int b1 = add(Tensor("b1", {8}, Lifetime::kConstant));
  const int c0 = add(Tensor("c0", {1, 8, H, W}, Lifetime::kTemporary));
  const int c = add(Tensor("c", {1, 8, H, W}, Lifetime::kTemporary));
  const int w2 = add(Tensor("w2", {8, 1, 3, 3}, Lifetime::kConstant));
  const int d0 = add(Tensor("d0", {1, 8, h, w}, Lifetime::kTemporary));
  const int d1 = add(Tensor("d1", {1, 8, h, w}, Lifetime::kTemporary));
  const int k = add(Tensor("k", {1, 8, 1, 1}, Lifetime::kConstant));
  const int d2 = add(Tensor("d2", {1, 8, h, w}, Lifetime::kTemporary));
  const int d3 = add(Tensor("d3", {1, 8, h, w}, Lifetime::kTemporary));
  const int d = add(Tensor("d", {1, 8, h, w}, Lifetime::kTemporary));
  const int u = add(Tensor("u", {1, 8, H, W}, Lifetime::kTemporary));
  const int y1 = add(Tensor("y1", {1, 16, H, W}, Lifetime::kModelOutput));
  const int g = add(Tensor("g", {1, 8, 1, 1}, Lifetime::kTemporary));
  const int r = add(Tensor("r", {1, 8}, Lifetime::kTemporary));
  const int w3 = add(Tensor("w3", {8, 4}, Lifetime::kConstant));
  const int f = add(Tensor("f", {1, 4}, Lifetime::kTemporary));
  const int y2 = add(Tensor("y2", {1, 4}, Lifetime::kModelOutput));
  auto op = [&](OperationType t, std::vector<int> in, int out,
                std::map<std::string, AttrValue> attrs = {}) {
    Operation o;
    o.type = t;
    o.inputs = in;
    o.outputs = {out};
    o.attrs = attrs;
    o.origin = std::string(OperationTypeName(t)) + " -> " + m.operands[out].name;
    m.AddOperation(o);
  };
  const Ints ones = {1, 1};
  op(OperationType::kConv2D, {x, w1, b1}, c0,
     {{"strides", ones}, {"paddings", Ints{1, 1, 1, 1}}, {"dilations", ones}, {"groups", int64_t(1)}});
  op(OperationType::kRelu, {c0}, c);
  op(OperationType::kConv2D, {c, w2}, d0,
     {{"strides", Ints{dw_stride, dw_stride}}, {"paddings", Ints{1, 1, 1, 1}},
      {"dilations", ones}, {"groups", int64_t(8)}});
  op(OperationType::kHardSwish, {d0}, d1,
     {{"threshold", 6.f}, {"scale", 6.f}, {"offset", 3.f}});
  op(OperationType::kAdd, {d1, k}, d2);
  op(OperationType::kSigmoid, {d2}, d3);
  op(OperationType::kMul, {d2, d3}, d);
  op(OperationType::kResizeNearest, {d}, u,
     {{"align_corners", int64_t(0)}, {"align_mode", int64_t(1)},
      {"ratio_h", 1.f / float(dw_stride)}, {"ratio_w", 1.f / float(dw_stride)}});
  op(OperationType::kConcat, {u, c}, y1, {{"axis", int64_t(1)}});
  op(OperationType::kPool2D, {d}, g,
     {{"pool_type", int64_t(1)}, {"ksize", Ints{h, w}}, {"strides", ones},
      {"paddings", Ints{0, 0, 0, 0}}, {"exclusive", int64_t(1)}});
  op(OperationType::kReshape, {g}, r);
  op(OperationType::kFullyConnected, {r, w3}, f);
  op(OperationType::kSoftmax, {f}, y2, {{"axis", int64_t(1)}});
  m.inputs = {x};
  m.outputs = {y1, y2};
  return m;
}

struct Buffers {
  std::vector<std::vector<float>> data;
  std::vector<HostTensor> tensors;
};

Buffers For(const Model& m, const std::vector<int>& which, bool fill) {
  Buffers b;
  for (int idx : which) {
    const Operand& o = m.operands[idx];
    std::vector<float> v(o.numel());
    for (size_t i = 0; fill && i < v.size(); ++i) v[i] = 0.01f * float((i * 13) % 97) - 0.4f;
    b.data.push_back(std::move(v));
  }
  for (size_t i = 0; i < which.size(); ++i) {
    HostTensor t;
    t.data = b.data[i].data();
    t.bytes = b.data[i].size() * 4;
    t.dims = m.operands[which[i]].dims;
    b.tensors.push_back(t);
  }
  return b;
}

// Runs `exe` of `driver` on `m`'s fixed input and compares it with the
// reference driver.
void ExpectMatchesReference(Driver* driver, Executable* exe, const Model& m) {
  Buffers in = For(m, m.inputs, true), out = For(m, m.outputs, false),
          want = For(m, m.outputs, false);
  ASSERT_TRUE(driver->Execute(exe, in.tensors, out.tensors).ok());
  ReferenceDriver reference;
  auto ref = reference.Compile(m, CompileOptions());
  ASSERT_TRUE(ref.ok()) << ref.status().message();
  ASSERT_TRUE(reference.Execute(ref.value().get(), in.tensors, want.tensors).ok());
  for (size_t o = 0; o < out.data.size(); ++o) {
    for (size_t i = 0; i < out.data[o].size(); ++i) {
      ASSERT_NEAR(out.data[o][i], want.data[o][i], 1e-4f + 1e-4f * std::fabs(want.data[o][i]))
          << m.operands[m.outputs[o]].name << "[" << i << "]";
    }
  }
}

std::unique_ptr<Executable> MustCompile(XnnpackDriver* driver, const Model& m) {
  auto exe = driver->Compile(m, CompileOptions());
  EXPECT_TRUE(exe.ok()) << exe.status().message();
  if (!exe.ok()) return nullptr;
  EXPECT_EQ(exe.value()->Describe(), "xnnpack operators");
  return std::move(exe).value();
}

TEST(XnnpackOperatorPath, SecondSizeReusesOperatorsAndBothSizesMatchReference) {
  XnnpackDriver driver;
  const Model a = Net(8, 12), b = Net(14, 6);
  auto ea = MustCompile(&driver, a);
  auto eb = MustCompile(&driver, b);
  ASSERT_TRUE(ea && eb);
  EXPECT_EQ(driver.operators().created(), 1);
  EXPECT_EQ(driver.operators().reused(), 1);
  // Interleaved: each run sets the shared operators up for its own size.
  ExpectMatchesReference(&driver, ea.get(), a);
  ExpectMatchesReference(&driver, eb.get(), b);
  ExpectMatchesReference(&driver, ea.get(), a);
}

TEST(XnnpackOperatorPath, ExecutablesDestroyedInEitherOrder) {
  for (bool first_goes_first : {true, false}) {
    XnnpackDriver driver;
    const Model a = Net(8, 8), b = Net(10, 12), c = Net(6, 4);
    auto ea = MustCompile(&driver, a);
    auto eb = MustCompile(&driver, b);
    ASSERT_TRUE(ea && eb);
    if (first_goes_first) {
      ea.reset();
      ExpectMatchesReference(&driver, eb.get(), b);
    } else {
      eb.reset();
      ExpectMatchesReference(&driver, ea.get(), a);
    }
    auto ec = MustCompile(&driver, c);  // still reuses the kept operators
    ASSERT_TRUE(ec);
    EXPECT_EQ(driver.operators().created(), 1);
    EXPECT_EQ(driver.operators().reused(), 2);
    ExpectMatchesReference(&driver, ec.get(), c);
    ea.reset();
    eb.reset();
    ExpectMatchesReference(&driver, ec.get(), c);
  }
}

// The subgraph kernel hands every size the same weight buffers; a copy
// written (copy on write) is a buffer of its own and is hashed again.
TEST(XnnpackOperatorPath, SharedConstantsAreRecognisedByTheirBuffer) {
  XnnpackDriver driver;
  const Model a = Net(8, 12);
  Model b = Net(14, 6), c = Net(10, 10);
  int constants = 0;
  for (size_t i = 0; i < a.operands.size(); ++i) {
    if (a.operands[i].lifetime != Lifetime::kConstant) continue;
    ++constants;
    b.operands[i].data = a.operands[i].data;
    c.operands[i].data = a.operands[i].data;
    ASSERT_TRUE(b.operands[i].data.SameBuffer(a.operands[i].data));
  }
  auto ea = MustCompile(&driver, a);
  ASSERT_TRUE(ea);
  EXPECT_EQ(driver.operators().hashed(), constants);
  auto eb = MustCompile(&driver, b);
  ASSERT_TRUE(eb);
  EXPECT_EQ(driver.operators().hashed(), constants);
  EXPECT_EQ(driver.operators().reused(), 1);
  // Another first weight value in c's own copy: hashed, new operators.
  const int w1 = 1;
  ASSERT_EQ(c.operands[w1].name, "w1");
  c.operands[w1].data.mutable_data()[0] ^= 0x40;
  EXPECT_FALSE(c.operands[w1].data.SameBuffer(a.operands[w1].data));
  auto ec = MustCompile(&driver, c);
  ASSERT_TRUE(ec);
  EXPECT_EQ(driver.operators().hashed(), constants + 1);
  EXPECT_EQ(driver.operators().created(), 2);
  ExpectMatchesReference(&driver, ea.get(), a);
  ExpectMatchesReference(&driver, eb.get(), b);
  ExpectMatchesReference(&driver, ec.get(), c);
}

TEST(XnnpackOperatorPath, StructureChangeCreatesNewOperators) {
  XnnpackDriver driver;
  const Model a = Net(8, 8), other_weights = Net(8, 8, 0.05f), other_stride = Net(8, 8, 0.f, 1);
  auto ea = MustCompile(&driver, a);
  auto ew = MustCompile(&driver, other_weights);
  ASSERT_TRUE(ea && ew);
  EXPECT_EQ(driver.operators().created(), 2);
  auto es = MustCompile(&driver, other_stride);
  ASSERT_TRUE(es);
  EXPECT_EQ(driver.operators().created(), 3);
  EXPECT_EQ(driver.operators().reused(), 0);
  // The older structures' executables keep their own operators.
  ExpectMatchesReference(&driver, ea.get(), a);
  ExpectMatchesReference(&driver, ew.get(), other_weights);
  ExpectMatchesReference(&driver, es.get(), other_stride);
}

}  // namespace
}  // namespace npu
}  // namespace lite
