#include "lite/operators/control_flow_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types SubBlockOp serves.
enum class SubBlockOpKind { kWhile, kConditionalBlock };

class SubBlockOp : public OpWithParam<SubBlockParam> {
 public:
  SubBlockOp(std::string type, SubBlockOpKind kind)
      : OpWithParam<SubBlockParam>(std::move(type)), kind_(kind) {}
  void SetProgram(const cpp::ProgramDesc* program) override { param_.program = program; }
  Status CheckShape() const override;
  Status InferShape() override { return Status::OK(); }  // the sub-block writes Out

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const SubBlockOpKind kind_;
};

// The op types BranchSelectOp serves.
enum class BranchSelectOpKind { kSelectInput, kSelectOutput, kIncrement };

class BranchSelectOp : public OpWithParam<BranchParam> {
 public:
  BranchSelectOp(std::string type, BranchSelectOpKind kind)
      : OpWithParam<BranchParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const BranchSelectOpKind kind_;
};

}  // namespace

StatusOr<int64_t> ScalarIndex(const Tensor& t, const std::string& what) {
  if (t.numel() != 1 || !t.raw_data()) {
    return InvalidArgument(what + " must hold exactly one element, has dims " +
                           DimsToString(t.dims()));
  }
  switch (t.dtype()) {
    case DataType::kInt32: return static_cast<int64_t>(t.data<int32_t>()[0]);
    case DataType::kInt64: return t.data<int64_t>()[0];
    default:
      return InvalidArgument(what + " must be int32 or int64, is " + DataTypeName(t.dtype()));
  }
}

Status SubBlockOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.is_while = kind_ == SubBlockOpKind::kWhile;
  const cpp::Attribute* block = desc.FindAttr(kControlFlowSubBlockAttr);
  if (!block) return OpError(std::string("missing attribute ") + kControlFlowSubBlockAttr);
  if (block->type != cpp::AttrType::BLOCK) {
    return OpError(std::string("attribute ") + kControlFlowSubBlockAttr + " must be a BLOCK");
  }
  param_.block_idx = std::get<int32_t>(block->value);
  if (!param_.program) return OpError("no program given (SetProgram) for the sub-block");
  const int blocks = static_cast<int>(param_.program->blocks.size());
  if (param_.block_idx <= 0 || param_.block_idx >= blocks) {
    return OpError(std::string(kControlFlowSubBlockAttr) + " " +
                   std::to_string(param_.block_idx) + " is not a sub-block of this program " +
                   "(it has blocks 0.." + std::to_string(blocks - 1) + ")");
  }
  param_.scope = scope;
  param_.conds.clear();
  if (param_.is_while) {
    ASSIGN_OR_RETURN(Tensor * cond, Input("Condition"));
    param_.conds.push_back(cond);
    return Status::OK();
  }
  param_.is_scalar_condition = desc.GetAttr<bool>("is_scalar_condition", false);
  if (desc.Input("Cond").empty()) return OpError("missing required input 'Cond'");
  for (Tensor* t : InputList("Cond")) param_.conds.push_back(t);
  if (param_.conds.size() != desc.Input("Cond").size()) {
    return OpError("a var of input 'Cond' is not in the scope");
  }
  return Status::OK();
}

Status SubBlockOp::CheckShape() const {
  if (param_.is_while || param_.is_scalar_condition) {
    if (param_.conds.size() != 1) return OpError("the condition must be one var");
  }
  return Status::OK();
}

Status BranchSelectOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.xs.clear();
  param_.outs.clear();
  if (kind_ == BranchSelectOpKind::kIncrement) {
    ASSIGN_OR_RETURN(Tensor * x, Input("X"));
    param_.xs.push_back(x);
    ASSIGN_OR_RETURN(Tensor * out, Output("Out"));
    param_.outs.push_back(out);
    param_.step = desc.GetAttr<float>("step", 1.f);
    return Status::OK();
  }
  ASSIGN_OR_RETURN(Tensor * mask, Input("Mask"));
  param_.mask = mask;
  if (kind_ == BranchSelectOpKind::kSelectOutput) {
    ASSIGN_OR_RETURN(Tensor * x, Input("X"));
    param_.xs.push_back(x);
    param_.outs = OutputList("Out");
    if (param_.outs.empty()) return OpError("missing required output 'Out'");
    return Status::OK();
  }
  // select_input: the choice not taken may never have been written (its
  // branch did not run), so X is not bound as a checked input.
  for (const std::string& name : desc.Input("X")) {
    Variable* v = scope->FindVar(name);
    if (!v) return OpError("input 'X' var '" + name + "' is not in the scope");
    param_.xs.push_back(v->GetMutableTensor());
  }
  if (param_.xs.empty()) return OpError("missing required input 'X'");
  ASSIGN_OR_RETURN(Tensor * out, Output("Out"));
  param_.outs.push_back(out);
  return Status::OK();
}

Status BranchSelectOp::CheckShape() const {
  if (kind_ == BranchSelectOpKind::kIncrement && param_.xs[0]->numel() != 1) {
    return OpError("X must hold exactly one element, has dims " +
                   DimsToString(param_.xs[0]->dims()));
  }
  return Status::OK();
}

Status BranchSelectOp::InferShape() {
  // select_*: the Mask value picks the tensor; the kernel sizes Out.
  if (kind_ == BranchSelectOpKind::kIncrement) {
    param_.outs[0]->Resize(param_.xs[0]->dims());
    param_.outs[0]->set_dtype(param_.xs[0]->dtype());
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(while, lite::operators::SubBlockOp, lite::operators::SubBlockOpKind::kWhile);
REGISTER_LITE_OP_KIND(conditional_block, lite::operators::SubBlockOp,
                      lite::operators::SubBlockOpKind::kConditionalBlock);
REGISTER_LITE_OP_KIND(select_input, lite::operators::BranchSelectOp,
                      lite::operators::BranchSelectOpKind::kSelectInput);
REGISTER_LITE_OP_KIND(select_output, lite::operators::BranchSelectOp,
                      lite::operators::BranchSelectOpKind::kSelectOutput);
REGISTER_LITE_OP_KIND(increment, lite::operators::BranchSelectOp,
                      lite::operators::BranchSelectOpKind::kIncrement);
