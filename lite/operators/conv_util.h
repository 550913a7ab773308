// Shared window-geometry helpers for conv2d, conv2d_transpose, pool2d and
// their 3-D forms (conv3d, pool3d).
//
// Mirrors Paddle's rules: 2-value paddings [h, w] expand to 4 values
// [top, bottom, left, right]; padding_algorithm "SAME" recomputes the
// paddings from the input size (and, for convs, resets dilation to 1),
// "VALID" zeroes them, "EXPLICIT" keeps the attribute. Output sizes follow
// Paddle's ConvOutputSize / PoolOutputSize / conv-transpose formulas.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lite/utils/status.h"

namespace lite {
namespace operators {

// Checks a padding_algorithm attribute value.
inline bool IsKnownPaddingAlgorithm(const std::string& algo) {
  return algo == "EXPLICIT" || algo == "SAME" || algo == "VALID";
}

// True for the layouts NCHW kernels accept ("NCHW" and "AnyLayout").
inline bool IsChannelFirstLayout(const std::string& layout) {
  return layout == "NCHW" || layout == "AnyLayout";
}

// Expands one padding per spatial dim ([pad_h, pad_w], or [d, h, w]) to
// begin/end pairs ([top, bottom, left, right], or [front, back, top,
// bottom, left, right]); 2 * rank values pass through. Returns false for
// any other size.
inline bool ExpandPaddings(const std::vector<int>& in, size_t rank, std::vector<int>* out) {
  if (in.size() == rank) {
    out->clear();
    for (int p : in) out->insert(out->end(), {p, p});
    return true;
  }
  if (in.size() == 2 * rank) {
    *out = in;
    return true;
  }
  return false;
}

inline bool ExpandPaddings2D(const std::vector<int>& in, std::vector<int>* out) {
  return ExpandPaddings(in, 2, out);
}

// Applies padding_algorithm to begin/end paddings for a window over the
// `rank` spatial input sizes `in` with kernel `ksize` and `strides`. For
// SAME, the dilation (if given) is reset to 1, like Paddle's
// UpdatePaddingAndDilation.
inline void ApplyPaddingAlgorithm(const std::string& algo, const int64_t* in, size_t rank,
                                  const std::vector<int>& ksize,
                                  const std::vector<int>& strides, std::vector<int>* pads,
                                  std::vector<int>* dilations) {
  if (algo == "SAME") {
    for (size_t i = 0; i < rank; ++i) {
      int64_t out = (in[i] + strides[i] - 1) / strides[i];
      int64_t pad_sum = std::max<int64_t>((out - 1) * strides[i] + ksize[i] - in[i], 0);
      int64_t p0 = pad_sum / 2;
      (*pads)[2 * i] = static_cast<int>(p0);
      (*pads)[2 * i + 1] = static_cast<int>(pad_sum - p0);
      if (dilations) (*dilations)[i] = 1;
    }
  } else if (algo == "VALID") {
    std::fill(pads->begin(), pads->end(), 0);
  }
}

inline void ApplyPaddingAlgorithm2D(const std::string& algo, const int64_t in_hw[2],
                                    const std::vector<int>& ksize,
                                    const std::vector<int>& strides, std::vector<int>* pads4,
                                    std::vector<int>* dilations) {
  ApplyPaddingAlgorithm(algo, in_hw, 2, ksize, strides, pads4, dilations);
}

// Paddle's ConvOutputSize: (in + p0 + p1 - (d*(k-1)+1)) / s + 1.
inline int64_t ConvOutputSize(int64_t in, int k, int dilation, int p0, int p1,
                              int stride) {
  const int64_t dk = static_cast<int64_t>(dilation) * (k - 1) + 1;
  return (in + p0 + p1 - dk) / stride + 1;
}

// Paddle's conv-transpose size before output_padding / output_size:
// (in - 1) * s - p0 - p1 + d*(k-1) + 1.
inline int64_t ConvTransposeOutputSize(int64_t in, int k, int dilation, int p0,
                                       int p1, int stride) {
  return (in - 1) * stride - p0 - p1 + static_cast<int64_t>(dilation) * (k - 1) + 1;
}

// Paddle's PoolOutputSize (floor or ceil mode).
inline int64_t PoolOutputSize(int64_t in, int k, int p0, int p1, int stride,
                              bool ceil_mode) {
  if (ceil_mode) return (in - k + p0 + p1 + stride - 1) / stride + 1;
  return (in - k + p0 + p1) / stride + 1;
}

// "[a, b, c]" for error messages.
inline std::string IntsToString(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(v[i]);
  }
  return s + "]";
}

}  // namespace operators
}  // namespace lite
