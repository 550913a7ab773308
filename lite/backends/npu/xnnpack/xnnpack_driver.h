// The xnnpack NPU driver: XNNPACK's subgraph API (Debian libxnnpack-dev) as
// the graph-IR device. Registered as "xnnpack".
//
// Compile() takes the first of two paths that accepts the model: the
// operator path (xnnpack_op_path.h: XNNPACK operators created once per
// structure and set up again per input size, for float models), else one
// XNNPACK subgraph and runtime per size (int8 models, an operation the
// operator path has no node for); the executable's Describe() says which
// and why. The rest of this paragraph is the runtime path.
// XNNPACK is NHWC: every 4-D operand lives as NHWC inside the runtime,
// filters and constants are transformed once at compile time, and Execute()
// converts only the model's 4-D inputs and outputs between NCHW and NHWC.
// relu/relu6/clip after an operation that has output bounds are folded into
// them. Operations XNNPACK cannot reproduce exactly are refused by
// Supports() with the reason. The Executable owns the runtime, the
// transformed constants, its staging buffers and its pthreadpool (one per
// executable, sized by CompileOptions::threads; none for one thread).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/driver.h"
#include "lite/backends/npu/xnnpack/kept_blocks.h"
#include "lite/backends/npu/xnnpack/xnnpack_op_path.h"

namespace lite {
namespace npu {

class XnnpackDriver : public Driver {
 public:
  std::string name() const override { return "xnnpack"; }
  Status Supports(const Model& model, const Operation& operation) const override;
  StatusOr<std::unique_ptr<Executable>> Compile(const Model& model,
                                                const CompileOptions& options) override;
  Status Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                 const std::vector<HostTensor>& outputs) override;
  // The operator path's nodes created and reused so far (tests).
  const OperatorPath& operators() const { return operators_; }

 private:
  // One XNNPACK subgraph runtime per size: what the operator path declines
  // (`why`, shown by the executable's Describe()).
  StatusOr<std::unique_ptr<Executable>> CompileRuntime(const Model& model,
                                                       const CompileOptions& options,
                                                       const std::string& why);

  KeptBlocksUser kept_blocks_user_;  // freed large blocks kept while a driver lives
  OperatorPath operators_;           // float models: operators created once
};

// The support rules, shared by Supports() and Compile().
Status XnnpackSupports(const Model& model, const Operation& operation);

}  // namespace npu
}  // namespace lite
