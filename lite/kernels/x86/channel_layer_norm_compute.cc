// x86 channel_layer_norm (float32) on the own loops of
// lite/backends/x86/layer_norm.h. Registered at layout NHWC, so
// layout_cast_pass keeps the activation channel-last between the x86 convs
// around it: each of the N x H x W pixels is then one row of C contiguous
// values, the same loop as layer_norm over a last axis, with no cast to
// NCHW and back.
#include "lite/backends/x86/layer_norm.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/channel_layer_norm_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class ChannelLayerNormCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<operators::ChannelLayerNormParam>();
    const DDim& d = p.x->dims();
    // Rank 4 (the op checks it), so NHWC here: C innermost.
    lite::x86::LayerNormRows(p.x->data<float>(), p.y->mutable_data<float>(), d[0] * d[2] * d[3],
                             d[1], p.scale ? p.scale->data<float>() : nullptr,
                             p.bias ? p.bias->data<float>() : nullptr, p.epsilon, nullptr,
                             nullptr);
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(channel_layer_norm, kX86, kFloat, kNHWC,
                     lite::kernels::x86::ChannelLayerNormCompute, def)
    .Finalize();
