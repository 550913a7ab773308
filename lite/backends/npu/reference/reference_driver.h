// The reference NPU driver: executes an NN IR Model with the plain loops of
// reference_ops.h. Slow and exact: the yardstick for every other driver (and
// for the op bridges), registered as "reference". Its Executable owns a copy
// of the model and one buffer per temporary; model inputs and outputs are
// read and written in the caller's buffers. Supports every operation on
// float32 operands, and quantize plus quantized conv2d / fully_connected on
// int8 levels (int32 accumulation; nn_ir.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/driver.h"

namespace lite {
namespace npu {

class ReferenceDriver : public Driver {
 public:
  std::string name() const override { return "reference"; }
  Status Supports(const Model& model, const Operation& operation) const override;
  StatusOr<std::unique_ptr<Executable>> Compile(const Model& model,
                                                const CompileOptions& options) override;
  Status Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                 const std::vector<HostTensor>& outputs) override;
};

}  // namespace npu
}  // namespace lite
