// x86 float matmul and matmul_v2 on oneDNN's matmul primitive, so that
// transformer blocks (PP-OCRv4 rec's attention: q k^T and the weights times
// v, batched over the heads) stay on the x86 target instead of falling back
// to the host kernel.
//
// The op's InferShape has planned the product (matmul_ops.h): per output
// batch b, C_b = alpha * op(A_b) * op(B_b) with A_b at X + x_offsets[b]
// (row stride lda, transposed when gemm_trans_a), likewise B_b, and C_b
// dense M x N. When the offsets step evenly (a broadcast operand steps by
// 0) one batched primitive covers all batches through strided memory
// descriptors, a broadcast operand given batch dim 1; otherwise one 2-D
// primitive runs per batch. alpha is the primitive's output scale and the
// fused activation a post-op after it, as the host kernel applies them. The
// plan is rebuilt when the product's geometry changes.
#include <vector>

#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/matmul_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using dnnl::memory;
using operators::MatMulParam;

// The step between consecutive offsets when they step evenly (0 for one
// batch or a broadcast operand), else -1.
int64_t EvenStep(const std::vector<int64_t>& offsets) {
  if (offsets.size() < 2) return 0;
  const int64_t step = offsets[1] - offsets[0];
  for (size_t b = 2; b < offsets.size(); ++b) {
    if (offsets[b] - offsets[b - 1] != step) return -1;
  }
  return step;
}

// An operand of `rows` x `cols` (after op()) stored with leading dimension
// `ld`, transposed or not, in `batches` batches `step` apart.
memory::desc OperandDesc(int64_t batches, int64_t step, int64_t rows, int64_t cols, int64_t ld,
                         bool trans) {
  const int64_t rs = trans ? 1 : ld, cs = trans ? ld : 1;
  return memory::desc({step == 0 ? 1 : batches, rows, cols}, memory::data_type::f32,
                      {step, rs, cs});
}

class MatMulCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<MatMulParam>();
    if (p.x->dtype() != DataType::kFloat32 || p.y->dtype() != DataType::kFloat32) {
      return Unimplemented(def().op_type + " on x86: float32 X and Y only");
    }
    const int64_t batches = static_cast<int64_t>(p.x_offsets.size());
    const std::vector<int64_t> key = {p.m,   p.n,   p.k,   p.lda, p.ldb, p.gemm_trans_a,
                                      p.gemm_trans_b, batches, EvenStep(p.x_offsets),
                                      EvenStep(p.y_offsets)};
    if (key != key_) Plan(p, key);
    const float* x = p.x->data<float>();
    const float* y = p.y->data<float>();
    float* out = p.out->mutable_data<float>();
    const int64_t runs = batched_ ? 1 : batches;
    for (int64_t b = 0; b < runs; ++b) {
      Execute(matmul_, {{DNNL_ARG_SRC, Mem(DNNL_ARG_SRC, src_md_, x + p.x_offsets[b])},
                        {DNNL_ARG_WEIGHTS, Mem(DNNL_ARG_WEIGHTS, w_md_, y + p.y_offsets[b])},
                        {DNNL_ARG_DST, Mem(DNNL_ARG_DST, dst_md_, out + b * p.m * p.n)}});
    }
    return Status::OK();
  }

 private:
  void Plan(const MatMulParam& p, const std::vector<int64_t>& key) {
    const int64_t batches = key[7], sx = key[8], sy = key[9];
    batched_ = batches == 1 || (sx >= 0 && sy >= 0);
    const int64_t nb = batched_ ? batches : 1;
    src_md_ = OperandDesc(nb, batched_ ? sx : 0, p.m, p.k, p.lda, p.gemm_trans_a);
    w_md_ = OperandDesc(nb, batched_ ? sy : 0, p.k, p.n, p.ldb, p.gemm_trans_b);
    dst_md_ = memory::desc({nb, p.m, p.n}, memory::data_type::f32, {p.m * p.n, p.n, 1});
    dnnl::post_ops ops;
    lite::x86::AppendActivation(p.act, &ops);
    dnnl::primitive_attr attr;
    if (p.alpha != 1.f) attr.set_output_scales(0, {p.alpha});
    attr.set_post_ops(ops);
    matmul_ = dnnl::matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(src_md_, w_md_, dst_md_),
                                                        attr, lite::x86::CpuEngine()));
    key_ = key;
  }

  std::vector<int64_t> key_;  // the geometry the plan is for
  bool batched_ = false;      // one execution for all batches
  memory::desc src_md_, w_md_, dst_md_;
  dnnl::matmul matmul_;
};

bool MatMulAccepts(const cpp::OpDesc& desc) {
  return lite::x86::FusedActivationExpressible(desc);
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(matmul, kX86, kFloat, kNCHW, lite::kernels::x86::MatMulCompute, def)
    .SetAccepts(lite::kernels::x86::MatMulAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(matmul_v2, kX86, kFloat, kNCHW, lite::kernels::x86::MatMulCompute, def)
    .SetAccepts(lite::kernels::x86::MatMulAccepts)
    .Finalize();
