#include "lite/operators/subgraph_op.h"

namespace lite {
namespace operators {

Status SubgraphOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  const cpp::Attribute* block = desc.FindAttr(kSubBlockAttr);
  if (!block || block->type != cpp::AttrType::BLOCK) {
    return OpError(std::string("attribute ") + kSubBlockAttr + " must be a BLOCK");
  }
  param_.block_idx = std::get<int32_t>(block->value);
  if (!param_.program) return OpError("no program given (SetProgram) for the sub-block");
  if (param_.block_idx <= 0 ||
      param_.block_idx >= static_cast<int>(param_.program->blocks.size())) {
    return OpError(std::string(kSubBlockAttr) + " " + std::to_string(param_.block_idx) +
                   " is not a block of this program (it has " +
                   std::to_string(param_.program->blocks.size()) + ")");
  }
  if (!desc.TryGetAttr(kInputDataNamesAttr, &param_.input_names) ||
      !desc.TryGetAttr(kOutputDataNamesAttr, &param_.output_names)) {
    return OpError("input_data_names / output_data_names must be string lists");
  }
  param_.driver = desc.GetAttr<std::string>(kNpuDriverAttr, "");
  param_.subgraph_id = desc.GetAttr<int32_t>(kSubgraphIdAttr, 0);
  param_.inputs = InputList("Inputs");
  param_.outputs = OutputList("Outputs");
  param_.scope = scope;
  return Status::OK();
}

Status SubgraphOp::CheckShape() const {
  if (param_.inputs.size() != param_.input_names.size() ||
      param_.outputs.size() != param_.output_names.size()) {
    return OpError("Inputs/Outputs do not match input_data_names/output_data_names");
  }
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(subgraph, lite::operators::SubgraphOp);
