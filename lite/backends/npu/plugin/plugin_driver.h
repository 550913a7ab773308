// PluginDriver: a Driver (driver.h) backed by a plugin loaded from a shared
// library through the C ABI of lite_npu_driver_abi.h.
//
// PluginLibrary describes one loaded plugin: its file, the ABI version it
// was built for, its name/version strings (copied at load time) and its
// create entry point. The loader (plugin_loader.h) owns the libraries for
// the life of the process (plugins are never unloaded). Each PluginDriver
// owns one plugin instance (from lite_npu_driver_create, destroyed with the
// driver) and converts every call: the NN IR model into ABI structs
// (abi_model.h), the plugin's status codes and messages into Status, and it
// checks everything the plugin returns (missing functions, NULL executables,
// output byte counts and shapes) so a misbehaving plugin fails the call
// instead of corrupting the engine. Threading as for any Driver.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/driver.h"
#include "lite/backends/npu/plugin/lite_npu_driver_abi.h"

namespace lite {
namespace npu {

struct PluginLibrary {
  std::string path;  // the file as found in its directory
  std::string name;  // the driver name the plugin reports
  std::string version;
  int abi_major = 0, abi_minor = 0;
  lite_npu_driver_create_fn create = nullptr;
};

// OK when `instance` (just created by `library`) has everything ABI
// 1.0 requires: struct_size, a valid name, every function pointer.
Status CheckInstance(const lite_npu_driver* instance);

class PluginDriver : public Driver {
 public:
  // Takes ownership of `instance` (created by library->create).
  PluginDriver(std::shared_ptr<const PluginLibrary> library, lite_npu_driver* instance);
  ~PluginDriver() override;

  std::string name() const override { return library_->name; }
  Status Supports(const Model& model, const Operation& operation) const override;
  StatusOr<std::unique_ptr<Executable>> Compile(const Model& model,
                                                const CompileOptions& options) override;
  Status Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                 const std::vector<HostTensor>& outputs) override;

  // ABI 1.1 (when the plugin's struct has the fields and fills them).
  std::string version() const override { return library_->version; }
  std::string cpu_features() const override;
  bool can_serialize() const override;
  StatusOr<std::vector<uint8_t>> Serialize(const Executable& executable) const override;
  StatusOr<std::unique_ptr<Executable>> Deserialize(const Model& model,
                                                    const std::vector<uint8_t>& bytes,
                                                    const CompileOptions& options) override;

  // Makes a driver from `library`: create() + CheckInstance; nullptr (and a
  // line on stderr naming the file) when the plugin fails.
  static std::unique_ptr<Driver> Create(const std::shared_ptr<const PluginLibrary>& library);

 private:
  // Status for a plugin return code, with the message it wrote.
  Status FromPlugin(int32_t code, const char* call, const char* message) const;
  // Wraps a handle the plugin returned from compile or deserialize.
  StatusOr<std::unique_ptr<Executable>> Adopt(const Model& model, lite_npu_executable* handle,
                                              const char* call);

  std::shared_ptr<const PluginLibrary> library_;
  lite_npu_driver* instance_;
};

}  // namespace npu
}  // namespace lite
