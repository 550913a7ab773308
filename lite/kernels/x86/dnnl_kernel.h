// DnnlKernel: what every x86 (oneDNN) kernel shares.
//
// It owns one in-order CPU stream, sets oneDNN's thread count from the
// predictor before a primitive is created or run (see
// lite/backends/x86/dnnl_util.h for why that is per call), and hands out
// temporary oneDNN memory (blocked copies, user-mode scratchpads) as tensors
// drawn from the predictor's BufferPool, returned to it after the op. So
// temporaries take no memory between ops and the pool's reuse covers them.
// Kernels registered at layout NHWC (see lite/optimizer/passes/layout_cast_pass.cc)
// keep rank-4 activations in NHWC element order; Desc() gives the memory
// descriptor a tensor has for this kernel. Subclasses implement RunDnnl(); dnnl::error thrown in it becomes a Status
// naming the op.
#pragma once

#include <deque>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

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

 public:
  // The helpers below are public so that a kernel's strategies
  // (strategy_list.h), which run on the kernel's stream, can use them.
  // True for kernels registered at layout NHWC.
  bool nhwc() const { return def().place.layout == DataLayoutType::kNHWC; }
  // `t`'s layout here: NHWC for a rank-4 activation of an NHWC kernel, plain
  // (row-major) for anything else, weights included.
  dnnl::memory::desc Desc(const Tensor& t) const;
  dnnl::stream& stream();
  // A temporary memory of `md` valid until the current Run returns.
  dnnl::memory Temp(const dnnl::memory::desc& md);
  // A oneDNN memory of `md` over `data`. One object per `slot` (use the
  // DNNL_ARG_* the memory is passed as) lives as long as the kernel and is
  // re-pointed at `data` on later calls: creating and freeing oneDNN's
  // ~1 KB memory objects for every argument of every op made the heap
  // consolidate on each free, a third of a small model's latency. A slot
  // holds one memory at a time: the value returned earlier for the same
  // slot points at the new data too.
  dnnl::memory Mem(int slot, const dnnl::memory::desc& md, const void* data);
  // Runs primitive `p` on this kernel's stream with the arguments added by
  // AddArg since the last Execute plus `args` (DNNL_ARG_*, memory). It goes
  // through oneDNN's C API with an argument buffer the kernel keeps: the C++
  // execute() builds a hash map and a vector on every call, a dozen heap
  // operations per op. The memories must live until Execute returns.
  void AddArg(int arg, const dnnl::memory& mem);
  void Execute(const dnnl::primitive& p,
               std::initializer_list<std::pair<int, dnnl::memory>> args = {});
  // For host fallbacks (host kernels read NCHW): `t` in NCHW order, a
  // temporary copy when t is an NHWC activation here, else t itself.
  const Tensor* NchwInput(const Tensor& t);
  // Where a host kernel should write `t`: a temporary when t is NHWC here
  // (then StoreNchwOutput copies it into t), else t itself.
  Tensor* NchwOutput(Tensor* t);
  void StoreNchwOutput(const Tensor& nchw, Tensor* t);

 private:
  void ReleaseTemps();
  Tensor* TempTensor(const DDim& dims);

  struct CachedMemory {
    int slot;
    dnnl::memory::desc md;
    dnnl::memory mem;
  };
  static constexpr int kTempSlot = 1 << 20;  // Temp()'s slots: kTempSlot + index

  std::unique_ptr<dnnl::stream> stream_;
  std::vector<CachedMemory> mems_;  // a handful: searched in order
  std::vector<dnnl_exec_arg_t> args_;  // Execute's arguments (capacity kept)
  std::deque<Tensor> temps_;  // stable addresses; reused across runs
  size_t temps_used_ = 0;
};

}  // namespace x86
}  // namespace kernels
}  // namespace lite
