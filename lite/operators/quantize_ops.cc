#include "lite/operators/quantize_ops.h"

#include <cmath>

#include "lite/base/quant_math.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The fake quantize family (the table above).
class FakeQuantOp : public OpWithParam<QuantParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

// fake_dequantize_max_abs, fake_channel_wise_dequantize_max_abs.
// The op types FakeDequantOp serves.
enum class FakeDequantOpKind { kFakeDequantizeMaxAbs, kFakeChannelWiseDequantizeMaxAbs };

class FakeDequantOp : public OpWithParam<DequantMaxAbsParam> {
 public:
  FakeDequantOp(std::string type, FakeDequantOpKind kind)
      : OpWithParam<DequantMaxAbsParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const FakeDequantOpKind kind_;
};

// moving_average_abs_max_scale: Out (when bound) = X.
class ScaleObserverOp : public OpWithParam<QuantParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override { return Status::OK(); }
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

// quantize_linear and dequantize_linear (the kernel tells them apart).
class LinearQuantOp : public OpWithParam<QuantParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

namespace {

// The fake quantize family: scale source and output form per op type
// (quantize_ops.h; Paddle's fake_quantize_op.cc registers these seven).
struct FakeKind {
  const char* type;
  bool in_scale;  // InScale weight (else abs-max of X)
  bool channel;   // per index of quant_axis (abs-max ops only)
  bool levels;    // Out = levels (else dequantized values)
};

constexpr FakeKind kFakeKinds[] = {
    {"fake_quantize_dequantize_moving_average_abs_max", true, false, false},
    {"fake_quantize_moving_average_abs_max", true, false, true},
    {"fake_quantize_range_abs_max", true, false, true},
    {"fake_quantize_abs_max", false, false, true},
    {"fake_quantize_dequantize_abs_max", false, false, false},
    {"fake_channel_wise_quantize_abs_max", false, true, true},
    {"fake_channel_wise_quantize_dequantize_abs_max", false, true, false},
};

const FakeKind* FakeKindOf(const std::string& type) {
  for (const FakeKind& k : kFakeKinds) {
    if (type == k.type) return &k;
  }
  return nullptr;
}

// The scale input bound to `param`: a weight holding data with valid values.
StatusOr<const Tensor*> ScaleWeight(const std::string& who, const cpp::OpDesc& desc,
                                    const std::string& param, Tensor* t) {
  const std::string var = desc.Input(param).front();
  if (!t->IsInitialized() || t->numel() < 1) {
    return InvalidArgument("op " + who + ": scale var '" + var + "' (" + param +
                           ") holds no data: it must be a weight of the model");
  }
  if (t->dtype() != DataType::kFloat32) {
    return Unimplemented("op " + who + ": scale var '" + var + "' has dtype " +
                         DataTypeName(t->dtype()) + ", expected float32");
  }
  RETURN_IF_ERROR(CheckScaleValues(who, var, *t));
  return t;
}

// quant_axis must name a dim of a rank-`rank` tensor (or be -1 when allowed).
Status CheckAxis(const std::string& who, int axis, int64_t rank, bool per_tensor_ok) {
  if ((axis == -1 && per_tensor_ok) || (axis >= 0 && axis < rank)) return Status::OK();
  return InvalidArgument("op " + who + ": quant_axis " + std::to_string(axis) +
                         " is out of range for a " + std::to_string(rank) + "-D input");
}

}  // namespace

Status CheckQuantAttrs(const std::string& who, int bit_length, int round_type) {
  if (bit_length != 8) {
    return Unimplemented("op " + who + ": bit_length " + std::to_string(bit_length) +
                         " is not supported (only 8)");
  }
  if (round_type != 0 && round_type != 1) {
    return InvalidArgument("op " + who + ": round_type must be 0 or 1, got " +
                           std::to_string(round_type));
  }
  return Status::OK();
}

Status CheckLevelRange(const std::string& who, const cpp::OpDesc& desc) {
  const int qmin = desc.GetAttr<int32_t>("qmin", -128);
  const int qmax = desc.GetAttr<int32_t>("qmax", 127);
  if (qmin != -128 || qmax != 127) {
    return Unimplemented("op " + who + ": level range [qmin, qmax] = [" + std::to_string(qmin) +
                         ", " + std::to_string(qmax) + "] is not supported (only [-128, 127])");
  }
  return Status::OK();
}

Status CheckScaleValues(const std::string& who, const std::string& what, const Tensor& scale) {
  const float* s = scale.data<float>();
  for (int64_t i = 0; i < scale.numel(); ++i) {
    if (!(std::isfinite(s[i]) && s[i] > 0.f)) {
      return InvalidArgument("op " + who + ": scale var '" + what + "' value " +
                             std::to_string(s[i]) + " at index " + std::to_string(i) +
                             " must be finite and > 0");
    }
  }
  return Status::OK();
}

Status CheckMaxRange(const std::string& who, float max_range) {
  if (std::isfinite(max_range) && max_range > 0.f) return Status::OK();
  return InvalidArgument("op " + who + ": max_range " + std::to_string(max_range) +
                         " must be finite and > 0");
}

Status CheckQuantBits(const std::string& who, const std::vector<int>& quant_bits, size_t lists) {
  if (quant_bits.size() < lists) {
    return InvalidArgument("op " + who + ": quant_bits has " +
                           std::to_string(quant_bits.size()) + " entries for " +
                           std::to_string(lists) + " scale lists");
  }
  for (size_t i = 0; i < lists; ++i) {
    if (quant_bits[i] != 8) {
      return Unimplemented("op " + who + ": quant_bits " + std::to_string(quant_bits[i]) +
                           " is not supported (only 8)");
    }
  }
  return Status::OK();
}

// ---- the fake quantize family ----

Status FakeQuantOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  const FakeKind* kind = FakeKindOf(Type());
  if (!kind) return OpError("not a fake quantize op");
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.levels_out = kind->levels;
  param_.bit_length = desc.GetAttr<int32_t>("bit_length", 8);
  param_.round_type = desc.GetAttr<int32_t>("round_type", 1);
  RETURN_IF_ERROR(CheckQuantAttrs(DebugName(), param_.bit_length, param_.round_type));
  if (kind->channel) {
    param_.quant_axis = desc.GetAttr<int32_t>("quant_axis", 0);
    if (param_.quant_axis != 0 && param_.quant_axis != 1) {
      return OpError("quant_axis must be 0 or 1, got " + std::to_string(param_.quant_axis));
    }
  }
  if (!kind->in_scale) {
    param_.out_scale = OptionalOutput("OutScale");
    return Status::OK();
  }
  ASSIGN_OR_RETURN(Tensor * in_scale, Input("InScale"));
  ASSIGN_OR_RETURN(param_.scale, ScaleWeight(DebugName(), desc, "InScale", in_scale));
  if (param_.scale->numel() != 1) {
    return OpError("InScale must hold one value, has dims " +
                   DimsToString(param_.scale->dims()));
  }
  return Status::OK();
}

Status FakeQuantOp::CheckShape() const {
  if (param_.x->dtype() != DataType::kFloat32 && param_.x->IsInitialized()) {
    return OpError(std::string("input X must be float32, got ") +
                   DataTypeName(param_.x->dtype()));
  }
  if (param_.quant_axis >= 0) {
    RETURN_IF_ERROR(CheckAxis(DebugName(), param_.quant_axis,
                              static_cast<int64_t>(param_.x->dims().size()), false));
  }
  return Status::OK();
}

Status FakeQuantOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  if (param_.out_scale) {
    param_.out_scale->Resize(
        {param_.quant_axis >= 0 ? param_.x->dims()[param_.quant_axis] : int64_t{1}});
  }
  return Status::OK();
}

// ---- fake_dequantize_max_abs, fake_channel_wise_dequantize_max_abs ----

Status FakeDequantOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.channel_wise = kind_ == FakeDequantOpKind::kFakeChannelWiseDequantizeMaxAbs;
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  const std::string list = param_.channel_wise ? "Scales" : "Scale";
  const std::vector<std::string>& names = desc.Input(list);
  if (names.empty()) return OpError("missing required input '" + list + "'");
  const std::vector<Tensor*> found = InputList(list);
  if (found.size() != names.size()) {
    for (const std::string& name : names) {
      if (!scope->FindVar(name)) {
        return InvalidArgument("op " + DebugName() + ": scale var '" + name + "' (" + list +
                               ") is not in the scope");
      }
    }
  }
  param_.scales.assign(found.begin(), found.end());
  if (param_.channel_wise) {
    if (names.size() > 2) {
      return OpError("Scales lists " + std::to_string(names.size()) + " vars, at most 2");
    }
    const std::vector<int> bits = desc.GetAttr<std::vector<int32_t>>("quant_bits", {8});
    RETURN_IF_ERROR(CheckQuantBits(DebugName(), bits, names.size()));
    const float bin = static_cast<float>((1 << (bits[0] - 1)) - 1);
    param_.max_range = names.size() == 2 ? bin * static_cast<float>((1 << (bits[1] - 1)) - 1) : bin;
    param_.quant_axis = desc.GetAttr<int32_t>("quant_axis", 0);
    if (param_.quant_axis != 0 && param_.quant_axis != 1) {
      return OpError("quant_axis must be 0 or 1, got " + std::to_string(param_.quant_axis));
    }
    param_.x_num_col_dims = desc.GetAttr<int32_t>("x_num_col_dims", 1);
    if (param_.x_num_col_dims == 0) return OpError("x_num_col_dims must not be 0");
  } else {
    if (names.size() != 1) return OpError("Scale must name one var");
    if (!desc.HasAttr("max_range")) return OpError("missing attribute max_range");
    param_.max_range = desc.GetAttr<float>("max_range", 0.f);
    RETURN_IF_ERROR(CheckMaxRange(DebugName(), param_.max_range));
  }
  // Weights (stored scales) are checked now; scales computed by an earlier
  // op at run time are read as they come.
  for (size_t i = 0; i < names.size(); ++i) {
    const Tensor* t = param_.scales[i];
    if (!t->IsInitialized()) continue;
    if (t->dtype() != DataType::kFloat32) {
      return Unimplemented("op " + DebugName() + ": scale var '" + names[i] + "' has dtype " +
                           DataTypeName(t->dtype()) + ", expected float32");
    }
    RETURN_IF_ERROR(CheckScaleValues(DebugName(), names[i], *t));
  }
  return Status::OK();
}

Status FakeDequantOp::CheckShape() const {
  const DDim& xd = param_.x->dims();
  const int lists = static_cast<int>(param_.scales.size());
  if (!param_.channel_wise) {
    const Tensor* s = param_.scales[0];
    if (s->IsInitialized() && s->numel() != 1) {
      return OpError("Scale must hold one value, has dims " + DimsToString(s->dims()));
    }
    return Status::OK();
  }
  const int axis =
      operators::quant::ChannelDequantAxis(lists, param_.quant_axis, param_.x_num_col_dims);
  if (axis < 0 || axis >= static_cast<int>(xd.size())) {
    return OpError("channel axis " + std::to_string(axis) + " is out of range for a " +
                   std::to_string(xd.size()) + "-D input");
  }
  const Tensor* first = param_.scales[0];
  if (first->IsInitialized() && first->numel() != xd[axis]) {
    return OpError("Scales[0] holds " + std::to_string(first->numel()) + " values, X has " +
                   std::to_string(xd[axis]) + " along dim " + std::to_string(axis));
  }
  if (lists == 2 && param_.scales[1]->IsInitialized() && param_.scales[1]->numel() != 1) {
    return OpError("Scales[1] must hold one value, has dims " +
                   DimsToString(param_.scales[1]->dims()));
  }
  return Status::OK();
}

Status FakeDequantOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  param_.out->set_dtype(DataType::kFloat32);
  return Status::OK();
}

// ---- moving_average_abs_max_scale ----

Status ScaleObserverOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  param_.out = OptionalOutput("Out");
  return Status::OK();
}

Status ScaleObserverOp::InferShape() {
  if (!param_.out) return Status::OK();
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

// ---- quantize_linear, dequantize_linear ----

Status LinearQuantOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Y"));
  param_.bit_length = desc.GetAttr<int32_t>("bit_length", 8);
  param_.round_type = desc.GetAttr<int32_t>("round_type", 0);
  param_.quant_axis = desc.GetAttr<int32_t>("quant_axis", -1);
  RETURN_IF_ERROR(CheckQuantAttrs(DebugName(), param_.bit_length, param_.round_type));
  RETURN_IF_ERROR(CheckLevelRange(DebugName(), desc));
  param_.only_observer = desc.GetAttr<bool>("only_observer", false);
  if (param_.quant_axis < -1) {
    return OpError("quant_axis must be -1 (per tensor) or a dim of X, got " +
                   std::to_string(param_.quant_axis));
  }
  ASSIGN_OR_RETURN(Tensor * scale, Input("Scale"));
  ASSIGN_OR_RETURN(param_.scale, ScaleWeight(DebugName(), desc, "Scale", scale));
  if (param_.quant_axis == -1 && param_.scale->numel() != 1) {
    return OpError("quant_axis -1 needs a one-element Scale, got dims " +
                   DimsToString(param_.scale->dims()));
  }
  if (const Tensor* zp = OptionalInput("ZeroPoint")) {
    if (zp->IsInitialized()) {
      for (int64_t i = 0; i < zp->numel(); ++i) {
        const bool zero = zp->dtype() == DataType::kFloat32 ? zp->data<float>()[i] == 0.f
                          : zp->dtype() == DataType::kInt32 ? zp->data<int32_t>()[i] == 0
                          : zp->dtype() == DataType::kInt64 ? zp->data<int64_t>()[i] == 0
                                                            : false;
        if (!zero) {
          return Unimplemented("op " + DebugName() +
                               ": ZeroPoint must be all zeros (symmetric quantization)");
        }
      }
    }
  }
  return Status::OK();
}

Status LinearQuantOp::CheckShape() const {
  if (param_.quant_axis < 0) return Status::OK();
  const DDim& xd = param_.x->dims();
  RETURN_IF_ERROR(
      CheckAxis(DebugName(), param_.quant_axis, static_cast<int64_t>(xd.size()), true));
  if (param_.scale->numel() != xd[param_.quant_axis]) {
    return OpError("Scale holds " + std::to_string(param_.scale->numel()) +
                   " values, X has " + std::to_string(xd[param_.quant_axis]) +
                   " along quant_axis " + std::to_string(param_.quant_axis));
  }
  return Status::OK();
}

Status LinearQuantOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  param_.out->set_dtype(DataType::kFloat32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(fake_quantize_dequantize_moving_average_abs_max, lite::operators::FakeQuantOp);
REGISTER_LITE_OP(fake_quantize_moving_average_abs_max, lite::operators::FakeQuantOp);
REGISTER_LITE_OP(fake_quantize_range_abs_max, lite::operators::FakeQuantOp);
REGISTER_LITE_OP(fake_quantize_abs_max, lite::operators::FakeQuantOp);
REGISTER_LITE_OP(fake_quantize_dequantize_abs_max, lite::operators::FakeQuantOp);
REGISTER_LITE_OP(fake_channel_wise_quantize_abs_max, lite::operators::FakeQuantOp);
REGISTER_LITE_OP(fake_channel_wise_quantize_dequantize_abs_max, lite::operators::FakeQuantOp);
REGISTER_LITE_OP_KIND(fake_dequantize_max_abs, lite::operators::FakeDequantOp,
                      lite::operators::FakeDequantOpKind::kFakeDequantizeMaxAbs);
REGISTER_LITE_OP_KIND(fake_channel_wise_dequantize_max_abs, lite::operators::FakeDequantOp,
                      lite::operators::FakeDequantOpKind::kFakeChannelWiseDequantizeMaxAbs);
REGISTER_LITE_OP(moving_average_abs_max_scale, lite::operators::ScaleObserverOp);
REGISTER_LITE_OP(quantize_linear, lite::operators::LinearQuantOp);
REGISTER_LITE_OP(dequantize_linear, lite::operators::LinearQuantOp);
