// The ccodegen driver on hand-built NN IR models against the reference
// driver (every supported operation, broadcasting and padding cases, a
// chain with temporaries), its refusals, Serialize -> Deserialize round
// trips, corrupt and foreign bytes, a missing or failing compiler, the
// verbose command line and concurrent predictors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>
#include <random>
#include <thread>

#include "lite/backends/npu/ccodegen/ccodegen_driver.h"
#include "lite/backends/npu/ccodegen/ccodegen_emit.h"
#include "lite/backends/npu/ccodegen/ccodegen_toolchain.h"
#include "lite/utils/logging.h"

namespace lite {
namespace npu {
namespace {

std::vector<float> RandomData(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-2.f, 2.f);
  std::vector<float> v(n);
  for (float& f : v) f = dist(gen);
  return v;
}

int64_t Numel(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// Builds a Model operand by operand; every operation is appended in order.
class Builder {
 public:
  int Input(std::vector<int64_t> dims) {
    const int i = Add(std::move(dims), Lifetime::kModelInput);
    model.inputs.push_back(i);
    return i;
  }
  int Constant(std::vector<int64_t> dims, std::vector<float> data = {}) {
    if (data.empty()) data = RandomData(Numel(dims), seed_++);
    Operand o;
    o.dims = std::move(dims);
    o.lifetime = Lifetime::kConstant;
    o.name = "c" + std::to_string(model.operands.size());
    o.data.resize(data.size() * sizeof(float));
    std::memcpy(o.data.mutable_data(), data.data(), o.data.size());
    return model.AddOperand(std::move(o));
  }
  int Temporary(std::vector<int64_t> dims) { return Add(std::move(dims), Lifetime::kTemporary); }
  int Output(std::vector<int64_t> dims) {
    const int i = Add(std::move(dims), Lifetime::kModelOutput);
    model.outputs.push_back(i);
    return i;
  }
  Builder& Op(OperationType type, std::vector<int> in, std::vector<int> out,
              std::map<std::string, AttrValue> attrs = {}) {
    Operation op;
    op.type = type;
    op.inputs = std::move(in);
    op.outputs = std::move(out);
    op.attrs = std::move(attrs);
    op.origin = std::string(OperationTypeName(type)) + " #" + std::to_string(model.operations.size());
    model.AddOperation(std::move(op));
    return *this;
  }
  // x -> op -> output, in one call.
  Builder& Unary(OperationType type, std::vector<int64_t> x, std::vector<int64_t> out,
                 std::map<std::string, AttrValue> attrs = {}) {
    const int in = Input(std::move(x));
    return Op(type, {in}, {Output(std::move(out))}, std::move(attrs));
  }

  Model model;

 private:
  int Add(std::vector<int64_t> dims, Lifetime lifetime) {
    Operand o;
    o.dims = std::move(dims);
    o.lifetime = lifetime;
    o.name = "v" + std::to_string(model.operands.size());
    return model.AddOperand(std::move(o));
  }
  uint32_t seed_ = 100;
};

struct Buffers {
  std::vector<std::vector<float>> inputs, outputs;
};

Buffers MakeBuffers(const Model& m) {
  Buffers r;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    r.inputs.push_back(RandomData(m.operands[m.inputs[i]].numel(), 7 + i));
  }
  for (int idx : m.outputs) r.outputs.emplace_back(m.operands[idx].numel(), -123.f);
  return r;
}

Status Execute(Driver* d, Executable* exe, const Model& m, Buffers* r) {
  std::vector<HostTensor> in, out;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    in.push_back({r->inputs[i].data(), r->inputs[i].size() * 4, m.operands[m.inputs[i]].dims});
  }
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    out.push_back({r->outputs[i].data(), r->outputs[i].size() * 4, m.operands[m.outputs[i]].dims});
  }
  return d->Execute(exe, in, out);
}

// Runs `m` on `driver` and returns its outputs (failing the test on errors).
std::vector<std::vector<float>> RunOn(const std::string& driver, const Model& m) {
  auto d = DriverRegistry::Global().Create(driver);
  EXPECT_TRUE(d.ok());
  auto exe = (*d)->Compile(m, CompileOptions());
  EXPECT_TRUE(exe.ok()) << exe.status().ToString();
  if (!exe.ok()) return {};
  Buffers r = MakeBuffers(m);
  Status s = Execute(d->get(), exe->get(), m, &r);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return r.outputs;
}

void ExpectMatchesReference(const Model& m, float tolerance) {
  for (const Operation& op : m.operations) {
    ASSERT_TRUE(CcodegenDriver().Supports(m, op).ok()) << op.origin;
  }
  const auto want = RunOn("reference", m);
  const auto got = RunOn("ccodegen", m);
  ASSERT_EQ(want.size(), got.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(want[i].size(), got[i].size());
    for (size_t k = 0; k < want[i].size(); ++k) {
      ASSERT_NEAR(want[i][k], got[i][k], tolerance)
          << "output " << i << " (" << m.operands[m.outputs[i]].name << ") element " << k;
    }
  }
}

using AV = AttrValue;
using I = std::vector<int64_t>;

TEST(CcodegenDriver, ConvolutionsMatchReference) {
  Builder b;
  auto conv = [&](I x, I f, I y, std::map<std::string, AttrValue> attrs, bool bias) {
    std::vector<int> in = {b.Input(x), b.Constant(f)};
    if (bias) in.push_back(b.Constant({y[1]}));
    b.Op(OperationType::kConv2D, in, {b.Output(y)}, attrs);
  };
  conv({1, 3, 9, 9}, {4, 3, 3, 3}, {1, 4, 5, 5},
       {{"strides", AV(I{2, 2})}, {"paddings", AV(I{1, 1, 1, 1})}, {"dilations", AV(I{1, 1})}}, true);
  // groups 2, asymmetric padding, batch 2
  conv({2, 4, 7, 8}, {6, 2, 3, 3}, {2, 6, 6, 9},
       {{"strides", AV(I{1, 1})}, {"paddings", AV(I{0, 1, 2, 1})}, {"groups", AV(int64_t{2})}}, false);
  // depthwise, dilation 2
  conv({1, 8, 10, 10}, {8, 1, 3, 3}, {1, 8, 8, 8},
       {{"strides", AV(I{1, 1})}, {"paddings", AV(I{1, 1, 1, 1})}, {"dilations", AV(I{2, 2})},
        {"groups", AV(int64_t{8})}}, true);
  // depthwise, stride 2, symmetric and asymmetric padding
  conv({1, 6, 9, 8}, {6, 1, 3, 3}, {1, 6, 5, 4},
       {{"strides", AV(I{2, 2})}, {"paddings", AV(I{1, 1, 1, 1})}, {"groups", AV(int64_t{6})}}, true);
  conv({2, 6, 9, 8}, {6, 1, 3, 3}, {2, 6, 4, 5},
       {{"strides", AV(I{2, 2})}, {"paddings", AV(I{0, 1, 2, 1})}, {"groups", AV(int64_t{6})}}, false);
  conv({1, 3, 20, 21}, {3, 1, 5, 5}, {1, 3, 20, 21},
       {{"strides", AV(I{1, 1})}, {"paddings", AV(I{2, 2, 2, 2})}, {"groups", AV(int64_t{3})}}, true);
  // 1x1, stride 3 with padding larger than the kernel reach
  conv({1, 5, 7, 7}, {3, 5, 1, 1}, {1, 3, 4, 4},
       {{"strides", AV(I{3, 3})}, {"paddings", AV(I{2, 1, 2, 1})}}, true);
  // pointwise (no im2col), full 4 x 64 tiles and tails; then im2col with full tiles
  conv({1, 16, 9, 9}, {9, 16, 1, 1}, {1, 9, 9, 9}, {{"strides", AV(I{1, 1})}, {"paddings", AV(I{0, 0, 0, 0})}}, true);
  conv({1, 4, 12, 12}, {8, 4, 3, 3}, {1, 8, 12, 12},
       {{"strides", AV(I{1, 1})}, {"paddings", AV(I{1, 1, 1, 1})}}, false);
  ExpectMatchesReference(b.model, 1e-4f);
}

TEST(CcodegenDriver, PoolingAndFullyConnectedMatchReference) {
  Builder b;
  auto pool = [&](I x, I y, int64_t type, I k, I s, I p, int64_t exclusive) {
    b.Unary(OperationType::kPool2D, x, y,
            {{"pool_type", AV(type)}, {"ksize", AV(k)}, {"strides", AV(s)}, {"paddings", AV(p)},
             {"exclusive", AV(exclusive)}});
  };
  pool({1, 3, 9, 9}, {1, 3, 5, 5}, 0, {3, 3}, {2, 2}, {1, 1, 1, 1}, 1);  // ceil mode dims
  pool({1, 3, 8, 8}, {1, 3, 5, 5}, 0, {3, 3}, {2, 2}, {1, 2, 1, 2}, 1);
  pool({2, 4, 8, 8}, {2, 4, 4, 4}, 1, {2, 2}, {2, 2}, {0, 0, 0, 0}, 1);
  pool({1, 4, 9, 9}, {1, 4, 5, 5}, 1, {3, 3}, {2, 2}, {1, 1, 1, 1}, 1);
  pool({1, 4, 9, 9}, {1, 4, 5, 5}, 1, {3, 3}, {2, 2}, {1, 1, 1, 1}, 0);  // padding counted
  pool({1, 6, 7, 5}, {1, 6, 1, 1}, 1, {7, 5}, {1, 1}, {0, 0, 0, 0}, 1);  // global
  b.Op(OperationType::kFullyConnected, {b.Input({3, 12}), b.Constant({12, 5}), b.Constant({5})},
       {b.Output({3, 5})});
  b.Op(OperationType::kFullyConnected, {b.Input({1, 7}), b.Constant({7, 2})}, {b.Output({1, 2})});
  ExpectMatchesReference(b.model, 1e-5f);
}

TEST(CcodegenDriver, BroadcastingBinaryOperationsMatchReference) {
  const OperationType kTypes[] = {OperationType::kAdd, OperationType::kSub, OperationType::kMul,
                                  OperationType::kDiv, OperationType::kMax, OperationType::kMin};
  const std::vector<std::pair<I, I>> kShapes = {
      {{2, 3, 4, 5}, {2, 3, 4, 5}},  // same shape
      {{2, 3, 4, 5}, {3, 1, 1}},     // per channel, lower rank
      {{2, 3, 4, 5}, {5}},           // last dim
      {{2, 3, 4, 5}, {1}},           // scalar
      {{1, 3, 1, 5}, {2, 1, 4, 1}},  // both sides broadcast
      {{4, 1}, {2, 1, 3}},           // x lower rank
  };
  for (OperationType t : kTypes) {
    SCOPED_TRACE(OperationTypeName(t));
    Builder b;
    for (const auto& [x, y] : kShapes) {
      I out(std::max(x.size(), y.size()));
      for (size_t i = 0; i < out.size(); ++i) {
        const int64_t dx = i + x.size() >= out.size() ? x[i + x.size() - out.size()] : 1;
        const int64_t dy = i + y.size() >= out.size() ? y[i + y.size() - out.size()] : 1;
        out[i] = std::max(dx, dy);
      }
      b.Op(t, {b.Input(x), b.Input(y)}, {b.Output(out)});
    }
    b.Op(t, {b.Input({2, 3, 4}), b.Constant({3, 1})}, {b.Output({2, 3, 4})});  // constant y
    ExpectMatchesReference(b.model, 1e-5f);
  }
  Builder prelu;
  prelu.Op(OperationType::kPRelu, {prelu.Input({1, 3, 4, 4}), prelu.Constant({3, 1, 1})},
           {prelu.Output({1, 3, 4, 4})});
  ExpectMatchesReference(prelu.model, 0);
}

TEST(CcodegenDriver, UnaryOperationsMatchReference) {
  Builder b;
  const I d = {2, 3, 5};
  b.Unary(OperationType::kRelu, d, d).Unary(OperationType::kRelu6, d, d)
      .Unary(OperationType::kLeakyRelu, d, d, {{"alpha", AV(0.1f)}})
      .Unary(OperationType::kSigmoid, d, d).Unary(OperationType::kTanh, d, d)
      .Unary(OperationType::kSwish, d, d, {{"beta", AV(1.5f)}})
      .Unary(OperationType::kHardSwish, d, d,
             {{"threshold", AV(6.f)}, {"scale", AV(6.f)}, {"offset", AV(3.f)}})
      .Unary(OperationType::kHardSigmoid, d, d, {{"slope", AV(0.1666667f)}, {"offset", AV(0.5f)}})
      .Unary(OperationType::kClip, d, d, {{"min", AV(-0.3f)}, {"max", AV(0.4f)}})
      .Unary(OperationType::kScale, d, d, {{"scale", AV(2.5f)}, {"bias", AV(-0.5f)}})
      .Unary(OperationType::kExp, d, d).Unary(OperationType::kAbs, d, d);
  ExpectMatchesReference(b.model, 1e-6f);
}

TEST(CcodegenDriver, SoftmaxBatchNormAndDataMovementMatchReference) {
  Builder b;
  for (int64_t axis : {0, 1, 2}) b.Unary(OperationType::kSoftmax, {3, 4, 5}, {3, 4, 5}, {{"axis", AV(axis)}});
  b.Op(OperationType::kBatchNorm,
       {b.Input({2, 3, 4, 4}), b.Constant({3}), b.Constant({3}), b.Constant({3}),
        b.Constant({3}, {0.5f, 1.f, 2.f})},
       {b.Output({2, 3, 4, 4})}, {{"epsilon", AV(1e-3f)}});
  b.Unary(OperationType::kReshape, {2, 3, 4}, {4, 6});
  b.Unary(OperationType::kTranspose, {2, 3, 4}, {4, 2, 3}, {{"perm", AV(I{2, 0, 1})}});
  b.Unary(OperationType::kTranspose, {1, 2, 3, 4, 5}, {5, 1, 3, 4, 2}, {{"perm", AV(I{4, 0, 2, 3, 1})}});
  b.Op(OperationType::kConcat, {b.Input({1, 2, 3, 3}), b.Input({1, 5, 3, 3})},
       {b.Output({1, 7, 3, 3})}, {{"axis", AV(int64_t{1})}});
  b.Op(OperationType::kConcat, {b.Input({2, 3}), b.Constant({2, 4})}, {b.Output({2, 7})},
       {{"axis", AV(int64_t{1})}});
  b.Op(OperationType::kSplit, {b.Input({2, 6, 3})}, {b.Output({2, 2, 3}), b.Output({2, 4, 3})},
       {{"axis", AV(int64_t{1})}});
  b.Unary(OperationType::kSlice, {3, 4, 5}, {1, 4, 3}, {{"begins", AV(I{1, 0, 1})}});
  b.Unary(OperationType::kPad, {1, 2, 4, 5}, {1, 2, 5, 8},
          {{"paddings", AV(I{0, 0, 0, 0, 1, 0, 2, 1})}, {"value", AV(0.5f)}});
  for (int64_t mode : {1, 2}) {
    b.Unary(OperationType::kPad, {1, 2, 4, 5}, {1, 2, 7, 8},
            {{"paddings", AV(I{0, 0, 0, 0, 1, 2, 2, 1})}, {"mode", AV(mode)}});
  }
  ExpectMatchesReference(b.model, 1e-6f);
}

// conv -> relu -> pool -> reshape -> fc -> softmax through temporaries.
Model Chain() {
  Builder b;
  const int x = b.Input({2, 3, 8, 8});
  const int c = b.Temporary({2, 4, 8, 8}), r = b.Temporary({2, 4, 8, 8});
  const int p = b.Temporary({2, 4, 4, 4}), f = b.Temporary({2, 64}), l = b.Temporary({2, 10});
  b.Op(OperationType::kConv2D, {x, b.Constant({4, 3, 3, 3}), b.Constant({4})}, {c},
       {{"strides", AV(I{1, 1})}, {"paddings", AV(I{1, 1, 1, 1})}})
      .Op(OperationType::kRelu, {c}, {r})
      .Op(OperationType::kPool2D, {r}, {p},
          {{"pool_type", AV(int64_t{0})}, {"ksize", AV(I{2, 2})}, {"strides", AV(I{2, 2})},
           {"paddings", AV(I{0, 0, 0, 0})}})
      .Op(OperationType::kReshape, {p}, {f})
      .Op(OperationType::kFullyConnected, {f, b.Constant({64, 10}), b.Constant({10})}, {l})
      .Op(OperationType::kSoftmax, {l}, {b.Output({2, 10})}, {{"axis", AV(int64_t{1})}});
  return b.model;
}

TEST(CcodegenDriver, ChainWithTemporariesMatchesReference) { ExpectMatchesReference(Chain(), 1e-5f); }

TEST(CcodegenDriver, TransposedConvolutionAndResizeMatchReference) {
  Builder b;
  auto deconv = [&](I x, I f, I y, I strides, I pads, int64_t groups) {
    b.Op(OperationType::kConv2DTranspose, {b.Input(x), b.Constant(f), b.Constant({y[1]})},
         {b.Output(y)},
         {{"strides", AV(strides)}, {"paddings", AV(pads)}, {"groups", AV(groups)}});
  };
  deconv({1, 4, 5, 5}, {4, 3, 2, 2}, {1, 3, 10, 10}, {2, 2}, {0, 0, 0, 0}, 1);
  deconv({2, 4, 5, 6}, {4, 2, 3, 3}, {2, 4, 9, 11}, {2, 2}, {1, 1, 1, 1}, 2);
  auto resize = [&](OperationType t, I x, I y, std::map<std::string, AttrValue> attrs) {
    b.Unary(t, x, y, attrs);
  };
  resize(OperationType::kResizeNearest, {1, 3, 4, 5}, {1, 3, 8, 10},
         {{"ratio_h", AV(0.5f)}, {"ratio_w", AV(0.5f)}});
  resize(OperationType::kResizeNearest, {1, 2, 4, 5}, {1, 2, 7, 9},
         {{"align_corners", AV(int64_t{1})}, {"ratio_h", AV(0.5f)}, {"ratio_w", AV(0.5f)}});
  resize(OperationType::kResizeBilinear, {1, 2, 4, 4}, {1, 2, 8, 6},
         {{"align_mode", AV(int64_t{0})}, {"ratio_h", AV(0.5f)}, {"ratio_w", AV(4.f / 6.f)}});
  resize(OperationType::kResizeBilinear, {1, 2, 4, 4}, {1, 2, 7, 7},
         {{"align_corners", AV(int64_t{1})}, {"ratio_h", AV(0.5f)}, {"ratio_w", AV(0.5f)}});
  ExpectMatchesReference(b.model, 1e-5f);
}

TEST(CcodegenDriver, RefusesWithReasons) {
  Builder ints;
  ints.Unary(OperationType::kRelu, {2, 3}, {2, 3});
  ints.model.operands[0].type = ElementType::kInt32;
  Status s = CcodegenDriver().Supports(ints.model, ints.model.operations[0]);
  EXPECT_NE(s.message().find("generates float32 only"), std::string::npos) << s.ToString();
  Builder rank7;
  rank7.Unary(OperationType::kRelu, {1, 1, 1, 1, 1, 2, 3}, {1, 1, 1, 1, 1, 2, 3});
  s = CcodegenDriver().Supports(rank7.model, rank7.model.operations[0]);
  EXPECT_NE(s.message().find("relu on a tensor of rank > 6"), std::string::npos) << s.ToString();
  // Compile applies the same rules, and checks ranks check mode cannot.
  auto exe = CcodegenDriver().Compile(rank7.model, CompileOptions());
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find("rank > 6"), std::string::npos);
  Builder fc3d;
  fc3d.Op(OperationType::kFullyConnected, {fc3d.Input({2, 3, 4}), fc3d.Constant({4, 5})},
          {fc3d.Output({2, 3, 5})});
  exe = CcodegenDriver().Compile(fc3d.model, CompileOptions());
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find("is 3-D, 2-D expected"), std::string::npos)
      << exe.status().ToString();
}

TEST(CcodegenDriver, TemporariesShareTheArenaByLifetime) {
  // x -> a -> b -> c -> d -> out: two temporaries live at a time.
  Builder line;
  const I d = {3, 50};  // 150 floats, 160 aligned
  int prev = line.Input(d);
  for (int k = 0; k < 4; ++k) {
    const int t = line.Temporary(d);
    line.Op(k % 2 ? OperationType::kSigmoid : OperationType::kTanh, {prev}, {t});
    prev = t;
  }
  line.Op(OperationType::kRelu, {prev}, {line.Output(d)});
  auto generated = GenerateC(line.model);
  ASSERT_TRUE(generated.ok()) << generated.status().ToString();
  EXPECT_EQ(generated->scratch_floats, 2 * 160);
  ExpectMatchesReference(line.model, 1e-6f);
  // A temporary read again later stays alive: a = relu(x), b = sigmoid(a),
  // e = tanh(b), out = a + e.
  Builder diamond;
  const int a = diamond.Temporary(d), b = diamond.Temporary(d), e = diamond.Temporary(d);
  diamond.Op(OperationType::kRelu, {diamond.Input(d)}, {a})
      .Op(OperationType::kSigmoid, {a}, {b})
      .Op(OperationType::kTanh, {b}, {e})
      .Op(OperationType::kAdd, {a, e}, {diamond.Output(d)});
  generated = GenerateC(diamond.model);
  ASSERT_TRUE(generated.ok());
  EXPECT_EQ(generated->scratch_floats, 3 * 160);
  ExpectMatchesReference(diamond.model, 1e-6f);
}

TEST(CcodegenDriver, MalformedAttributesAreCompileStatuses) {
  auto expect_error = [](const Model& m, const std::string& part) {
    auto exe = CcodegenDriver().Compile(m, CompileOptions());
    ASSERT_FALSE(exe.ok()) << part;
    EXPECT_NE(exe.status().message().find(part), std::string::npos) << exe.status().ToString();
  };
  Builder conv;
  conv.Op(OperationType::kConv2D, {conv.Input({1, 2, 5, 5}), conv.Constant({2, 2, 3, 3})},
          {conv.Output({1, 2, 3, 3})}, {{"strides", AV(I{0, 1})}, {"paddings", AV(I{0, 0, 0, 0})}});
  expect_error(conv.model, "must be positive");
  Builder slice;
  slice.Unary(OperationType::kSlice, {3, 4}, {2, 4}, {{"begins", AV(I{2, 0})}});
  expect_error(slice.model, "outside");
  Builder pad;
  pad.Unary(OperationType::kPad, {2, 3}, {2, 9}, {{"paddings", AV(I{0, 0, 3, 3})}, {"mode", AV(int64_t{1})}});
  expect_error(pad.model, "do not fit");
  Builder fc;
  fc.Op(OperationType::kFullyConnected, {fc.Input({2, 4}), fc.Constant({5, 3})}, {fc.Output({2, 3})});
  expect_error(fc.model, "do not fit input");
}

TEST(CcodegenDriver, SerializeRoundTripGivesIdenticalOutputs) {
  const Model m = Chain();
  CcodegenDriver compiler;
  auto exe = compiler.Compile(m, CompileOptions());
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  Buffers first = MakeBuffers(m);
  ASSERT_TRUE(Execute(&compiler, exe->get(), m, &first).ok());
  auto bytes = compiler.Serialize(**exe);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(std::string(bytes->begin(), bytes->begin() + 4), "LCCG");
  exe->reset();  // the loaded copy must not depend on the compiled one

  CcodegenDriver loader;  // another instance, as a light predictor would have
  auto loaded = loader.Deserialize(m, *bytes, CompileOptions());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  Buffers second = MakeBuffers(m);
  ASSERT_TRUE(Execute(&loader, loaded->get(), m, &second).ok());
  EXPECT_EQ(first.outputs, second.outputs);
  // And it serializes again to the same bytes.
  auto again = loader.Serialize(**loaded);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *bytes);
}

TEST(CcodegenDriver, CorruptOrForeignBytesAreStatuses) {
  const Model m = Chain();
  CcodegenDriver d;
  auto exe = d.Compile(m, CompileOptions());
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  auto bytes = d.Serialize(**exe);
  ASSERT_TRUE(bytes.ok());
  auto expect_error = [&](const std::vector<uint8_t>& b, const Model& model, const std::string& part) {
    auto r = d.Deserialize(model, b, CompileOptions());
    ASSERT_FALSE(r.ok()) << part;
    EXPECT_NE(r.status().message().find(part), std::string::npos) << r.status().ToString();
  };
  expect_error({}, m, "too few");
  expect_error(std::vector<uint8_t>(bytes->begin(), bytes->begin() + 40), m, "too few");
  expect_error(std::vector<uint8_t>(bytes->begin(), bytes->end() - 1), m, "do not match");
  auto bad = *bytes;
  bad[0] = 'X';
  expect_error(bad, m, "bad magic");
  bad = *bytes;
  bad[4] = 9;
  expect_error(bad, m, "format 9");
  for (size_t at : {size_t{48 + 100}, bytes->size() / 2, bytes->size() - 3}) {  // code and weights
    bad = *bytes;
    bad[at] ^= 0x20;
    expect_error(bad, m, "checksum mismatch");
  }
  // A different model (one weight byte changed) is refused by its fingerprint.
  Model other = m;
  for (Operand& o : other.operands) {
    if (o.lifetime == Lifetime::kConstant) {
      o.data.mutable_data()[0] ^= 1;
      break;
    }
  }
  expect_error(*bytes, other, "not this model");
  // Garbage instead of a shared object, with a consistent header: dlopen fails.
  std::vector<uint8_t> garbage(bytes->begin(), bytes->begin() + 48);
  const std::vector<uint8_t> junk(1000, 0x5a);
  const uint64_t so_size = junk.size();
  std::memcpy(garbage.data() + 8, &so_size, 8);
  garbage.insert(garbage.end(), junk.begin(), junk.end());
  uint64_t weight_bytes = 0;
  std::memcpy(&weight_bytes, bytes->data() + 16, 8);
  garbage.insert(garbage.end(), bytes->end() - weight_bytes, bytes->end());
  const uint64_t sum = Fnv1a64(garbage.data() + 48 + junk.size(), weight_bytes,
                               Fnv1a64(junk.data(), junk.size()));
  std::memcpy(garbage.data() + 24, &sum, 8);
  expect_error(garbage, m, "dlopen");
}

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  bool had_;
  std::string old_;
};

TEST(CcodegenDriver, MissingOrFailingCompilerIsACompileStatus) {
  const Model m = Chain();
  {
    ScopedEnv cc(kCcodegenCompilerEnv, "/nonexistent/cc");
    auto exe = CcodegenDriver().Compile(m, CompileOptions());
    ASSERT_FALSE(exe.ok());
    EXPECT_EQ(exe.status().code(), StatusCode::kNotFound);
    EXPECT_NE(exe.status().message().find("/nonexistent/cc"), std::string::npos);
  }
  {
    ScopedEnv cc(kCcodegenCompilerEnv, nullptr);
    ScopedEnv path("PATH", "/nonexistent");
    auto exe = CcodegenDriver().Compile(m, CompileOptions());
    ASSERT_FALSE(exe.ok());
    EXPECT_NE(exe.status().message().find("no C compiler"), std::string::npos)
        << exe.status().ToString();
  }
  {
    ScopedEnv cc(kCcodegenCompilerEnv, "false");  // found in $PATH, always fails
    auto exe = CcodegenDriver().Compile(m, CompileOptions());
    ASSERT_FALSE(exe.ok());
    EXPECT_NE(exe.status().message().find("exited with 1"), std::string::npos)
        << exe.status().ToString();
  }
}

TEST(CcodegenDriver, TemporaryDirectoriesAreRemoved) {
  const char* test_tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(test_tmp ? test_tmp : "/tmp") + "/ccodegen_tmp_check";
  mkdir(dir.c_str(), 0700);
  {
    ScopedEnv tmp("TMPDIR", dir.c_str());
    CcodegenDriver d;
    auto exe = d.Compile(Chain(), CompileOptions());
    ASSERT_TRUE(exe.ok()) << exe.status().ToString();
    auto bytes = d.Serialize(**exe);
    ASSERT_TRUE(bytes.ok());
    ASSERT_TRUE(d.Deserialize(Chain(), *bytes, CompileOptions()).ok());
    ScopedEnv cc(kCcodegenCompilerEnv, "false");
    ASSERT_FALSE(d.Compile(Chain(), CompileOptions()).ok());
  }
  DIR* d = opendir(dir.c_str());
  ASSERT_NE(d, nullptr);
  std::vector<std::string> left;
  while (dirent* e = readdir(d)) {
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") left.push_back(e->d_name);
  }
  closedir(d);
  EXPECT_TRUE(left.empty()) << left.size() << " entries left, e.g. " << left[0];
}

TEST(CcodegenDriver, VerboseShowsTheCommandLine) {
  std::vector<std::string> messages;
  SetLogSink([&](LogSeverity, const std::string& m) { messages.push_back(m); });
  {
    ScopedEnv verbose(kCcodegenVerboseEnv, "1");
    ASSERT_TRUE(CcodegenDriver().Compile(Chain(), CompileOptions()).ok());
  }
  ASSERT_TRUE(CcodegenDriver().Compile(Chain(), CompileOptions()).ok());  // quiet again
  SetLogSink(nullptr);
  ASSERT_EQ(messages.size(), 1u);
  // -march= is native unless the environment names the target (a cross build).
  const char* march = std::getenv(kCcodegenMarchEnv);
  const std::string flags = std::string("-O2 -march=") + (march && *march ? march : "native") +
                            " -fPIC -shared -std=c99";
  EXPECT_NE(messages[0].find(flags), std::string::npos) << messages[0];
}

TEST(CcodegenDriver, SeveralThreadsCompileAndRun) {
  const Model m = Chain();
  const auto want = RunOn("reference", m);
  std::vector<std::thread> threads;
  std::vector<std::vector<std::vector<float>>> got(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      CcodegenDriver d;
      auto exe = d.Compile(m, CompileOptions());
      if (!exe.ok()) return;
      for (int i = 0; i < 3; ++i) {
        Buffers r = MakeBuffers(m);
        if (!Execute(&d, exe->get(), m, &r).ok()) return;
        got[t] = r.outputs;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) {
    ASSERT_EQ(got[t].size(), want.size()) << "thread " << t;
    for (size_t k = 0; k < want[0].size(); ++k) EXPECT_NEAR(got[t][0][k], want[0][k], 1e-5f);
  }
}

}  // namespace
}  // namespace npu
}  // namespace lite
