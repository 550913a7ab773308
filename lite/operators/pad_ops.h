// pad2d and pad3d: pad the spatial dims of an NCHW / NCDHW tensor.
//
// pad2d: paddings [top, bottom, left, right], mode constant / reflect / edge,
//   pad_value, data_format NCHW.
// pad3d: paddings [left, right, top, bottom, front, back], mode constant /
//   reflect / replicate / circular, value, data_format NCDHW.
// Both take an optional int32/int64 Paddings tensor input that overrides the
// attribute (read at run time; the kernel re-resizes the output, so changed
// values take effect even when no input dims change). Semantics follow
// Paddle's kernels: reflect excludes the edge (pad must be < dim), edge /
// replicate clamps, circular wraps. Channel-last formats return
// Unimplemented.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct PadParam : OpParam {
  enum Mode { kConstant, kReflect, kEdge, kCircular };
  const Tensor* x = nullptr;
  const Tensor* paddings_tensor = nullptr;  // optional "Paddings" input
  Tensor* out = nullptr;
  int spatial_rank = 2;        // 2 for pad2d, 3 for pad3d
  std::vector<int> paddings;   // attribute, in the op's own order
  Mode mode = kConstant;
  float value = 0.f;
};

// Effective per-dim (begin, end) paddings for depth, height, width
// ([d0, d1, h0, h1, w0, w1]; depth is 0 for pad2d), from the Paddings input
// when bound or the attribute; validated against the input dims. Errors name
// `op_name`.
StatusOr<std::array<int64_t, 6>> ResolvePadding(const PadParam& p,
                                                const std::string& op_name);
// Output dims for the input dims and resolved paddings.
DDim PaddedDims(const DDim& in, int spatial_rank, const std::array<int64_t, 6>& pads);

// Source index along one dim of extent n for output index o with `begin`
// padded before it, or -1 for the constant, as in Paddle:
//   reflect: i = |o - b|, then min(i, 2*(n-1) - i); edge: clamp to [0, n);
//   circular: ((o - b) mod n + n) mod n.
inline int64_t PadSourceIndex(PadParam::Mode mode, int64_t o, int64_t begin, int64_t n) {
  int64_t i = o - begin;
  switch (mode) {
    case PadParam::kConstant: return (i < 0 || i >= n) ? -1 : i;
    case PadParam::kReflect:
      i = std::max(i, -i);
      return std::min(i, 2 * n - i - 2);
    case PadParam::kEdge: return std::min(n - 1, std::max<int64_t>(i, 0));
    case PadParam::kCircular: return ((i % n) + n) % n;
  }
  return -1;
}

}  // namespace operators
}  // namespace lite
