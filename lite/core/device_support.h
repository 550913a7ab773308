// Device support: which ops a device can take, asked by graph passes and
// answered by that device's library.
//
// A pass (lite/optimizer/passes/subgraph) describes one op by what the graph knows
// before anything is attached or allocated: its OpDesc, the declared VarDesc
// of each argument and the scope holding the constant weights. A target's
// library registers, for its TargetType, a factory making a checker for one
// device configuration (for kNPU: one driver, by name; lite/kernels/npu). The
// pass includes only this header, never the library; a program linked without
// the library gets a clear error, not a silent "nothing supported".
//
// The registry owns the factories (registered at static-init time); the
// caller owns each checker it creates, which must outlive no library.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "lite/base/program_desc.h"
#include "lite/base/scope.h"
#include "lite/base/types.h"
#include "lite/utils/status.h"

namespace lite {

// One op as a pass sees it. Borrowed references, valid during Check().
struct OpSupportQuery {
  const cpp::OpDesc& op;
  // The declared var (dims, dtype, LoD level) named `name`, or nullptr.
  std::function<const cpp::VarDesc*(const std::string& name)> find_var;
  // Constant weights (initialized tensors) by name; may be null.
  const Scope* weights = nullptr;
};

class OpSupportChecker {
 public:
  virtual ~OpSupportChecker() = default;
  // OK when the device runs `query.op`; else why not (a message that may
  // begin with the op's "type (output: x): " name).
  virtual Status Check(const OpSupportQuery& query) const = 0;
};

// Makes a checker for the device configuration named `device` (for kNPU,
// the driver name); fails when the configuration cannot be used at all.
using OpSupportFactory =
    std::function<StatusOr<std::unique_ptr<OpSupportChecker>>(const std::string& device)>;

class DeviceSupportRegistry {
 public:
  static DeviceSupportRegistry& Global();
  // False when `target` already has a factory (the first one stays).
  bool Register(TargetType target, OpSupportFactory factory);
  // NotFound naming the target when no library registered for it.
  StatusOr<std::unique_ptr<OpSupportChecker>> Create(TargetType target,
                                                     const std::string& device) const;

 private:
  std::map<TargetType, OpSupportFactory> factories_;
};

}  // namespace lite

// REGISTER_DEVICE_SUPPORT(kNPU, MakeNpuSupportChecker);
#define REGISTER_DEVICE_SUPPORT(target, factory)                                       \
  static bool lite_device_support_registered_##target [[maybe_unused]] =               \
      ::lite::DeviceSupportRegistry::Global().Register(::lite::TargetType::target, factory)
