// The geometry the own depthwise kernels take (DepthwiseConv's and
// DepthwiseInt8Nhwc's Geometry: the same fields), read off a conv's
// param for its current shapes: NCHW-named dims, kernel, strides, the
// resolved top / left padding and dilations.
#pragma once

#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace x86 {

template <class Geometry>
Geometry DepthwiseGeometryOf(const operators::ConvParam& p) {
  const DDim& in = p.input->dims();
  const DDim& out = p.output->dims();
  const DDim& f = p.filter->dims();
  Geometry g;
  g.n = in[0];
  g.c = in[1];
  g.h = in[2];
  g.w = in[3];
  g.oh = out[2];
  g.ow = out[3];
  g.kh = static_cast<int>(f[2]);
  g.kw = static_cast<int>(f[3]);
  g.stride_h = p.strides[0];
  g.stride_w = p.strides[1];
  g.pad_top = p.eff_paddings[0];
  g.pad_left = p.eff_paddings[2];
  g.dilation_h = p.eff_dilations[0];
  g.dilation_w = p.eff_dilations[1];
  return g;
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
