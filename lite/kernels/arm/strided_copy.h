// CopyStridedBox: the data movement shared by the arm transpose and slice
// kernels. A box of logical extents is read from `src` through per-dim
// element strides (a transpose's permuted strides, a slice's window in its
// input) and written densely, row-major, to `dst`. The innermost dim is
// one memcpy where its source stride is 1, else an element loop; the outer
// dims advance as an odometer (no per-element index arithmetic). Any
// element size (the float kernels pass 4 bytes; the copy is dtype-blind).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lite {
namespace kernels {
namespace arm {

// Copies the box `extents` (strides `src_strides`, elements of `bytes`,
// starting at `src`) to `dst`, dense row-major. Empty boxes copy nothing.
void CopyStridedBox(const char* src, const std::vector<int64_t>& src_strides,
                    const std::vector<int64_t>& extents, size_t bytes, char* dst);

// Row-major element strides of `dims`.
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims);

}  // namespace arm
}  // namespace kernels
}  // namespace lite
