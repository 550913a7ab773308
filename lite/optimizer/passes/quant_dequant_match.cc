#include "lite/optimizer/passes/quant_dequant_match.h"

#include <algorithm>
#include <cmath>

#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/optimizer/pattern_matcher.h"
#include "lite/base/quant_math.h"
#include "lite/operators/quantize_ops.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

constexpr char kActQdq[] = "fake_quantize_dequantize_moving_average_abs_max";
constexpr char kWeightQdq[] = "fake_channel_wise_quantize_dequantize_abs_max";
constexpr char kQuantize[] = "quantize_linear";
constexpr char kDequantize[] = "dequantize_linear";
// The frozen form (quantization_pass.py: QuantizationFreezePass).
constexpr const char* kLevelsQuant[] = {"fake_quantize_moving_average_abs_max",
                                        "fake_quantize_range_abs_max",
                                        "fake_quantize_abs_max"};
constexpr char kAbsMaxQuant[] = "fake_quantize_abs_max";
constexpr char kDequantMaxAbs[] = "fake_dequantize_max_abs";
constexpr char kChannelDequant[] = "fake_channel_wise_dequantize_max_abs";

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

// The levels quant op producing `var` (frozen form), or nullptr.
Node* LevelsQuantOf(Node* var) {
  for (const char* type : kLevelsQuant) {
    if (Node* q = ProducerOf(var, type)) return q;
  }
  return nullptr;
}

// The frozen form's dequantize op reading `y` as X, or nullptr.
Node* DequantReaderOf(Node* y) {
  for (Node* c : y->outlinks) {
    const std::string& type = c->stmt().desc.Type();
    if ((type == kDequantMaxAbs || type == kChannelDequant) && InputNode(c, "X") == y) return c;
  }
  return nullptr;
}

// The rank of a matrix product's result `out` (weight 2-D): declared, or
// from its activation `x` (mul / fc: x_num_col_dims / in_num_col_dims + 1,
// the matmuls: x's rank); 0 when unknown.
int ProductOutRank(const SSAGraph& graph, Node* op, Node* out, Node* x) {
  const DDim declared = out ? VarDims(graph, *out) : DDim();
  if (!declared.empty()) return static_cast<int>(declared.size());
  const int x_rank = x ? static_cast<int>(VarDims(graph, *x).size()) : 0;
  if (x_rank == 0) return 0;
  const cpp::OpDesc& d = op->stmt().desc;
  if (d.Type() == "mul") return d.GetAttr<int32_t>("x_num_col_dims", 1) + 1;
  if (d.Type() == "fc") return d.GetAttr<int32_t>("in_num_col_dims", 1) + 1;
  return x_rank;
}

// The arg node `op` reads under `name`.
Node* InputNamed(Node* op, const std::string& name) {
  for (Node* in : op->inlinks) {
    if (in->arg().name == name) return in;
  }
  return nullptr;
}

// The value a dequantize op reads from scale var `var`: a weight, or the
// OutScale that quant op `q` lists in place of its InScale (its is_test form
// never writes it, so it holds the InScale weight). nullptr: computed at run
// time.
const Tensor* DequantScale(const SSAGraph& graph, Node* var, Node* q) {
  if (!var) return nullptr;
  if (const Tensor* t = WeightTensor(graph, var)) return t;
  if (q && var->inlinks.size() == 1 && var->inlinks[0] == q) {
    Node* in = InputNode(q, "InScale");
    if (in && in->arg().name == var->arg().name) return WeightTensor(graph, in);
  }
  return nullptr;
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

StatusOr<Side<FrozenQuant>> MatchFrozenQuant(const SSAGraph& graph, Node* op,
                                             const std::string& input,
                                             const std::string& weight,
                                             const std::string& output, int weight_axis,
                                             bool conv) {
  Side<FrozenQuant> side;
  FrozenQuant& f = side.value;
  Node* x_q = InputNode(op, input);
  Node* q = x_q ? LevelsQuantOf(x_q) : nullptr;
  f.out = OutputNode(op, output);
  f.dequant = f.out ? DequantReaderOf(f.out) : nullptr;
  if (!q && !f.dequant) return side;
  side.present = true;

  // The quant op: checked like the op itself (operators/quantize_ops.cc).
  bool dynamic = false;
  if (q) {
    ASSIGN_OR_RETURN(f.act.round_type, CheckedRoundType(q));
    f.act.x = InputNode(q, "X");
    f.act.ops = {q};
    if (q->stmt().desc.Type() == kAbsMaxQuant) {
      dynamic = true;  // its scale is max |X| of each run
    } else {
      ASSIGN_OR_RETURN(const Tensor* s, CheckedScale(graph, q, "InScale"));
      if (s->numel() != 1) {
        return InvalidArgument("op " + OpName(q) + ": InScale must hold one value");
      }
      f.act.scale = s->data<float>()[0];
    }
  }

  // The dequantize op: its activation scale must be the quant op's; its
  // weight scales become the real scales (level * s / 127) of the levels.
  float act_scale = 0.f;
  bool pattern_ok = q && f.dequant && f.act.x;
  if (f.dequant) {
    const cpp::OpDesc& d = f.dequant->stmt().desc;
    f.dequant_out = OutputNode(f.dequant, "Out");
    const std::string who = OpName(f.dequant);
    const std::vector<std::string> names = d.Input(d.Type() == kDequantMaxAbs ? "Scale" : "Scales");
    const Tensor* act_t = nullptr;
    if (d.Type() == kDequantMaxAbs) {
      const float max_range = d.GetAttr<float>("max_range", 0.f);
      RETURN_IF_ERROR(operators::CheckMaxRange(who, max_range));
      // Out = acc * s_a / max_range = acc * (s_a / 127) * (s_w / 127).
      f.weight.scales = {127.f * 127.f / max_range};
      act_t = names.size() == 1 ? DequantScale(graph, InputNamed(f.dequant, names[0]), q)
                                : nullptr;
      pattern_ok = pattern_ok && names.size() == 1;
    } else {
      RETURN_IF_ERROR(operators::CheckQuantBits(
          who, d.GetAttr<std::vector<int32_t>>("quant_bits", {8}), names.size()));
      const Tensor* w_t =
          names.empty() ? nullptr : WeightTensor(graph, InputNamed(f.dequant, names[0]));
      if (w_t && w_t->IsInitialized() && w_t->dtype() == DataType::kFloat32) {
        RETURN_IF_ERROR(operators::CheckScaleValues(who, names[0], *w_t));
        f.weight.scales.assign(w_t->data<float>(), w_t->data<float>() + w_t->numel());
      } else {
        pattern_ok = false;  // weight scales computed at run time
      }
      // Two lists: the channels lie on dim 1 (conv outputs) or on
      // x_num_col_dims (the products' last dim); quant_math.h.
      const int axis = operators::quant::ChannelDequantAxis(
          static_cast<int>(names.size()), d.GetAttr<int32_t>("quant_axis", 0),
          d.GetAttr<int32_t>("x_num_col_dims", 1));
      const int rank = conv ? 4 : ProductOutRank(graph, op, f.out, f.act.x);
      pattern_ok = pattern_ok && names.size() == 2 && axis == (conv ? 1 : rank - 1);
      if (names.size() == 2) act_t = DequantScale(graph, InputNamed(f.dequant, names[1]), q);
    }
    if (act_t && act_t->IsInitialized() && act_t->dtype() == DataType::kFloat32 &&
        act_t->numel() == 1) {
      RETURN_IF_ERROR(operators::CheckScaleValues(who, names.back(), *act_t));
      act_scale = act_t->data<float>()[0];
    } else {
      dynamic = true;
    }
  }
  if (!pattern_ok || !f.dequant_out) {
    side.declined = "declined_pattern";
    return side;
  }
  if (dynamic) {
    side.declined = "declined_dynamic_scale";
    return side;
  }
  f.weight.w = InputNode(op, weight);
  f.weight.axis = weight_axis;
  const Tensor* wt = f.weight.w ? WeightTensor(graph, f.weight.w) : nullptr;
  if (act_scale != f.act.scale || f.out->outlinks.size() != 1 || IsFetched(f.out) || !wt ||
      !LevelsOf(*wt, &f.weight.levels)) {
    side.declined = "declined_pattern";
  }
  return side;
}

}  // namespace fusion
}  // namespace mir
}  // namespace lite
