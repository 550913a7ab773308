#include "lite/backends/host/gemm.h"

#include <Eigen/Core>

namespace lite {
namespace kernels {
namespace host {

namespace {
using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Stride = Eigen::OuterStride<>;
using ConstMap = Eigen::Map<const RowMajor, Eigen::Unaligned, Stride>;
using MutMap = Eigen::Map<RowMajor, Eigen::Unaligned, Stride>;
}  // namespace

void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
          float alpha, const float* a, int64_t lda, const float* b,
          int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  MutMap cm(c, m, n, Stride(ldc));
  if (beta == 0.f) {
    cm.setZero();
  } else if (beta != 1.f) {
    cm *= beta;
  }
  if (k == 0) return;
  ConstMap am(a, trans_a ? k : m, trans_a ? m : k, Stride(lda));
  ConstMap bm(b, trans_b ? n : k, trans_b ? k : n, Stride(ldb));
  if (!trans_a && !trans_b) {
    cm.noalias() += alpha * (am * bm);
  } else if (trans_a && !trans_b) {
    cm.noalias() += alpha * (am.transpose() * bm);
  } else if (!trans_a && trans_b) {
    cm.noalias() += alpha * (am * bm.transpose());
  } else {
    cm.noalias() += alpha * (am.transpose() * bm.transpose());
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
