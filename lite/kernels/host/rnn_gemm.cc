#include "lite/kernels/host/rnn_gemm.h"

#include <algorithm>
#include <cstring>

#include "lite/backends/host/gemm.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

constexpr int64_t kPanel = 16;
constexpr int64_t kFewRows = 16;
constexpr int64_t kPanelsPerBlock = 16;  // 256 columns per thread block
constexpr int64_t kMinParallelStepWork = int64_t{8} << 20;  // multiply-adds

typedef float Vec8 __attribute__((vector_size(32), aligned(4)));  // unaligned OK

inline Vec8 Load8(const float* p) { return *reinterpret_cast<const Vec8*>(p); }
inline void Store8(float* p, Vec8 v) { *reinterpret_cast<Vec8*>(p) = v; }

// R rows of C += R rows of A times P adjacent panels starting at column
// `col` (the last panel may be partial: `cols` valid columns from `col`).
// R * P <= 4 keeps 8 independent accumulator chains in registers; each C
// element still sums over k in order, whatever R and P are.
template <int R, int P>
void Tile(int64_t k, const float* a, int64_t lda, const float* panels, int64_t cols, float* c,
          int64_t ldc) {
  constexpr int64_t W = P * kPanel;
  Vec8 acc[R][2 * P];
  float tmp[R][W];
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) {
    std::memset(tmp[r], 0, sizeof(tmp[r]));
    std::memcpy(tmp[r], c + r * ldc, sizeof(float) * cols);
#pragma GCC unroll 8
    for (int v = 0; v < 2 * P; ++v) acc[r][v] = Load8(tmp[r] + 8 * v);
  }
  for (int64_t kk = 0; kk < k; ++kk) {
    Vec8 b[2 * P];
#pragma GCC unroll 4
    for (int q = 0; q < P; ++q) {
      b[2 * q] = Load8(panels + (q * k + kk) * kPanel);
      b[2 * q + 1] = Load8(panels + (q * k + kk) * kPanel + 8);
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const float av = a[r * lda + kk];
#pragma GCC unroll 8
      for (int v = 0; v < 2 * P; ++v) acc[r][v] += av * b[v];
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < 2 * P; ++v) Store8(tmp[r] + 8 * v, acc[r][v]);
    std::memcpy(c + r * ldc, tmp[r], sizeof(float) * cols);
  }
}

// Rows [0, R) of the tile over panels [q0, q1): P panels at a time, then
// single panels.
template <int R, int P>
void RowGroup(const float* a, int64_t lda, const PackedPanels& p, int64_t q0, int64_t q1,
              float* c, int64_t ldc) {
  int64_t q = q0;
  auto cols_from = [&p](int64_t panel, int64_t count) {
    return std::min(count * kPanel, p.n - panel * kPanel);
  };
  for (; P > 1 && q + P <= q1; q += P) {
    Tile<R, P>(p.k, a, lda, p.data.data() + q * p.k * kPanel, cols_from(q, P), c + q * kPanel,
               ldc);
  }
  for (; q < q1; ++q) {
    Tile<R, 1>(p.k, a, lda, p.data.data() + q * p.k * kPanel, cols_from(q, 1), c + q * kPanel,
               ldc);
  }
}

void FewRows(int64_t m, const float* a, int64_t lda, const PackedPanels& p, int64_t q0,
             int64_t q1, float* c, int64_t ldc) {
  for (int64_t i = 0; i < m; i += 4) {
    const float* ai = a + i * lda;
    float* ci = c + i * ldc;
    switch (std::min<int64_t>(4, m - i)) {
      case 4: RowGroup<4, 1>(ai, lda, p, q0, q1, ci, ldc); break;
      case 3: RowGroup<3, 1>(ai, lda, p, q0, q1, ci, ldc); break;
      case 2: RowGroup<2, 2>(ai, lda, p, q0, q1, ci, ldc); break;
      default: RowGroup<1, 4>(ai, lda, p, q0, q1, ci, ldc); break;  // a last odd row
    }
  }
}

}  // namespace

void PackPanels(const float* b, int64_t k, int64_t n, int64_t ldb, PackedPanels* out) {
  const int64_t panels = (n + kPanel - 1) / kPanel;
  out->k = k;
  out->n = n;
  out->data.assign(panels * k * kPanel, 0.f);
  for (int64_t q = 0; q < panels; ++q) {
    const int64_t cols = std::min(kPanel, n - q * kPanel);
    for (int64_t kk = 0; kk < k; ++kk) {
      std::memcpy(&out->data[(q * k + kk) * kPanel], b + kk * ldb + q * kPanel,
                  sizeof(float) * cols);
    }
  }
}

void RecurrentGemm(int64_t m, const float* a, int64_t lda, const float* b, int64_t ldb,
                   const PackedPanels& packed, float* c, int64_t ldc, const KernelContext* ctx) {
  const int64_t n = packed.n, k = packed.k;
  if (m <= 0 || n <= 0) return;
  const int64_t panels = (n + kPanel - 1) / kPanel;
  const int64_t blocks = (panels + kPanelsPerBlock - 1) / kPanelsPerBlock;
  // A time step is a few microseconds of work: waking the pool per step
  // only pays for many active sequences.
  const KernelContext* pool = m * n * k >= kMinParallelStepWork ? ctx : nullptr;
  ParallelFor(pool, blocks, m * n * k, [&](int64_t begin, int64_t end) {
    for (int64_t blk = begin; blk < end; ++blk) {
      const int64_t q0 = blk * kPanelsPerBlock, q1 = std::min(panels, q0 + kPanelsPerBlock);
      if (m > 1 && m <= kFewRows) {
        FewRows(m, a, lda, packed, q0, q1, c, ldc);
      } else {
        const int64_t col = q0 * kPanel, cols = std::min(n, q1 * kPanel) - col;
        Gemm(false, false, m, cols, k, 1.f, a, lda, b + col, ldb, 1.f, c + col, ldc);
      }
    }
  });
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
