// DnnlKernel: what every x86 (oneDNN) kernel shares.
//
// It owns one in-order CPU stream, sets oneDNN's thread count from the
// predictor before a primitive is created or run (see
// lite/backends/x86/dnnl_util.h for why that is per call), and hands out
// temporary oneDNN memory (blocked copies, user-mode scratchpads) as tensors
// drawn from the predictor's BufferPool, returned to it after the op. So
// temporaries take no memory between ops and the pool's reuse covers them.
// Subclasses implement RunDnnl(); dnnl::error thrown in it becomes a Status
// naming the op.
#pragma once

#include <deque>
#include <memory>

#include "lite/backends/x86/dnnl_util.h"
#include "lite/core/kernel.h"

namespace lite {
namespace kernels {
namespace x86 {

class DnnlKernel : public KernelBase {
 public:
  Status Run() final;
  Status Init() final;

 protected:
  // Builds whatever the kernel can before the first run (shapes inferred
  // ahead may be known, or not: then do nothing).
  virtual Status InitDnnl() { return Status::OK(); }
  virtual Status RunDnnl() = 0;

  // Number of threads the predictor gives this kernel.
  int threads() const { return ctx() ? ctx()->threads : 1; }
  dnnl::stream& stream();
  // A temporary memory of `md` valid until the current Run returns.
  dnnl::memory Temp(const dnnl::memory::desc& md);

 private:
  void ReleaseTemps();

  std::unique_ptr<dnnl::stream> stream_;
  std::deque<Tensor> temps_;  // stable addresses; reused across runs
  size_t temps_used_ = 0;
};

}  // namespace x86
}  // namespace kernels
}  // namespace lite
