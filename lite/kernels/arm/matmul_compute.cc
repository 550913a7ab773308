// arm matmul / matmul_v2 (float32) with two run-time operands: SVTR's
// attention in PP-OCRv4 rec (q k^T, then the weights times v, batched over
// the heads). XNNPACK's 2022 API has no batched matrix multiply and its
// fully_connected packs the weight at creation, so a B that changes every
// run would be repacked every run; this is the engine's own loop instead.
//
// The op's InferShape has planned the product (matmul_ops.h): per output
// batch b, C_b = alpha * op(A_b) * op(B_b), A_b at X + x_offsets[b] (row
// stride lda, transposed when gemm_trans_a), B_b likewise. B_b is packed
// into panels of 16 columns (zero-padded past N: the weights times v has
// N = 15), then tiles of 4 rows x 16 columns of C keep their sums in 16
// vector registers (GCC's vector extension, NEON on aarch64) over the K
// products, added in k order (every run gives the same result). The fused
// activation (FusedActivation) runs in place afterwards. Registered at
// layout NCHW: the operands are rank 3 or rank 4 tensors read row-major.
// The int8 form (enable_int8) is declined at kernel pick.
#include <algorithm>
#include <vector>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/matmul_ops.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

using operators::MatMulParam;

// Four floats as one vector (GCC's vector extension: a NEON register on
// aarch64, an SSE one on x86-64; no intrinsics).
typedef float Vec4 __attribute__((vector_size(16)));

constexpr int kPanel = 16;  // columns of C per tile: 4 vectors
constexpr int kRows = 4;    // rows of C per tile

// One tile: `rows` (1..kRows) rows of C and the `cols` (1..kPanel) columns
// of one packed panel of B (k rows of kPanel floats, zero past N), as
// alpha * A * B; the sums stay in registers over the k products, added in
// k order.
template <int Rows>
void Tile(const float* a, int64_t lda, const float* panel, int64_t k, float alpha, float* c,
          int64_t ldc, int64_t cols) {
  Vec4 acc[Rows][kPanel / 4] = {};
  for (int64_t kk = 0; kk < k; ++kk) {
    Vec4 b[kPanel / 4];
    __builtin_memcpy(b, panel + kk * kPanel, sizeof(b));
#pragma GCC unroll 4
    for (int r = 0; r < Rows; ++r) {
      const float av = a[r * lda + kk];
#pragma GCC unroll 4
      for (int v = 0; v < kPanel / 4; ++v) acc[r][v] += av * b[v];
    }
  }
  for (int r = 0; r < Rows; ++r) {
    float row[kPanel];
    for (int v = 0; v < kPanel / 4; ++v) {
      const Vec4 scaled = acc[r][v] * alpha;
      __builtin_memcpy(row + 4 * v, &scaled, sizeof(scaled));
    }
    std::copy(row, row + cols, c + r * ldc);
  }
}

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
    const int64_t panels = (n + kPanel - 1) / kPanel;
    packed_.assign(static_cast<size_t>(panels * k * kPanel), 0.f);
    for (size_t b = 0; b < p.x_offsets.size(); ++b) {
      Pack(y + p.y_offsets[b], k, n, p.ldb, p.gemm_trans_b);
      const float* a = x + p.x_offsets[b];
      int64_t lda = p.lda;
      if (p.gemm_trans_a) {  // A stored K x M: copy it to M x K
        a_.resize(static_cast<size_t>(m * k));
        for (int64_t kk = 0; kk < k; ++kk) {
          for (int64_t i = 0; i < m; ++i) a_[i * k + kk] = a[kk * lda + i];
        }
        a = a_.data();
        lda = k;
      }
      float* c = out + static_cast<int64_t>(b) * m * n;
      for (int64_t q = 0; q < panels; ++q) {
        const float* panel = packed_.data() + q * k * kPanel;
        const int64_t j0 = q * kPanel, cols = std::min<int64_t>(kPanel, n - j0);
        int64_t i = 0;
        for (; i + kRows <= m; i += kRows) {
          Tile<kRows>(a + i * lda, lda, panel, k, p.alpha, c + i * n + j0, n, cols);
        }
        for (; i < m; ++i) Tile<1>(a + i * lda, lda, panel, k, p.alpha, c + i * n + j0, n, cols);
      }
    }
    p.act.ApplyInPlace(out, p.out->numel());
    return Status::OK();
  }

 private:
  // B (K x N, or N x K when `trans`; row stride ld) into panels of kPanel
  // columns, each k rows of kPanel floats; the columns past N stay zero.
  void Pack(const float* bm, int64_t k, int64_t n, int64_t ld, bool trans) {
    for (int64_t j = 0; j < n; ++j) {
      float* dst = packed_.data() + (j / kPanel) * k * kPanel + j % kPanel;
      for (int64_t kk = 0; kk < k; ++kk) {
        dst[kk * kPanel] = trans ? bm[j * ld + kk] : bm[kk * ld + j];
      }
    }
  }

  std::vector<float> a_;       // a transposed A (M x K)
  std::vector<float> packed_;  // B's panels
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
