// The operation table (nn_ir_operations.h) as Validate and the names see it.
#include "lite/backends/npu/nn_ir.h"

#include <gtest/gtest.h>

namespace lite {
namespace npu {
namespace {

// One operation of `type` reading `inputs` model inputs, with `attrs`.
Model OneOp(OperationType type, int inputs, std::map<std::string, AttrValue> attrs) {
  Model m;
  Operation op;
  op.type = type;
  op.origin = "test";
  op.attrs = std::move(attrs);
  for (int i = 0; i < inputs; ++i) {
    Operand x;
    x.dims = {1, 4};
    x.lifetime = Lifetime::kModelInput;
    x.name = "x" + std::to_string(i);
    const int idx = m.AddOperand(x);
    m.inputs.push_back(idx);
    op.inputs.push_back(idx);
  }
  Operand out;
  out.dims = {1, 4};
  out.lifetime = Lifetime::kModelOutput;
  out.name = "out";
  op.outputs.push_back(m.AddOperand(out));
  m.outputs.push_back(op.outputs[0]);
  m.AddOperation(op);
  return m;
}

TEST(NnIrTable, NamesComeFromTheTable) {
  EXPECT_STREQ(OperationTypeName(OperationType::kConv2D), "conv2d");
  EXPECT_STREQ(OperationTypeName(OperationType::kBatchNorm), "batch_norm");
  EXPECT_STREQ(OperationTypeName(static_cast<OperationType>(kNumOperationTypes)), "?");
  EXPECT_EQ(InfoOf(OperationType::kConcat).max_inputs, -1);
  EXPECT_EQ(InfoOf(OperationType::kSoftmax).attrs.at("axis"), AttrKind::kInt);
}

TEST(NnIrTable, ValidateChecksArityAndAttributes) {
  EXPECT_EQ(OneOp(OperationType::kAdd, 2, {}).Validate(false), "");
  EXPECT_EQ(OneOp(OperationType::kSoftmax, 1, {{"axis", int64_t(1)}}).Validate(false), "");
  EXPECT_EQ(OneOp(OperationType::kAdd, 1, {}).Validate(false),
            "add from test: 1 inputs, expected 2");
  EXPECT_EQ(OneOp(OperationType::kRelu, 1, {{"alpha", 0.1f}}).Validate(false),
            "relu from test: unknown attribute 'alpha'");
  EXPECT_EQ(OneOp(OperationType::kSoftmax, 1, {{"axis", 1.f}}).Validate(false),
            "softmax from test: attribute 'axis' must be int");
  EXPECT_EQ(OneOp(OperationType::kConcat, 3, {{"axis", int64_t(1)}}).Validate(false), "");
}

}  // namespace
}  // namespace npu
}  // namespace lite
