#include "lite/operators/subgraph_op.h"

#include "lite/operators/op_with_param.h"

#include <set>

namespace lite {
namespace operators {

namespace {

class SubgraphOp : public OpWithParam<SubgraphParam> {
 public:
  using OpWithParam::OpWithParam;
  void SetProgram(const cpp::ProgramDesc* program) override { param_.program = program; }
  Status CheckShape() const override;
  Status InferShape() override { return Status::OK(); }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  // Inputs / Outputs equal input_data_names / output_data_names, and every
  // var the sub-block's ops read is an input, a weight or written earlier
  // in the block (so the host fallback never reads an unwritten var).
  Status CheckBoundary(const cpp::OpDesc& desc) const;

};

}  // namespace

namespace {

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out.empty() ? "none" : out;
}

// Whether `name` is a weight: persistable in the block or in block 0 (the
// sub-block's descs copy the flag; block 0 holds every parameter's desc),
// or a persistable tensor of the scope (weights the passes made).
bool IsWeight(const cpp::ProgramDesc& program, const cpp::BlockDesc& block, const Scope* scope,
              const std::string& name) {
  const cpp::VarDesc* v = block.FindVar(name);
  if (v && v->persistable) return true;
  const cpp::VarDesc* root = program.blocks[0].FindVar(name);
  if (root && root->persistable) return true;
  const Variable* var = scope ? scope->FindVar(name) : nullptr;
  return var && var->GetTensor().persistable();
}

}  // namespace

Status SubgraphOp::CheckBoundary(const cpp::OpDesc& desc) const {
  // The kernel runs the device on input_data_names / output_data_names and
  // its host fallback on the sub-block's ops, both by var name; the runtime
  // writes (and keeps alive) only the vars bound as Inputs. The three must
  // agree, or a fallback would read a var nothing wrote.
  const auto& ins = desc.Input("Inputs");
  const auto& outs = desc.Output("Outputs");
  if (ins != param_.input_names) {
    return OpError("Inputs (" + Join(ins) + ") are not its input_data_names (" +
                   Join(param_.input_names) + "): a pass renamed an input of the subgraph");
  }
  if (outs != param_.output_names) {
    return OpError("Outputs (" + Join(outs) + ") are not its output_data_names (" +
                   Join(param_.output_names) + "): a pass renamed an output of the subgraph");
  }
  const cpp::BlockDesc& block = param_.program->blocks[param_.block_idx];
  const std::set<std::string> inputs(ins.begin(), ins.end());
  std::set<std::string> written;
  for (const cpp::OpDesc& op : block.ops) {
    for (const auto& name : op.InputArgumentNames()) {
      if (name.empty() || inputs.count(name) || written.count(name) ||
          IsWeight(*param_.program, block, param_.scope, name)) {
        continue;
      }
      return OpError("op " + op.DebugName() + " of sub-block " +
                     std::to_string(param_.block_idx) + " reads var '" + name +
                     "', which is no input of the subgraph (" + Join(ins) +
                     "), no weight and written by no earlier op of the block");
    }
    for (const auto& name : op.OutputArgumentNames()) written.insert(name);
  }
  for (const auto& name : outs) {
    if (!written.count(name)) {
      return OpError("output '" + name + "' is written by no op of sub-block " +
                     std::to_string(param_.block_idx));
    }
  }
  return Status::OK();
}

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
  return CheckBoundary(desc);
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
