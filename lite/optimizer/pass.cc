#include "lite/optimizer/pass.h"

#include <algorithm>

#include "lite/utils/logging.h"

namespace lite {
namespace mir {

PassRegistry& PassRegistry::Global() {
  static PassRegistry* registry = new PassRegistry;
  return *registry;
}

bool PassRegistry::Taken(const std::string& name) const {
  // First registration wins; a duplicate name is a programmer error that
  // must not silently replace a step.
  if (!passes_.count(name) && !steps_.count(name)) return false;
  LogMessage(LogSeverity::kWarning, "pass '" + name + "' registered twice; keeping the first");
  return true;
}

bool PassRegistry::Register(const std::string& name, PassFactory factory) {
  if (Taken(name)) return false;
  passes_.emplace(name, std::move(factory));
  return true;
}

bool PassRegistry::RegisterProgramStep(const std::string& name, ProgramStepFactory factory) {
  if (Taken(name)) return false;
  steps_.emplace(name, std::move(factory));
  return true;
}

std::unique_ptr<Pass> PassRegistry::Create(const std::string& name,
                                           const PassOptions& options) const {
  auto it = passes_.find(name);
  if (it == passes_.end()) return nullptr;
  std::unique_ptr<Pass> pass = it->second(options);
  pass->set_registered_name(name);
  return pass;
}

std::unique_ptr<ProgramStep> PassRegistry::CreateProgramStep(const std::string& name,
                                                             const PassOptions& options) const {
  auto it = steps_.find(name);
  if (it == steps_.end()) return nullptr;
  std::unique_ptr<ProgramStep> step = it->second(options);
  step->set_registered_name(name);
  return step;
}

std::vector<std::string> PassRegistry::Names() const {
  std::vector<std::string> out;
  for (const auto& kv : passes_) out.push_back(kv.first);
  for (const auto& kv : steps_) out.push_back(kv.first);
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::string>& DefaultPipeline() {
  static const auto* pipeline = new std::vector<std::string>{
      // Channel-last (NHWC) ops -> transposes around their NCHW form, first,
      // so every later pass (the fusions, the NPU bridges) sees NCHW ops.
      "nhwc_to_nchw_pass",
      // Fake quant ops -> int8 convs where an int8 kernel takes them; first,
      // before constant folding turns quantized weights into floats.
      "quant_dequant_fuse_pass",
      // Graph cleanups and fusions (host-independent rewrites).
      "identity_dropout_eliminate_pass",
      "identity_scale_eliminate_pass",
      "constant_folding_pass",
      // LayerNorm written as reduce_mean / sub / pow / sqrt / div ops -> one
      // layer_norm (before the activation fusion claims its final add).
      "layer_norm_fuse_pass",
      // Bias adds first, so conv + elementwise_add + batch_norm (e.g. the
      // conv2d_transpose of PP-OCR det) folds completely.
      "conv_elementwise_add_fuse_pass",
      "conv_bn_fuse_pass",
      "conv_activation_fuse_pass",
      "fc_fuse_pass",
      "elementwise_activation_fuse_pass",
      "se_gate_fuse_pass",
      "se_residual_fuse_pass",
      // x * a + b -> scale; a scale right after a conv without activation
      // into its weights, and one right before an unpadded conv into that
      // conv's: before the cut, so device subgraphs get PP-LCNetV3's affine
      // blocks folded too (the first two run again below for the ops
      // outside subgraphs).
      "scalar_affine_fuse_pass",
      "conv_prescale_fuse_pass",
      "scale_conv_fuse_pass",
      // Device subgraphs are cut before kernels are picked.
      "npu_subgraph_pass",
      // Fusions drivers do not map (only ops left outside subgraphs).
      "interp_residual_fuse_pass",
      "conv_resize_add_fuse_pass",
      "conv_residual_fuse_pass",
      "concat_upscale_fuse_pass",
      "concat_scale_fuse_pass",
      "se_block_fuse_pass",
      "scalar_affine_fuse_pass",
      "conv_scale_fuse_pass",
      "conv_transpose_pair_fuse_pass",
      "conv_max_pool_fuse_pass",
      "conv_concat_fuse_pass",
      "simple_gate_fuse_pass",
      // int8 levels between int8 convs (after their fusions, before the pick).
      "int8_requantize_pass",
      // Kernel selection and placement.
      "static_kernel_pick_pass",
      "variable_place_inference_pass",
      "type_target_cast_pass",
      // NHWC between consecutive x86 / arm kernels, one conversion per change.
      "layout_cast_pass",
  };
  return *pipeline;
}

const std::vector<std::string>& DefaultProgramSteps() {
  static const auto* steps = new std::vector<std::string>{
      // Plans activation memory over the program order (last uses).
      "memory_optimize_pass",
  };
  return *steps;
}

}  // namespace mir
}  // namespace lite
