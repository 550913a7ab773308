// arm matmul / matmul_v2 (float32) with two run-time operands: SVTR's
// attention in PP-OCRv4 rec (q k^T, then the weights times v, batched over
// the heads). XNNPACK's 2022 API has no batched matrix multiply and its
// fully_connected packs the weight at creation, so a B that changes every
// run would be repacked every run; the products run on the engine's
// portable GEMM instead (lite/backends/host/gemm.h: Eigen, NEON on
// aarch64), one call per batch.
//
// The op's InferShape has planned the product (matmul_ops.h): per output
// batch b, C_b = alpha * op(A_b) * op(B_b), A_b at X + x_offsets[b] (row
// stride lda, transposed when gemm_trans_a), B_b likewise. The fused
// activation (FusedActivation) runs in place afterwards. Registered at
// layout NCHW: the operands are rank 3 or rank 4 tensors read row-major.
// The int8 form (enable_int8) is declined at kernel pick.
#include "lite/backends/host/gemm.h"
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
    for (size_t b = 0; b < p.x_offsets.size(); ++b) {
      host::Gemm(p.gemm_trans_a, p.gemm_trans_b, p.m, p.n, p.k, p.alpha, x + p.x_offsets[b],
                 p.lda, y + p.y_offsets[b], p.ldb, 0.f, out + static_cast<int64_t>(b) * p.m * p.n,
                 p.n);
    }
    p.act.ApplyInPlace(out, p.out->numel());
    return Status::OK();
  }
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
