// quant_dequant_fuse_pass: PaddleSlim's quantization around a conv or a
// matrix product becomes its int8 form where an int8 kernel of a valid place
// takes it. Three export forms are read:
//
//   activation  X -> fake_quantize_dequantize_moving_average_abs_max (InScale s) -> X'
//            or X -> quantize_linear (Scale s, quant_axis -1) -> dequantize_linear (s) -> X'
//   weight      W -> fake_channel_wise_quantize_dequantize_abs_max -> W'  (s_c = max |W|)
//            or W -> quantize_linear (Scale s_c) -> dequantize_linear (s_c) -> W'
//            or W (int8 levels, or float32 holding levels) -> dequantize_linear (s_c) -> W'
//   consumer    conv2d / depthwise_conv2d (Input, Filter; weight quant_axis 0),
//               conv2d_transpose (Input, Filter; quant_axis 1),
//               fc (Input, W), mul / matmul / matmul_v2 (X, Y 2-D; quant_axis 1)
// or, frozen (QuantizationFreezePass: quant_aware + convert(), older
// quant_post_static), the quantization split around the consumer:
//   X -> fake_quantize_moving_average_abs_max | fake_quantize_range_abs_max
//        (InScale s) -> levels -> consumer (W: float32 holding levels)
//     -> fake_dequantize_max_abs (Scale s, max_range)
//      | fake_channel_wise_dequantize_max_abs (Scales [s_w per channel, s])
// (the weight's real scales: 127 * 127 / max_range, or s_w; the consumer
// then writes the dequantize op's output and the dequantize op goes;
// counted also as "made_int8_frozen"; a bias or an activation inside the
// consumer, which the dequantize op would scale, is declined, as is a scale
// computed at run time: "declined_dynamic_scale")
// (the ops are read by quant_dequant_match.h) becomes the consumer reading
// X and W's int8 levels, with enable_int8,
// Input_scale s, Filter_scales (one per output channel / column: the
// weight's value is level * scale / 127) and quant_round_type (the
// activation op's rule): see conv_op.h and matmul_ops.h. The consumer
// quantizes X with s itself (the levels the activation ops compute) and
// multiplies int8 by int8. The weight quant ops go; the activation ops go
// when nothing else reads X'. Runs first in the pipeline, before
// constant_folding_pass would turn W' into float weights and conv_bn_fuse_pass
// would fold batch norms into them (which then scales Filter_scales).
//
// Declined (the quant ops stay: the exact float32 simulation), counted by
// reason: "declined_no_int8_kernel" (no kInt8 kernel of a valid place
// accepts the op: e.g. host only, or an overlapping conv2d_transpose),
// "declined_npu" (npu among the valid places, and neither an int8 kernel
// nor the NPU driver, asked through lite/core/device_support.h, takes the
// int8 form; conv2d_transpose is not offered to the NPU),
// "declined_pattern" (one of the two quant sides missing, W' read elsewhere
// or fetched, a weight axis other than the consumer's output channels,
// scales of a quantize / dequantize pair that differ, transposed or batched
// weights, non-NCHW), "declined_zero_point" (a non-zero ZeroPoint: not
// symmetric int8), "declined_observer" (an only_observer *_linear op: a copy,
// nothing quantized), "declined_unsafe" (X is rewritten before the consumer).
// A malformed quant op (bit_length, round_type, scale var missing or not
// positive, quant_axis out of range) is an error naming it. "made_int8_<type>"
// counts converted ops per consumer type, "made_int8" all of them.
#include "lite/backends/npu/npu_options.h"
#include "lite/core/device_support.h"
#include "lite/core/kernel.h"
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/optimizer/passes/int8_kernel_query.h"
#include "lite/optimizer/passes/quant_dequant_match.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

// How a consumer type reads its operands and lays out its weight.
struct ConsumerKind {
  const char* input;   // the activation param
  const char* weight;  // the weight param
  const char* output;  // the result param
  int weight_axis;     // the quant_axis of per-output-channel weight scales
  bool conv;           // a 4-D conv filter (else a 2-D [K, N] matrix)
};

const ConsumerKind* KindOf(const std::string& type) {
  static const ConsumerKind conv{"Input", "Filter", "Output", 0, true};
  static const ConsumerKind conv_transpose{"Input", "Filter", "Output", 1, true};
  static const ConsumerKind fc{"Input", "W", "Out", 1, false};
  static const ConsumerKind matmul{"X", "Y", "Out", 1, false};
  if (type == "conv2d" || type == "depthwise_conv2d") return &conv;
  if (type == "conv2d_transpose") return &conv_transpose;
  if (type == "fc") return &fc;
  if (type == "mul" || type == "matmul" || type == "matmul_v2") return &matmul;
  return nullptr;
}

// The consumer's weight is a plain [K, N] (or conv) operand: no transposes,
// no reshapes, alpha folded later.
bool WeightLayoutOk(const cpp::OpDesc& d) {
  if (d.Type() == "mul") return d.GetAttr<int32_t>("y_num_col_dims", 1) == 1;
  if (d.Type() == "matmul") {
    return !d.GetAttr<bool>("transpose_Y", false) && d.GetAttr<int32_t>("head_number", 1) == 1;
  }
  if (d.Type() == "matmul_v2") return !d.GetAttr<bool>("trans_y", false);
  return true;
}

}  // namespace

class QuantDequantFusePass : public Pass {
 public:
  // `npu_driver`: the driver whose support checker judges int8 ops when
  // npu is among the valid places.
  explicit QuantDequantFusePass(std::string npu_driver) : npu_driver_(std::move(npu_driver)) {}

  StatusOr<bool> Run(SSAGraph* graph) override {
    if (!graph->scope()) return false;
    bool changed = false;
    for (Node* op : graph->StmtNodes()) {
      const ConsumerKind* kind = KindOf(op->stmt().desc.Type());
      if (!kind) continue;
      ASSIGN_OR_RETURN(bool made, TryConsumer(graph, op, *kind));
      changed = changed || made;
    }
    return changed;
  }

 private:
  // One scale per output channel / column of the consumer, from the weight
  // side's scales; empty when the axis does not name them.
  static std::vector<float> OutputScales(const cpp::OpDesc& d, const ConsumerKind& kind,
                                         const WeightQuant& wq) {
    const DDim& dims = wq.levels.dims();
    const int64_t per_group = dims.size() > 1 ? dims[kind.weight_axis] : 0;
    std::vector<float> scales;
    if (wq.scales.size() == 1) {
      scales.assign(per_group, wq.scales[0]);
    } else if (wq.axis == kind.weight_axis &&
               static_cast<int64_t>(wq.scales.size()) == per_group) {
      scales = wq.scales;
    } else {
      return {};
    }
    if (kind.conv && kind.weight_axis == 1) {  // [C_in, C_out / groups, kh, kw]
      const int groups = d.GetAttr<int32_t>("groups", 1);
      std::vector<float> all;
      for (int g = 0; g < groups; ++g) all.insert(all.end(), scales.begin(), scales.end());
      scales = all;
    }
    return scales;
  }

  // What a match found: read `act.x` instead of `x_q`, the weight's levels
  // instead of `w_q`; `frozen` also moves the result from the dequantize
  // op's input to its output.
  struct Int8Plan {
    Node* x_q = nullptr;
    const ActivationQuant* act = nullptr;
    const WeightQuant* wq = nullptr;
    Node* w_q = nullptr;
    const FrozenQuant* frozen = nullptr;
  };

  StatusOr<bool> TryConsumer(SSAGraph* graph, Node* op, const ConsumerKind& kind) {
    const cpp::OpDesc& d = op->stmt().desc;
    ASSIGN_OR_RETURN(Side<FrozenQuant> frozen,
                     MatchFrozenQuant(*graph, op, kind.input, kind.weight, kind.output,
                                      kind.weight_axis, kind.conv));
    if (frozen.present) {
      if (!frozen.declined.empty()) return Decline(frozen.declined);
      // The dequantize op scales the whole result: a bias or an activation
      // computed inside the consumer would be scaled with it.
      if (d.HasInput("Bias") || !HasNoFusedActivation(d)) return Decline("declined_pattern");
      Int8Plan plan;
      plan.x_q = InputNode(op, kind.input);
      plan.act = &frozen.value.act;
      plan.wq = &frozen.value.weight;
      plan.w_q = frozen.value.weight.w;
      plan.frozen = &frozen.value;
      return MakeInt8(graph, op, kind, plan);
    }
    Node* x_q = InputNode(op, kind.input);
    Node* w_q = InputNode(op, kind.weight);
    ASSIGN_OR_RETURN(Side<ActivationQuant> act, MatchActivationQuant(*graph, x_q));
    ASSIGN_OR_RETURN(Side<WeightQuant> weight, MatchWeightQuant(*graph, w_q));
    if (!act.present && !weight.present) return false;  // not a quantized op
    if (!act.present || !weight.present) return Decline("declined_pattern");
    if (!act.declined.empty()) return Decline(act.declined);
    if (!weight.declined.empty()) return Decline(weight.declined);
    // W' (the weight ops' output) must be this op's alone.
    if (w_q->outlinks.size() != 1 || IsFetched(w_q)) return Decline("declined_pattern");
    Int8Plan plan;
    plan.x_q = x_q;
    plan.act = &act.value;
    plan.wq = &weight.value;
    plan.w_q = w_q;
    return MakeInt8(graph, op, kind, plan);
  }

  StatusOr<bool> MakeInt8(SSAGraph* graph, Node* op, const ConsumerKind& kind,
                          const Int8Plan& p) {
    const cpp::OpDesc& d = op->stmt().desc;
    const WeightQuant& wq = *p.wq;
    const size_t rank = kind.conv ? 4 : 2;
    // (A product's activation, fc's relu included, is the kernel's to judge.)
    if (!IsNchw(d) || (kind.conv && !HasNoFusedActivation(d)) ||
        wq.levels.dims().size() != rank || !WeightLayoutOk(d)) {
      return Decline("declined_pattern");
    }
    const std::vector<float> scales = OutputScales(d, kind, wq);
    if (scales.empty()) return Decline("declined_pattern");
    if (!CanReadLater(*graph, p.act->x)) return Decline("declined_unsafe");
    if (p.frozen && !CanWriteEarlier(*graph, p.frozen->dequant_out, {p.frozen->out})) {
      return Decline("declined_unsafe");
    }

    // The int8 form, asked of the kernels (and the NPU) before the graph changes.
    cpp::OpDesc desc = d;
    desc.SetAttr("enable_int8", true);
    desc.SetAttr("Input_scale", p.act->scale);
    desc.SetAttr("Filter_scales", scales);
    desc.SetAttr("quant_round_type", p.act->round_type);
    // Kernels judge the weight's dims: ask with the weight var (W's dims).
    desc.SetInput(kind.weight, {wq.w->arg().name});
    // The NPU's int8 contract covers conv2d / depthwise_conv2d, fc, mul and
    // the matmuls; conv2d_transpose goes int8 only on a kernel.
    const bool npu_may_take = !(kind.conv && kind.weight_axis == 1);
    if (!Int8KernelTakes(*graph, desc) &&
        !(npu_may_take && NpuTakes(*graph, npu_driver_, desc, kind.weight, wq.levels))) {
      return Decline(NpuAmongPlaces(*graph) ? "declined_npu" : "declined_no_int8_kernel");
    }
    desc.SetInput(kind.weight, {p.w_q->arg().name});  // as linked; SetInput below replaces it
    op->stmt().desc = desc;
    SetInput(graph, op, kind.weight, AddWeight(graph, wq.w->arg().name + "_int8", wq.levels));
    ReplaceInput(op, p.x_q, p.act->x);
    for (Node* q : wq.ops) RemoveOp(graph, q);
    if (p.frozen) {  // the op writes the dequantized result itself
      AbsorbIntoProducer(graph, op, p.frozen->out, p.frozen->dequant, p.frozen->dequant_out);
    }
    if (p.x_q->outlinks.empty() && !IsFetched(p.x_q)) {
      for (Node* q : p.act->ops) RemoveOp(graph, q);
    }
    Count("made_int8");
    Count("made_int8_" + desc.Type());
    if (p.frozen) Count("made_int8_frozen");
    return true;
  }

  StatusOr<bool> Decline(const std::string& reason) {
    Count(reason);
    return false;
  }

  static bool NpuAmongPlaces(const SSAGraph& graph) {
    for (const Place& p : graph.valid_places()) {
      if (p.target == TargetType::kNPU) return true;
    }
    return false;
  }

  // The NPU library's device-support checker for the selected driver accepts
  // `desc` with its weight param `weight` holding `levels`
  // (lite/core/device_support.h).
  static bool NpuTakes(const SSAGraph& graph, const std::string& npu_driver,
                       const cpp::OpDesc& desc, const std::string& weight, const Tensor& levels) {
    if (!NpuAmongPlaces(graph)) return false;
    auto checker = DeviceSupportRegistry::Global().Create(TargetType::kNPU,
                                                          npu_driver);
    if (!checker.ok()) return false;
    Scope probe;  // the op's weights as the checker sees them, shared
    for (const std::string& name : desc.InputArgumentNames()) {
      const Variable* v = graph.scope()->FindVar(name);
      if (v && v->GetTensor().IsInitialized()) {
        probe.Var(name)->GetMutableTensor()->ShareDataWith(v->GetTensor());
      }
    }
    probe.Var(desc.Input(weight).front())->GetMutableTensor()->ShareDataWith(levels);
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
