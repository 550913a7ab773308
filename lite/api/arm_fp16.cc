#include "lite/api/arm_fp16.h"

#include <cstring>
#include <map>
#include <set>
#include <string>

#include "lite/backends/arm/xnnpack_util.h"
#include "lite/core/program.h"

namespace lite {

namespace {

// The op types whose arm kernel has an fp16 form (reads enable_fp16).
bool HasFp16Form(const std::string& type) {
  return type == "conv2d" || type == "depthwise_conv2d";
}

bool PickedArm(const cpp::OpDesc& op) {
  static const std::string arm = std::string("/") + TargetName(TargetType::kARM) + "/";
  return op.HasAttr(kKernelKeyAttr) &&
         op.GetAttr<std::string>(kKernelKeyAttr, "").find(arm) != std::string::npos;
}

// The float32 tensor as float16, in place.
Status ToFloat16(const std::string& var, Tensor* t) {
  std::vector<uint16_t> half;
  RETURN_IF_ERROR(arm::ToHalf(t->data<float>(), static_cast<size_t>(t->numel()), &half));
  std::memcpy(t->mutable_data(DataType::kFloat16), half.data(), half.size() * sizeof(uint16_t));
  if (t->dtype() != DataType::kFloat16) {
    return Internal("enable_fp16: filter '" + var + "' did not become float16");
  }
  return Status::OK();
}

}  // namespace

Status CheckArmFp16(const std::vector<Place>& valid_places) {
  bool arm = false;
  for (const Place& p : valid_places) arm = arm || p.target == TargetType::kARM;
  if (!arm) {
    return InvalidArgument(
        "enable_fp16 needs the arm target among the valid places (fp16 runs on arm's XNNPACK "
        "kernels)");
  }
  return arm::CheckFp16Arithmetic();
}

Status ApplyArmFp16(cpp::ProgramDesc* program, int block, Scope* scope) {
  // Per filter var: whether every reader of it is an fp16 arm conv.
  std::map<std::string, bool> half_only;
  for (const cpp::BlockDesc& b : program->blocks) {
    for (const cpp::OpDesc& op : b.ops) {
      const bool fp16 = b.idx == block && HasFp16Form(op.Type()) && PickedArm(op);
      for (const std::string& arg : op.InputArgumentNames()) {
        const bool as_filter = fp16 && op.HasInput("Filter") && op.Input("Filter")[0] == arg;
        auto it = half_only.emplace(arg, as_filter).first;
        it->second = it->second && as_filter;
      }
    }
  }
  cpp::BlockDesc& b = program->blocks[block];
  for (cpp::OpDesc& op : b.ops) {
    if (!HasFp16Form(op.Type()) || !PickedArm(op)) continue;
    op.SetAttr("enable_fp16", true);
    const std::string& filter = op.Input("Filter")[0];
    Tensor* t = scope->FindMutableTensor(filter);
    if (!half_only[filter] || !t || t->dtype() != DataType::kFloat32) continue;
    RETURN_IF_ERROR(ToFloat16(filter, t));
    if (cpp::VarDesc* v = b.FindVar(filter)) v->dtype = DataType::kFloat16;
  }
  return Status::OK();
}

}  // namespace lite
