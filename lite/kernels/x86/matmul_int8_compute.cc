// x86 int8 fc / mul / matmul / matmul_v2 (the int8 form of matmul_ops.h,
// made by quant_dequant_fuse_pass) on oneDNN's int8 matmul.
//
// The float32 input, seen as [M, K] (fc and mul: flattened at their
// num_col_dims; matmul: batches stacked, Y being one 2-D matrix), is
// quantized here to s8 levels with Input_scale by the op's rule
// (operators/quant_math.h) into a temporary; oneDNN multiplies s8 x s8 with
// int32 sums (VNNI kernels where the CPU has them: impl_info() names what
// the primitive got) and writes float32 [M, N] through per-column output
// scales alpha * Input_scale / 127 * Filter_scales[n] / 127, then the bias
// (a binary-add post-op, so it is added after the scales, unscaled), fc's
// relu and the fused activation. The int32 sums are exact, so the result
// differs from the float32 simulation only by float rounding. The int8
// weight [K, N] is reordered once into the layout oneDNN picks; the
// primitive is planned again when M changes.
#include <string>
#include <vector>

#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/matmul_ops.h"
#include "lite/base/quant_math.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using dnnl::memory;
using lite::x86::CpuEngine;
using operators::FcParam;
using operators::MatMulParam;
using operators::MulParam;

// One product as [M, K] x [K, N] -> [M, N], whatever the op.
struct Product {
  const Tensor* x = nullptr;
  const Tensor* w = nullptr;
  const Tensor* bias = nullptr;
  Tensor* out = nullptr;
  int64_t m = 0, k = 0, n = 0;
  float alpha = 1.f;
  bool relu = false;
  const operators::FusedActivation* act = nullptr;
  const operators::MatMulInt8Form* q = nullptr;
};

Product ProductOf(const FcParam& p) {
  return {p.input, p.w, p.bias, p.out, p.m, p.k, p.n, 1.f, p.relu, &p.act, &p.int8};
}

Product ProductOf(const MulParam& p) {
  return {p.x, p.y, nullptr, p.out, p.m, p.k, p.n, 1.f, false, &p.act, &p.int8};
}

// Y is one 2-D matrix (matmul_ops.h) and X untransposed (the kernel's
// Accepts), so the batches of X stack into one taller [M * batches, K].
Product ProductOf(const MatMulParam& p) {
  const int64_t m = p.m * static_cast<int64_t>(p.x_offsets.size());
  return {p.x, p.y, nullptr, p.out, m, p.k, p.n, p.alpha, false, &p.act, &p.int8};
}

template <typename P>
class MatMulInt8Compute : public DnnlKernel {
 public:
  const std::string& impl_info() const override { return impl_info_; }

 protected:
  Status RunDnnl() override {
    const Product v = ProductOf(Param<P>());
    if (v.x->dtype() != DataType::kFloat32) {
      return InvalidArgument("int8 " + def().op_type + ": input holds " +
                             DataTypeName(v.x->dtype()) + ", expected float32");
    }
    if (v.m != planned_m_) Plan(v);
    memory src = Temp(src_md_);
    operators::quant::QuantizeToInt8(v.x->data<float>(),
                                     static_cast<int8_t*>(src.get_data_handle()), v.m * v.k,
                                     v.q->input_scale, 127, v.q->quant_round_type);
    if (v.bias) {
      AddArg(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
             Mem(DNNL_ARG_BIAS, bias_md_, v.bias->data<float>()));
    }
    Execute(matmul_, {{DNNL_ARG_SRC, src},
                      {DNNL_ARG_WEIGHTS, weights_},
                      {DNNL_ARG_DST, Mem(DNNL_ARG_DST, dst_md_, v.out->mutable_data<float>())},
                      {DNNL_ARG_SCRATCHPAD, Temp(scratch_md_)}});
    return Status::OK();
  }

 private:
  void Plan(const Product& v) {
    const auto ab = memory::format_tag::ab;
    src_md_ = memory::desc({v.m, v.k}, memory::data_type::s8, ab);
    dst_md_ = memory::desc({v.m, v.n}, memory::data_type::f32, ab);
    bias_md_ = memory::desc({1, v.n}, memory::data_type::f32, ab);
    const memory::desc w_any({v.k, v.n}, memory::data_type::s8, memory::format_tag::any);

    std::vector<float> scales(v.n);
    for (int64_t c = 0; c < v.n; ++c) {
      scales[c] = v.alpha * (v.q->input_scale / 127.f) * (v.q->filter_scales[c] / 127.f);
    }
    dnnl::post_ops ops;
    if (v.bias) ops.append_binary(dnnl::algorithm::binary_add, bias_md_);
    if (v.relu) ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
    lite::x86::AppendActivation(*v.act, &ops);
    dnnl::primitive_attr attr;
    attr.set_output_scales(1 << 1, scales);
    attr.set_post_ops(ops);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(src_md_, w_any, dst_md_), attr,
                                    CpuEngine());
    impl_info_ = pd.impl_info_str();
    matmul_ = dnnl::matmul(pd);
    scratch_md_ = pd.scratchpad_desc();
    if (!weights_ || pd.weights_desc() != weights_md_) {
      weights_md_ = pd.weights_desc();
      weights_ = memory(weights_md_, CpuEngine());
      memory user_w = lite::x86::WrapMemory(memory::desc({v.k, v.n}, memory::data_type::s8, ab),
                                            v.w->data<int8_t>());
      dnnl::reorder(user_w, weights_).execute(stream(), user_w, weights_);
      stream().wait();
    }
    planned_m_ = v.m;
  }

  int64_t planned_m_ = -1;
  dnnl::matmul matmul_;
  memory::desc src_md_, dst_md_, bias_md_, scratch_md_, weights_md_;
  memory weights_;
  std::string impl_info_;
};

bool ActivationOk(const cpp::OpDesc& desc) {
  return desc.GetAttr<bool>("enable_int8", false) && lite::x86::FusedActivationExpressible(desc);
}

bool FcInt8Accepts(const cpp::OpDesc& desc) { return ActivationOk(desc); }

bool MulInt8Accepts(const cpp::OpDesc& desc) {
  return ActivationOk(desc) && desc.GetAttr<int32_t>("y_num_col_dims", 1) == 1;
}

// Untransposed X (Y is one 2-D matrix in every int8 form: matmul_ops.h).
bool MatMulInt8Accepts(const cpp::OpDesc& desc) {
  const bool v2 = desc.Type() == "matmul_v2";
  return ActivationOk(desc) && !desc.GetAttr<bool>(v2 ? "trans_x" : "transpose_X", false) &&
         !desc.GetAttr<bool>(v2 ? "trans_y" : "transpose_Y", false);
}

}  // namespace

}  // namespace x86
}  // namespace kernels
}  // namespace lite

// Float32 activations in and out; the weight holds int8 levels.
#define LITE_REGISTER_X86_INT8_PRODUCT(op, param, input)                                   \
  REGISTER_LITE_KERNEL(op, kX86, kInt8, kNCHW,                                             \
                       lite::kernels::x86::MatMulInt8Compute<lite::operators::param>, def) \
      .BindInput(input, lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNCHW)))   \
      .BindInput("Bias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNCHW)))  \
      .BindOutput("Out", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNCHW)))

LITE_REGISTER_X86_INT8_PRODUCT(fc, FcParam, "Input")
    .SetAccepts(lite::kernels::x86::FcInt8Accepts)
    .Finalize();
LITE_REGISTER_X86_INT8_PRODUCT(mul, MulParam, "X")
    .SetAccepts(lite::kernels::x86::MulInt8Accepts)
    .Finalize();
LITE_REGISTER_X86_INT8_PRODUCT(matmul, MatMulParam, "X")
    .SetAccepts(lite::kernels::x86::MatMulInt8Accepts)
    .Finalize();
LITE_REGISTER_X86_INT8_PRODUCT(matmul_v2, MatMulParam, "X")
    .SetAccepts(lite::kernels::x86::MatMulInt8Accepts)
    .Finalize();
