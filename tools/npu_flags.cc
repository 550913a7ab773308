#include "tools/npu_flags.h"

#include <gflags/gflags.h>

#include "lite/backends/npu/plugin/plugin_loader.h"
#include "lite/utils/file_util.h"

DEFINE_string(npu_driver, "xnnpack", "driver of NPU subgraphs (see opt --print_drivers)");
DEFINE_bool(npu_strict, false, "fail instead of falling back when an NPU subgraph cannot run");
DEFINE_int32(npu_min_subgraph_size, 2, "clusters with fewer ops stay on host");
DEFINE_string(npu_partition_file, "",
              "file of op_type[:in_var,...[:out_var,...]] lines: ops kept on host");
DEFINE_bool(npu_cross_check, false,
            "also run every NPU subgraph on host and report the largest difference");
DEFINE_string(npu_driver_paths, "",
              "dir1:dir2: directories scanned (before $LITE_NPU_DRIVER_PATH) for driver plugins "
              "<vendor>_<driver>_npu_driver.so");

DEFINE_bool(npu_trust_compiled_code, false,
            "load compiled NPU subgraphs from the model file or --npu_cache_dir instead of "
            "compiling: that is native code from those files, so only for files you trust");
DEFINE_string(npu_cache_dir, "",
              "directory of compiled NPU subgraphs keyed by subgraph, driver, engine and CPU: "
              "read (with --npu_trust_compiled_code) before compiling, written after");

namespace lite {
namespace tools {

namespace {
bool IsSet(const char* name) {
  gflags::CommandLineFlagInfo info;
  return gflags::GetCommandLineFlagInfo(name, &info) && !info.is_default;
}
}  // namespace

StatusOr<NpuOptions> NpuOptionsFromFlags(const std::vector<Place>& places, bool light) {
  const char* kFlags[] = {"npu_driver",       "npu_strict",       "npu_min_subgraph_size",
                          "npu_partition_file", "npu_cross_check", "npu_driver_paths",
                          "npu_trust_compiled_code", "npu_cache_dir"};
  bool npu = false;
  for (const Place& p : places) npu |= p.target == TargetType::kNPU;
  for (const char* f : kFlags) {
    const bool partition_flag = std::string(f) == "npu_min_subgraph_size" ||
                                std::string(f) == "npu_partition_file";
    if (!IsSet(f)) continue;
    if (light && partition_flag) {
      return InvalidArgument(std::string("--") + f +
                             " applies when optimizing; an .nb model is already partitioned");
    }
    if (!light && !npu) {
      return InvalidArgument(std::string("--") + f +
                             " needs npu among --valid_targets (e.g. --valid_targets=npu,host)");
    }
  }
  NpuOptions o;
  o.driver = light && !IsSet("npu_driver") ? "" : FLAGS_npu_driver;
  o.strict = FLAGS_npu_strict;
  o.min_subgraph_size = FLAGS_npu_min_subgraph_size;
  o.cross_check = FLAGS_npu_cross_check;
  o.driver_paths = DriverPathsFromFlags();
  o.trust_compiled_code = FLAGS_npu_trust_compiled_code;
  o.cache_dir = FLAGS_npu_cache_dir;
  if (!FLAGS_npu_partition_file.empty()) {
    RETURN_IF_ERROR(lite::ReadFileToString(FLAGS_npu_partition_file, &o.partition_text)
                        .WithContext("--npu_partition_file"));
  }
  return o;
}

std::vector<std::string> DriverPathsFromFlags() {
  return lite::npu::SplitDriverPaths(FLAGS_npu_driver_paths);
}

}  // namespace tools
}  // namespace lite
