// The recurrent GEMM of the host RNN kernels: C[m, n] += A[m, k] * B[k, n]
// where B is a constant weight and m (the sequences active at a time step)
// is usually small.
//
// PackedPanels holds B once re-laid out as panels of 16 columns, each panel
// contiguous [k][16] (the last one zero-padded), so a step streams B
// sequentially. For 2 <= m <= 16 the product runs on register tiles (4 rows
// x 16 columns or 2 x 32: eight independent accumulator chains) over the
// panels, reading B once per 4 rows with no per-call repacking; m = 1 (Eigen's
// GEMV streams the row-major B, measured faster) and larger m go to Eigen on
// the row-major B. Columns are
// split over the thread pool in fixed blocks of 256 (only for steps of 8M+
// multiply-adds: smaller steps cost less than waking the pool), so results
// do not depend on the thread count. The caller owns every buffer.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/core/kernel.h"

namespace lite {
namespace kernels {
namespace host {

struct PackedPanels {
  int64_t k = 0, n = 0;
  std::vector<float> data;  // ceil(n / 16) panels of k x 16
};

// Packs row-major B [k, n] (leading dim ldb).
void PackPanels(const float* b, int64_t k, int64_t n, int64_t ldb, PackedPanels* out);

// C[m, n] += A[m, k] * B; `b` is the row-major B [k, n] (leading dim ldb)
// that `packed` was made from.
void RecurrentGemm(int64_t m, const float* a, int64_t lda, const float* b, int64_t ldb,
                   const PackedPanels& packed, float* c, int64_t ldc, const KernelContext* ctx);

}  // namespace host
}  // namespace kernels
}  // namespace lite
