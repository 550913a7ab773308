// Which targets this build has kernels for, and the check that refuses a
// valid place naming one it lacks.
//
// The aarch64 build (--config=aarch64, the //:aarch64 config_setting) leaves
// the x86 target out: its kernels, AVX-512 routines and oneDNN are x86-64
// only. A valid place targeting x86 there would find no kernel and quietly
// run every op on host, so CheckPlacesInBuild fails instead, naming the
// target and the build. The answer comes from the same select on //:aarch64
// that leaves the x86 kernels out of light_api (lite/api/BUILD). Every other
// target (host, npu, arm) is in every build.
#pragma once

#include <vector>

#include "lite/base/types.h"
#include "lite/utils/status.h"

namespace lite {

// True when this build links the target's kernels (kUnk and kAny: false).
bool TargetInBuild(TargetType target);

// InvalidArgument naming the first place whose target is not in this build,
// e.g. "valid place x86 is not available in this build (aarch64: built
// without the x86 target); use arm,host or host"; OK otherwise.
Status CheckPlacesInBuild(const std::vector<Place>& places);

}  // namespace lite
