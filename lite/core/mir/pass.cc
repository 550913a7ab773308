#include "lite/core/mir/pass.h"

#include "lite/utils/logging.h"

namespace lite {
namespace mir {

PassRegistry& PassRegistry::Global() {
  static PassRegistry* registry = new PassRegistry;
  return *registry;
}

bool PassRegistry::Register(const std::string& name, PassFactory factory) {
  // First registration wins; a duplicate name is a programmer error that
  // must not silently replace a pass.
  if (!factories_.emplace(name, std::move(factory)).second) {
    LogMessage(LogSeverity::kWarning, "pass '" + name + "' registered twice; keeping the first");
    return false;
  }
  return true;
}

std::unique_ptr<Pass> PassRegistry::Create(const std::string& name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : it->second();
}

std::vector<std::string> PassRegistry::Names() const {
  std::vector<std::string> out;
  for (const auto& kv : factories_) out.push_back(kv.first);
  return out;
}

const std::vector<std::string>& DefaultPipeline() {
  static const auto* pipeline = new std::vector<std::string>{
      // Fake quant ops -> int8 convs where an int8 kernel takes them; first,
      // before constant folding turns quantized weights into floats.
      "quant_dequant_fuse_pass",
      // Graph cleanups and fusions (host-independent rewrites).
      "identity_dropout_eliminate_pass",
      "identity_scale_eliminate_pass",
      "constant_folding_pass",
      // Bias adds first, so conv + elementwise_add + batch_norm (e.g. the
      // conv2d_transpose of PP-OCR det) folds completely.
      "conv_elementwise_add_fuse_pass",
      "conv_bn_fuse_pass",
      "conv_activation_fuse_pass",
      "fc_fuse_pass",
      "elementwise_activation_fuse_pass",
      "se_gate_fuse_pass",
      "se_residual_fuse_pass",
      // Device subgraphs are cut before kernels are picked.
      "npu_subgraph_pass",
      // Fusions drivers do not map (only ops left outside subgraphs).
      "interp_residual_fuse_pass",
      "concat_upscale_fuse_pass",
      "se_block_fuse_pass",
      "conv_max_pool_fuse_pass",
      "conv_concat_fuse_pass",
      // int8 levels between int8 convs (after their fusions, before the pick).
      "int8_requantize_pass",
      // Kernel selection and placement.
      "static_kernel_pick_pass",
      "variable_place_inference_pass",
      "type_target_cast_pass",
      // NHWC between consecutive x86 kernels, one conversion per change.
      "layout_cast_pass",
      "generate_program_pass",
      // Plans activation memory on the generated program (last uses).
      "memory_optimize_pass",
  };
  return *pipeline;
}

}  // namespace mir
}  // namespace lite
