// nearest_interp / bilinear_interp (v1) and their _v2 versions: resize the H
// and W of an NCHW float tensor.
//
// Output size precedence (Paddle): SizeTensor (two 1-element ints) > OutSize
// (int [2]) > Scale tensor > attr `scale` > attrs out_h/out_w; a scale gives
// int(in * scale). v1 `scale` is a float; v2 `scale` is [scale_h, scale_w]
// (a single value is used for both). Coordinate ratio when out > 1:
// align_corners ? (in-1)/(out-1) : v2 with a scale > 0 ? 1/scale : in/out.
// (In v2 a scale keeps driving the ratio even when OutSize sets the size, as
// in Paddle.) ComputeInterpolatePlan() is shared by InferShape and the kernel,
// which re-evaluates it every run because the size tensors can change value.
// A fusion may give the op a ResidualData input (same dims as Out) that is
// added to the result; int8_requantize_pass may then make Out int8 levels
// (InterpolateParam::levels, see levels_output.h; x86 kernel).
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"
#include "lite/operators/levels_output.h"

namespace lite {
namespace operators {

struct InterpolateParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  const Tensor* out_size = nullptr;        // OutSize, optional
  std::vector<const Tensor*> size_tensor;  // SizeTensor, optional
  const Tensor* scale_tensor = nullptr;    // Scale, optional
  bool v2 = false;
  int out_h = -1;
  int out_w = -1;
  std::vector<float> scale;  // v1: at most one value
  std::string interp_method;  // "nearest" or "bilinear"
  bool align_corners = true;
  int align_mode = 1;
  // Optional ResidualData (interp_residual_fuse_pass): Out = resize(X) +
  // ResidualData, which has Out's dims; with ResidualScale (C values, one
  // per channel, or N * C, one per sample and channel) the residual is
  // scaled first: Out = resize(X) + R * S[n, c].
  const Tensor* residual = nullptr;
  const Tensor* residual_scale = nullptr;
  LevelsOutput levels;  // Out as int8 levels (with ResidualData only)
};

// Adds `p.residual` (when set) to the resized output: the host kernels'
// epilogue. Error when its dims differ from Out's.
// Index into ResidualScale for sample n, channel c of an Out with C
// channels (the scale holds C or N * C values).
inline int64_t ResidualScaleIndex(const Tensor& scale, int64_t n, int64_t c, int64_t channels) {
  return scale.numel() == channels ? c : n * channels + c;
}
Status AddInterpolateResidual(const InterpolateParam& p);

// True when Paddle's nearest index int(ratio * o) is o / factor for every
// output position o, with out == factor * in: an integer upscale (the x86
// kernels' own path; conv_resize_add_fuse_pass asks before fusing).
inline bool NearestIsIntegerUpscale(int64_t in, int64_t out, float ratio) {
  if (in <= 0 || out % in != 0) return false;
  const int64_t factor = out / in;
  for (int64_t o = 0; o < out; ++o) {
    if (static_cast<int64_t>(ratio * o) != o / factor) return false;
  }
  return true;
}

struct InterpolatePlan {
  int64_t n = 0, c = 0, in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  float ratio_h = 0.f, ratio_w = 0.f;
};

StatusOr<InterpolatePlan> ComputeInterpolatePlan(const InterpolateParam& p);

// Paddle's nearest source index for output coordinate k (clamped to
// [0, in) for memory safety only).
inline int NearestSourceIndex(float ratio, int k, int in, bool align_corners) {
  const int v = align_corners ? static_cast<int>(ratio * k + 0.5) : static_cast<int>(ratio * k);
  return v < 0 ? 0 : (v > in - 1 ? in - 1 : v);
}

// Per output coordinate of a bilinear resize along one axis: the low and
// high source index and the weight of each, as Paddle's CPU kernel computes
// them (its float/double promotions included). `align_flag` is
// align_mode == 0 && !align_corners.
struct LinearAxis {
  std::vector<int> lo, hi;
  std::vector<float> w_hi, w_lo;  // w_hi weights `hi`, w_lo weights `lo`
};
LinearAxis ComputeLinearAxis(float ratio, int in, int out, bool align_flag);

}  // namespace operators
}  // namespace lite
