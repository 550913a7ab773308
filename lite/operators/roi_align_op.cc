#include "lite/operators/roi_align_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class RoiAlignOp : public OpWithParam<RoiAlignParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status RoiAlignOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  ASSIGN_OR_RETURN(Tensor * rois, Input("ROIs"));
  param_.x = x;
  param_.rois = rois;
  param_.rois_num = OptionalInput("RoisNum");
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.pooled_height = desc.GetAttr<int32_t>("pooled_height", 1);
  param_.pooled_width = desc.GetAttr<int32_t>("pooled_width", 1);
  param_.spatial_scale = desc.GetAttr<float>("spatial_scale", 1.f);
  param_.sampling_ratio = desc.GetAttr<int32_t>("sampling_ratio", -1);
  param_.aligned = desc.GetAttr<bool>("aligned", false);
  return Status::OK();
}

Status RoiAlignOp::CheckShape() const {
  if (param_.pooled_height <= 0 || param_.pooled_width <= 0) {
    return OpError("pooled_height and pooled_width must be > 0, got " +
                   std::to_string(param_.pooled_height) + " and " +
                   std::to_string(param_.pooled_width));
  }
  if (!(param_.spatial_scale > 0.f)) return OpError("spatial_scale must be > 0");
  return Status::OK();
}

Status RoiAlignOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const DDim& rd = param_.rois->dims();
  if (xd.size() != 4) return OpError("X must be 4-D NCHW, got " + DimsToString(xd));
  if (rd.size() != 2 || rd[1] != 4) {
    return OpError("ROIs must be [R, 4], got " + DimsToString(rd));
  }
  if (param_.rois_num && param_.rois_num->dims().size() != 1) {
    return OpError("RoisNum must be 1-D, got " + DimsToString(param_.rois_num->dims()));
  }
  param_.out->Resize({rd[0], xd[1], param_.pooled_height, param_.pooled_width});
  param_.out->set_dtype(DataType::kFloat32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(roi_align, lite::operators::RoiAlignOp);
