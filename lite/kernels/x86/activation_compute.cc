// x86 activations on oneDNN's eltwise primitive, and scale on its binary
// primitive (see ScaleCompute). Kinds map as
// the fused activations do (lite/backends/x86/post_ops.h), plus gelu (erf
// or tanh form), exp, log, sqrt and abs; hard_swish with non-default
// attributes declines at kernel pick. Primitive re-created when dims change.
// Registered at layout NHWC: element-wise, so any order works.
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/activation_ops.h"
#include "lite/operators/scale_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using operators::ActivationKind;
using operators::ActivationParam;
using operators::FusedActivation;

// The kinds FusedActivation covers, as one (kind kNone when not covered).
FusedActivation AsFused(const ActivationParam& p) {
  FusedActivation a;
  switch (p.kind) {
    case ActivationKind::kRelu: a.kind = FusedActivation::kRelu; break;
    case ActivationKind::kTanh: a.kind = FusedActivation::kTanh; break;
    case ActivationKind::kSigmoid: a.kind = FusedActivation::kSigmoid; break;
    case ActivationKind::kRelu6:
      a.kind = FusedActivation::kRelu6;
      a.alpha = p.threshold;
      break;
    case ActivationKind::kLeakyRelu:
      a.kind = FusedActivation::kLeakyRelu;
      a.alpha = p.alpha;
      break;
    case ActivationKind::kHardSwish:
      a.kind = FusedActivation::kHardSwish;
      a.alpha = p.threshold;
      a.beta = p.scale;
      a.gamma = p.offset;
      break;
    case ActivationKind::kHardSigmoid:
      a.kind = FusedActivation::kHardSigmoid;
      a.alpha = p.slope;
      a.beta = p.offset;
      break;
    case ActivationKind::kSwish:
      a.kind = FusedActivation::kSwish;
      a.alpha = p.beta;
      break;
    default: break;
  }
  return a;
}

dnnl::post_ops EltwiseOps(const ActivationParam& p) {
  dnnl::post_ops ops;
  using dnnl::algorithm;
  switch (p.kind) {
    case ActivationKind::kGelu:
      ops.append_eltwise(1.f, p.approximate ? algorithm::eltwise_gelu_tanh
                                            : algorithm::eltwise_gelu_erf, 0.f, 0.f);
      break;
    case ActivationKind::kExp: ops.append_eltwise(1.f, algorithm::eltwise_exp, 0.f, 0.f); break;
    case ActivationKind::kLog: ops.append_eltwise(1.f, algorithm::eltwise_log, 0.f, 0.f); break;
    case ActivationKind::kSqrt: ops.append_eltwise(1.f, algorithm::eltwise_sqrt, 0.f, 0.f); break;
    case ActivationKind::kAbs: ops.append_eltwise(1.f, algorithm::eltwise_abs, 0.f, 0.f); break;
    default: lite::x86::AppendActivation(AsFused(p), &ops);
  }
  return ops;
}

// The activation as a chain of eltwise primitives (hard_sigmoid needs two).
class ActivationCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<ActivationParam>();
    const auto md = Desc(*p.x);
    if (p.x->dims() != dims_) {
      steps_ = lite::x86::EltwiseChain(EltwiseOps(p), md);
      dims_ = p.x->dims();
    }
    auto src = Mem(DNNL_ARG_SRC, md, p.x->data<float>());
    auto dst = Mem(DNNL_ARG_DST, md, p.out->mutable_data<float>());
    for (size_t i = 0; i < steps_.size(); ++i) {
      Execute(steps_[i], {{DNNL_ARG_SRC, i == 0 ? src : dst}, {DNNL_ARG_DST, dst}});
    }
    return Status::OK();
  }

 private:
  DDim dims_;
  std::vector<dnnl::eltwise_forward> steps_;
};

// scale (float32, no ScaleTensor) in one pass: a binary multiply by the
// factor (a one-value source broadcast over X) whose post-ops add the bias
// (eltwise_linear) and apply a fused activation. An eltwise chain (linear,
// then the activation) took two passes: PP-OCRv5 det's 52 affine blocks
// with hard_swish.
class ScaleCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::ScaleParam>();
    // oneDNN has no 0-d memory: a 0-d X runs as [1].
    const bool scalar = p.x->dims().empty();
    const auto md = scalar ? lite::x86::PlainDesc({1}) : Desc(*p.x);
    if (p.x->dims() != dims_ || !binary_) {
      factor_ = p.scale;
      one_md_ = lite::x86::PlainDesc(DDim(std::vector<int64_t>(md.data.ndims, 1)));
      dnnl::post_ops ops;
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, 1.f,
                         p.bias_after_scale ? p.bias : p.scale * p.bias);
      lite::x86::AppendActivation(p.act, &ops);
      dnnl::primitive_attr attr;
      attr.set_post_ops(ops);
      dnnl::binary::desc d(dnnl::algorithm::binary_mul, md, one_md_, md);
      binary_ = dnnl::binary(dnnl::binary::primitive_desc(d, attr, lite::x86::CpuEngine()));
      dims_ = p.x->dims();
    }
    Execute(binary_, {{DNNL_ARG_SRC_0, Mem(DNNL_ARG_SRC_0, md, p.x->data<float>())},
                      {DNNL_ARG_SRC_1, Mem(DNNL_ARG_SRC_1, one_md_, &factor_)},
                      {DNNL_ARG_DST, Mem(DNNL_ARG_DST, md, p.out->mutable_data<float>())}});
    return Status::OK();
  }

 private:
  DDim dims_;
  float factor_ = 1.f;
  dnnl::memory::desc one_md_;
  dnnl::binary binary_;
};

bool ActivationAccepts(const cpp::OpDesc& desc) {
  if (desc.Type() != "hard_swish") return true;
  FusedActivation a;
  a.kind = FusedActivation::kHardSwish;
  a.alpha = desc.GetAttr<float>("threshold", 6.f);
  a.beta = desc.GetAttr<float>("scale", 6.f);
  a.gamma = desc.GetAttr<float>("offset", 3.f);
  return lite::x86::DnnlExpressible(a);
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_X86_ACTIVATION(op)                                              \
  REGISTER_LITE_KERNEL(op, kX86, kFloat, kNHWC, lite::kernels::x86::ActivationCompute, \
                       def)                                                           \
      .SetAccepts(lite::kernels::x86::ActivationAccepts)                             \
      .Finalize()

LITE_REGISTER_X86_ACTIVATION(relu);
LITE_REGISTER_X86_ACTIVATION(tanh);
LITE_REGISTER_X86_ACTIVATION(sigmoid);
LITE_REGISTER_X86_ACTIVATION(relu6);
LITE_REGISTER_X86_ACTIVATION(leaky_relu);
LITE_REGISTER_X86_ACTIVATION(hard_swish);
LITE_REGISTER_X86_ACTIVATION(hard_sigmoid);
LITE_REGISTER_X86_ACTIVATION(swish);
LITE_REGISTER_X86_ACTIVATION(gelu);
LITE_REGISTER_X86_ACTIVATION(exp);
LITE_REGISTER_X86_ACTIVATION(log);
LITE_REGISTER_X86_ACTIVATION(sqrt);
LITE_REGISTER_X86_ACTIVATION(abs);

// A float scale with its factor as an attribute (a ScaleTensor stays on
// host) and a fused activation oneDNN expresses.
REGISTER_LITE_KERNEL(scale, kX86, kFloat, kNHWC, lite::kernels::x86::ScaleCompute, def)
    .SetAccepts([](const lite::cpp::OpDesc& desc) {
      return !desc.HasInput("ScaleTensor") && lite::x86::FusedActivationExpressible(desc);
    })
    .Finalize();
