// elementwise_activation_fuse_pass: elementwise_add / sub / mul / div
// followed by relu, relu6, leaky_relu, hard_swish, hard_sigmoid, sigmoid or
// swish becomes the elementwise op with the fuse_* attributes (applied to
// its output, after any y_activation on Y). Skipped when the elementwise op
// already has a fused activation.
#include "lite/optimizer/passes/fusion_pass.h"

namespace lite {
namespace mir {
namespace fusion {

class ElementwiseActivationFusePass : public ActivationFusePass {
 public:
  bool runs_on_sub_blocks() const override { return true; }
  ElementwiseActivationFusePass()
      : ActivationFusePass(
            {"elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div"},
            "Out") {}
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(elementwise_activation_fuse_pass,
                  lite::mir::fusion::ElementwiseActivationFusePass);
