// x86 conv2d / depthwise_conv2d on oneDNN's convolution primitive.
//
// Registered at layout NHWC: source and destination stay NHWC (oneDNN's
// brgconv kernels read and write it directly; layout_cast_pass converts only
// at the borders of x86 regions). Bias and the fused activation (post-ops,
// lite/backends/x86/post_ops.h) run inside the primitive. The weights are
// format_tag::any, so oneDNN picks its fastest weights layout; the filter is
// reordered into it once (at Init when shapes are known ahead, else at the
// first run) and again only if a new input shape makes oneDNN choose another
// weights layout. Plan per input shape: a change of input dims re-creates
// the primitive. Should the primitive want other activation layouts than
// the tensors have, the kernel reorders through temporaries from the buffer
// pool (not the case on AVX-512). Fusion passes produce no residual add on
// convs today, so there is no sum post-op.
#pragma once

#include "lite/kernels/x86/dnnl_kernel.h"

namespace lite {
namespace kernels {
namespace x86 {

class ConvCompute : public DnnlKernel {
 protected:
  Status InitDnnl() override;
  Status RunDnnl() override;

 private:
  Status Plan();

  DDim planned_dims_;
  dnnl::convolution_forward conv_;
  dnnl::memory::desc user_src_md_, user_dst_md_, src_md_, dst_md_, scratch_md_;
  dnnl::memory::desc weights_md_;
  dnnl::memory weights_;  // the filter in weights_md_ (owned)
  bool has_bias_ = false;
};

}  // namespace x86
}  // namespace kernels
}  // namespace lite
