// x86 elementwise_{add, sub, mul, div, max, min} on oneDNN's binary
// primitive, the fused activation as post-ops. Paddle's axis broadcasting is
// resolved by the op (ElementwiseParam's aligned dims); oneDNN broadcasts
// only its second source, so a run where X itself is broadcast goes to the
// host kernel (HostFallback, on NCHW copies). Registered at layout NHWC:
// rank-4 activations are NHWC, weights and other ranks plain. An activation on Y (the SE gate) and
// activations oneDNN cannot express decline the op at kernel pick.
// Primitive re-created when the dims change.
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/kernels/x86/host_fallback.h"
#include "lite/operators/elementwise_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

dnnl::algorithm BinaryAlgorithm(operators::ElementwiseKind k) {
  using K = operators::ElementwiseKind;
  switch (k) {
    case K::kAdd: return dnnl::algorithm::binary_add;
    case K::kSub: return dnnl::algorithm::binary_sub;
    case K::kMul: return dnnl::algorithm::binary_mul;
    case K::kDiv: return dnnl::algorithm::binary_div;
    case K::kMax: return dnnl::algorithm::binary_max;
    case K::kMin: return dnnl::algorithm::binary_min;
    case K::kPow: break;
  }
  return dnnl::algorithm::undef;
}

class ElementwiseCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::ElementwiseParam>();
    if (p.x_dims != p.out_dims || p.x->dtype() != DataType::kFloat32 ||
        p.y->dtype() != DataType::kFloat32 || BinaryAlgorithm(p.kind) == dnnl::algorithm::undef) {
      return RunOnHost(p);
    }
    const auto x_md = Md(*p.x, p.x_dims), y_md = Md(*p.y, p.y_dims), out_md = Md(*p.out, p.out_dims);
    if (p.x_dims != x_dims_ || p.y_dims != y_dims_) {
      dnnl::binary::desc desc(BinaryAlgorithm(p.kind), x_md, y_md, out_md);
      binary_ = dnnl::binary(dnnl::binary::primitive_desc(
          desc, lite::x86::ActivationAttr(p.act), lite::x86::CpuEngine()));
      x_dims_ = p.x_dims;
      y_dims_ = p.y_dims;
    }
    Execute(binary_,
            {{DNNL_ARG_SRC_0, Mem(DNNL_ARG_SRC_0, x_md, p.x->data<float>())},
             {DNNL_ARG_SRC_1, Mem(DNNL_ARG_SRC_1, y_md, p.y->data<float>())},
             {DNNL_ARG_DST, Mem(DNNL_ARG_DST, out_md, p.out->mutable_data<float>())}});
    return Status::OK();
  }

 private:
  // `t` seen with the op's aligned `dims`: NHWC only for a rank-4
  // activation here (then the aligned dims are its own), else plain.
  dnnl::memory::desc Md(const Tensor& t, const DDim& dims) const {
    if (Desc(t) != lite::x86::PlainDesc(t.dims())) return lite::x86::NhwcDesc(dims);
    return lite::x86::PlainDesc(dims);
  }

  // The host kernel on NCHW views of X, Y and Out.
  Status RunOnHost(const operators::ElementwiseParam& p) {
    nchw_param_ = p;
    nchw_param_.x = NchwInput(*p.x);
    nchw_param_.y = NchwInput(*p.y);
    nchw_param_.out = NchwOutput(p.out);
    RETURN_IF_ERROR(fallback_.Run(*this, &nchw_param_));
    StoreNchwOutput(*nchw_param_.out, p.out);
    return Status::OK();
  }

  DDim x_dims_, y_dims_;
  dnnl::binary binary_;
  operators::ElementwiseParam nchw_param_;
  HostFallback fallback_;
};

bool ElementwiseAccepts(const cpp::OpDesc& desc) {
  auto act = operators::FusedActivation::FromOpDesc(desc);
  return act.ok() && lite::x86::DnnlExpressible(*act) &&
         desc.GetAttr<std::string>("y_activation", "").empty();
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_X86_ELEMENTWISE(op)                                              \
  REGISTER_LITE_KERNEL(op, kX86, kFloat, kNHWC, lite::kernels::x86::ElementwiseCompute, \
                       def)                                                            \
      .SetAccepts(lite::kernels::x86::ElementwiseAccepts)                             \
      .Finalize()

LITE_REGISTER_X86_ELEMENTWISE(elementwise_add);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_sub);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_mul);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_div);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_max);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_min);
