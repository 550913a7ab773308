#include "lite/base/memory_box.h"

#include <algorithm>
#include <cstring>

namespace lite {

std::vector<int64_t> MemoryStrides(const DDim& dims, bool nhwc) {
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> s(rank, 1);
  if (nhwc && rank == 4) {
    s[1] = 1;                         // C
    s[3] = dims[1];                   // W
    s[2] = dims[3] * dims[1];         // H
    s[0] = dims[2] * dims[3] * dims[1];  // N
    return s;
  }
  for (int k = rank - 2; k >= 0; --k) s[k] = s[k + 1] * dims[k + 1];
  return s;
}

void CopyBox(const char* src, const std::vector<int64_t>& src_strides, char* dst,
             const std::vector<int64_t>& dst_strides, const DDim& extent, size_t bytes) {
  const int rank = static_cast<int>(extent.size());
  if (Product(extent) <= 0) return;
  if (rank == 0) {
    std::memcpy(dst, src, bytes);
    return;
  }
  // Dims from outermost to innermost in the source's memory; dims of
  // extent 1 do not move and are left out.
  std::vector<int> order;
  for (int k = 0; k < rank; ++k) {
    if (extent[k] > 1) order.push_back(k);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return src_strides[a] > src_strides[b]; });
  if (order.empty()) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const int inner = order.back();
  order.pop_back();
  const int64_t run = extent[inner];
  const int64_t ss = src_strides[inner] * static_cast<int64_t>(bytes);
  const int64_t ds = dst_strides[inner] * static_cast<int64_t>(bytes);
  const bool contiguous = ss == static_cast<int64_t>(bytes) && ds == static_cast<int64_t>(bytes);
  std::vector<int64_t> idx(order.size(), 0);
  int64_t so = 0, dof = 0;  // byte offsets of the current run
  for (;;) {
    if (contiguous) {
      std::memcpy(dst + dof, src + so, static_cast<size_t>(run) * bytes);
    } else if (bytes == 4) {
      const char* s = src + so;
      char* d = dst + dof;
      for (int64_t i = 0; i < run; ++i) std::memcpy(d + i * ds, s + i * ss, 4);
    } else {
      for (int64_t i = 0; i < run; ++i) std::memcpy(dst + dof + i * ds, src + so + i * ss, bytes);
    }
    // Next run: an odometer over the outer dims, innermost first.
    int j = static_cast<int>(order.size()) - 1;
    for (; j >= 0; --j) {
      const int k = order[j];
      so += src_strides[k] * static_cast<int64_t>(bytes);
      dof += dst_strides[k] * static_cast<int64_t>(bytes);
      if (++idx[j] < extent[k]) break;
      so -= extent[k] * src_strides[k] * static_cast<int64_t>(bytes);
      dof -= extent[k] * dst_strides[k] * static_cast<int64_t>(bytes);
      idx[j] = 0;
    }
    if (j < 0) return;
  }
}

}  // namespace lite
