#include "lite/operators/interpolate_op.h"

#include <algorithm>

#include "lite/operators/channel_last.h"
#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

// What each registered type is: the default interp_method, and whether it
// is the _v2 form.
struct InterpolateKind {
  bool nearest;
  bool v2;
};

class InterpolateOp : public OpWithParam<InterpolateParam> {
 public:
  InterpolateOp(std::string type, InterpolateKind kind)
      : OpWithParam<InterpolateParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const InterpolateKind kind_;
};

}  // namespace

StatusOr<InterpolatePlan> ComputeInterpolatePlan(const InterpolateParam& p) {
  const DDim& d = p.x->dims();
  if (d.size() != 4) {
    return Unimplemented("only 4-D NCHW input is supported, got " + DimsToString(d));
  }
  InterpolatePlan plan;
  plan.n = d[0];
  plan.c = d[1];
  plan.in_h = d[2];
  plan.in_w = d[3];
  const int in_h = static_cast<int>(d[2]);
  const int in_w = static_cast<int>(d[3]);
  int64_t out_h = p.out_h;
  int64_t out_w = p.out_w;
  float scale_h = -1.f, scale_w = -1.f;  // v2 only: drives the ratio
  if (!p.size_tensor.empty()) {
    ASSIGN_OR_RETURN(auto v, ReadIntTensorList(p.size_tensor, "SizeTensor"));
    if (v.size() != 2) {
      return InvalidArgument("SizeTensor must hold 2 tensors (out_h, out_w), got " +
                             std::to_string(v.size()));
    }
    out_h = v[0];
    out_w = v[1];
  } else {
    if (p.v2) {
      if (p.scale_tensor) {
        ASSIGN_OR_RETURN(auto s, ReadFloatTensor(*p.scale_tensor, "Scale"));
        if (s.empty()) return InvalidArgument("Scale tensor is empty");
        scale_h = s[0];
        scale_w = s.size() > 1 ? s[1] : s[0];
        if (!(scale_h > 0.f) || !(scale_w > 0.f)) {
          return InvalidArgument("Scale tensor values must be > 0");
        }
      } else if (p.scale.size() > 1) {
        scale_h = p.scale[0];
        scale_w = p.scale[1];
        if (!(scale_h > 0.f) || !(scale_w > 0.f)) {
          return InvalidArgument("attr scale values must be > 0");
        }
      } else if (p.scale.size() == 1 && p.scale[0] > 0.f) {
        scale_h = scale_w = p.scale[0];
      }
      if (scale_h > 0.f && scale_w > 0.f) {
        out_h = static_cast<int>(in_h * scale_h);
        out_w = static_cast<int>(in_w * scale_w);
      }
    } else {
      float s = p.scale.empty() ? 0.f : p.scale[0];
      if (p.scale_tensor) {
        ASSIGN_OR_RETURN(auto st, ReadFloatTensor(*p.scale_tensor, "Scale"));
        if (st.empty()) return InvalidArgument("Scale tensor is empty");
        s = st[0];
      }
      if (s > 0.f) {
        out_h = static_cast<int>(in_h * s);
        out_w = static_cast<int>(in_w * s);
      }
    }
    if (p.out_size) {
      ASSIGN_OR_RETURN(auto v, ReadIntTensor(*p.out_size, "OutSize"));
      if (v.size() != 2) {
        return InvalidArgument("OutSize must hold 2 values, got " +
                               DimsToString(p.out_size->dims()));
      }
      out_h = v[0];
      out_w = v[1];
    }
  }
  if (out_h <= 0 || out_w <= 0) {
    return InvalidArgument("output size (" + std::to_string(out_h) + ", " +
                           std::to_string(out_w) +
                           ") must be > 0: set out_h/out_w, scale or a size input");
  }
  plan.out_h = out_h;
  plan.out_w = out_w;
  const int oh = static_cast<int>(out_h), ow = static_cast<int>(out_w);
  if (oh > 1) {
    const float fallback = (p.v2 && scale_h > 0.f) ? static_cast<float>(1. / scale_h)
                                                   : static_cast<float>(in_h) / oh;
    plan.ratio_h = p.align_corners ? static_cast<float>(in_h - 1) / (oh - 1) : fallback;
  }
  if (ow > 1) {
    const float fallback = (p.v2 && scale_w > 0.f) ? static_cast<float>(1. / scale_w)
                                                   : static_cast<float>(in_w) / ow;
    plan.ratio_w = p.align_corners ? static_cast<float>(in_w - 1) / (ow - 1) : fallback;
  }
  return plan;
}

LinearAxis ComputeLinearAxis(float ratio, int in, int out, bool align_flag) {
  LinearAxis a;
  a.lo.resize(out);
  a.hi.resize(out);
  a.w_hi.resize(out);
  a.w_lo.resize(out);
  for (int k = 0; k < out; ++k) {
    int lo = align_flag ? static_cast<int>(ratio * (k + 0.5) - 0.5)
                        : static_cast<int>(ratio * k);
    lo = lo > 0 ? lo : 0;
    lo = std::min(lo, in - 1);  // memory safety only
    const int hi = (lo + 1) < (in - 1) ? (lo + 1) : (in - 1);
    float src = ratio * (k + 0.5) - 0.5;
    src = src > 0 ? src : 0;
    const float d = align_flag ? src - lo : ratio * k - lo;
    a.lo[k] = lo;
    a.hi[k] = hi;
    a.w_hi[k] = d;
    a.w_lo[k] = 1.f - d;
  }
  return a;
}

Status AddInterpolateResidual(const InterpolateParam& p) {
  if (!p.residual) return Status::OK();
  if (p.residual->dims() != p.out->dims() || p.residual->dtype() != DataType::kFloat32) {
    return InvalidArgument("interpolate: ResidualData " + DimsToString(p.residual->dims()) +
                           " does not match Out " + DimsToString(p.out->dims()));
  }
  const float* r = p.residual->data<float>();
  float* y = p.out->mutable_data<float>();
  if (!p.residual_scale) {
    for (int64_t i = 0, n = p.out->numel(); i < n; ++i) y[i] += r[i];
    return Status::OK();
  }
  const DDim& d = p.out->dims();  // NCHW
  const float* s = p.residual_scale->data<float>();
  const int64_t plane = d[2] * d[3];
  for (int64_t nc = 0; nc < d[0] * d[1]; ++nc) {
    const float sc = s[ResidualScaleIndex(*p.residual_scale, nc / d[1], nc % d[1], d[1])];
    for (int64_t i = nc * plane; i < (nc + 1) * plane; ++i) y[i] += r[i] * sc;
  }
  return Status::OK();
}

Status InterpolateOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.out_size = OptionalInput("OutSize");
  param_.residual = OptionalInput("ResidualData");
  param_.residual_scale = OptionalInput("ResidualScale");
  if (param_.residual_scale && !param_.residual) {
    return OpError("input ResidualScale needs ResidualData");
  }
  auto levels = LevelsOutputFromOpDesc(desc);
  if (!levels.ok()) return OpError(levels.status().message());
  param_.levels = *levels;
  if (param_.levels.enabled && !param_.residual) {
    return OpError("an int8 Out (Output_dtype int8) needs ResidualData");
  }
  for (Tensor* t : InputList("SizeTensor")) param_.size_tensor.push_back(t);
  param_.scale_tensor = OptionalInput("Scale");
  param_.v2 = kind_.v2;
  param_.interp_method =
      desc.GetAttr<std::string>("interp_method", kind_.nearest ? "nearest" : "bilinear");
  if (param_.interp_method != "nearest" && param_.interp_method != "bilinear") {
    return Unimplemented("op " + DebugName() + ": interp_method '" +
                         param_.interp_method + "' is not supported");
  }
  const std::string layout = desc.GetAttr<std::string>("data_layout", "NCHW");
  if (layout != "NCHW" && layout != "AnyLayout") {
    return ChannelLastUnsupported(DebugName(), "data_layout", layout);
  }
  param_.out_h = desc.GetAttr<int32_t>("out_h", -1);
  param_.out_w = desc.GetAttr<int32_t>("out_w", -1);
  param_.scale.clear();
  std::vector<float> sv;
  float s = 0.f;
  if (desc.TryGetAttr("scale", &sv)) {
    param_.scale = sv;
  } else if (desc.TryGetAttr("scale", &s)) {
    param_.scale = {s};
  }
  if (!param_.v2 && param_.scale.size() > 1) param_.scale.resize(1);
  param_.align_corners = desc.GetAttr<bool>("align_corners", true);
  param_.align_mode = desc.GetAttr<int32_t>("align_mode", 1);
  // Paddle treats every align_mode other than 0 like 1; so do we.
  return Status::OK();
}

Status InterpolateOp::CheckShape() const {
  if (!param_.x || !param_.out) return OpError("X and Out must be bound");
  return Status::OK();  // rank and sizes are checked by InferShape
}

Status InterpolateOp::InferShape() {
  auto plan = ComputeInterpolatePlan(param_);
  if (!plan.ok()) {
    return Status(plan.status().code(), "op " + DebugName() + ": " + plan.status().message());
  }
  param_.out->Resize({plan->n, plan->c, plan->out_h, plan->out_w});
  if (param_.residual_scale) {
    const DDim& od = param_.out->dims();
    const int64_t n = param_.residual_scale->numel();
    if (od.size() != 4 || (n != od[1] && n != od[0] * od[1]) ||
        param_.residual_scale->dtype() != DataType::kFloat32) {
      return OpError("input ResidualScale must hold one float per channel (or per sample and "
                     "channel) of Out " + DimsToString(od) + ", got " +
                     DimsToString(param_.residual_scale->dims()));
    }
  }
  if (param_.residual && param_.residual->dims() != param_.out->dims()) {
    return InvalidArgument("op " + DebugName() + ": ResidualData is " +
                           DimsToString(param_.residual->dims()) + " but Out is " +
                           DimsToString(param_.out->dims()));
  }
  param_.out->set_lod(param_.x->lod());
  param_.out->set_dtype(param_.levels.enabled ? DataType::kInt8 : DataType::kFloat32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(nearest_interp, lite::operators::InterpolateOp,
                      (lite::operators::InterpolateKind{/*nearest=*/true, /*v2=*/false}));
REGISTER_LITE_OP_KIND(bilinear_interp, lite::operators::InterpolateOp,
                      (lite::operators::InterpolateKind{/*nearest=*/false, /*v2=*/false}));
REGISTER_LITE_OP_KIND(nearest_interp_v2, lite::operators::InterpolateOp,
                      (lite::operators::InterpolateKind{/*nearest=*/true, /*v2=*/true}));
REGISTER_LITE_OP_KIND(bilinear_interp_v2, lite::operators::InterpolateOp,
                      (lite::operators::InterpolateKind{/*nearest=*/false, /*v2=*/true}));
DECLARE_LITE_OP_ATTR_VALUES(nearest_interp, interp_method, "bilinear", "nearest");
DECLARE_LITE_OP_ATTR_VALUES(bilinear_interp, interp_method, "bilinear", "nearest");
DECLARE_LITE_OP_ATTR_VALUES(nearest_interp_v2, interp_method, "bilinear", "nearest");
DECLARE_LITE_OP_ATTR_VALUES(bilinear_interp_v2, interp_method, "bilinear", "nearest");
