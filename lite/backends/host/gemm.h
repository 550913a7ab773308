// Row-major fp32 GEMM on top of Eigen: C = alpha * op(A) * op(B) + beta * C.
//
// The single matrix-multiply entry point for host kernels (conv via im2col,
// mul, matmul, fc). Eigen picks the vectorized blocking; callers own all
// buffers. Leading dimensions are row strides in elements.
#pragma once

#include <cstdint>

namespace lite {
namespace kernels {
namespace host {

// op(A) is M x K, op(B) is K x N, C is M x N (all row-major).
void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
          float alpha, const float* a, int64_t lda, const float* b,
          int64_t ldb, float beta, float* c, int64_t ldc);

}  // namespace host
}  // namespace kernels
}  // namespace lite
