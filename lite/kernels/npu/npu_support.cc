// The NPU library's answer to the device-support query (lite/core/
// device_support.h) for TargetType::kNPU: one checker per driver.
//
// An op is supported when it reads no LoD sequence, its type is registered,
// its bridge accepts it in check mode and the driver supports every
// operation the bridge would emit (CheckOnDevice). The bridges read attached
// ops, so the checker attaches a fresh op to a scratch scope whose vars carry
// their declared dims and share the constant weights (no copy); nothing is
// added to the caller's scope.
#include <memory>
#include <string>

#include "lite/backends/npu/driver.h"
#include "lite/core/device_support.h"
#include "lite/core/op_lite.h"
#include "lite/kernels/npu/subgraph_converter.h"

namespace lite {
namespace npu {
namespace {

class NpuSupportChecker : public OpSupportChecker {
 public:
  explicit NpuSupportChecker(std::unique_ptr<Driver> driver) : driver_(std::move(driver)) {}

  Status Check(const OpSupportQuery& query) const override {
    const cpp::OpDesc& desc = query.op;
    // Devices see dense tensors: an op reading a LoD sequence stays on host
    // (its output's LoD must follow it, and sequence ops are host-only).
    for (const auto& n : desc.InputArgumentNames()) {
      const cpp::VarDesc* vd = query.find_var(n);
      if (vd && vd->lod_level > 0) {
        return Unimplemented("input '" + n + "' is a LoD sequence (lod_level " +
                             std::to_string(vd->lod_level) + "); sequence data stays on host");
      }
    }
    auto op = OpRegistry::Global().Create(desc.Type());
    if (!op) return Unimplemented(desc.Type() + ": op type not registered");
    Scope scratch;
    auto names = desc.InputArgumentNames();
    for (const auto& n : desc.OutputArgumentNames()) names.push_back(n);
    for (const auto& n : names) {
      Tensor* t = scratch.Var(n)->GetMutableTensor();
      const Variable* w = query.weights ? query.weights->FindVar(n) : nullptr;
      if (w && w->GetTensor().IsInitialized()) {
        t->ShareDataWith(w->GetTensor());
        continue;
      }
      if (const cpp::VarDesc* vd = query.find_var(n)) {
        t->Resize(vd->dims);
        t->set_dtype(vd->dtype);
      }
    }
    RETURN_IF_ERROR(op->Attach(desc, &scratch));
    return CheckOnDevice(op.get(), &scratch, query.weights, *driver_);
  }

 private:
  std::unique_ptr<Driver> driver_;
};

StatusOr<std::unique_ptr<OpSupportChecker>> MakeNpuSupportChecker(const std::string& driver_name) {
  ASSIGN_OR_RETURN(auto driver, DriverRegistry::Global().Create(driver_name));
  if (!driver->host_memory()) {
    return Unimplemented("npu driver " + driver_name +
                         " keeps tensors in device memory; only host-memory drivers are "
                         "supported");
  }
  return std::unique_ptr<OpSupportChecker>(new NpuSupportChecker(std::move(driver)));
}

}  // namespace
}  // namespace npu
}  // namespace lite

REGISTER_DEVICE_SUPPORT(kNPU, ::lite::npu::MakeNpuSupportChecker);
