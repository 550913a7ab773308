// Host fp32 kernels for mul, matmul, matmul_v2 and fc. Every product goes
// through Gemm (gemm.h); the ops' InferShape has already computed sizes and
// per-batch offsets.
//
// Their int8 form (matmul_ops.h) runs here as the exact float32 simulation:
// the input quantized and dequantized with Input_scale (quant_math.h), the
// int8 weight dequantized once to level * Filter_scales[n] / 127, then the
// fp32 kernel. It is the host fallback of int8 products an NPU subgraph
// claimed; quant_dequant_fuse_pass never makes an op int8 for it alone.
#include <algorithm>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/backends/host/gemm.h"
#include "lite/operators/matmul_ops.h"
#include "lite/base/quant_math.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::FcParam;
using operators::MatMulParam;
using operators::MulParam;

Status RequireFloat(const char* op, std::initializer_list<const Tensor*> ts) {
  for (const Tensor* t : ts) {
    if (t && t->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string(op) + " on " + DataTypeName(t->dtype()) +
                           " input (float32 only)");
    }
  }
  return Status::OK();
}

class MulCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<MulParam>();
    RETURN_IF_ERROR(RequireFloat("mul", {p.x, p.y}));
    float* out = p.out->mutable_data<float>();
    Gemm(false, false, p.m, p.n, p.k, 1.f, p.x->data<float>(), p.k,
         p.y->data<float>(), p.n, 0.f, out, p.n);
    p.act.ApplyInPlace(out, p.out->numel());
    return Status::OK();
  }
};

class MatMulCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<MatMulParam>();
    RETURN_IF_ERROR(RequireFloat(p.v2 ? "matmul_v2" : "matmul", {p.x, p.y}));
    const float* x = p.x->data<float>();
    const float* y = p.y->data<float>();
    float* out = p.out->mutable_data<float>();
    const size_t batches = p.x_offsets.size();
    const int64_t mn = p.m * p.n;
    // X batches contiguous and one shared Y: a single taller GEMM.
    bool fold = batches > 1 && !p.gemm_trans_a;
    for (size_t b = 0; fold && b < batches; ++b) {
      fold = p.y_offsets[b] == 0 &&
             p.x_offsets[b] == static_cast<int64_t>(b) * p.m * p.k;
    }
    if (fold) {
      Gemm(false, p.gemm_trans_b, p.m * static_cast<int64_t>(batches), p.n, p.k,
           p.alpha, x, p.lda, y, p.ldb, 0.f, out, p.n);
    } else {
      for (size_t b = 0; b < batches; ++b) {
        Gemm(p.gemm_trans_a, p.gemm_trans_b, p.m, p.n, p.k, p.alpha,
             x + p.x_offsets[b], p.lda, y + p.y_offsets[b], p.ldb, 0.f,
             out + static_cast<int64_t>(b) * mn, p.n);
      }
    }
    p.act.ApplyInPlace(out, p.out->numel());
    return Status::OK();
  }
};

class FcCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<FcParam>();
    RETURN_IF_ERROR(RequireFloat("fc", {p.input, p.w, p.bias}));
    float* out = p.out->mutable_data<float>();
    float beta = 0.f;
    if (p.bias) {
      const float* bias = p.bias->data<float>();
      for (int64_t i = 0; i < p.m; ++i) std::copy(bias, bias + p.n, out + i * p.n);
      beta = 1.f;
    }
    Gemm(false, false, p.m, p.n, p.k, 1.f, p.input->data<float>(), p.k,
         p.w->data<float>(), p.n, beta, out, p.n);
    const int64_t total = p.m * p.n;
    if (p.relu) {
      for (int64_t i = 0; i < total; ++i) out[i] = out[i] > 0.f ? out[i] : 0.f;
    }
    p.act.ApplyInPlace(out, total);
    return Status::OK();
  }
};

// The activation input and the weight of each product's param.
const Tensor** InputOf(MulParam* p) { return &p->x; }
const Tensor** InputOf(MatMulParam* p) { return &p->x; }
const Tensor** InputOf(FcParam* p) { return &p->input; }
const Tensor** WeightOf(MulParam* p) { return &p->y; }
const Tensor** WeightOf(MatMulParam* p) { return &p->y; }
const Tensor** WeightOf(FcParam* p) { return &p->w; }

template <typename P, typename FloatKernel>
class Int8SimulationCompute : public KernelBase {
 public:
  Status Run() override {
    float_param_ = Param<P>();
    const operators::MatMulInt8Form& q = float_param_.int8;
    const Tensor* x = *InputOf(&float_param_);
    const Tensor* w = *WeightOf(&float_param_);
    if (x->dtype() != DataType::kFloat32) {
      return Unimplemented("int8 " + def().op_type + " on a " + DataTypeName(x->dtype()) +
                           " input (float32 only)");
    }
    if (!weight_.IsInitialized()) {  // the weight is a constant
      const int64_t n = w->dims()[1];
      weight_.Resize(w->dims());
      float* out = weight_.mutable_data<float>();
      const int8_t* levels = w->data<int8_t>();
      for (int64_t i = 0; i < w->numel(); ++i) {
        out[i] = static_cast<float>(levels[i]) * q.filter_scales[i % n] / 127.f;
      }
    }
    input_.Resize(x->dims());
    operators::quant::QuantDequantFloat(x->data<float>(), input_.mutable_data<float>(),
                                        x->numel(), q.input_scale, 127, q.quant_round_type);
    *InputOf(&float_param_) = &input_;
    *WeightOf(&float_param_) = &weight_;
    float_param_.int8.enabled = false;
    float_kernel_.Bind(&def(), &float_param_, ctx());
    return float_kernel_.Run();
  }

 private:
  Tensor weight_;  // dequantized once
  Tensor input_;   // quant-dequantized input of this run
  P float_param_;
  FloatKernel float_kernel_;
};

using FcInt8Compute = Int8SimulationCompute<FcParam, FcCompute>;
using MulInt8Compute = Int8SimulationCompute<MulParam, MulCompute>;
using MatMulInt8Compute = Int8SimulationCompute<MatMulParam, MatMulCompute>;

bool IsInt8Form(const cpp::OpDesc& desc) { return desc.GetAttr<bool>("enable_int8", false); }

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(mul, kHost, kFloat, kNCHW, lite::kernels::host::MulCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(matmul, kHost, kFloat, kNCHW, lite::kernels::host::MatMulCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(matmul_v2, kHost, kFloat, kNCHW, lite::kernels::host::MatMulCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(bmm, kHost, kFloat, kNCHW, lite::kernels::host::MatMulCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fc, kHost, kFloat, kNCHW, lite::kernels::host::FcCompute, def)
    .Finalize();

// The int8 forms (float32 activations in and out; the weight holds levels).
#define LITE_REGISTER_HOST_INT8_PRODUCT(op, kernel, input)                                 \
  REGISTER_LITE_KERNEL(op, kHost, kInt8, kNCHW, lite::kernels::host::kernel, def)          \
      .BindInput(input, lite::Place(TARGET(kHost), PRECISION(kFloat), DATALAYOUT(kNCHW)))  \
      .BindInput("Bias", lite::Place(TARGET(kHost), PRECISION(kFloat), DATALAYOUT(kNCHW))) \
      .BindOutput("Out", lite::Place(TARGET(kHost), PRECISION(kFloat), DATALAYOUT(kNCHW))) \
      .SetAccepts(lite::kernels::host::IsInt8Form)                                         \
      .Finalize()

LITE_REGISTER_HOST_INT8_PRODUCT(fc, FcInt8Compute, "Input");
LITE_REGISTER_HOST_INT8_PRODUCT(mul, MulInt8Compute, "X");
LITE_REGISTER_HOST_INT8_PRODUCT(matmul, MatMulInt8Compute, "X");
LITE_REGISTER_HOST_INT8_PRODUCT(matmul_v2, MatMulInt8Compute, "X");
