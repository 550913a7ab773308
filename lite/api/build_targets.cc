#include "lite/api/build_targets.h"

#include <string>

namespace lite {

bool TargetInBuild(TargetType target) {
  switch (target) {
    case TargetType::kHost:
    case TargetType::kNPU:
    case TargetType::kARM:
      return true;
    case TargetType::kX86:
#ifdef LITE_BUILD_WITHOUT_X86
      return false;
#else
      return true;
#endif
    default:
      return false;
  }
}

Status CheckPlacesInBuild(const std::vector<Place>& places) {
  for (const Place& p : places) {
    if (p.target == TargetType::kX86 && !TargetInBuild(p.target)) {
      return InvalidArgument(
          "valid place x86 is not available in this build (aarch64: built without the x86 "
          "target); use arm,host or host");
    }
  }
  return Status::OK();
}

}  // namespace lite
