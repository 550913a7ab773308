// Boxes of a tensor as a kernel holds it in memory. A kernel registered at
// layout NHWC keeps a rank-4 activation in NHWC element order under NCHW
// dims, and anything else row-major (layout_cast_pass.cc); MemoryStrides
// gives each logical dim's stride in that order, so slice, pad and
// transpose kernels (x86 and arm) address the logical box they cut, fill or
// permute without a layout cast.
// CopyBox copies a box between two such tensors on raw bytes (every dtype),
// its innermost loop along the dim that is innermost in the source's memory
// (C of an NHWC tensor): one memcpy per run where both sides are
// contiguous there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "lite/base/tensor.h"

namespace lite {

// Per logical dim of `dims`, its stride in elements: NHWC order when
// `nhwc` and rank 4, else row-major.
std::vector<int64_t> MemoryStrides(const DDim& dims, bool nhwc);

// Copies the box of logical extents `extent` from `src` (strides
// `src_strides`) to `dst` (strides `dst_strides`), `bytes` per element.
// Both pointers address the box's first element; a stride may be 0 for an
// extent of 1.
void CopyBox(const char* src, const std::vector<int64_t>& src_strides, char* dst,
             const std::vector<int64_t>& dst_strides, const DDim& extent, size_t bytes);

}  // namespace lite
