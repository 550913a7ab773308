#include "lite/operators/levels_output.h"

#include <cmath>
#include <string>

namespace lite {
namespace operators {

StatusOr<LevelsOutput> LevelsOutputFromOpDesc(const cpp::OpDesc& desc) {
  LevelsOutput out;
  const std::string dtype = desc.GetAttr<std::string>("Output_dtype", "float32");
  if (dtype == "float32") return out;
  if (dtype != "int8") {
    return InvalidArgument("Output_dtype must be float32 or int8, got " + dtype);
  }
  if (!desc.GetAttr<bool>("enable_int8", false)) {
    return InvalidArgument("Output_dtype int8 needs enable_int8 (only int8 kernels write levels)");
  }
  out.enabled = true;
  out.scale = desc.GetAttr<float>("Output_scale", 0.f);
  out.round_type = desc.GetAttr<int32_t>("Output_round_type", 1);
  if (!(out.scale > 0.f) || !std::isfinite(out.scale)) {
    return InvalidArgument("int8 output needs Output_scale > 0, got " + std::to_string(out.scale));
  }
  if (out.round_type != 0 && out.round_type != 1) {
    return InvalidArgument("Output_round_type must be 0 or 1, got " +
                           std::to_string(out.round_type));
  }
  return out;
}

}  // namespace operators
}  // namespace lite
