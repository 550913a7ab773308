// quant_dequant_fuse_pass: PaddleSlim's fake quantization around a conv
// becomes an int8 conv where an int8 kernel of a valid place takes it.
//
//   X -> fake_quantize_dequantize_moving_average_abs_max (InScale s) -> X'
//   W -> fake_channel_wise_quantize_dequantize_abs_max (quant_axis 0) -> W'
//   conv2d / depthwise_conv2d (Input X', Filter W')
// becomes conv (Input X, Filter = int8 levels of W, enable_int8, Input_scale
// s, Filter_scales s_c = max |W| per output channel, quant_round_type of the
// activation op): the conv quantizes X with s itself (the same levels the
// activation op computes) and multiplies int8 by int8 (conv_op.h). The
// weight quant op goes; the activation quant op goes when nothing else reads
// X'. Runs first in the pipeline, before constant_folding_pass would turn W'
// into float weights and conv_bn_fuse_pass would fold batch norms into them
// (conv_bn_fuse_pass then scales Filter_scales instead).
//
// Declined (the quant ops stay: the exact float32 simulation), counted by
// reason: "declined_no_int8_kernel" (no kInt8 kernel of a valid place
// accepts the conv: e.g. host only), "declined_npu" (npu among the valid
// places, and neither an int8 kernel nor the NPU driver, asked through
// lite/core/device_support.h, takes the int8 form), "declined_pattern" (one of the two
// quant ops missing, W' read elsewhere or fetched, per-input-channel weight
// scales, non-NCHW), "declined_unsafe" (X is rewritten before the conv).
// A malformed quant op (bit_length, round_type, scale) is an error naming it.
// "made_int8" counts converted convs.
#include "lite/backends/npu/npu_options.h"
#include "lite/core/device_support.h"
#include "lite/core/kernel.h"
#include "lite/core/mir/fusion/fusion_pass.h"
#include "lite/core/mir/fusion/graph_rewrite.h"
#include "lite/core/mir/fusion/int8_kernel_query.h"
#include "lite/operators/quant_math.h"
#include "lite/operators/quantize_ops.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

constexpr char kActQdq[] = "fake_quantize_dequantize_moving_average_abs_max";
constexpr char kWeightQdq[] = "fake_channel_wise_quantize_dequantize_abs_max";

Node* ProducerOf(Node* var, const char* type) {
  if (!var || var->inlinks.size() != 1) return nullptr;
  Node* op = var->inlinks[0];
  return op->stmt().desc.Type() == type ? op : nullptr;
}

std::string OpName(const Node* op) { return op->stmt().desc.DebugName(); }

// bit_length / round_type of a quant op; an error names it.
StatusOr<int> CheckedRoundType(const Node* op) {
  const cpp::OpDesc& d = op->stmt().desc;
  const int round_type = d.GetAttr<int32_t>("round_type", 1);
  RETURN_IF_ERROR(
      operators::CheckQuantAttrs(OpName(op), d.GetAttr<int32_t>("bit_length", 8), round_type));
  return round_type;
}

}  // namespace

class QuantDequantFusePass : public Pass {
 public:
  // `npu_driver`: the driver whose support checker judges int8 convs when
  // npu is among the valid places.
  explicit QuantDequantFusePass(std::string npu_driver) : npu_driver_(std::move(npu_driver)) {}
  std::string name() const override { return "quant_dequant_fuse_pass"; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    if (!graph->scope()) return false;
    bool changed = false;
    for (Node* conv : graph->StmtNodes()) {
      const std::string& type = conv->stmt().desc.Type();
      if (type != "conv2d" && type != "depthwise_conv2d") continue;
      ASSIGN_OR_RETURN(bool made, TryConv(graph, conv));
      changed = changed || made;
    }
    return changed;
  }

 private:
  StatusOr<bool> TryConv(SSAGraph* graph, Node* conv) {
    Node* x_q = InputNode(conv, "Input");
    Node* w_q = InputNode(conv, "Filter");
    Node* act = ProducerOf(x_q, kActQdq);
    Node* wop = ProducerOf(w_q, kWeightQdq);
    if (!act && !wop) return false;  // not a quantized conv
    if (!act || !wop || w_q->outlinks.size() != 1 || IsFetched(w_q) ||
        !IsNchw(conv->stmt().desc) || !HasNoFusedActivation(conv->stmt().desc) ||
        wop->stmt().desc.GetAttr<int32_t>("quant_axis", 0) != 0) {
      Count("declined_pattern");
      return false;
    }
    ASSIGN_OR_RETURN(int act_round, CheckedRoundType(act));
    ASSIGN_OR_RETURN(int weight_round, CheckedRoundType(wop));
    Node* x = InputNode(act, "X");
    Node* in_scale = InputNode(act, "InScale");
    Node* w = InputNode(wop, "X");
    const Tensor* s_in = in_scale ? WeightTensor(*graph, in_scale) : nullptr;
    const Tensor* wt = w ? WeightTensor(*graph, w) : nullptr;
    if (!s_in || !s_in->IsInitialized() || s_in->numel() != 1 ||
        s_in->dtype() != DataType::kFloat32) {
      const auto& names = act->stmt().desc.Input("InScale");
      return InvalidArgument("op " + OpName(act) + ": scale var '" +
                             (names.empty() ? std::string() : names.front()) +
                             "' (InScale) must be a one-value float32 weight");
    }
    RETURN_IF_ERROR(operators::CheckScaleValues(OpName(act), in_scale->arg().name, *s_in));
    if (!x || !wt || !wt->IsInitialized() || wt->dtype() != DataType::kFloat32 ||
        wt->dims().size() != 4) {
      Count("declined_pattern");
      return false;
    }
    if (!CanReadLater(*graph, x)) {
      Count("declined_unsafe");
      return false;
    }
    // The int8 form, asked of the kernels (and the NPU) before the graph changes.
    const std::vector<float> scales = operators::quant::ChannelAbsMax(wt->data<float>(),
                                                                      wt->dims(), 0);
    cpp::OpDesc desc = conv->stmt().desc;
    desc.SetAttr("enable_int8", true);
    desc.SetAttr("Input_scale", s_in->data<float>()[0]);
    desc.SetAttr("Filter_scales", scales);
    desc.SetAttr("quant_round_type", act_round);
    Tensor levels;
    levels.Resize(wt->dims());
    int8_t* q = levels.mutable_data<int8_t>();
    const float* wd = wt->data<float>();
    const int64_t per_channel = wt->numel() / wt->dims()[0];
    for (int64_t i = 0; i < wt->numel(); ++i) {
      const operators::quant::Quantizer quantizer(scales[i / per_channel], 127, weight_round);
      q[i] = static_cast<int8_t>(quantizer.Level(wd[i]));
    }
    if (!Int8KernelTakes(*graph, desc) && !NpuTakes(*graph, npu_driver_, desc, levels)) {
      Count(NpuAmongPlaces(*graph) ? "declined_npu" : "declined_no_int8_kernel");
      return false;
    }
    conv->stmt().desc = desc;
    SetInput(graph, conv, "Filter", AddWeight(graph, w->arg().name + "_int8", levels));
    ReplaceInput(conv, x_q, x);
    RemoveOp(graph, wop);
    if (x_q->outlinks.empty() && !IsFetched(x_q)) RemoveOp(graph, act);
    Count("made_int8");
    return true;
  }

  static bool NpuAmongPlaces(const SSAGraph& graph) {
    for (const Place& p : graph.valid_places()) {
      if (p.target == TargetType::kNPU) return true;
    }
    return false;
  }

  // The NPU library's device-support checker for the selected driver accepts
  // `desc` with its Filter holding `levels` (lite/core/device_support.h).
  static bool NpuTakes(const SSAGraph& graph, const std::string& npu_driver,
                       const cpp::OpDesc& desc, const Tensor& levels) {
    if (!NpuAmongPlaces(graph)) return false;
    auto checker = DeviceSupportRegistry::Global().Create(TargetType::kNPU,
                                                          npu_driver);
    if (!checker.ok()) return false;
    Scope probe;  // the conv's weights as the checker sees them, shared
    for (const std::string& name : desc.InputArgumentNames()) {
      const Variable* v = graph.scope()->FindVar(name);
      if (v && v->GetTensor().IsInitialized()) {
        probe.Var(name)->GetMutableTensor()->ShareDataWith(v->GetTensor());
      }
    }
    const std::string filter = desc.Input("Filter").front();
    probe.Var(filter)->GetMutableTensor()->ShareDataWith(levels);
    return checker.value()
        ->Check({desc, [&graph](const std::string& n) { return graph.FindVarDesc(n); }, &probe})
        .ok();
  }

  std::string npu_driver_;
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS_WITH_OPTIONS(quant_dequant_fuse_pass, [](const lite::mir::PassOptions& options) {
  return std::unique_ptr<lite::mir::Pass>(
      new lite::mir::fusion::QuantDequantFusePass(options.Get<lite::NpuOptions>().driver));
});
