// conv_activation_fuse_pass: a conv (conv2d / depthwise_conv2d /
// conv2d_transpose, with or without Bias) followed by relu, relu6,
// leaky_relu, hard_swish, hard_sigmoid, sigmoid or swish becomes the conv
// with the fuse_* attributes (FusedActivation, applied after the bias).
// Skipped when the conv already has a fused activation.
#include "lite/optimizer/passes/fusion_pass.h"

namespace lite {
namespace mir {
namespace fusion {

class ConvActivationFusePass : public ActivationFusePass {
 public:
  bool runs_on_sub_blocks() const override { return true; }
  ConvActivationFusePass() : ActivationFusePass(ConvTypes(), "Output") {}
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_activation_fuse_pass, lite::mir::fusion::ConvActivationFusePass);
