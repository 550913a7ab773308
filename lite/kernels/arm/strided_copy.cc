#include "lite/kernels/arm/strided_copy.h"

#include <cstring>

namespace lite {
namespace kernels {
namespace arm {

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (int k = static_cast<int>(dims.size()) - 2; k >= 0; --k) s[k] = s[k + 1] * dims[k + 1];
  return s;
}

namespace {

// The innermost run: `n` elements `stride` apart to dense `dst`.
template <typename T>
void CopyRun(const char* src, int64_t stride, int64_t n, char* dst) {
  const T* s = reinterpret_cast<const T*>(src);
  T* d = reinterpret_cast<T*>(dst);
  for (int64_t i = 0; i < n; ++i) d[i] = s[i * stride];
}

}  // namespace

void CopyStridedBox(const char* src, const std::vector<int64_t>& src_strides,
                    const std::vector<int64_t>& extents, size_t bytes, char* dst) {
  const int rank = static_cast<int>(extents.size());
  int64_t total = 1;
  for (int64_t e : extents) total *= e;
  if (total == 0) return;
  if (rank == 0) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const int64_t inner = extents[rank - 1];
  const int64_t inner_stride = src_strides[rank - 1];
  const size_t run_bytes = static_cast<size_t>(inner) * bytes;
  std::vector<int64_t> idx(rank - 1, 0);
  int64_t offset = 0;  // source element offset of the current run
  for (int64_t run = 0, runs = total / inner; run < runs; ++run) {
    const char* s = src + offset * static_cast<int64_t>(bytes);
    if (inner_stride == 1) {
      std::memcpy(dst, s, run_bytes);
    } else if (bytes == 4) {
      CopyRun<uint32_t>(s, inner_stride, inner, dst);
    } else if (bytes == 8) {
      CopyRun<uint64_t>(s, inner_stride, inner, dst);
    } else {
      for (int64_t i = 0; i < inner; ++i) {
        std::memcpy(dst + i * bytes, s + i * inner_stride * static_cast<int64_t>(bytes), bytes);
      }
    }
    dst += run_bytes;
    for (int k = rank - 2; k >= 0; --k) {  // odometer over the outer dims
      offset += src_strides[k];
      if (++idx[k] < extents[k]) break;
      offset -= src_strides[k] * extents[k];
      idx[k] = 0;
    }
  }
}

}  // namespace arm
}  // namespace kernels
}  // namespace lite
