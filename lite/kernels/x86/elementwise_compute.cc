// x86 elementwise_{add, sub, mul, div, max, min} on oneDNN's binary
// primitive, the fused activation as post-ops. Paddle's axis broadcasting is
// resolved by the op (ElementwiseParam's aligned dims); oneDNN broadcasts
// only its second source, so where X is the broadcast one and Y has the
// output's dims the sources are swapped: add, mul, max and min as they are,
// sub as -(Y - X) (a linear post-op before the activation). PP-LCNetV3's
// learnable affine blocks (PP-OCRv4 / v5) compute scale * x with a [1]
// scale as X: on the host path these multiplies dominate det v5's time. Other runs where X is broadcast (div, or both broadcast) go to the
// host kernel (HostFallback, on NCHW copies). Registered at layout NHWC:
// rank-4 activations are NHWC, weights and other ranks plain. An activation on Y (the SE gate) and
// activations oneDNN cannot express decline the op at kernel pick.
// Primitive re-created when the dims change.
// With ElementwiseParam::levels (int8_requantize_pass, elementwise_add
// registered as kInt8 "levels_out") Out holds the int8 levels the int8
// convs reading it would compute (operators/quant_math.h): X and Y of equal
// dims and layout are added, activated and quantized block by block in one
// pass (a residual add: its float32 sum is never written); a broadcast Y
// goes through oneDNN into a temporary, quantized after.
#include <algorithm>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/core/host_fallback.h"
#include "lite/operators/elementwise_ops.h"
#include "lite/base/quant_math.h"

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

// True when op(X, Y) can run as a binary primitive on (Y, X): X is the
// broadcast source and Y has the output's dims, for add, mul, max, min and
// sub (negated after).
bool SwapSources(const operators::ElementwiseParam& p) {
  using K = operators::ElementwiseKind;
  return p.x_dims != p.out_dims && p.y_dims == p.out_dims &&
         (p.kind == K::kAdd || p.kind == K::kMul || p.kind == K::kMax || p.kind == K::kMin ||
          p.kind == K::kSub);
}

class ElementwiseCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::ElementwiseParam>();
    const bool swap = SwapSources(p);
    if ((p.x_dims != p.out_dims && !swap) || p.x->dtype() != DataType::kFloat32 ||
        p.y->dtype() != DataType::kFloat32 || BinaryAlgorithm(p.kind) == dnnl::algorithm::undef) {
      return RunOnHost(p);
    }
    const auto x_md = Md(*p.x, p.x_dims), y_md = Md(*p.y, p.y_dims), out_md = Md(*p.out, p.out_dims);
    if (p.levels.enabled && p.kind == operators::ElementwiseKind::kAdd && p.x_dims == p.y_dims &&
        x_md == y_md) {
      return AddToLevels(p);
    }
    // Source 0 has the output's dims, source 1 is broadcast.
    const Tensor* src0 = swap ? p.y : p.x;
    const Tensor* src1 = swap ? p.x : p.y;
    const auto& md0 = swap ? y_md : x_md;
    const auto& md1 = swap ? x_md : y_md;
    if (p.x_dims != x_dims_ || p.y_dims != y_dims_) {
      dnnl::binary::desc desc(BinaryAlgorithm(p.kind), md0, md1, out_md);
      dnnl::post_ops ops;
      if (swap && p.kind == operators::ElementwiseKind::kSub) {
        ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, -1.f, 0.f);  // X - Y = -(Y - X)
      }
      lite::x86::AppendActivation(p.act, &ops);
      dnnl::primitive_attr attr;
      attr.set_post_ops(ops);
      binary_ = dnnl::binary(dnnl::binary::primitive_desc(desc, attr, lite::x86::CpuEngine()));
      x_dims_ = p.x_dims;
      y_dims_ = p.y_dims;
    }
    const dnnl::memory dst = p.levels.enabled ? Temp(out_md)
                                              : Mem(DNNL_ARG_DST, out_md, p.out->mutable_data<float>());
    Execute(binary_, {{DNNL_ARG_SRC_0, Mem(DNNL_ARG_SRC_0, md0, src0->data<float>())},
                      {DNNL_ARG_SRC_1, Mem(DNNL_ARG_SRC_1, md1, src1->data<float>())},
                      {DNNL_ARG_DST, dst}});
    if (p.levels.enabled) {
      operators::quant::QuantizeToInt8(static_cast<const float*>(dst.get_data_handle()),
                                       p.out->mutable_data<int8_t>(), p.out->numel(),
                                       p.levels.scale, 127, p.levels.round_type);
    }
    return Status::OK();
  }

 private:
  // `t` seen with the op's aligned `dims`: NHWC only for a rank-4
  // activation here (then the aligned dims are its own), else plain.
  dnnl::memory::desc Md(const Tensor& t, const DDim& dims) const {
    if (Desc(t) != lite::x86::PlainDesc(t.dims())) return lite::x86::NhwcDesc(dims);
    return lite::x86::PlainDesc(dims);
  }

  // act(X + Y) of equal-shaped X and Y quantized into Out, a block at a
  // time in a stack buffer (the activation is the host kernel's, so the
  // levels are the simulation's).
  Status AddToLevels(const operators::ElementwiseParam& p) {
    constexpr int64_t kBlock = 1024;
    const float* x = p.x->data<float>();
    const float* y = p.y->data<float>();
    int8_t* out = p.out->mutable_data<int8_t>();
    const int64_t n = p.out->numel();
    const int64_t blocks = (n + kBlock - 1) / kBlock;
    lite::x86::OmpForRangesIf(n > 16 * kBlock, threads(), blocks, [&](int64_t k0, int64_t k1) {
      for (int64_t b = k0 * kBlock; b < std::min(n, k1 * kBlock); b += kBlock) {
        float sum[kBlock];
        const int64_t m = std::min(kBlock, n - b);
#pragma omp simd
        for (int64_t i = 0; i < m; ++i) sum[i] = x[b + i] + y[b + i];
        if (p.act.enabled()) p.act.ApplyInPlace(sum, m);
        operators::quant::QuantizeToInt8(sum, out + b, m, p.levels.scale, 127,
                                         p.levels.round_type);
      }
    });
    return Status::OK();
  }

  // The host kernel on NCHW views of X, Y and Out.
  Status RunOnHost(const operators::ElementwiseParam& p) {
    if (p.levels.enabled) {
      return Unimplemented("x86 elementwise op writing int8 levels needs a float X of the "
                           "output's dims, got X " +
                           DimsToString(p.x_dims) + " for " + DimsToString(p.out_dims));
    }
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
  return lite::x86::FusedActivationExpressible(desc) &&
         desc.GetAttr<std::string>("y_activation", "").empty();
}

// int8_requantize_pass's form of elementwise_add: float X and Y, Out int8
// levels.
bool AddLevelsAccepts(const cpp::OpDesc& desc) {
  return ElementwiseAccepts(desc) && desc.GetAttr<bool>("enable_int8", false) &&
         desc.GetAttr<std::string>("Output_dtype", "float32") == "int8";
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
REGISTER_LITE_KERNEL(elementwise_add, kX86, kInt8, kNHWC, lite::kernels::x86::ElementwiseCompute,
                     levels_out)
    .BindInput("X", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("Y", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindOutput("Out", lite::Place(TARGET(kX86), PRECISION(kInt8), DATALAYOUT(kNHWC)))
    .SetAccepts(lite::kernels::x86::AddLevelsAccepts)
    .Finalize();
LITE_REGISTER_X86_ELEMENTWISE(elementwise_sub);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_mul);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_div);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_max);
LITE_REGISTER_X86_ELEMENTWISE(elementwise_min);
