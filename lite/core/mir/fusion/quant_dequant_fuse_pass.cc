// quant_dequant_fuse_pass: PaddleSlim's quantization around a conv or a
// matrix product becomes its int8 form where an int8 kernel of a valid place
// takes it. Two export forms are read:
//
//   activation  X -> fake_quantize_dequantize_moving_average_abs_max (InScale s) -> X'
//            or X -> quantize_linear (Scale s, quant_axis -1) -> dequantize_linear (s) -> X'
//   weight      W -> fake_channel_wise_quantize_dequantize_abs_max -> W'  (s_c = max |W|)
//            or W -> quantize_linear (Scale s_c) -> dequantize_linear (s_c) -> W'
//            or W (int8 levels, or float32 holding levels) -> dequantize_linear (s_c) -> W'
//   consumer    conv2d / depthwise_conv2d (Input, Filter; weight quant_axis 0),
//               conv2d_transpose (Input, Filter; quant_axis 1),
//               fc (Input, W), mul / matmul / matmul_v2 (X, Y 2-D; quant_axis 1)
// becomes the consumer reading X and W's int8 levels, with enable_int8,
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
// accepts the op: e.g. host only, or conv2d_transpose), "declined_npu" (npu
// among the valid places, and neither an int8 kernel nor the NPU driver,
// asked through lite/core/device_support.h, takes the int8 form),
// "declined_pattern" (one of the two quant sides missing, W' read elsewhere
// or fetched, a weight axis other than the consumer's output channels,
// scales of a quantize / dequantize pair that differ, transposed or batched
// weights, non-NCHW), "declined_zero_point" (a non-zero ZeroPoint: not
// symmetric int8), "declined_unsafe" (X is rewritten before the consumer).
// A malformed quant op (bit_length, round_type, scale var missing or not
// positive, quant_axis out of range) is an error naming it. "made_int8_<type>"
// counts converted ops per consumer type, "made_int8" all of them.
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
constexpr char kQuantize[] = "quantize_linear";
constexpr char kDequantize[] = "dequantize_linear";

Node* ProducerOf(Node* var, const char* type) {
  if (!var || var->inlinks.size() != 1) return nullptr;
  Node* op = var->inlinks[0];
  return op->stmt().desc.Type() == type ? op : nullptr;
}

std::string OpName(const Node* op) { return op->stmt().desc.DebugName(); }

// bit_length / round_type of a quant op (round_type's default: 1 for the
// fake ops, 0 for the *_linear ops); an error names it.
StatusOr<int> CheckedRoundType(const Node* op) {
  const cpp::OpDesc& d = op->stmt().desc;
  const bool linear = d.Type() == kQuantize || d.Type() == kDequantize;
  const int round_type = d.GetAttr<int32_t>("round_type", linear ? 0 : 1);
  RETURN_IF_ERROR(
      operators::CheckQuantAttrs(OpName(op), d.GetAttr<int32_t>("bit_length", 8), round_type));
  return round_type;
}

// The float32 scale weight `param` of quant op `op`, checked (present,
// float32, every value finite and > 0); an error names the op and the var.
StatusOr<const Tensor*> CheckedScale(const SSAGraph& graph, Node* op, const std::string& param) {
  Node* var = InputNode(op, param);
  const Tensor* t = var ? WeightTensor(graph, var) : nullptr;
  if (!t || !t->IsInitialized() || t->numel() < 1 || t->dtype() != DataType::kFloat32) {
    const auto& names = op->stmt().desc.Input(param);
    return InvalidArgument("op " + OpName(op) + ": scale var '" +
                           (names.empty() ? std::string() : names.front()) + "' (" + param +
                           ") must be a float32 weight of the model");
  }
  RETURN_IF_ERROR(operators::CheckScaleValues(OpName(op), var->arg().name, *t));
  return t;
}

// A *_linear op's ZeroPoint holds only zeros (or is absent).
bool ZeroPointIsZero(const SSAGraph& graph, Node* op) {
  Node* var = InputNode(op, "ZeroPoint");
  const Tensor* t = var ? WeightTensor(graph, var) : nullptr;
  if (!t || !t->IsInitialized()) return true;
  for (int64_t i = 0; i < t->numel(); ++i) {
    const bool zero = t->dtype() == DataType::kFloat32 ? t->data<float>()[i] == 0.f
                      : t->dtype() == DataType::kInt32 ? t->data<int32_t>()[i] == 0
                      : t->dtype() == DataType::kInt64 ? t->data<int64_t>()[i] == 0
                      : t->dtype() == DataType::kInt8  ? t->data<int8_t>()[i] == 0
                                                       : false;
    if (!zero) return false;
  }
  return true;
}

// A *_linear op's checked attributes and scale: quant_axis within the rank
// of X (or -1), Scale holding one value per index of it.
struct LinearOp {
  Node* op = nullptr;
  const Tensor* scale = nullptr;
  int axis = -1;
  int round_type = 0;
  bool zero_point_ok = true;
};

StatusOr<LinearOp> CheckedLinear(const SSAGraph& graph, Node* op) {
  LinearOp l;
  l.op = op;
  ASSIGN_OR_RETURN(l.round_type, CheckedRoundType(op));
  ASSIGN_OR_RETURN(l.scale, CheckedScale(graph, op, "Scale"));
  l.axis = op->stmt().desc.GetAttr<int32_t>("quant_axis", -1);
  Node* x = InputNode(op, "X");
  const DDim dims = x ? VarDims(graph, *x) : DDim();
  const int64_t rank = static_cast<int64_t>(dims.size());
  if (l.axis < -1 || (l.axis >= 0 && rank > 0 && l.axis >= rank)) {
    return InvalidArgument("op " + OpName(op) + ": quant_axis " + std::to_string(l.axis) +
                           " is out of range for a " + std::to_string(rank) + "-D input");
  }
  const int64_t want = l.axis == -1 ? 1 : rank > 0 ? dims[l.axis] : 0;  // 0: dims unknown
  if (want > 0 && l.scale->numel() != want) {
    return InvalidArgument("op " + OpName(op) + ": Scale holds " +
                           std::to_string(l.scale->numel()) + " values, quant_axis " +
                           std::to_string(l.axis) + " needs " + std::to_string(want));
  }
  l.zero_point_ok = ZeroPointIsZero(graph, op);
  return l;
}

bool SameValues(const Tensor& a, const Tensor& b) {
  if (a.numel() != b.numel()) return false;
  for (int64_t i = 0; i < a.numel(); ++i) {
    if (a.data<float>()[i] != b.data<float>()[i]) return false;
  }
  return true;
}

// How a consumer type reads its operands and lays out its weight.
struct ConsumerKind {
  const char* input;   // the activation param
  const char* weight;  // the weight param
  int weight_axis;     // the quant_axis of per-output-channel weight scales
  bool conv;           // a 4-D conv filter (else a 2-D [K, N] matrix)
};

const ConsumerKind* KindOf(const std::string& type) {
  static const ConsumerKind conv{"Input", "Filter", 0, true};
  static const ConsumerKind conv_transpose{"Input", "Filter", 1, true};
  static const ConsumerKind fc{"Input", "W", 1, false};
  static const ConsumerKind matmul{"X", "Y", 1, false};
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

// What the activation side says: read `x` instead of `x_q`, quantized with
// `scale` by `round_type`; `ops` produce x_q (last first).
struct ActivationQuant {
  Node* x = nullptr;
  float scale = 0.f;
  int round_type = 1;
  std::vector<Node*> ops;
};

// What the weight side says: W's levels and one scale per index of
// `axis` (or one for all), produced by `ops` (last first) from `w`.
struct WeightQuant {
  Node* w = nullptr;
  Tensor levels;  // int8, W's dims
  std::vector<float> scales;
  int axis = 0;
  std::vector<Node*> ops;
};

// A result: found, not quantized at all, or declined with a counter name.
template <typename T>
struct Side {
  bool present = false;
  std::string declined;  // empty: usable when present
  T value;
};

}  // namespace

class QuantDequantFusePass : public Pass {
 public:
  // `npu_driver`: the driver whose support checker judges int8 ops when
  // npu is among the valid places.
  explicit QuantDequantFusePass(std::string npu_driver) : npu_driver_(std::move(npu_driver)) {}
  std::string name() const override { return "quant_dequant_fuse_pass"; }

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
  StatusOr<Side<ActivationQuant>> MatchActivation(const SSAGraph& graph, Node* x_q) {
    Side<ActivationQuant> side;
    if (Node* act = ProducerOf(x_q, kActQdq)) {
      side.present = true;
      ASSIGN_OR_RETURN(side.value.round_type, CheckedRoundType(act));
      ASSIGN_OR_RETURN(const Tensor* s, CheckedScale(graph, act, "InScale"));
      if (s->numel() != 1) {
        return InvalidArgument("op " + OpName(act) + ": InScale must hold one value");
      }
      side.value.scale = s->data<float>()[0];
      side.value.x = InputNode(act, "X");
      side.value.ops = {act};
      if (!side.value.x) side.declined = "declined_pattern";
      return side;
    }
    Node* deq = ProducerOf(x_q, kDequantize);
    Node* levels = deq ? InputNode(deq, "X") : nullptr;
    Node* q = ProducerOf(levels, kQuantize);
    if (!q) return side;  // not a quantized activation (a lone dequantize reads a weight)
    side.present = true;
    ASSIGN_OR_RETURN(LinearOp lq, CheckedLinear(graph, q));
    ASSIGN_OR_RETURN(LinearOp ld, CheckedLinear(graph, deq));
    side.value.x = InputNode(q, "X");
    side.value.round_type = lq.round_type;
    side.value.scale = lq.scale->data<float>()[0];
    side.value.ops = {deq, q};
    if (!lq.zero_point_ok || !ld.zero_point_ok) {
      side.declined = "declined_zero_point";
    } else if (!side.value.x || lq.axis != -1 || ld.axis != -1 ||
               !SameValues(*lq.scale, *ld.scale) || levels->outlinks.size() != 1 ||
               IsFetched(levels)) {
      side.declined = "declined_pattern";
    }
    return side;
  }

  StatusOr<Side<WeightQuant>> MatchWeight(const SSAGraph& graph, Node* w_q) {
    Side<WeightQuant> side;
    WeightQuant& wq = side.value;
    if (Node* wop = ProducerOf(w_q, kWeightQdq)) {
      side.present = true;
      ASSIGN_OR_RETURN(int round_type, CheckedRoundType(wop));
      wq.w = InputNode(wop, "X");
      wq.axis = wop->stmt().desc.GetAttr<int32_t>("quant_axis", 0);
      wq.ops = {wop};
      const Tensor* wt = wq.w ? WeightTensor(graph, wq.w) : nullptr;
      if (!wt || !wt->IsInitialized() || wt->dtype() != DataType::kFloat32) {
        side.declined = "declined_pattern";
        return side;
      }
      wq.scales = operators::quant::ChannelAbsMax(wt->data<float>(), wt->dims(), wq.axis);
      Quantize(*wt, round_type, &wq);
      return side;
    }
    Node* deq = ProducerOf(w_q, kDequantize);
    if (!deq) return side;
    Node* mid = InputNode(deq, "X");
    Node* q = ProducerOf(mid, kQuantize);
    if (!q && !(mid && WeightTensor(graph, mid))) return side;  // dequantizes an activation
    side.present = true;
    ASSIGN_OR_RETURN(LinearOp ld, CheckedLinear(graph, deq));
    wq.axis = ld.axis;
    wq.scales.assign(ld.scale->data<float>(), ld.scale->data<float>() + ld.scale->numel());
    wq.ops = {deq};
    bool zero_point_ok = ld.zero_point_ok;
    if (q) {  // quantize_linear -> dequantize_linear on a float weight
      ASSIGN_OR_RETURN(LinearOp lq, CheckedLinear(graph, q));
      zero_point_ok = zero_point_ok && lq.zero_point_ok;
      wq.w = InputNode(q, "X");
      wq.ops.push_back(q);
      const Tensor* wt = wq.w ? WeightTensor(graph, wq.w) : nullptr;
      if (!wt || !wt->IsInitialized() || wt->dtype() != DataType::kFloat32 ||
          lq.axis != ld.axis || !SameValues(*lq.scale, *ld.scale) || mid->outlinks.size() != 1 ||
          IsFetched(mid)) {
        side.declined = "declined_pattern";
      } else {
        Quantize(*wt, lq.round_type, &wq);
      }
    } else {  // a lone dequantize_linear on stored levels
      wq.w = mid;
      if (!LevelsOf(*WeightTensor(graph, mid), &wq.levels)) side.declined = "declined_pattern";
    }
    if (!zero_point_ok) side.declined = "declined_zero_point";
    return side;
  }

  // W's levels under wq->scales along wq->axis (one scale: all of W).
  static void Quantize(const Tensor& wt, int round_type, WeightQuant* wq) {
    wq->levels.Resize(wt.dims());
    int8_t* q = wq->levels.mutable_data<int8_t>();
    std::vector<float> level(wt.numel());
    const int axis = wq->scales.size() == 1 ? 0 : wq->axis;
    operators::quant::ForEachWithScale(
        wt.data<float>(), level.data(), wt.dims(), axis, wq->scales, 127, round_type,
        [](const operators::quant::Quantizer& qz, float v) { return qz.Level(v); });
    for (int64_t i = 0; i < wt.numel(); ++i) q[i] = static_cast<int8_t>(level[i]);
  }

  // Stored levels as int8: an int8 tensor, or float32 integers in [-128, 127].
  static bool LevelsOf(const Tensor& t, Tensor* levels) {
    if (!t.IsInitialized()) return false;
    levels->Resize(t.dims());
    int8_t* q = levels->mutable_data<int8_t>();
    if (t.dtype() == DataType::kInt8) {
      std::copy(t.data<int8_t>(), t.data<int8_t>() + t.numel(), q);
      return true;
    }
    if (t.dtype() != DataType::kFloat32) return false;
    for (int64_t i = 0; i < t.numel(); ++i) {
      const float v = t.data<float>()[i];
      if (v != std::nearbyint(v) || v < -128.f || v > 127.f) return false;
      q[i] = static_cast<int8_t>(v);
    }
    return true;
  }

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

  StatusOr<bool> TryConsumer(SSAGraph* graph, Node* op, const ConsumerKind& kind) {
    const cpp::OpDesc& d = op->stmt().desc;
    Node* x_q = InputNode(op, kind.input);
    Node* w_q = InputNode(op, kind.weight);
    ASSIGN_OR_RETURN(Side<ActivationQuant> act, MatchActivation(*graph, x_q));
    ASSIGN_OR_RETURN(Side<WeightQuant> weight, MatchWeight(*graph, w_q));
    if (!act.present && !weight.present) return false;  // not a quantized op
    if (!act.present || !weight.present) return Decline("declined_pattern");
    if (!act.declined.empty()) return Decline(act.declined);
    if (!weight.declined.empty()) return Decline(weight.declined);
    const WeightQuant& wq = weight.value;
    const size_t rank = kind.conv ? 4 : 2;
    // (A product's activation, fc's relu included, is the kernel's to judge.)
    if (w_q->outlinks.size() != 1 || IsFetched(w_q) || !IsNchw(d) ||
        (kind.conv && !HasNoFusedActivation(d)) ||
        wq.levels.dims().size() != rank || !WeightLayoutOk(d)) {
      return Decline("declined_pattern");
    }
    const std::vector<float> scales = OutputScales(d, kind, wq);
    if (scales.empty()) return Decline("declined_pattern");
    if (!CanReadLater(*graph, act.value.x)) return Decline("declined_unsafe");

    // The int8 form, asked of the kernels (and the NPU) before the graph changes.
    cpp::OpDesc desc = d;
    desc.SetAttr("enable_int8", true);
    desc.SetAttr("Input_scale", act.value.scale);
    desc.SetAttr("Filter_scales", scales);
    desc.SetAttr("quant_round_type", act.value.round_type);
    // The NPU's int8 contract covers conv2d / depthwise_conv2d, fc, mul and
    // the matmuls; conv2d_transpose goes int8 only on a kernel.
    const bool npu_may_take = !(kind.conv && kind.weight_axis == 1);
    if (!Int8KernelTakes(*graph, desc) &&
        !(npu_may_take && NpuTakes(*graph, npu_driver_, desc, kind.weight, wq.levels))) {
      return Decline(NpuAmongPlaces(*graph) ? "declined_npu" : "declined_no_int8_kernel");
    }
    op->stmt().desc = desc;
    SetInput(graph, op, kind.weight, AddWeight(graph, wq.w->arg().name + "_int8", wq.levels));
    ReplaceInput(op, x_q, act.value.x);
    for (Node* q : wq.ops) RemoveOp(graph, q);
    if (x_q->outlinks.empty() && !IsFetched(x_q)) {
      for (Node* q : act.value.ops) RemoveOp(graph, q);
    }
    Count("made_int8");
    Count("made_int8_" + desc.Type());
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
