// The reference NPU driver: executes an NN IR Model with the plain loops of
// reference_ops.h. Slow and exact: the yardstick for every other driver (and
// for the op bridges), registered as "reference". Its Executable owns a copy
// of the model and one buffer per temporary; model inputs and outputs are
// read and written in the caller's buffers. Supports every operation on
// float32 operands, and quantize plus quantized conv2d / fully_connected on
// int8 levels (int32 accumulation; nn_ir.h). It serializes an executable as
// the full NN IR encoding of its model (nn_ir_codec.h); Deserialize rebuilds
// the executable from those bytes alone and accepts them only when they
// encode exactly the model it is given.
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

  std::string version() const override { return "1"; }
  // Its executables hold no machine code.
  std::string cpu_features() const override { return "any"; }
  bool can_serialize() const override { return true; }
  StatusOr<std::vector<uint8_t>> Serialize(const Executable& executable) const override;
  StatusOr<std::unique_ptr<Executable>> Deserialize(const Model& model,
                                                    const std::vector<uint8_t>& bytes,
                                                    const CompileOptions& options) override;
};

}  // namespace npu
}  // namespace lite
