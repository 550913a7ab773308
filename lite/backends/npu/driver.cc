#include "lite/backends/npu/driver.h"

namespace lite {
namespace npu {

DriverRegistry& DriverRegistry::Global() {
  static DriverRegistry* registry = new DriverRegistry;
  return *registry;
}

bool DriverRegistry::Register(const std::string& name, DriverFactory factory) {
  return factories_.emplace(name, std::move(factory)).second;
}

StatusOr<std::unique_ptr<Driver>> DriverRegistry::Create(const std::string& name) const {
  auto it = factories_.find(name);
  if (it == factories_.end()) {
    std::string known;
    for (const auto& kv : factories_) known += (known.empty() ? "" : ", ") + kv.first;
    return NotFound("unknown npu driver '" + name + "' (drivers in this build: " +
                    (known.empty() ? "none" : known) + ")");
  }
  std::unique_ptr<Driver> driver = it->second();
  if (!driver) return Internal("npu driver '" + name + "' failed to create");
  return driver;
}

std::vector<std::string> DriverRegistry::Names() const {
  std::vector<std::string> out;
  for (const auto& kv : factories_) out.push_back(kv.first);
  return out;
}

}  // namespace npu
}  // namespace lite
