#include "lite/operators/quantize_ops.h"

#include <cmath>

namespace lite {
namespace operators {

namespace {

constexpr char kChannelWise[] = "fake_channel_wise_quantize_dequantize_abs_max";

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

// ---- fake_quantize_dequantize_moving_average_abs_max,
//      fake_channel_wise_quantize_dequantize_abs_max ----

Status FakeQuantDequantOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  const bool channel_wise = Type() == kChannelWise;
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.bit_length = desc.GetAttr<int32_t>("bit_length", 8);
  param_.round_type = desc.GetAttr<int32_t>("round_type", 1);
  RETURN_IF_ERROR(CheckQuantAttrs(DebugName(), param_.bit_length, param_.round_type));
  if (channel_wise) {
    param_.quant_axis = desc.GetAttr<int32_t>("quant_axis", 0);
    if (param_.quant_axis != 0 && param_.quant_axis != 1) {
      return OpError("quant_axis must be 0 or 1, got " + std::to_string(param_.quant_axis));
    }
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

Status FakeQuantDequantOp::CheckShape() const {
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

Status FakeQuantDequantOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  if (param_.out_scale) param_.out_scale->Resize({param_.x->dims()[param_.quant_axis]});
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

REGISTER_LITE_OP(fake_quantize_dequantize_moving_average_abs_max,
                 lite::operators::FakeQuantDequantOp);
REGISTER_LITE_OP(fake_channel_wise_quantize_dequantize_abs_max,
                 lite::operators::FakeQuantDequantOp);
REGISTER_LITE_OP(quantize_linear, lite::operators::LinearQuantOp);
REGISTER_LITE_OP(dequantize_linear, lite::operators::LinearQuantOp);
