// Zero-padded copies of input rows, shared by the conv kernels that work on
// padded rows instead of im2col (depthwise, Winograd).
//
// Padded column j of a row is input column j - pad_left, or 0 outside the
// input. Stride-2 kernels split a padded row into its even and odd columns
// so that every tap reads contiguous memory.
#pragma once

#include <algorithm>
#include <cstring>

namespace lite {
namespace kernels {
namespace host {

// Writes padded columns [j0, j1) of input row `src` (`width` floats; null
// for a row that lies in the padding) to dst[0, j1 - j0).
inline void PaddedRowSegment(const float* src, int width, int pad_left, int j0, int j1,
                             float* dst) {
  if (!src) {
    std::fill(dst, dst + (j1 - j0), 0.f);
    return;
  }
  const int lo = std::min(j1, std::max(j0, pad_left));      // first in-input column
  const int hi = std::max(lo, std::min(j1, width + pad_left));  // one past the last
  std::fill(dst, dst + (lo - j0), 0.f);
  std::memcpy(dst + (lo - j0), src + (lo - pad_left), sizeof(float) * (hi - lo));
  std::fill(dst + (hi - j0), dst + (j1 - j0), 0.f);
}

// Splits src[0, 2n) into its even and odd elements. Blocks of 8 with a
// constant trip count vectorize without runtime checks (rows are short).
inline void SplitEvenOdd(const float* __restrict src, int n, float* __restrict even,
                         float* __restrict odd) {
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int v = 0; v < 8; ++v) {
      even[i + v] = src[2 * (i + v)];
      odd[i + v] = src[2 * (i + v) + 1];
    }
  }
  for (; i < n; ++i) {
    even[i] = src[2 * i];
    odd[i] = src[2 * i + 1];
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
