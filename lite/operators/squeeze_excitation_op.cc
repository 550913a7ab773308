#include "lite/operators/squeeze_excitation_op.h"

#include <cmath>
#include <string>

#include "lite/operators/elementwise_ops.h"
#include "lite/base/quant_math.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class SqueezeExcitationOp : public OpWithParam<SqueezeExcitationParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status SqueezeExcitationOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  ASSIGN_OR_RETURN(Tensor * squeeze_filter, Input("SqueezeFilter"));
  ASSIGN_OR_RETURN(Tensor * excite_filter, Input("ExciteFilter"));
  param_.x = x;
  param_.squeeze_filter = squeeze_filter;
  param_.excite_filter = excite_filter;
  param_.squeeze_bias = OptionalInput("SqueezeBias");
  param_.excite_bias = OptionalInput("ExciteBias");
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  ASSIGN_OR_RETURN(param_.act, FusedActivation::FromOpDesc(desc));
  ASSIGN_OR_RETURN(param_.y_act, YActivationFromOpDesc(desc));
  for (const char* prefix : {"Squeeze", "Excite"}) {
    const std::string p(prefix);
    const bool squeeze = p == "Squeeze";
    if (!desc.HasAttr(p + "_input_scale")) continue;
    const float scale = desc.GetAttr<float>(p + "_input_scale", 0.f);
    const int round_type = desc.GetAttr<int32_t>(p + "_round_type", 1);
    if (!(scale > 0.f) || !std::isfinite(scale)) {
      return OpError(p + "_input_scale must be a finite scale > 0, got " +
                     std::to_string(scale));
    }
    if (round_type != 0 && round_type != 1) {
      return OpError(p + "_round_type must be 0 or 1, got " + std::to_string(round_type));
    }
    (squeeze ? param_.squeeze_input_scale : param_.excite_input_scale) = scale;
    (squeeze ? param_.squeeze_round_type : param_.excite_round_type) = round_type;
  }
  auto levels = LevelsOutputFromOpDesc(desc);
  if (!levels.ok()) return OpError(levels.status().message());
  param_.levels = *levels;
  return Status::OK();
}

void QuantDequantInPlace(float scale, int round_type, float* v, int64_t n) {
  if (scale == 0.f) return;
  quant::QuantDequantFloat(v, v, n, scale, 127, round_type);  // 16 values a step on AVX-512
}

Status SqueezeExcitationOp::CheckShape() const {
  const DDim& x = param_.x->dims();
  if (x.size() != 4) return OpError("X must be 4-D [N, C, H, W], got " + DimsToString(x));
  const int64_t c = x[1];
  const DDim& sf = param_.squeeze_filter->dims();
  const DDim& ef = param_.excite_filter->dims();
  if (sf.size() != 4 || sf[1] != c || sf[2] != 1 || sf[3] != 1) {
    return OpError("SqueezeFilter must be [R, " + std::to_string(c) + ", 1, 1], got " +
                   DimsToString(sf));
  }
  const int64_t r = sf[0];
  if (c <= 0 || r <= 0) {
    return OpError("needs at least one channel and one squeezed channel, got X " +
                   DimsToString(x) + " and SqueezeFilter " + DimsToString(sf));
  }
  if (ef != DDim{c, r, 1, 1}) {
    return OpError("ExciteFilter must be " + DimsToString(DDim{c, r, 1, 1}) + ", got " +
                   DimsToString(ef));
  }
  if (param_.squeeze_bias && param_.squeeze_bias->numel() != r) {
    return OpError("SqueezeBias must hold " + std::to_string(r) + " values, has dims " +
                   DimsToString(param_.squeeze_bias->dims()));
  }
  if (param_.excite_bias && param_.excite_bias->numel() != c) {
    return OpError("ExciteBias must hold " + std::to_string(c) + " values, has dims " +
                   DimsToString(param_.excite_bias->dims()));
  }
  for (const Tensor* t : {param_.x, param_.squeeze_filter, param_.excite_filter,
                          param_.squeeze_bias, param_.excite_bias}) {
    if (t && t->dtype() != DataType::kFloat32) {
      return OpError(std::string("inputs must be float32, got ") + DataTypeName(t->dtype()));
    }
  }
  return Status::OK();
}

Status SqueezeExcitationOp::InferShape() {
  param_.out->Resize(param_.x->dims());
  param_.out->set_dtype(param_.levels.enabled ? DataType::kInt8 : param_.x->dtype());
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(squeeze_excitation, lite::operators::SqueezeExcitationOp);
