// The subgraph kernel: runs one `subgraph` op on an NPU driver, with the
// op's sub-block on host kernels as the fallback.
//
// At creation (Init) it builds the sub-block's host instructions (the
// "origin program", sharing the exec scope and KernelContext) and, when the
// input shapes are known ahead of the first run, converts the ops with the
// bridges and compiles them with the driver. Executables are cached per
// input-shape signature; a new signature converts and compiles again. A
// bridge or Compile failure switches the subgraph to its origin program for
// good; so does an Execute failure, after rerunning that call on host. Every
// fallback prints one line to stderr, and in strict mode is an error
// instead. In cross-check mode each run also runs the origin program and
// records the largest difference. The kernel owns its driver, executables,
// origin instructions and its SubgraphRecord (listed in the KernelContext).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/driver.h"
#include "lite/backends/npu/placement.h"
#include "lite/core/kernel.h"
#include "lite/core/program.h"
#include "lite/operators/subgraph_op.h"

namespace lite {
namespace kernels {
namespace npu {

class SubgraphCompute : public KernelBase {
 public:
  Status Init() override;
  Status Run() override;
  const SubgraphRecord& record() const { return record_; }

 private:
  struct Compiled {
    std::unique_ptr<lite::npu::Executable> executable;
    std::vector<DDim> output_dims;
  };

  std::vector<DDim> InputSignature() const;
  bool InputsKnown() const;
  // Infers every origin op's output shapes for the current inputs.
  Status InferOriginShapes();
  // Converts and compiles for the current input shapes (cached).
  StatusOr<Compiled*> CompileCurrent();
  Status RunOrigin();
  Status RunOnDevice(Compiled* compiled);
  Status CrossCheck(Compiled* compiled);
  // Records the fallback and prints it; the error to return in strict mode.
  Status FallBack(const std::string& reason);

  SubgraphRecord record_;
  std::unique_ptr<lite::npu::Driver> driver_;
  std::vector<std::unique_ptr<Instruction>> origin_;
  std::map<std::vector<DDim>, Compiled> compiled_;
  bool fell_back_ = false;
};

}  // namespace npu
}  // namespace kernels
}  // namespace lite
