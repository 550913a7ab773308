#include "lite/api/arm_fp16.h"

#include <cmath>
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

// Whether the conv's float32 filter keeps too much of its magnitude in half
// subnormals for arm64's flush-to-zero f16 arithmetic (header).
bool FilterFlushes(const Tensor* t) {
  if (!t || t->dtype() != DataType::kFloat32) return false;
  return HalfSubnormalShare(t->data<float>(), static_cast<size_t>(t->numel())) >
         kFp16FlushedShareLimit;
}

}  // namespace

double HalfSubnormalShare(const float* w, size_t n) {
  const double min_normal = std::ldexp(1.0, -14);
  double total = 0, flushed = 0;
  for (size_t i = 0; i < n; ++i) {
    const double a = std::fabs(static_cast<double>(w[i]));
    total += a;
    if (a > 0 && a < min_normal) flushed += a;
  }
  return total > 0 ? flushed / total : 0;
}

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

StatusOr<ArmFp16Summary> ApplyArmFp16(cpp::ProgramDesc* program, int block, Scope* scope) {
  // The arm convs that stay float32 because of their filter.
  auto kept_f32 = [&](const cpp::OpDesc& op) {
    return FilterFlushes(scope->FindMutableTensor(op.Input("Filter")[0]));
  };
  // Per filter var: whether every reader of it is an fp16 arm conv.
  std::map<std::string, bool> half_only;
  for (const cpp::BlockDesc& b : program->blocks) {
    for (const cpp::OpDesc& op : b.ops) {
      const bool fp16 =
          b.idx == block && HasFp16Form(op.Type()) && PickedArm(op) && !kept_f32(op);
      for (const std::string& arg : op.InputArgumentNames()) {
        const bool as_filter = fp16 && op.HasInput("Filter") && op.Input("Filter")[0] == arg;
        auto it = half_only.emplace(arg, as_filter).first;
        it->second = it->second && as_filter;
      }
    }
  }
  ArmFp16Summary summary;
  cpp::BlockDesc& b = program->blocks[block];
  for (cpp::OpDesc& op : b.ops) {
    if (!HasFp16Form(op.Type()) || !PickedArm(op)) continue;
    if (kept_f32(op)) {
      ++summary.kept_f32_subnormal_filter;
      continue;
    }
    ++summary.fp16_convs;
    op.SetAttr("enable_fp16", true);
    const std::string& filter = op.Input("Filter")[0];
    Tensor* t = scope->FindMutableTensor(filter);
    if (!half_only[filter] || !t || t->dtype() != DataType::kFloat32) continue;
    RETURN_IF_ERROR(ToFloat16(filter, t));
    if (cpp::VarDesc* v = b.FindVar(filter)) v->dtype = DataType::kFloat16;
  }
  return summary;
}

}  // namespace lite
