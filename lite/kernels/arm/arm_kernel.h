// ArmKernel: what every arm kernel (XNNPACK operators) shares.
//
// Init and Prepare initialise XNNPACK (once per process). Kernels registered at layout
// NHWC keep their rank-4 activations in NHWC element order while the dims
// stay NCHW, as the x86 kernels do (lite/optimizer/passes/layout_cast_pass.cc
// inserts the conversions); weights and other ranks are plain row-major.
// Each kernel creates its XNNPACK operator once (weights packed then) and
// calls xnn_setup_* again only when its input dims change. Every kernel runs
// on the process's shared pthreadpool for the predictor's current thread
// count (lite/backends/arm/xnnpack_util.h), so the thread governor's choice
// applies to them as to the other targets. impl_info() (the profile's last
// column) names the XNNPACK operators the kernel created, e.g.
// "xnnpack:convolution2d_nhwc_f32+add_nd_f32"; empty for a kernel running
// only its own loop or a host fallback.
#pragma once

#include <string>

#include "lite/backends/arm/xnnpack_util.h"
#include "lite/core/kernel.h"

namespace lite {
namespace kernels {
namespace arm {

class ArmKernel : public KernelBase {
 public:
  // XNNPACK is initialised at program build (Init) and again, a no-op
  // then, before the first run (Prepare: tests run kernels without Init).
  Status Init() override { return lite::arm::InitXnnpack(); }
  Status Prepare() override { return lite::arm::InitXnnpack(); }
  const std::string& impl_info() const override { return impl_; }

 protected:
  // The pool for this run's thread count (null: the calling thread).
  pthreadpool_t pool() const { return lite::arm::SharedThreadPool(threads()); }
  // True for kernels registered at layout NHWC.
  bool nhwc() const { return def().place.layout == DataLayoutType::kNHWC; }
  // Whether `t` is held in NHWC order here: a rank-4 activation of an NHWC
  // kernel.
  bool Nhwc(const Tensor& t) const {
    return nhwc() && t.dims().size() == 4 && !t.persistable();
  }
  // For host fallbacks (lite/core/host_fallback.h; host kernels read NCHW):
  // `t` in NCHW order, a copy in *buffer when t is NHWC here, else t.
  const Tensor* NchwInput(const Tensor& t, Tensor* buffer) const;
  // Where a host kernel should write `t`: `buffer` when t is NHWC here (then
  // StoreNchwOutput permutes it into t), else t itself.
  Tensor* NchwOutput(Tensor* t, Tensor* buffer) const { return Nhwc(*t) ? buffer : t; }
  void StoreNchwOutput(const Tensor& nchw, Tensor* t) const;
  // Init's check for kernels that pack their weights once: `w` and `bias`
  // (may be null) must hold data before anything runs, i.e. be weights, not
  // values the model computes.
  Status CheckConstantWeights(const Tensor* w, const Tensor* bias) const;
  // A conv's ResidualData: CreateResidualAdd makes *add (XNNPACK's add,
  // clamped to `clamp`, the fused activation's range) once; RunResidualAdd
  // adds `residual` (dims `out`, held NHWC) into `y` in place, setting the
  // add up again only when the dims, a pointer or the thread count changed.
  Status CreateResidualAdd(const lite::arm::Clamp& clamp, lite::arm::XnnOperator* add) const;
  Status RunResidualAdd(xnn_operator_t add, const Tensor& residual, const DDim& out, float* y);
  // "arm <op>" for messages (the runtime adds the op's name and key).
  std::string What() const { return "arm " + def().op_type; }
  // XNNPACK's status of `call` as a Status; a successful xnn_create_* call
  // adds its operator to impl_info(). The message is built only on failure:
  // kernels check every xnn_run_operator, and formatting "arm <op>" there
  // was a heap allocation per call on each run.
  Status Check(xnn_status s, const char* call) const {
    if (s != xnn_status_success) return lite::arm::XnnCheck(s, What(), call);
    NoteOperator(call);
    return Status::OK();
  }
  // Whether the thread count changed since the last setup (the pool is an
  // argument of xnn_setup_*).
  bool PoolChanged() {
    const int t = threads();
    if (t == setup_threads_) return false;
    setup_threads_ = t;
    return true;
  }

 private:
  void NoteOperator(const char* call) const;

  int setup_threads_ = -1;
  // What the residual add was last set up for (RunResidualAdd).
  struct ResidualSetup {
    xnn_operator_t add = nullptr;
    const float* residual = nullptr;
    float* y = nullptr;
    DDim dims;
    int threads = -1;
  } residual_setup_;
  mutable std::string impl_;  // NoteOperator, from the const Check
};

// Rank-4 float or int32 data between NCHW and NHWC element order (dims n, c,
// h, w); 4-byte elements.
void PermuteNchw(const void* src, void* dst, int64_t n, int64_t c, int64_t hw, bool to_nhwc);

}  // namespace arm
}  // namespace kernels
}  // namespace lite
