// x86 elementwise_{add, sub, mul, div, max, min} on oneDNN's binary
// primitive, the fused activation as post-ops. Paddle's axis broadcasting is
// resolved by the op (ElementwiseParam's aligned dims); oneDNN broadcasts
// only its second source, so a run where X itself is broadcast goes to the
// host kernel (HostFallback). An activation on Y (the SE gate) and
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
      return fallback_.Run(*this);
    }
    using lite::x86::PlainDesc;
    if (p.x_dims != x_dims_ || p.y_dims != y_dims_) {
      dnnl::binary::desc desc(BinaryAlgorithm(p.kind), PlainDesc(p.x_dims), PlainDesc(p.y_dims),
                              PlainDesc(p.out_dims));
      binary_ = dnnl::binary(
          dnnl::binary::primitive_desc(desc, lite::x86::ActivationAttr(p.act),
                                       lite::x86::CpuEngine()));
      x_dims_ = p.x_dims;
      y_dims_ = p.y_dims;
    }
    using lite::x86::WrapMemory;
    binary_.execute(stream(), {{DNNL_ARG_SRC_0, WrapMemory(PlainDesc(p.x_dims), p.x->data<float>())},
                               {DNNL_ARG_SRC_1, WrapMemory(PlainDesc(p.y_dims), p.y->data<float>())},
                               {DNNL_ARG_DST, WrapMemory(PlainDesc(p.out_dims),
                                                         p.out->mutable_data<float>())}});
    return Status::OK();
  }

 private:
  DDim x_dims_, y_dims_;
  dnnl::binary binary_;
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
  REGISTER_LITE_KERNEL(op, kX86, kFloat, kNCHW, lite::kernels::x86::ElementwiseCompute, \
                       def)                                                            \
      .SetAccepts(lite::kernels::x86::ElementwiseAccepts)                             \
      .Finalize()

LITE_REGISTER_X86_ELEMENTWISE(elementwise_add);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_sub);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_mul);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_div);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_max);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_min);
