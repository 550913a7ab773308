// x86 conv2d / depthwise_conv2d on oneDNN's convolution primitive.
//
// Bias and the fused activation (post-ops, lite/backends/x86/post_ops.h) run
// inside the primitive. The primitive is created with format_tag::any for
// source, weights and destination, so oneDNN picks its fastest layouts
// (nChw16c activations, OIhw16i16o-style weights on AVX-512); the filter is
// reordered into the chosen layout once (at Init when shapes are known
// ahead, else at the first run) and again only if a new input shape makes
// oneDNN choose another weights layout. Plan per input shape: a change of
// input dims re-creates the primitive. Activations stay NCHW between ops:
// the kernel reorders its input into and its output out of the primitive's
// layout when they differ (temporaries from the buffer pool).
// Fusion passes produce no residual add on convs today, so there is no
// sum post-op.
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
