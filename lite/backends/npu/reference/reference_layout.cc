// Data movement loops: transpose, concat, split, slice, pad, resize.
#include <algorithm>
#include <cmath>

#include "lite/backends/npu/reference/reference_ops.h"

namespace lite {
namespace npu {
namespace reference {

namespace {
std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

int64_t Numel(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// Calls fn(out_flat_index, index) for every index of `dims`, row-major.
template <typename Fn>
void ForEachIndex(const std::vector<int64_t>& dims, Fn fn) {
  const int64_t total = Numel(dims);
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t i = 0; i < total; ++i) {
    fn(i, index);
    for (size_t r = dims.size(); r-- > 0;) {
      if (++index[r] < dims[r]) break;
      index[r] = 0;
    }
  }
}

// outer = product of dims before axis, inner = product from axis + 1.
void Split3(const std::vector<int64_t>& dims, int64_t axis, int64_t* outer, int64_t* inner) {
  *outer = 1;
  *inner = 1;
  for (int64_t i = 0; i < axis; ++i) *outer *= dims[i];
  for (size_t i = axis + 1; i < dims.size(); ++i) *inner *= dims[i];
}
}  // namespace

Status RunTranspose(const Operation& op, const View& x, const MutableView& out) {
  const auto perm = op.Ints("perm");
  if (perm.size() != x.dims.size()) return InvalidArgument(op.origin + ": perm rank mismatch");
  const auto xs = Strides(x.dims);
  ForEachIndex(out.dims, [&](int64_t i, const std::vector<int64_t>& idx) {
    int64_t src = 0;
    for (size_t r = 0; r < idx.size(); ++r) src += idx[r] * xs[perm[r]];
    out.data[i] = x.data[src];
  });
  return Status::OK();
}

Status RunConcat(const Operation& op, const std::vector<View>& in, const MutableView& out) {
  const int64_t axis = op.Int("axis");
  int64_t outer, inner;
  Split3(out.dims, axis, &outer, &inner);
  const int64_t out_len = out.dims[axis];
  int64_t offset = 0;
  for (const View& v : in) {
    const int64_t len = v.dims[axis];
    for (int64_t o = 0; o < outer; ++o) {
      std::copy(v.data + o * len * inner, v.data + (o + 1) * len * inner,
                out.data + (o * out_len + offset) * inner);
    }
    offset += len;
  }
  return Status::OK();
}

Status RunSplit(const Operation& op, const View& x, const std::vector<MutableView>& outs) {
  const int64_t axis = op.Int("axis");
  int64_t outer, inner;
  Split3(x.dims, axis, &outer, &inner);
  const int64_t in_len = x.dims[axis];
  int64_t offset = 0;
  for (const MutableView& v : outs) {
    const int64_t len = v.dims[axis];
    for (int64_t o = 0; o < outer; ++o) {
      const float* src = x.data + (o * in_len + offset) * inner;
      std::copy(src, src + len * inner, v.data + o * len * inner);
    }
    offset += len;
  }
  return Status::OK();
}

Status RunSlice(const Operation& op, const View& x, const MutableView& out) {
  const auto begins = op.Ints("begins");
  if (begins.size() != x.dims.size()) return InvalidArgument(op.origin + ": begins rank mismatch");
  const auto xs = Strides(x.dims);
  ForEachIndex(out.dims, [&](int64_t i, const std::vector<int64_t>& idx) {
    int64_t src = 0;
    for (size_t r = 0; r < idx.size(); ++r) src += (idx[r] + begins[r]) * xs[r];
    out.data[i] = x.data[src];
  });
  return Status::OK();
}

Status RunPad(const Operation& op, const View& x, const MutableView& out) {
  const auto pads = op.Ints("paddings");
  if (pads.size() != 2 * x.dims.size()) return InvalidArgument(op.origin + ": paddings size");
  const int64_t mode = op.Int("mode");
  const float value = op.Float("value");
  const auto xs = Strides(x.dims);
  ForEachIndex(out.dims, [&](int64_t i, const std::vector<int64_t>& idx) {
    int64_t src = 0;
    for (size_t r = 0; r < idx.size(); ++r) {
      int64_t p = idx[r] - pads[2 * r];
      const int64_t n = x.dims[r];
      if (p < 0 || p >= n) {
        if (mode == 0) {
          src = -1;
          break;
        }
        if (mode == 1) {  // reflect: mirror without repeating the edge
          p = p < 0 ? -p : 2 * (n - 1) - p;
        } else {  // edge
          p = p < 0 ? 0 : n - 1;
        }
      }
      src += p * xs[r];
    }
    out.data[i] = src < 0 ? value : x.data[src];
  });
  return Status::OK();
}

Status RunResize(const Operation& op, const View& x, const MutableView& out) {
  const bool nearest = op.type == OperationType::kResizeNearest;
  const bool align_corners = op.Int("align_corners") != 0;
  const bool half_pixel = !nearest && op.Int("align_mode", 1) == 0 && !align_corners;
  const float rh = op.Float("ratio_h"), rw = op.Float("ratio_w");
  const int64_t NC = x.dims[0] * x.dims[1], H = x.dims[2], W = x.dims[3];
  const int64_t OH = out.dims[2], OW = out.dims[3];
  // Source index and weight of the upper neighbour per output coordinate.
  auto axis = [&](float ratio, int64_t in, int64_t k, int64_t* lo, int64_t* hi, float* d) {
    if (nearest) {
      int64_t v = align_corners ? static_cast<int64_t>(ratio * k + 0.5f)
                                : static_cast<int64_t>(ratio * k);
      *lo = *hi = std::min(std::max<int64_t>(v, 0), in - 1);
      *d = 0;
      return;
    }
    int64_t l = half_pixel ? static_cast<int64_t>(ratio * (k + 0.5f) - 0.5f)
                           : static_cast<int64_t>(ratio * k);
    l = std::min(std::max<int64_t>(l, 0), in - 1);
    *lo = l;
    *hi = std::min(l + 1, in - 1);
    const float src = std::max(ratio * (k + 0.5f) - 0.5f, 0.f);
    *d = half_pixel ? src - l : ratio * k - l;
  };
  for (int64_t p = 0; p < NC; ++p) {
    const float* src = x.data + p * H * W;
    float* dst = out.data + p * OH * OW;
    for (int64_t oh = 0; oh < OH; ++oh) {
      int64_t y0, y1;
      float dy;
      axis(rh, H, oh, &y0, &y1, &dy);
      for (int64_t ow = 0; ow < OW; ++ow) {
        int64_t x0, x1;
        float dx;
        axis(rw, W, ow, &x0, &x1, &dx);
        if (nearest) {
          dst[oh * OW + ow] = src[y0 * W + x0];
          continue;
        }
        dst[oh * OW + ow] = (1 - dy) * ((1 - dx) * src[y0 * W + x0] + dx * src[y0 * W + x1]) +
                            dy * ((1 - dx) * src[y1 * W + x0] + dx * src[y1 * W + x1]);
      }
    }
  }
  return Status::OK();
}

}  // namespace reference
}  // namespace npu
}  // namespace lite
