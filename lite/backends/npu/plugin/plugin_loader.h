// Finding and loading out-of-tree NPU driver plugins.
//
// LoadPluginDrivers scans directories in order - the ones given (from
// CxxConfig / MobileConfig set_npu_driver_paths or --npu_driver_paths),
// then those of the LITE_NPU_DRIVER_PATH environment variable (colon
// separated) - for files named <vendor>_<driver>_npu_driver.so (entries
// sorted by name; symlinks followed). Each such file is dlopen()ed, its ABI
// version checked (same major as the engine, minor <= the engine's), an
// instance created and checked, and its driver registered in
// DriverRegistry::Global() under the name it reports, with the file as its
// origin. A file that fails any step is refused with a warning on stderr
// that says why; a name already registered (built in or by an earlier file)
// is refused naming both; the engine keeps its other drivers either way.
// Other files are ignored (printed only when LITE_NPU_DRIVER_VERBOSE is set
// to anything but 0; always listed in the PluginScan).
//
// Process-wide and thread-safe: a file (by its resolved path) is examined
// once; later scans report the earlier outcome without printing it again.
// Loaded libraries stay loaded until the process exits.
#pragma once

#include <string>
#include <vector>

#include "lite/backends/npu/plugin/plugin_driver.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

constexpr const char* kDriverPathEnv = "LITE_NPU_DRIVER_PATH";
constexpr const char* kDriverVerboseEnv = "LITE_NPU_DRIVER_VERBOSE";

// What one scan found, in scan order.
struct PluginScan {
  std::vector<PluginLibrary> loaded;  // registered (by this or an earlier scan)
  std::vector<std::string> refused;   // "<file>: <why>"
  std::vector<std::string> ignored;   // "<file>: <why>"
};

// Scans `dirs`, then LITE_NPU_DRIVER_PATH. A directory in `dirs` that does
// not exist is an error (nothing is loaded); one in the environment
// variable is a warning. Fills `scan` when given.
Status LoadPluginDrivers(const std::vector<std::string>& dirs, PluginScan* scan = nullptr);

// "a:b::c" -> {"a", "b", "c"}.
std::vector<std::string> SplitDriverPaths(const std::string& list);

// The loaded plugin registered as `name`; false when there is none (built-in
// or unknown driver).
bool FindPlugin(const std::string& name, PluginLibrary* out);

// The version this engine implements, as "major.minor".
std::string EngineAbiVersion();

}  // namespace npu
}  // namespace lite
