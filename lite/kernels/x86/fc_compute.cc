// x86 fc on oneDNN's matmul primitive: Input flattened to [m, k] at
// in_num_col_dims, W [k, n] read in place (plain row-major), the bias as a
// broadcast [1, n] operand, activation_type relu and the fused activation as
// post-ops (relu first, as the host kernel applies them). Primitive
// re-created when m, k or n change. One row (m = 1, the batch-1 classifier
// or DQN head) with a persistable W goes to the own GEMV
// (lite/backends/x86/gemv.h: W packed into column panels at the first run,
// then streamed once per run) where the CPU has AVX-512, its activations
// applied after it.
#include "lite/backends/x86/gemv.h"
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/matmul_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class FcCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::FcParam>();
    ran_gemv_ = p.m == 1 && p.w->persistable() && lite::x86::Gemv::Available();
    if (ran_gemv_) return RunGemv(p);
    using lite::x86::PlainDesc;
    const DDim src{p.m, p.k}, w{p.k, p.n}, dst{p.m, p.n}, bias{1, p.n};
    if (src != src_dims_ || w != w_dims_) {
      dnnl::matmul::desc d = p.bias ? dnnl::matmul::desc(PlainDesc(src), PlainDesc(w),
                                                         PlainDesc(bias), PlainDesc(dst))
                                    : dnnl::matmul::desc(PlainDesc(src), PlainDesc(w),
                                                         PlainDesc(dst));
      dnnl::post_ops ops;
      if (p.relu) ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
      lite::x86::AppendActivation(p.act, &ops);
      dnnl::primitive_attr attr;
      attr.set_post_ops(ops);
      matmul_ = dnnl::matmul(dnnl::matmul::primitive_desc(d, attr, lite::x86::CpuEngine()));
      src_dims_ = src;
      w_dims_ = w;
    }
    if (p.bias) AddArg(DNNL_ARG_BIAS, Mem(DNNL_ARG_BIAS, PlainDesc(bias), p.bias->data<float>()));
    Execute(matmul_,
            {{DNNL_ARG_SRC, Mem(DNNL_ARG_SRC, PlainDesc(src), p.input->data<float>())},
             {DNNL_ARG_WEIGHTS, Mem(DNNL_ARG_WEIGHTS, PlainDesc(w), p.w->data<float>())},
             {DNNL_ARG_DST, Mem(DNNL_ARG_DST, PlainDesc(dst), p.out->mutable_data<float>())}});
    return Status::OK();
  }

  const std::string& impl_info() const override {
    return ran_gemv_ ? kGemvImpl : KernelBase::impl_info();
  }

 private:
  Status RunGemv(const operators::FcParam& p) {
    if (!gemv_.has_weights() || gemv_.k() != p.k || gemv_.n() != p.n) {
      gemv_.SetWeights(p.w->data<float>(), p.k, p.n);  // once: W is a weight
    }
    float* y = p.out->mutable_data<float>();
    gemv_.Run(p.input->data<float>(), p.bias ? p.bias->data<float>() : nullptr, y, threads());
    if (p.relu || p.act.enabled()) {
      for (int64_t j = 0; j < p.n; ++j) {
        y[j] = p.act.Apply(p.relu && y[j] < 0.f ? 0.f : y[j]);
      }
    }
    return Status::OK();
  }

  const std::string kGemvImpl = "lite:gemv";
  lite::x86::Gemv gemv_;
  bool ran_gemv_ = false;  // the last run's implementation, for the profile
  DDim src_dims_, w_dims_;
  dnnl::matmul matmul_;
};

bool FcAccepts(const cpp::OpDesc& desc) {
  return lite::x86::FusedActivationExpressible(desc);
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(fc, kX86, kFloat, kNCHW, lite::kernels::x86::FcCompute, def)
    .SetAccepts(lite::kernels::x86::FcAccepts)
    .Finalize();
