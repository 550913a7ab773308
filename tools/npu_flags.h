// The NPU flags every tool takes (--npu_driver, --npu_strict,
// --npu_min_subgraph_size, --npu_partition_file, --npu_cross_check,
// --npu_driver_paths, --npu_trust_compiled_code, --npu_cache_dir), turned
// into one NpuOptions (opt adds its own --npu_save_compiled). Owned by tools/; returns
// fresh values.
#pragma once

#include <string>
#include <vector>

#include "lite/backends/npu/npu_options.h"
#include "lite/base/types.h"
#include "lite/utils/status.h"

namespace lite {
namespace tools {

// The flags as NpuOptions (the partition file read in). An NPU flag set
// while `places` has no npu target is an error (it would do nothing), and
// so is an unreadable partition file. `light`: only driver, strict,
// cross-check, driver paths, trust and cache dir apply (partitioning was fixed by opt); the
// driver stays empty unless --npu_driver was given, so the model's recorded
// driver is used.
StatusOr<NpuOptions> NpuOptionsFromFlags(const std::vector<Place>& places, bool light);

// --npu_driver_paths split at ':' (for opt --print_drivers, which needs no
// valid targets).
std::vector<std::string> DriverPathsFromFlags();

}  // namespace tools
}  // namespace lite
