// arm matmul / matmul_v2 (float32) with two run-time operands: SVTR's
// attention in PP-OCRv4 rec (q k^T, then the weights times v, batched over
// the heads). XNNPACK's 2022 API has no batched matrix multiply and its
// fully_connected packs the weight at creation, so a B that changes every
// run would be repacked every run; this is the engine's own loop instead.
//
// The op's InferShape has planned the product (matmul_ops.h): per output
// batch b, C_b = alpha * op(A_b) * op(B_b), A_b at X + x_offsets[b] (row
// stride lda, transposed when gemm_trans_a), B_b likewise. Each row of C is
// a sum of rows of op(B) scaled by one A value (contiguous loops the
// compiler vectorizes for NEON, summed in k order: deterministic); a
// transposed B (q k^T) is first copied into a K x N buffer, so the inner
// loop stays contiguous. The fused activation (FusedActivation) runs in
// place afterwards. Registered at layout NCHW: the operands are rank 3 or
// rank 4 tensors read row-major. The int8 form (enable_int8) is declined at
// kernel pick.
#include <vector>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/matmul_ops.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

using operators::MatMulParam;

class MatMulCompute : public ArmKernel {
 public:
  Status Run() override {
    const auto& p = Param<MatMulParam>();
    if (p.x->dtype() != DataType::kFloat32 || p.y->dtype() != DataType::kFloat32) {
      return Unimplemented(What() + ": float32 X and Y only");
    }
    const float* x = p.x->data<float>();
    const float* y = p.y->data<float>();
    float* out = p.out->mutable_data<float>();
    const int64_t m = p.m, n = p.n, k = p.k;
    if (p.gemm_trans_b) bt_.resize(static_cast<size_t>(k * n));
    for (size_t b = 0; b < p.x_offsets.size(); ++b) {
      const float* a = x + p.x_offsets[b];
      const float* bm = y + p.y_offsets[b];
      int64_t ldb = p.ldb;
      if (p.gemm_trans_b) {  // B stored N x K: copy it to K x N
        for (int64_t j = 0; j < n; ++j) {
          for (int64_t kk = 0; kk < k; ++kk) bt_[kk * n + j] = bm[j * p.ldb + kk];
        }
        bm = bt_.data();
        ldb = n;
      }
      float* c = out + static_cast<int64_t>(b) * m * n;
      for (int64_t i = 0; i < m; ++i) {
        float* ci = c + i * n;
        for (int64_t j = 0; j < n; ++j) ci[j] = 0.f;
        for (int64_t kk = 0; kk < k; ++kk) {
          const float av = p.gemm_trans_a ? a[kk * p.lda + i] : a[i * p.lda + kk];
          const float* bk = bm + kk * ldb;
          for (int64_t j = 0; j < n; ++j) ci[j] += av * bk[j];
        }
        if (p.alpha != 1.f) {
          for (int64_t j = 0; j < n; ++j) ci[j] *= p.alpha;
        }
      }
    }
    p.act.ApplyInPlace(out, p.out->numel());
    return Status::OK();
  }

 private:
  std::vector<float> bt_;  // a transposed B as K x N
};

// The float form with an activation FusedActivation knows.
bool MatMulAccepts(const cpp::OpDesc& desc) {
  if (desc.GetAttr<bool>("enable_int8", false)) return false;
  return operators::FusedActivation::FromOpDesc(desc).ok();
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(matmul, kARM, kFloat, kNCHW, lite::kernels::arm::MatMulCompute, def)
    .SetAccepts(lite::kernels::arm::MatMulAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(matmul_v2, kARM, kFloat, kNCHW, lite::kernels::arm::MatMulCompute, def)
    .SetAccepts(lite::kernels::arm::MatMulAccepts)
    .Finalize();
