#include "lite/core/device_support.h"

#include <utility>

namespace lite {

DeviceSupportRegistry& DeviceSupportRegistry::Global() {
  static auto* registry = new DeviceSupportRegistry;
  return *registry;
}

bool DeviceSupportRegistry::Register(TargetType target, OpSupportFactory factory) {
  return factories_.emplace(target, std::move(factory)).second;
}

StatusOr<std::unique_ptr<OpSupportChecker>> DeviceSupportRegistry::Create(
    TargetType target, const std::string& device) const {
  auto it = factories_.find(target);
  if (it == factories_.end()) {
    return NotFound(std::string("no device support registered for target ") + TargetName(target) +
                    " (its library is not linked)");
  }
  return it->second(device);
}

}  // namespace lite
