#include "lite/core/mir/fusion/quant_dequant_match.h"

#include <algorithm>
#include <cmath>

#include "lite/core/mir/fusion/graph_rewrite.h"
#include "lite/core/mir/pattern_matcher.h"
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
  bool observer = false;  // only_observer: a copy, no quantization
};

StatusOr<LinearOp> CheckedLinear(const SSAGraph& graph, Node* op) {
  LinearOp l;
  l.op = op;
  ASSIGN_OR_RETURN(l.round_type, CheckedRoundType(op));
  RETURN_IF_ERROR(operators::CheckLevelRange(OpName(op), op->stmt().desc));
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
  l.observer = op->stmt().desc.GetAttr<bool>("only_observer", false);
  return l;
}

bool SameValues(const Tensor& a, const Tensor& b) {
  if (a.numel() != b.numel()) return false;
  for (int64_t i = 0; i < a.numel(); ++i) {
    if (a.data<float>()[i] != b.data<float>()[i]) return false;
  }
  return true;
}

// W's levels under wq->scales along wq->axis (one scale: all of W).
void QuantizeWeight(const Tensor& wt, int round_type, WeightQuant* wq) {
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
bool LevelsOf(const Tensor& t, Tensor* levels) {
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

}  // namespace

StatusOr<Side<ActivationQuant>> MatchActivationQuant(const SSAGraph& graph, Node* x_q) {
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
  if (lq.observer || ld.observer) {
    side.declined = "declined_observer";
  } else if (!lq.zero_point_ok || !ld.zero_point_ok) {
    side.declined = "declined_zero_point";
  } else if (!side.value.x || lq.axis != -1 || ld.axis != -1 ||
             !SameValues(*lq.scale, *ld.scale) || levels->outlinks.size() != 1 ||
             IsFetched(levels)) {
    side.declined = "declined_pattern";
  }
  return side;
}

StatusOr<Side<WeightQuant>> MatchWeightQuant(const SSAGraph& graph, Node* w_q) {
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
    QuantizeWeight(*wt, round_type, &wq);
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
  bool observer = ld.observer;
  if (q) {  // quantize_linear -> dequantize_linear on a float weight
    ASSIGN_OR_RETURN(LinearOp lq, CheckedLinear(graph, q));
    zero_point_ok = zero_point_ok && lq.zero_point_ok;
    observer = observer || lq.observer;
    wq.w = InputNode(q, "X");
    wq.ops.push_back(q);
    const Tensor* wt = wq.w ? WeightTensor(graph, wq.w) : nullptr;
    if (!wt || !wt->IsInitialized() || wt->dtype() != DataType::kFloat32 ||
        lq.axis != ld.axis || !SameValues(*lq.scale, *ld.scale) || mid->outlinks.size() != 1 ||
        IsFetched(mid)) {
      side.declined = "declined_pattern";
    } else {
      QuantizeWeight(*wt, lq.round_type, &wq);
    }
  } else {  // a lone dequantize_linear on stored levels
    wq.w = mid;
    if (!LevelsOf(*WeightTensor(graph, mid), &wq.levels)) side.declined = "declined_pattern";
  }
  if (!zero_point_ok) side.declined = "declined_zero_point";
  if (observer) side.declined = "declined_observer";
  return side;
}

}  // namespace fusion
}  // namespace mir
}  // namespace lite
