// Host fp32 kernels for mul, matmul, matmul_v2 and fc. Every product goes
// through Gemm (gemm.h); the ops' InferShape has already computed sizes and
// per-batch offsets.
#include <algorithm>

#include "lite/core/kernel.h"
#include "lite/kernels/host/gemm.h"
#include "lite/operators/matmul_ops.h"

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
