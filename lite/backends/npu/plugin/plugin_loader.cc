#include "lite/backends/npu/plugin/plugin_loader.h"
#include "lite/utils/logging.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace lite {
namespace npu {

namespace {

constexpr const char* kSuffix = "_npu_driver.so";

// What happened to one file (by resolved path), kept for later scans.
struct Outcome {
  bool loaded = false;
  PluginLibrary library;  // when loaded
  std::string why;        // when refused
};

struct LoaderState {
  std::mutex mu;
  std::map<std::string, Outcome> seen;           // resolved path -> outcome
  std::map<std::string, PluginLibrary> by_name;  // registered plugins
  std::set<std::string> warned_env_dirs;         // bad LITE_NPU_DRIVER_PATH entries
};

LoaderState& State() {
  static LoaderState* state = new LoaderState;
  return *state;
}

bool Verbose() {
  const char* v = std::getenv(kDriverVerboseEnv);
  return v && *v && std::string(v) != "0";
}

// <vendor>_<driver>_npu_driver.so: two non-empty parts before the suffix.
bool FollowsConvention(const std::string& file) {
  if (file.size() <= std::string(kSuffix).size()) return false;
  if (file.compare(file.size() - std::string(kSuffix).size(), std::string::npos, kSuffix)) {
    return false;
  }
  const std::string stem = file.substr(0, file.size() - std::string(kSuffix).size());
  const size_t underscore = stem.find('_');
  return underscore != std::string::npos && underscore > 0 && underscore + 1 < stem.size();
}

std::string DlError() {
  const char* e = dlerror();
  return e ? e : "unknown error";
}

// Opens, checks and registers one plugin file; fills `out`.
void Examine(const std::string& path, Outcome* out) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    out->why = "dlopen failed: " + DlError();
    return;
  }
  auto refuse = [&](const std::string& why) {
    out->why = why;
    dlclose(handle);
  };
  dlerror();
  auto version_fn = reinterpret_cast<lite_npu_driver_api_version_fn>(
      dlsym(handle, "lite_npu_driver_api_version"));
  if (!version_fn) return refuse("missing entry point lite_npu_driver_api_version");
  const uint32_t version = version_fn();
  const int major = static_cast<int>(version >> 16), minor = static_cast<int>(version & 0xffff);
  if (major != LITE_NPU_DRIVER_ABI_MAJOR || minor > LITE_NPU_DRIVER_ABI_MINOR) {
    return refuse("built for driver ABI " + std::to_string(major) + "." + std::to_string(minor) +
                  ", this engine has ABI " + EngineAbiVersion() + " (it loads major " +
                  std::to_string(LITE_NPU_DRIVER_ABI_MAJOR) + " with minor <= " +
                  std::to_string(LITE_NPU_DRIVER_ABI_MINOR) + ")");
  }
  auto create =
      reinterpret_cast<lite_npu_driver_create_fn>(dlsym(handle, "lite_npu_driver_create"));
  if (!create) return refuse("missing entry point lite_npu_driver_create");
  lite_npu_driver* instance = create();
  if (!instance) return refuse("lite_npu_driver_create returned NULL");
  Status ok = CheckInstance(instance);
  PluginLibrary lib;
  lib.path = path;
  if (ok.ok()) {
    lib.name = instance->name;
    lib.version = instance->version ? instance->version : "";
  }
  if (instance->destroy) instance->destroy(instance);
  if (!ok.ok()) return refuse(ok.message());
  lib.abi_major = major;
  lib.abi_minor = minor;
  lib.create = create;
  auto shared = std::make_shared<const PluginLibrary>(lib);
  const bool registered = DriverRegistry::Global().Register(
      lib.name, [shared] { return PluginDriver::Create(shared); }, path);
  if (!registered) {
    const std::string other = DriverRegistry::Global().Origin(lib.name);
    return refuse("driver name '" + lib.name + "' is already registered by " +
                  (other == DriverRegistry::kBuiltIn ? "a built-in driver" : other) +
                  " (first one wins)");
  }
  out->loaded = true;
  out->library = lib;  // the handle stays open for the life of the process
}

// Examines every conforming file of `dir` in name order.
void ScanDirectory(const std::string& dir, PluginScan* scan) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  LoaderState& state = State();
  for (const std::string& name : names) {
    const std::string path = dir + (dir.back() == '/' ? "" : "/") + name;
    struct stat st;
    std::string ignore;
    if (stat(path.c_str(), &st) != 0) {
      ignore = "cannot stat (a dangling symlink?)";
    } else if (!S_ISREG(st.st_mode)) {
      ignore = "not a regular file";
    } else if (!FollowsConvention(name)) {
      ignore = std::string("not named <vendor>_<driver>") + kSuffix;
    }
    if (!ignore.empty()) {
      scan->ignored.push_back(path + ": " + ignore);
      if (Verbose()) LogMessage(LogSeverity::kInfo, "npu: ignored " + path + ": " + ignore);
      continue;
    }
    char resolved[PATH_MAX];
    const std::string key = realpath(path.c_str(), resolved) ? resolved : path;
    auto it = state.seen.find(key);
    const bool first_time = it == state.seen.end();
    if (first_time) {
      Outcome outcome;
      Examine(path, &outcome);
      it = state.seen.emplace(key, outcome).first;
      if (outcome.loaded) state.by_name[outcome.library.name] = outcome.library;
    }
    if (it->second.loaded) {
      scan->loaded.push_back(it->second.library);
    } else {
      scan->refused.push_back(path + ": " + it->second.why);
      if (first_time) {
        LogMessage(LogSeverity::kWarning, "npu: plugin refused: " + path + ": " + it->second.why);
      }
    }
  }
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string EngineAbiVersion() {
  return std::to_string(LITE_NPU_DRIVER_ABI_MAJOR) + "." +
         std::to_string(LITE_NPU_DRIVER_ABI_MINOR);
}

std::vector<std::string> SplitDriverPaths(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    if (end > start) out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

Status LoadPluginDrivers(const std::vector<std::string>& dirs, PluginScan* scan) {
  for (const std::string& dir : dirs) {
    if (!IsDirectory(dir)) {
      return InvalidArgument("npu driver path '" + dir + "' is not a directory");
    }
  }
  PluginScan local;
  if (!scan) scan = &local;
  std::lock_guard<std::mutex> lock(State().mu);
  for (const std::string& dir : dirs) ScanDirectory(dir, scan);
  const char* env = std::getenv(kDriverPathEnv);
  for (const std::string& dir : SplitDriverPaths(env ? env : "")) {
    if (!IsDirectory(dir)) {
      if (!State().warned_env_dirs.insert(dir).second) continue;
      LogMessage(LogSeverity::kWarning, std::string("npu: ") + kDriverPathEnv + " entry '" + dir +
                                            "' is not a directory; skipped");
      continue;
    }
    ScanDirectory(dir, scan);
  }
  return Status::OK();
}

bool FindPlugin(const std::string& name, PluginLibrary* out) {
  LoaderState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  auto it = state.by_name.find(name);
  if (it == state.by_name.end()) return false;
  *out = it->second;
  return true;
}

}  // namespace npu
}  // namespace lite
